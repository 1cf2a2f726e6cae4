"""Outgoing notifications: e-mail, SMS and push.

Call sites use ``from notify import *`` in the legacy job scripts, so
``__all__`` is the list of names those scripts receive.
"""

from .channels import send_email, send_push, send_sms
from .preferences import channels_for, opted_out
from .templates import TemplateError, render_body, render_subject

__all__ = [
    "send_email",
    "send_sms",
    "render_subject",
    "render_body",
    "TemplateError",
]


def notify(user, kind, order_id, lines=()):
    subject = render_subject(kind, order_id)
    body = render_body(kind, user.name, list(lines))
    sent = []
    for channel in channels_for(user, kind):
        if opted_out(user, channel):
            continue
        if channel == "email":
            send_email(user.email, subject, body)
        elif channel == "sms":
            send_sms(user.phone, subject)
        elif channel == "push":
            send_push(user.device_tokens, subject)
        sent.append(channel)
    return sent
