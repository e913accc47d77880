"""Warnings the secretary's and director's pages share, in one wording."""

from django.utils.translation import ngettext

from competition.models import Round


def open_games_warning(round: Round, open_games: int) -> str:
    """Round N-1 still being played while round N is added or paired: the Swiss pairing
    then uses the standings of the round before (and the director should know)."""
    previous = round.number - 1
    if previous > 1:
        consequence = ngettext(
            "Round %(previous)s still has %(count)s game without a result: a Swiss pairing "
            "of round %(number)s uses the standings after round %(before)s.",
            "Round %(previous)s still has %(count)s games without a result: a Swiss pairing "
            "of round %(number)s uses the standings after round %(before)s.",
            open_games,
        )
    else:
        consequence = ngettext(
            "Round %(previous)s still has %(count)s game without a result: a Swiss pairing "
            "of round %(number)s treats everyone as equal.",
            "Round %(previous)s still has %(count)s games without a result: a Swiss pairing "
            "of round %(number)s treats everyone as equal.",
            open_games,
        )
    return consequence % {
        "previous": previous,
        "count": open_games,
        "number": round.number,
        "before": previous - 1,
    }
