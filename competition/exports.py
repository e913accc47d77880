"""Standings and rounds as plain data: for JSON, CSV and the `standings` command.

Django: reads the ORM through the selectors.
"""

from collections.abc import Sequence
from typing import Any, cast

from competition.models import Competition, Round
from competition.selectors import StandingsView
from competition.spreadsheets import spreadsheet_csv
from games.models import Game


def standings_rows(view: StandingsView) -> list[dict[str, Any]]:
    """One dict per player, groups one after the other, in rank order."""
    rows = []
    for group, group_rows in view.groups.items():
        for row in group_rows:
            rows.append(
                {
                    "rank": row.rank,
                    "player": row.name,
                    "player_id": row.player_id,
                    "group": group,
                    "games": row.games,
                    "wins": row.wins,
                    "draws": row.draws,
                    "losses": row.losses,
                    "byes": row.byes,
                    "match_points": row.match_points,
                    "board_points": row.board_points,
                    "spread": row.spread,
                    "average_match_points": row.average_match_points,
                    "average_board_points": row.average_board_points,
                    "tiebreaks": dict(row.tiebreak_values),
                    "qualified": row.qualified,
                }
            )
    return rows


CSV_COLUMNS = [
    "rank",
    "player",
    "player_id",
    "group",
    "games",
    "wins",
    "draws",
    "losses",
    "byes",
    "match_points",
    "board_points",
    "spread",
]


def standings_csv(view: StandingsView) -> str:
    """The standings as CSV: the fixed columns, then one `tiebreak_<name>` column per
    tiebreak the competition ranks by (spread has its own column)."""
    rows = standings_rows(view)
    tiebreaks = [name for name in view.tiebreaks if name != "spread"]
    for row in rows:
        row.update({f"tiebreak_{name}": row["tiebreaks"].get(name) for name in tiebreaks})
    return spreadsheet_csv(CSV_COLUMNS + [f"tiebreak_{name}" for name in tiebreaks], rows)


def standings_document(competition: Competition, view: StandingsView) -> dict[str, Any]:
    return {
        "competition": competition.name,
        "club": competition.club.name,
        "after_round": view.after_round or view.last_round,
        # Results entered by a player and not yet confirmed by the opponent: counted in the
        # rows unless the competition counts only confirmed ones.
        "provisional_results": view.provisional_results,
        "only_confirmed_results": competition.only_confirmed_results,
        "rows": standings_rows(view),
    }


def _player(player) -> dict[str, Any] | None:
    return None if player is None else {"id": player.pk, "name": player.name}


def round_document(competition: Competition, round: Round, games: Sequence[Game]) -> dict[str, Any]:
    return {
        "competition": competition.name,
        "round": round.number,
        "date": round.date.isoformat() if round.date else None,
        "status": round.status,
        "games": [
            {
                "table": game.table,
                # The seats in table order; `starter` is the position that moved first.
                "players": [
                    {
                        **cast(dict[str, Any], _player(seat.player)),  # a seat has a player
                        "score": seat.score,
                        "place": seat.place,
                        "flag_fell": seat.flag_fell,
                        "forfeited": seat.forfeited,
                    }
                    for seat in game.seat_list
                ],
                "starter": game.starter,
                "outcome": game.outcome or None,
                # confirmed, provisional (a player's, awaiting the opponent) or disputed
                "confirmation": game.confirmation if game.outcome else None,
                # whether the standings count it (`games.models.COUNTS`)
                "counts": game.counts,
            }
            for game in games
        ],
    }


#: The results CSV's long form (`competition.core.results_csv.LONG_COLUMNS`).
RESULTS_COLUMNS = ["round", "table", "player", "score", "outcome"]


def results_rows(games: list[Game]) -> list[dict[str, Any]]:
    """One row per player of every game with a result, in table order: the long form of
    the results CSV, which the import reads back (docs/tables-results.md). A flag or a forfeit is
    said on its player's row; an annulled game on every row; a bye is a row without table."""
    rows: list[dict[str, Any]] = []
    # A game without a table number (an old import) gets one after the round's highest, so
    # that its rows still make one game when read back.
    highest: dict[int, int] = {}
    for game in games:
        highest[game.round_id] = max(highest.get(game.round_id, 0), game.table or 0)
    for game in games:
        table = game.table
        if table is None and game.outcome != "bye":
            highest[game.round_id] += 1
            table = highest[game.round_id]
        for seat in game.seat_list:
            if game.outcome == "bye":
                outcome = "bye"
            elif game.outcome == "annulled":
                outcome = "annulled"
            elif seat.flag_fell:
                outcome = "flag"
            elif seat.forfeited:
                outcome = "forfeit"
            else:
                outcome = "normal"
            rows.append(
                {
                    "round": game.round.number,
                    "table": "" if game.outcome == "bye" else table,
                    "player": seat.player.name,
                    "score": "" if seat.score is None else seat.score,
                    "outcome": outcome,
                }
            )
    return rows


def results_csv(games: list[Game]) -> str:
    return spreadsheet_csv(RESULTS_COLUMNS, results_rows(games))
