"""The kinds of notification: stored as codes, named in the reader's language here only.

Ordered by their value to a player: the first ones come before a club evening; the last
ones are for whoever runs a club or an event (secretaries and event directors).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    PAIRING_PUBLISHED = "pairing_published", _("Your pairing, when a round is published")
    RESULT_TO_CONFIRM = (
        "result_to_confirm",
        _("A result of yours waiting for your confirmation, or disputed"),
    )
    DUPLICATE_RESULT = (
        "duplicate_result",
        _("Your result and place, when a duplicate evening's results are complete"),
    )
    ENTRY_CONFIRMED = "entry_confirmed", _("Your entry in an event, received and confirmed")
    EVENT_TOMORROW = "event_tomorrow", _("The day before an event you are entered in")
    RESULTS_MISSING = (
        "results_missing",
        _("For secretaries and directors: results still missing at the end of the evening"),
    )
    DISPUTE_TO_DECIDE = (
        "dispute_to_decide",
        _("For secretaries and directors: a disputed result to decide"),
    )
    ENTRIES_CLOSING = (
        "entries_closing",
        _("For secretaries and directors: entries of an event closing within a day"),
    )


#: The kinds sent at a time of day rather than when something happens: the periodic task
#: (`notifications.tasks.notifications_due`) looks for them (docs/notifications.md).
TIMED = frozenset({Kind.EVENT_TOMORROW, Kind.RESULTS_MISSING, Kind.ENTRIES_CLOSING})
