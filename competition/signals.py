"""What the competition tells the apps above it, without importing them.

`round_published` is sent by `competition.services.rounds.round_set_status`, inside its
transaction, when a round's pairing becomes public (a draft published). Receivers that
act outside the database wait for the commit (`transaction.on_commit`).
"""

from django.dispatch import Signal

#: Sent with `round_id` (int): the round's pairing was published.
round_published = Signal()
