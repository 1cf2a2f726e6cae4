"""Delivery of webhook events to subscriber endpoints."""

from .signing import HEADER, _canonical, sign


def build_request(subscription, event):
    payload = {"id": event.id, "type": event.type, "data": event.data}
    return {
        "url": subscription.url,
        "body": _canonical(payload),
        "headers": {
            "Content-Type": "application/json",
            HEADER: sign(subscription.secret, payload),
        },
    }


def deliver(session, subscription, event, timeout=10):
    request = build_request(subscription, event)
    response = session.post(
        request["url"], data=request["body"], headers=request["headers"], timeout=timeout
    )
    return 200 <= response.status_code < 300
