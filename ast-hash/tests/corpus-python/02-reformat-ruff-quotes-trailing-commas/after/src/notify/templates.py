"""Plain-text templates for order notifications."""

import string

SUBJECTS = {
    "shipped": "Your order {order_id} is on its way",
    "delivered": "Your order {order_id} was delivered",
    "delayed": "Order {order_id}: new delivery date",
}

FOOTER = (
    "You receive this e-mail because you placed an order at Northwind.\n"
    "Questions? Reply to this message, we're happy to help."
)

SIGNATURE = "-- \nThe Northwind team"


class TemplateError(KeyError):
    pass


def render_subject(kind, order_id):
    try:
        template = SUBJECTS[kind]
    except KeyError:
        raise TemplateError("unknown notification kind: %r" % kind)
    return template.format(order_id=order_id)


def render_body(kind, customer_name, lines):
    greeting = "Hello %s," % customer_name
    items = "\n".join(
        "  - {qty} x {name}".format(qty=line["qty"], name=line["name"])
        for line in lines
    )
    body = string.Template("$greeting\n\n$intro\n\n$items\n\n$footer\n$signature")
    return body.substitute(
        greeting=greeting,
        intro=_intro(kind),
        items=items,
        footer=FOOTER,
        signature=SIGNATURE,
    )


def _intro(kind):
    if kind == "shipped":
        return "Good news: your parcel has left our warehouse."
    if kind == "delivered":
        return "Our carrier reports that your parcel was delivered. Didn't get it? Let us know."
    return "Unfortunately your delivery is running late; we'll send the new date soon."
