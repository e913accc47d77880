"""Write operations of the competition app, one module per use case.

Every function here runs inside `transaction.atomic` and raises `CompetitionError` with a
translatable message when the operation cannot be done; nothing is half written.
"""

from typing import Any

from clubs.models import Club


class CompetitionError(Exception):
    def __init__(self, message: Any, *, errors: list[Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or []


def club_lock(club_id: int) -> None:
    """Hold the club's row lock until the transaction ends.

    Writes that look before they create (the next round number, whether a player or an
    entrant already exists) then run one at a time per club, so a second click finds what
    the first one made instead of making it again. On PostgreSQL this is the row lock; on
    SQLite every transaction already holds the database's write lock from its start
    (`transaction_mode` IMMEDIATE in config/settings.py), and this is a plain read.
    """
    list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))
