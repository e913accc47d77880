"""Every page and export that shows a player's points agrees with the standings.

One competition with every kind of result: confirmed, provisional and disputed results, a
bye, a forfeit, a flag fall, an annulled game and a draft round with a result, under both
settings of "only confirmed results". The expected numbers come from the standings' own
pure function over the results that should count (`should_count` below, written from the
rule, not read from the code), and the first test checks them by hand. Each page is then
read as a visitor reads it (HTML, JSON, CSV, the TSH file, the command's output) and must
show the same match points and board points for every player.

Caught: the player's history (page and chart) counted unconfirmed results that the
standings leave out.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from django.urls import reverse

from competition import selectors
from competition.core import standings
from competition.models import Round
from games.models import Confirmation, Outcome
from interchange.core import tsh
from tests.factories import (
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    secretary_of,
)
from tests.seats import Winner
from tests.spreadsheets import csv_rows

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bert", "Cor", "Dirk", "Eva"]
PUBLISHED, FINISHED, DRAFT = Round.Status.PUBLISHED, Round.Status.FINISHED, Round.Status.DRAFT
CONFIRMED, PROVISIONAL, DISPUTED = (
    Confirmation.CONFIRMED,
    Confirmation.PROVISIONAL,
    Confirmation.DISPUTED,
)


@dataclass(frozen=True)
class Played:
    round: int
    a: str
    b: str | None
    outcome: str
    winner: str
    score_a: int | None = None
    score_b: int | None = None
    confirmation: str = CONFIRMED


ROUND_STATUS = {1: FINISHED, 2: FINISHED, 3: PUBLISHED, 4: DRAFT}
# The unconfirmed results are in the last published round: a TSH file has no result after
# a game without one, and an unconfirmed result that does not count is written as unplayed.
GAMES = [
    Played(1, "Anna", "Bert", Outcome.NORMAL, Winner.A, 150, 120),
    Played(1, "Cor", "Dirk", Outcome.FORFEIT, Winner.A),  # Dirk did not come
    Played(1, "Eva", None, Outcome.BYE, Winner.A),
    Played(2, "Anna", "Dirk", Outcome.ANNULLED, Winner.NONE),
    Played(2, "Bert", "Cor", Outcome.FLAG_FALL, Winner.B, 200, 180),  # Bert's flag fell
    Played(2, "Eva", None, Outcome.BYE, Winner.A),
    Played(3, "Anna", "Cor", Outcome.NORMAL, Winner.B, 130, 140, PROVISIONAL),
    Played(3, "Bert", "Eva", Outcome.NORMAL, Winner.A, 160, 100, DISPUTED),
    Played(3, "Dirk", None, Outcome.BYE, Winner.A),
    Played(4, "Anna", "Bert", Outcome.NORMAL, Winner.A, 300, 100),  # a draft: never counts
    Played(4, "Cor", "Eva", Outcome.PENDING, Winner.UNDECIDED),
]


def should_count(game: Played, *, only_confirmed: bool) -> bool:
    """The rule as the user wants it, written without the code's help."""
    if ROUND_STATUS[game.round] == DRAFT or game.outcome == Outcome.PENDING:
        return False
    return game.confirmation == CONFIRMED or not only_confirmed


# Worked out by hand (Gouds 8 defaults: win 2, draw 1, bye 2 and 0 board points, forfeit
# win 2 and 0 board points; an annulled game gives nothing):
BY_HAND = {
    # Anna: 2 (beat Bert 150) + 0 (annulled) + 0 (lost 130-140, counted provisional)
    # Bert: 0 (120) + 0 (200, own flag fell) + 2 (beat Eva 160, counted while disputed)
    # Cor: 2 (forfeit, 0 BP) + 2 (180, Bert's flag) + 2 (140)
    # Dirk: 0 (forfeit) + 0 (annulled) + 2 (bye, 0 BP); Eva: 2 + 2 (byes) + 0 (100)
    False: {
        "Anna": (2, 150 + 130),
        "Bert": (2, 120 + 200 + 160),
        "Cor": (6, 180 + 140),
        "Dirk": (2, 0),
        "Eva": (4, 100),
    },
    # Round 3's provisional and disputed results drop out: Anna 150, Bert 0 MP and
    # 120 + 200, Cor 4 and 180, Eva without the 100; the byes and round 1-2 stay.
    True: {
        "Anna": (2, 150),
        "Bert": (0, 120 + 200),
        "Cor": (4, 180),
        "Dirk": (2, 0),
        "Eva": (4, 0),
    },
}


