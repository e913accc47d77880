"""The secretary's results page: every table on one screen, keyboard order, one save.

A wrong row saves nothing and says, in that row and in Dutch, what is wrong.
"""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from competition.models import Round
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.models import Game, Outcome
from games.services import ResultEntry, ResultInput
from tests.factories import EntrantFactory, PlayerFactory, result_changes
from tests.seats import Winner, pair, pair_spec, winner

pytestmark = pytest.mark.django_db

BOTH_SCORES_NL = "Vul de bordpunten van beide spelers in."
REASON_NL = "Deze partij heeft al een uitslag: geef een reden voor de correctie."
NOTHING_SAVED_NL = "Er is niets opgeslagen: verbeter de gemarkeerde regels."


@pytest.fixture
def round_games(competition):
    """Round 1 of seven players: three tables and a bye, tables given in a shuffled order."""
    players = [PlayerFactory(name=name) for name in ("An", "Bo", "Cas", "Do", "Ed", "Fien", "Gijs")]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    round_obj = round_create(competition=competition)
    specs = [
        pair_spec(players[4].pk, players[5].pk, 3),
        pair_spec(players[0].pk, players[1].pk, 1),
        pair_spec(players[6].pk, None),
        pair_spec(players[2].pk, players[3].pk, 2),
    ]
    round_set_pairings(round=round_obj, pairings=specs)
    games = list(round_obj.games.exclude(outcome=Outcome.BYE).order_by("table"))
    assert [game.table for game in games] == [1, 2, 3]
    return round_obj, games


def results_url(round_obj) -> str:
    return reverse(
        "round_results", kwargs={**round_obj.competition.url_kwargs, "number": round_obj.number}
    )


def post_data(games, rows) -> dict:
    data = {"form-TOTAL_FORMS": len(games), "form-INITIAL_FORMS": len(games)}
    for index, (game, row) in enumerate(zip(games, rows, strict=True)):
        game.refresh_from_db()
        row = {"kind": "normal", "score_a": "", "score_b": "", "reason": "", **row}
        data.update({f"form-{index}-{key}": value for key, value in row.items()})
        data[f"form-{index}-game"] = game.pk
        data[f"form-{index}-version"] = row.get("version", game.version)
    return data


def state(round_obj) -> list[tuple]:
    games = Game.objects.filter(round=round_obj).with_seats().order_by("table", "pk")
    return [
        *((game.pk, *pair(game), game.version) for game in games),
        result_changes(
            competition_id=round_obj.competition_id, round_number=round_obj.number
        ).count(),
        Round.objects.get(pk=round_obj.pk).status,
    ]


def row_segments(html: str) -> dict[int, str]:
    """The HTML of each result row with its error line, by game id."""
    parts = html.split('<tr class="result-row')[1:]
    return {int(re.search(r'data-game="(\d+)"', part).group(1)): part for part in parts}


class _TabOrder(HTMLParser):
    """The results form's elements that Tab visits, in document order (the page uses no
    positive tabindex), each as its name, or its text for a button or link."""

    def __init__(self) -> None:
        super().__init__()
        self.in_form = False
        self.order: list[str] = []
        self.autofocus: str | None = None
        self._pending: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == "results-form":
            self.in_form = True
        if not self.in_form or attrs.get("tabindex") == "-1" or attrs.get("type") == "hidden":
            return
        if tag in {"input", "select"}:
            self.order.append(attrs["name"])
            if "autofocus" in attrs:
                self.autofocus = attrs["name"]
        elif tag == "button" or (tag == "a" and "href" in attrs):
            self._pending = tag

    def handle_data(self, data):
        if self._pending and data.strip():
            self.order.append(f"{self._pending}:{data.strip()}")
            self._pending = None

    def handle_endtag(self, tag):
        if tag == "form":
            self.in_form = False


def tab_order(html: str) -> _TabOrder:
    parser = _TabOrder()
    parser.feed(html)
    return parser


