"""Support ticket priorities and the SLA attached to each of them."""

from datetime import timedelta
from enum import IntEnum, auto


class Priority(IntEnum):
    LOW = auto()
    NORMAL = auto()
    HIGH = auto()
    URGENT = auto()


FIRST_RESPONSE = {
    Priority.LOW: timedelta(days=3),
    Priority.NORMAL: timedelta(days=1),
    Priority.HIGH: timedelta(hours=4),
    Priority.URGENT: timedelta(hours=1),
}


def escalate(priority):
    members = list(Priority)
    index = members.index(priority)
    return members[min(index + 1, len(members) - 1)]


def most_urgent(tickets):
    return max(tickets, key=lambda ticket: ticket.priority, default=None)


def choices():
    return [(member.value, member.name.title()) for member in Priority]
