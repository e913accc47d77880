"""A season's ranking as plain data: the JSON and CSV of `manage.py ranking` and of each
published version (unrounded averages and percentages, as the federation asks for its own
sheets; the CSV through the one writer, `competition.spreadsheets`).

Django: none but the selectors' records and the published rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from competition.spreadsheets import csv_text
from ranking.changes import Change
from ranking.selectors import Standings

if TYPE_CHECKING:
    from ranking.models import Publication, PublishedClub, PublishedPerson
    from ranking.publications import VersionChanges

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


def publication_data(
    publication: Publication,
    persons: Sequence[PublishedPerson],
    clubs: Sequence[PublishedClub],
    changed: VersionChanges,
) -> dict[str, Any]:
    """A published version as it was published, with the changes from the version before
    (averages and scores unrounded)."""
    season = publication.season
    return {
        "federation": season.federation.slug,
        "season": season.slug,
        "name": season.name,
        "version": publication.version,
        "on": publication.on.isoformat(),
        "published_at": publication.published_at.isoformat(),
        "published_by": publication.by_name,
        "reason": publication.reason,
        "interclubs": publication.interclubs,
        "interclubs_needed": publication.interclubs_needed,
        "persons": [
            {
                "rank": row.rank,
                "federation_number": row.federation_number,
                "name": row.name,
                "club": row.club_name,
                "games": row.games,
                "interclubs": row.interclubs,
                "counted": row.counted,
                "average": row.average,
            }
            for row in persons
        ],
        "clubs": [
            {"rank": row.rank, "club": row.name, "score": row.score, "results": row.results}
            for row in clubs
        ],
        "changes": {
            "from_version": changed.previous,
            "persons": [_change(change) for change in changed.persons],
            "clubs": [_change(change) for change in changed.clubs],
        },
    }


def _change(change: Change) -> dict[str, Any]:
    return {
        "kind": change.kind.value,
        "name": change.name,
        "rank": [change.rank_before, change.rank_after],
        "value": [change.value_before, change.value_after],
        "club": [change.club_before, change.club_after],
    }


def publication_csv(persons: Sequence[PublishedPerson]) -> str:
    """A published version's persons as `season_csv` writes a ranking."""
    return csv_text(
        [
            CSV_HEADER,
            *(
                [
                    "" if row.rank is None else row.rank,
                    row.federation_number,
                    row.name,
                    row.club_name,
                    row.games,
                    row.interclubs,
                    row.counted,
                    repr(row.average),
                ]
                for row in persons
            ),
        ],
        lineterminator="\n",
    )