@pytest.fixture(params=[False, True], ids=["all-results", "only-confirmed"])
def season(request, club):
    only_confirmed = request.param
    competition = CompetitionFactory(
        club=club,
        name="Clubcompetitie",
        slug="clubcompetitie",
        only_confirmed_results=only_confirmed,
    )
    players = {name: PlayerFactory(name=name) for name in NAMES}
    for player in players.values():
        EntrantFactory(competition=competition, player=player)
    rounds = {
        number: RoundFactory(competition=competition, number=number, status=status)
        for number, status in ROUND_STATUS.items()
    }
    for table, game in enumerate(GAMES, 1):
        claimed = game.confirmation != CONFIRMED
        GameFactory(
            round=rounds[game.round],
            table=None if game.b is None else table,
            player_a=players[game.a],
            player_b=players[game.b] if game.b else None,
            outcome=game.outcome,
            winner=game.winner,
            score_a=game.score_a,
            score_b=game.score_b,
            confirmation=game.confirmation,
            claimed_by=0 if claimed else None,
            counter_result={
                "outcome": "normal",
                "scores": [100, 170],
                "flag_fell": [],
                "forfeited": [],
                "by": 1,
            }
            if game.confirmation == DISPUTED
            else {},
        )
    return competition, players, only_confirmed


def expected(competition, players, only_confirmed: bool) -> dict[str, tuple[float, int]]:
    """Match and board points per player, from the standings' pure function."""
    ids = {name: player.pk for name, player in players.items()}
    records = [
        standings.GameRecord(
            game.round,
            ids[game.a],
            ids[game.b] if game.b else None,
            game.score_a,
            game.score_b,
            game.outcome,
            game.winner,
        )
        for game in GAMES
        if should_count(game, only_confirmed=only_confirmed)
    ]
    rows = standings.compute(
        [standings.EntrantRecord(pk, name) for name, pk in ids.items()],
        records,
        selectors.standings_settings(competition),
    )
    return {row.name: (row.match_points, row.board_points) for row in rows}


def test_the_expected_numbers_worked_out_by_hand(season):
    competition, players, only_confirmed = season
    assert expected(competition, players, only_confirmed) == BY_HAND[only_confirmed]


# ----------------------------------------------------------------- reading the pages

TAG = re.compile(r"<[^>]+>")


def _text(html: str) -> str:
    return " ".join(TAG.sub(" ", html).split())


