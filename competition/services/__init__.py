"""Write operations of the competition app, one module per use case.

Every function here runs inside `transaction.atomic` and raises `CompetitionError` with a
translatable message when the operation cannot be done; nothing is half written.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from games.moves import MoveError
from games.services import ResultError


class CompetitionError(Exception):
    def __init__(self, message: Any, *, errors: list[Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or []


class CompetitionArchived(CompetitionError, ResultError, MoveError):
    """A write to an archived competition: refused, whichever service it went through.

    It is each app's domain error at once, so every page that shows a refused result,
    move or competition change shows this message too, without a case of its own.
    """

    errors: Any  # none: CompetitionError's empty list, read as ResultError's (per game) too

    def __init__(self) -> None:
        super().__init__(
            _("This competition is archived: it can be read, but no longer be changed.")
        )


def competition_check_open(competition_id: int) -> None:
    """Refuse any change to an archived competition (`CompetitionArchived`)."""
    from competition.models import Competition

    if Competition.objects.filter(pk=competition_id, archived_at__isnull=False).exists():
        raise CompetitionArchived
