"""The kinds of notification: stored as codes, named in the reader's language here only.

Ordered by their value to a player: the first ones come before a club evening.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    PAIRING_PUBLISHED = "pairing_published", _("Your pairing, when a round is published")
    RESULT_TO_CONFIRM = (
        "result_to_confirm",
        _("A result of yours waiting for your confirmation, or disputed"),
    )
