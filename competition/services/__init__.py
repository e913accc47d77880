"""Write operations of the competition app, one module per use case.

Every function here runs inside `transaction.atomic` and raises `CompetitionError` with a
translatable message when the operation cannot be done; nothing is half written.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from games.moves import MoveError
from games.services import ResultError


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


class CompetitionArchived(CompetitionError, ResultError, MoveError):
    """A write to an archived competition: refused, whichever service it went through.

    It is each app's domain error at once, so every page that shows a refused result,
    move or competition change shows this message too, without a case of its own.
    """

    def __init__(self) -> None:
        super().__init__(
            _("This competition is archived: it can be read, but no longer be changed.")
        )


def competition_check_open(competition_id: int) -> None:
    """Refuse any change to an archived competition (`CompetitionArchived`)."""
    from competition.models import Competition

    if Competition.objects.filter(pk=competition_id, archived_at__isnull=False).exists():
        raise CompetitionArchived