def test_every_table_on_one_screen_in_keyboard_order(secretary_client, round_games):
    round_obj, games = round_games
    response = secretary_client.get(results_url(round_obj))
    assert response.status_code == 200
    html = response.content.decode()
    assert [int(pk) for pk in re.findall(r'data-game="(\d+)"', html)] == [g.pk for g in games]
    # Score, score, next table; then the save button and the way back. The outcome and
    # the reason are reached from a score with `*` (tested in the browser).
    page = tab_order(html)
    assert page.order == [
        *(f"form-{row}-score_{side}" for row in range(3) for side in "ab"),
        "button:Alle uitslagen opslaan",
        "a:Terug naar de ronde",
    ]
    assert page.autofocus == "form-0-score_a"
    assert re.findall(r'<input type="text"[^>]*name="form-0-score_a"[^>]*>', html)
    assert 'inputmode="numeric"' in html and 'type="number"' not in html


def test_one_post_saves_every_table(secretary_client, secretary, round_games):
    round_obj, games = round_games
    data = post_data(
        games,
        [
            {"score_a": 320, "score_b": 280},
            {"kind": "flag_a", "score_a": 400, "score_b": 200},
            {"kind": "forfeit_b"},
        ],
    )
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 302
    assert response.url == round_obj.get_absolute_url()
    results = [
        (*pair(stored), stored.entered_by_id)
        for stored in (Game.objects.with_seats().get(pk=game.pk) for game in games)
    ]
    assert results == [
        (Outcome.NORMAL, Winner.A, 320, 280, secretary.pk),
        (Outcome.FLAG_FALL, Winner.B, 400, 200, secretary.pk),
        (Outcome.FORFEIT, Winner.A, None, None, secretary.pk),
    ]
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.FINISHED


def test_empty_rows_are_left_alone(secretary_client, round_games):
    round_obj, games = round_games
    data = post_data(games, [{"score_a": 320, "score_b": 280}, {}, {}])
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    assert Game.objects.filter(round=round_obj, outcome=Outcome.PENDING).count() == 2
    round_obj.refresh_from_db()
    assert round_obj.status == Round.Status.PUBLISHED


def test_one_bad_row_saves_nothing_and_says_why_in_dutch(secretary_client, round_games):
    round_obj, games = round_games
    before = state(round_obj)
    data = post_data(
        games,
        [{"score_a": 320, "score_b": 280}, {"score_a": 300}, {"kind": "annulled"}],
    )
    response = secretary_client.post(results_url(round_obj), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert state(round_obj) == before
    segments = row_segments(response.content.decode())
    assert BOTH_SCORES_NL in segments[games[1].pk]
    assert "table-danger" in segments[games[1].pk]
    assert "row-error" not in segments[games[0].pk] + segments[games[2].pk]
    assert NOTHING_SAVED_NL in response.content.decode()
    # What was typed is still there to be corrected.
    assert 'value="320"' in segments[games[0].pk]


def test_correction_without_reason_saves_nothing(secretary_client, round_games):
    round_obj, games = round_games
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(game.pk, ResultInput.of_pair("normal", 300, 200)) for game in games],
        by=None,
    )
    before = state(round_obj)
    data = post_data(
        games,
        [
            {"score_a": 300, "score_b": 200},  # unchanged
            {"score_a": 300, "score_b": 210},  # corrected, no reason
            {"score_a": 200, "score_b": 300, "reason": "verkeerd om ingevuld"},
        ],
    )
    response = secretary_client.post(results_url(round_obj), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert state(round_obj) == before
    segments = row_segments(response.content.decode())
    assert REASON_NL in segments[games[1].pk]
    assert REASON_NL not in segments[games[2].pk]

    # With a reason for each correction, both go through in one save.
    data["form-1-reason"] = "tafelbriefje nagekeken"
    assert secretary_client.post(results_url(round_obj), data).status_code == 302
    reasons = set(
        result_changes(competition_id=round_obj.competition_id, round_number=round_obj.number)
        .exclude(reason="")
        .values_list("game_id", "reason")
    )
    assert reasons == {
        (games[1].pk, "tafelbriefje nagekeken"),
        (games[2].pk, "verkeerd om ingevuld"),
    }


def test_stale_page_is_refused(secretary_client, english, round_games):
    round_obj, games = round_games
    data = post_data(games, [{"score_a": 320, "score_b": 280}, {}, {}])
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(games[0].pk, ResultInput.of_pair("annulled"))],
        by=None,
    )
    before = state(round_obj)
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert "in the meantime" in row_segments(response.content.decode())[games[0].pk]
    assert state(round_obj) == before


