"""The rankings of duplicate: pure functions on small records (no Django).

An evening: each player's total, as a percentage of the sum of the tops, counted by the
referee (`rules.referee.tally`: tops and solos, the solo bonus, warnings and penalties,
under the evening's slip rules); a late slip counts 0 (`slip_counts`), so it is never a
top and never a solo. A season: each player's average
percentage over the evenings they played, or over their best N.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.referee import SlipLine, SlipRules, tally

#: The rules an evening is counted by when none are given: the NTSV preset's.
NTSV_SLIPS = SlipRules()


def slip_counts(*, late: bool, accepted: bool) -> bool:
    """Whether a slip counts: the one rule every ranking, page and export asks. A late slip
    (after the turn's time or after the top was shown) is void: FISF-2023 §5.7, « Remise
    d'un bulletin de jeu écrit après la fin du coup » -> nullité; NL-regl. §3.III.7,
    "Overschrijding van de gestelde tijd ... heeft een nulscore tot gevolg". It counts once
    the spelleider has accepted it, with a reason (a phone that lost its connection).

    >>> slip_counts(late=False, accepted=False), slip_counts(late=True, accepted=False)
    (True, False)
    >>> slip_counts(late=True, accepted=True)
    True
    """
    return not late or accepted


#: A player's presence at an evening, as stored (`duplicate.models.Presence.status`).
PRESENT, ABSENT, LEFT = "present", "absent", "left"


def turns_due(
    status: str | None, left_after_turn: int | None, turns: int, *, any_slip: bool
) -> int:
    """How many of an evening's turns 1..``turns`` a player owes a slip for: every one when
    present; none when absent; those up to and including ``left_after_turn`` when they
    left. ``status`` None: presence not recorded, and the slips say it (the rule before
    presence was recorded): a player with any slip played every turn, one with none did
    not come.

    >>> turns_due(PRESENT, None, 12, any_slip=False), turns_due(ABSENT, None, 12, any_slip=True)
    (12, 0)
    >>> turns_due(LEFT, 5, 12, any_slip=True), turns_due(LEFT, 5, 3, any_slip=True)
    (5, 3)
    >>> turns_due(None, None, 12, any_slip=True), turns_due(None, None, 12, any_slip=False)
    (12, 0)
    """
    if status == ABSENT:
        return 0
    if status == LEFT:
        return min(left_after_turn or 0, turns)
    if status == PRESENT or any_slip:
        return turns
    return 0


def present_for(status: str | None, left_after_turn: int | None, turn: int) -> bool:
    """Whether a player with a slip for ``turn`` was there for it (`turns_due`): a slip
    of a turn the player was not present for never counts (`duplicate.models`
    `PresenceQuerySet.not_present_for` is the same rule in SQL).

    >>> present_for(LEFT, 5, 5), present_for(LEFT, 5, 6), present_for(None, None, 6)
    (True, False, True)
    """
    return turn <= turns_due(status, left_after_turn, turn, any_slip=True)


def counted_score(score: int, *, late: bool, accepted: bool) -> int:
    """What a slip of ``score`` counts for in the rankings (0 when it does not count)."""
    return score if slip_counts(late=late, accepted=accepted) else 0


@dataclass(frozen=True)
class EveningRow:
    player_id: int
    #: What counts: the slips' points, the solo bonus added, the penalties taken off
    #: (`rules.referee.Tally.result`).
    total: int
    percentage: float
    tops: int
    solos: int
    rank: int
    #: The slips' points alone, and what the referee added and took off.
    points: int = 0
    solo_bonus: int = 0
    warnings: int = 0
    penalty: int = 0


@dataclass(frozen=True)
class SeasonRow:
    player_id: int
    evenings: int
    counted: int
    average: float
    rank: int
    #: The evenings the player was recorded absent from (`PRESENT`, `ABSENT`, `LEFT`).
    absent: int = 0


def evening_ranking(
    top_scores: Mapping[int, int],
    slips: Iterable[SlipLine[int]],
    rules: SlipRules = NTSV_SLIPS,
) -> list[EveningRow]:
    """``top_scores``: turn number -> top score, of the turns on the board; ``slips``: a
    line per slip (`rules.referee.SlipLine`: its score before any penalty, its warning and
    penalty, and whether it is late and not accepted: then it counts 0). Each player's
    evening is the referee's tally under ``rules`` (solos, the solo bonus, warnings beyond
    the free ones, penalties); a slip of a turn not on the board yet does not count. A
    turn a player handed in no slip for scores 0. Ranked by total, equal totals share a
    rank; the percentage is the total against the sum of the tops.

    Two turns, tops 74 and 79 (sum 153); player 1 found both, alone the second (a solo);
    player 2 the first; player 3 neither (74 / 153 = 48.4%, 34 / 153 = 22.2%):

    >>> lines = [(1, 1, 74), (2, 1, 74), (3, 1, 14), (1, 2, 79), (2, 2, 0), (3, 2, 20)]
    >>> rows = evening_ranking({1: 74, 2: 79}, [SlipLine(*line) for line in lines])
    >>> [(r.rank, r.player_id, r.total, round(r.percentage, 1), r.tops, r.solos) for r in rows]
    [(1, 1, 153, 100.0, 2, 1), (2, 2, 74, 48.4, 1, 0), (3, 3, 34, 22.2, 0, 0)]
    """
    sum_tops = sum(top_scores.values())
    tallies = tally(top_scores, [line for line in slips if line.turn in top_scores], rules)
    ordered = sorted(tallies, key=lambda p: (-tallies[p].result, p))
    rows: list[EveningRow] = []
    for index, player in enumerate(ordered):
        counted = tallies[player]
        rank = rows[-1].rank if rows and rows[-1].total == counted.result else index + 1
        rows.append(
            EveningRow(
                player_id=player,
                total=counted.result,
                percentage=100 * counted.result / sum_tops if sum_tops else 0.0,
                tops=counted.tops,
                solos=counted.solos,
                rank=rank,
                points=counted.total,
                solo_bonus=counted.solo_bonus,
                warnings=counted.warnings,
                penalty=counted.penalty + counted.warning_penalty,
            )
        )
    return rows


def season_ranking(
    evenings: Iterable[Mapping[int, float]],
    best: int | None = None,
    absent: Mapping[int, int] | None = None,
) -> list[SeasonRow]:
    """``evenings``: per evening, player -> percentage. The average of each player's
    percentages (of the ``best`` N when given), highest first; equal averages (to 0.01)
    share a rank. ``absent``: per player, the evenings recorded absent from (shown beside
    the evenings played; an absent evening is not one of them, as a withdrawn one is not).

    Player 1 played two evenings ((80 + 40) / 2 = 60), player 2 three ((60 + 60 + 90) / 3
    = 70); over the best two, player 2 has (90 + 60) / 2 = 75:

    >>> evenings = [{1: 80.0, 2: 60.0}, {1: 40.0, 2: 60.0}, {2: 90.0}]
    >>> [(r.rank, r.player_id, r.evenings, r.average) for r in season_ranking(evenings)]
    [(1, 2, 3, 70.0), (2, 1, 2, 60.0)]
    >>> [(r.player_id, r.counted, r.average) for r in season_ranking(evenings, best=2)]
    [(2, 2, 75.0), (1, 2, 60.0)]
    >>> [(r.rank, r.player_id) for r in season_ranking([{1: 50.0}, {2: 50.0}])]
    [(1, 1), (1, 2)]
    >>> [(r.player_id, r.evenings, r.absent) for r in season_ranking(evenings, absent={1: 1})]
    [(2, 3, 0), (1, 2, 1)]
    """
    played: dict[int, list[float]] = {}
    for evening in evenings:
        for player, percentage in evening.items():
            played.setdefault(player, []).append(percentage)
    rows: list[SeasonRow] = []
    averages = {}
    for player, percentages in played.items():
        counted = sorted(percentages, reverse=True)[:best] if best else percentages
        averages[player] = (len(percentages), len(counted), sum(counted) / len(counted))
    ordered = sorted(averages, key=lambda p: (-round(averages[p][2], 2), p))
    for index, player in enumerate(ordered):
        n, counted_n, average = averages[player]
        same = rows and round(rows[-1].average, 2) == round(average, 2)
        rank = rows[-1].rank if same else index + 1
        rows.append(SeasonRow(player, n, counted_n, average, rank, (absent or {}).get(player, 0)))
    return rows
