"""Reads about one game that more than one app's pages need."""

from django.db.models import QuerySet

from clubs.models import HistoryEntry


def game_history(game_id: int) -> QuerySet[HistoryEntry]:
    """The game's history entries (results, moves, starter), newest first, with who."""
    return HistoryEntry.objects.filter(game_id=game_id).select_related("by")