def test_a_game_of_another_round_is_refused(secretary_client, competition, round_games):
    round_obj, games = round_games
    other = round_create(competition=competition)
    anna, bert = PlayerFactory.create_batch(2)
    for player in (anna, bert):
        EntrantFactory(competition=competition, player=player)
    (foreign,) = round_set_pairings(round=other, pairings=[pair_spec(anna.pk, bert.pk, 1)])
    data = post_data(games, [{"score_a": 1, "score_b": 2}, {}, {}])
    data["form-0-game"] = foreign.pk
    data["form-0-version"] = foreign.version
    before = state(round_obj), state(other)
    response = secretary_client.post(results_url(round_obj), data)
    assert response.status_code == 200
    assert (state(round_obj), state(other)) == before


def correct_url(game) -> str:
    return reverse("game_correct", kwargs={**game.round.competition.url_kwargs, "game_id": game.pk})


def test_game_correct_keeps_the_reason(secretary_client, secretary, round_games):
    round_obj, games = round_games
    game = games[0]
    round_record_results(
        round=round_obj,
        entries=[ResultEntry(game.pk, ResultInput.of_pair("normal", 300, 200))],
        by=None,
    )
    game.refresh_from_db()
    page = secretary_client.get(correct_url(game))
    assert page.status_code == 200

    # Without a reason the form refuses.
    data = {"kind": "normal", "score_a": 300, "score_b": 320, "version": game.version}
    response = secretary_client.post(correct_url(game), {**data, "reason": ""})
    assert response.status_code == 200
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1]) == (300, 200)

    response = secretary_client.post(
        correct_url(game), {**data, "reason": "bordpunten van An verkeerd opgeteld"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.scores[1], winner(game)) == (320, Winner.B)
    change = result_changes(game_id=game.pk, reason="bordpunten van An verkeerd opgeteld").get()
    assert change.by == secretary
    assert change.before["scores"][1] == 200
    assert change.after["scores"][1] == 320
    # The page shows the game's HistoryEntry rows: tests/competition/test_history_pages.py.


def test_each_further_result_costs_three_queries(secretary, round_games):
    """Seats, game, history: a results page of a dozen tables stays a short transaction.
    Which games have moves is one query for all; the competition's timestamp moves once
    per round, after the last game; the model's constraints are not asked of the database
    once per game (it enforces them itself)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from clubs.permissions import can_manage_club
    from games.services import games_record_results

    _round, games = round_games

    def queries(chosen) -> int:
        entries = [
            ResultEntry(game.pk, ResultInput.of_pair("normal", 300 + game.table, 250))
            for game in chosen
        ]
        with CaptureQueriesContext(connection) as captured:
            recorded = games_record_results(entries=entries, by=secretary)
        assert recorded.changed == len(chosen)
        timestamps = [q for q in captured if 'UPDATE "competition_competition"' in q["sql"]]
        assert len(timestamps) == 1
        return len(captured)

    # Whether the writer is the club's secretary (games.policy) is asked once per request,
    # by the page's decorator first; kept on the user for the service.
    assert can_manage_club(secretary, _round.competition.club)
    one, two = queries(games[:1]), queries(games[1:])
    assert len(games[1:]) >= 2
    assert two - one == 3 * (len(games[1:]) - 1)
