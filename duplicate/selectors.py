"""Reads of duplicate evenings: the adapters from rows to `duplicate.ranking` records."""

from __future__ import annotations

from duplicate.models import Evening, Slip, Turn
from duplicate.ranking import EveningRow, SeasonRow, evening_ranking, season_ranking


def evening_results(evening: Evening) -> list[EveningRow]:
    """The evening's ranking over the turns whose top is on the board (two queries)."""
    tops = dict(
        Turn.objects.filter(evening=evening).exclude(top="").values_list("number", "top_score")
    )
    slips = Slip.objects.filter(turn__evening=evening).values_list(
        "player_id", "turn__number", "score"
    )
    return evening_ranking(tops, slips)


def season_results(competition_id: int, best: int | None = None) -> list[SeasonRow]:
    """The competition's duplicate ranking by average percentage (two queries)."""
    tops: dict[int, dict[int, int]] = {}
    for evening_id, number, score in (
        Turn.objects.filter(evening__competition_id=competition_id)
        .exclude(top="")
        .values_list("evening_id", "number", "top_score")
    ):
        tops.setdefault(evening_id, {})[number] = score
    slips: dict[int, list[tuple[int, int, int]]] = {}
    for evening_id, player, number, score in Slip.objects.filter(
        turn__evening__competition_id=competition_id
    ).values_list("turn__evening_id", "player_id", "turn__number", "score"):
        slips.setdefault(evening_id, []).append((player, number, score))
    evenings = [
        {row.player_id: row.percentage for row in evening_ranking(tops[e], slips.get(e, []))}
        for e in sorted(tops)
    ]
    return season_ranking(evenings, best)