def _rows(html: str) -> list[list[str]]:
    """Each table row's cells (th and td) as text."""
    return [
        [_text(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    ]


def _number(text: str) -> float:
    return float(text.replace(",", ".").replace("+", ""))


def _get(client, name: str, competition, **kwargs) -> str:
    response = client.get(reverse(name, kwargs={**competition.url_kwargs, **kwargs}))
    assert response.status_code == 200, name
    return response.content.decode()


def standings_page(client, competition, players):
    html = _get(client, "standings", competition)
    rows = [row for row in _rows(html) if len(row) == 6 and row[0].isdigit()]
    return {row[1]: (_number(row[3]), int(row[4])) for row in rows}


def standings_json(client, competition, players):
    document = json.loads(_get(client, "standings_json", competition))
    return {row["player"]: (row["match_points"], row["board_points"]) for row in document["rows"]}


def standings_csv(client, competition, players):
    rows = csv_rows(_get(client, "standings_csv", competition))
    return {row["player"]: (_number(row["match_points"]), int(row["board_points"])) for row in rows}


def _last_filled(rows: list[list[str]], column: int) -> str:
    return [row[column] for row in rows if row[column]][-1]


def player_page(client, competition, players):
    found = {}
    for name, player in players.items():
        html = _get(client, "player", competition, player_id=player.pk)
        rows = [row for row in _rows(html) if len(row) == 6 and row[0].isdigit()]
        found[name] = (_number(_last_filled(rows, 4)), int(_last_filled(rows, 5)))
    return found


def _history_html(client, competition, player) -> str:
    url = reverse("player_history", kwargs={"club": competition.club.slug, "player_id": player.pk})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def player_history_table(client, competition, players):
    """The season's games: total match points after the last round; board points added up
    from the result column (own score first)."""
    found = {}
    for name, player in players.items():
        html = _history_html(client, competition, player)
        rows = [row for row in _rows(html) if len(row) == 5 and row[0][:1].isdigit()]
        board = sum(
            int(m) for m in re.findall(r"^(\d+) – \d+", "\n".join(r[2] for r in rows), re.M)
        )
        found[name] = (_number(_last_filled(rows, 4)), board)
    return found


def _chart_values(svg: str) -> list[float]:
    return [_number(value) for value in re.findall(r"<title>[^<:]+: ([0-9.,-]+)</title>", svg)]


def player_history_charts(client, competition, players):
    """The charts: match points over the season (last point), board points per game (sum)."""
    found = {}
    for name, player in players.items():
        html = _history_html(client, competition, player)
        _ranks, match_points, board_points = re.findall(r"<svg.*?</svg>", html, re.S)
        found[name] = (_chart_values(match_points)[-1], int(sum(_chart_values(board_points))))
    return found


def crosstable_totals(client, competition, players):
    html = _get(client, "crosstable", competition)
    rows = [row for row in _rows(html) if row and row[0].isdigit()]
    return {row[1]: (_number(row[-2]), int(row[-1])) for row in rows}


def crosstable_cells(client, competition, players):
    """What the cells add up to: + a win (2), = a draw (1), − a loss; the scores; and the
    byes, which have no column, from the standings' bye count times 2."""
    html = _get(client, "crosstable", competition)
    byes = {
        row.name: row.byes
        for rows in selectors.standings_get(competition).groups.values()
        for row in rows
    }
    found = {}
    for row in (row for row in _rows(html) if row and row[0].isdigit()):
        cells = " ".join(row[2:-2])
        points = 2 * cells.count("+") + cells.count("=") + 2 * byes[row[1]]
        board = sum(int(mine) for mine in re.findall(r"[+=−](\d+)-\d+", cells))
        found[row[1]] = (points, board)
    return found


def screen_panels(client, competition, players):
    html = _get(client, "screen_panels", competition)
    sections = re.findall(r'<section class="screen-panel screen-standings.*?</section>', html, re.S)
    rows = [row for section in sections for row in _rows(section) if row and row[0].isdigit()]
    return {row[1]: (_number(row[3]), int(row[4])) for row in rows}


def tsh_export(client, competition, players):
    """The TSH file, read back and counted by the standings' own function."""
    client.force_login(secretary_of(competition.club))
    text = _get(client, "tsh_download", competition)
    client.logout()
    tournament = tsh.to_tournament(tsh.parse(text))
    ids = [players[name].pk for name in tournament.players]
    records = [
        standings.GameRecord(
            game.round,
            ids[game.a],
            None if game.b is None else ids[game.b],
            game.score_a,
            game.score_b,
            game.outcome,
            game.winner,
        )
        for game in tournament.games
        if game.outcome
    ]
    rows = standings.compute(
        selectors.entrant_records(competition), records, selectors.standings_settings(competition)
    )
    return {row.name: (row.match_points, row.board_points) for row in rows}


def standings_command(client, competition, players):
    out = io.StringIO()
    call_command(
        "standings", f"{competition.club.slug}/{competition.slug}", "--format", "json", stdout=out
    )
    return {
        row["player"]: (row["match_points"], row["board_points"])
        for row in json.loads(out.getvalue())
    }


PAGES: dict[str, Callable] = {
    "standings page": standings_page,
    "standings JSON": standings_json,
    "standings CSV": standings_csv,
    "player page": player_page,
    "player history": player_history_table,
    "player history charts": player_history_charts,
    "crosstable totals": crosstable_totals,
    "crosstable cells": crosstable_cells,
    "club-room screen": screen_panels,
    "TSH export": tsh_export,
    "standings command": standings_command,
}


@pytest.mark.parametrize("page", PAGES.values(), ids=PAGES.keys())
def test_every_page_shows_the_points_the_standings_count(client, season, page):
    competition, players, only_confirmed = season
    assert page(client, competition, players) == expected(competition, players, only_confirmed)


def test_the_round_json_says_which_results_count(client, season):
    competition, _players, only_confirmed = season
    for number in (1, 2, 3):
        document = json.loads(_get(client, "round_json", competition, number=number))
        counts = {
            tuple([*(player["name"] for player in game["players"]), None][:2]): game["counts"]
            for game in document["games"]
        }
        assert counts == {
            (game.a, game.b): should_count(game, only_confirmed=only_confirmed)
            for game in GAMES
            if game.round == number
        }
