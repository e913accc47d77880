"""A season's ranking as plain data: the JSON and CSV of `manage.py ranking` (unrounded
averages and percentages, as the federation asks for its own sheets; the CSV through the
one writer, `competition.spreadsheets`).

Django: none but the selectors' records.
"""

from __future__ import annotations

from typing import Any

from competition.spreadsheets import csv_text
from ranking.selectors import Standings

CSV_HEADER = [
    "rank",
    "federation_number",
    "name",
    "club",
    "games",
    "interclubs",
    "counted",
    "average",
]


def season_data(standings: Standings) -> dict[str, Any]:
    """Everything the ranking shows: persons with each result and its status, and clubs."""
    ranking = standings.ranking
    season = standings.season
    return {
        "federation": season.federation.slug,
        "season": season.slug,
        "name": season.name,
        "on": ranking.on.isoformat(),
        "gap_value": str(season.gap_value),
        "interclubs": ranking.interclubs,
        "interclubs_needed": ranking.interclubs_needed,
        "persons": [
            {
                "rank": row.rank,
                "federation_number": standings.federation_numbers.get(row.person, ""),
                "name": standings.names[row.person],
                "club": standings.club_names.get(standings.person_clubs.get(row.person) or 0, ""),
                "games": row.games,
                "interclubs": row.interclubs,
                "counted": row.counted,
                "average": row.average,
                "results": [
                    {
                        "event": standings.games[(row.person, line.result.game)].event_name,
                        "game": standings.games[(row.person, line.result.game)].number,
                        "date": line.result.date.isoformat(),
                        "points": standings.games[(row.person, line.result.game)].points,
                        "percentage": line.result.percentage,
                        "status": line.status.value,
                    }
                    for line in row.results
                ],
            }
            for row in ranking.persons
        ],
        "club_method": season.club_method,
        "club_games_counted": ranking.club_games_counted,
        "clubs": [
            {
                "rank": row.rank,
                "club": standings.club_names.get(row.club, ""),
                "score": row.score,
                "results": row.results,
                "counted_games": [game.game for game in row.games],
                "missing": row.missing,
            }
            for row in ranking.clubs
        ],
        # By places: every club's score in each interclub game, by game then place.
        "club_games": [
            {
                "event": standings.games[(game.players[0].person, game.game)].event_name,
                "game": standings.games[(game.players[0].person, game.game)].number,
                "game_id": game.game,
                "date": game.date.isoformat(),
                "club": standings.club_names.get(game.club, ""),
                "place": game.place,
                "points": game.points,
                "players": [
                    {"name": standings.names[player.person], "place": player.place}
                    for player in game.players
                ],
            }
            for game in ranking.club_games
        ],
    }


def season_csv(standings: Standings) -> str:
    """One row per person, ranked first: the average unrounded (`repr` of the float)."""
    return csv_text(
        [
            CSV_HEADER,
            *(
                [
                    "" if person["rank"] is None else person["rank"],
                    person["federation_number"],
                    person["name"],
                    person["club"],
                    person["games"],
                    person["interclubs"],
                    person["counted"],
                    repr(person["average"]),
                ]
                for person in season_data(standings)["persons"]
            ),
        ],
        lineterminator="\n",
    )
