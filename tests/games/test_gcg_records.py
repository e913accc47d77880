"""GCG records: upload through the board's upload page, refusal of broken files with their
line number, and download that reads back to the same game."""

import io
import json
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import rules
from competition.selectors import standings_get
from games import engine
from games.models import Move, Outcome
from games.moves import MoveError, game_to_gcg, move_add, moves_import_gcg
from games.services import ResultInput, game_record_result
from rules import gcg
from rules.cli import main as rules_cli
from tests.games.conftest import DEMO
from tests.seats import Winner, winner

pytestmark = pytest.mark.django_db

DEMOS = ["demo-1", "demo-2", "demo-3", "demo-4"]


def url(name: str, game) -> str:
    return reverse(name, args=[game.pk])


def upload(client, game, data: bytes, name: str = "partij.gcg"):
    version = type(game).objects.get(pk=game.pk).version
    return client.post(
        url("gcg_upload", game), {"file": SimpleUploadedFile(name, data), "version": version}
    )


def rows(game) -> list[Move]:
    return list(Move.objects.filter(game=game).order_by("number"))


def cli_replay(path) -> dict:
    """What `python -m rules replay FILE --json` prints."""
    out = io.StringIO()
    assert rules_cli(["replay", str(path), "--json"], out=out) == 0
    return json.loads(out.getvalue())


@pytest.fixture
def manager(english, secretary_client):
    return secretary_client


# --- upload ----------------------------------------------------------------------------


def test_uploading_demo_1_stores_every_move_and_the_result(manager, game, demo_gcg):
    response = upload(manager, game, demo_gcg("demo-1"))
    assert response.status_code == 302
    assert response.url == url("board", game)
    assert "16 moves read from the file." in unescape(manager.get(response.url).content.decode())

    stored = rows(game)
    assert len(stored) == 16
    game.refresh_from_db()
    assert (game.outcome, winner(game), game.scores[0], game.scores[1]) == (
        Outcome.NORMAL,
        Winner.A,
        165,
        161,
    )
    assert game.starter == 0
    assert all(row.problem == "" for row in stored)

    # The same totals as the command line replay and as the GCG reader.
    replayed = cli_replay(DEMO / "demo-1.gcg")
    assert [(r.notation, r.score, r.total) for r in stored] == [
        (m["notation"], m["score"], m["total"]) for m in replayed["moves"]
    ]
    assert [game.scores[0], game.scores[1]] == replayed["scores"]
    record = gcg.read(demo_gcg("demo-1"))
    assert [r.total for r in stored] == [m.total for m in record.game.history]

    # The exchange, the blank, the upheld challenge (a lost turn) and the blank swap.
    by_number = {r.number: r for r in stored}
    assert (by_number[4].notation, by_number[4].seat, by_number[4].score) == ("-OQT", 1, 0)
    assert by_number[3].notation == "H8 .RGAnDIE"
    assert by_number[3].words == [["ORGAnDIE", 33]]
    assert (by_number[7].notation, by_number[7].seat, by_number[7].score) == (
        "(challenge)",
        0,
        0,
    )
    assert (by_number[9].notation, by_number[9].score, by_number[9].total) == ("swap H12", 1, 84)
    assert by_number[1].rack == "DEINORS?"

    standings = {r.name: r.match_points for r in standings_get(game.round.competition).groups[""]}
    assert standings == {"Anna": 2, "Bert": 0}


@pytest.mark.parametrize("name", DEMOS)
def test_every_demo_game_replays_to_its_recorded_scores(make_game, demo_gcg, name):
    game = make_game()
    assert moves_import_gcg(game=game, data=demo_gcg(name), by=None) == 16
    expected = gcg.read(demo_gcg(name)).game
    assert [r.total for r in rows(game)] == [m.total for m in expected.history]
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1]) == expected.scores


def test_an_upload_replaces_the_moves_entered_so_far(make_game, demo_gcg):
    game = make_game()
    move_add(game=game, notation="8H WOORD", by=None)
    moves_import_gcg(game=game, data=demo_gcg("demo-2"), by=None)
    assert rows(game)[0].notation == "8D LANDS"
    assert len(rows(game)) == 16


def _broken(demo_gcg, old: str, new: str) -> bytes:
    data = demo_gcg("demo-1")
    assert old.encode() in data
    return data.replace(old.encode(), new.encode())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a play on the wrong squares
        ("J6 SN.RP +19 19", "J7 SN.RP +19 19"),
        # a malformed line
        ("J6 SN.RP +19 19", "J6 SN.RP"),
        # a recorded score the engine does not agree with
        ("J6 SN.RP +19 19", "J6 SN.RP +20 20"),
    ],
    ids=["wrong-position", "malformed", "wrong-score"],
)
def test_a_broken_file_is_refused_with_its_line_and_nothing_is_stored(
    manager, game, demo_gcg, old, new
):
    move_add(game=game, notation="8H WOORD", by=None)
    game.refresh_from_db()
    version = game.version

    response = upload(manager, game, _broken(demo_gcg, old, new))

    assert response.status_code == 200
    page = unescape(response.content.decode())
    assert "Line 7:" in page  # the Bram_Jansen line with J6 SN.RP
    assert [r.notation for r in rows(game)] == ["8H WOORD"]
    game.refresh_from_db()
    assert (game.version, game.outcome) == (version, Outcome.PENDING)


def test_a_file_that_is_no_gcg_is_refused(make_game):
    game = make_game()
    with pytest.raises(MoveError):
        moves_import_gcg(game=game, data=b"\x00\x01 this is not a game", by=None)
    assert not Move.objects.exists()


def test_a_game_with_a_final_score_takes_no_gcg(manager, game, demo_gcg, secretary):
    game_record_result(game=game, result=ResultInput.of_pair("normal", 300, 250), by=secretary)
    response = upload(manager, game, demo_gcg("demo-1"))
    assert response.status_code == 200
    assert "This game already has a final score; correct that first." in unescape(
        response.content.decode()
    )
    assert not Move.objects.exists()
    game.refresh_from_db()
    assert (game.scores[0], game.scores[1]) == (300, 250)


def test_the_upload_page(manager, game):
    response = manager.get(url("gcg_upload", game))
    assert response.status_code == 200
    assert 'type="file"' in response.content.decode()


# --- download --------------------------------------------------------------------------


def _same_game(text: str, game) -> None:
    """`text` reads back to the game's moves, totals, players and result."""
    record = gcg.read(text)
    stored = rows(game)
    assert [(m.notation, m.score, m.total) for m in record.game.history] == [
        (r.notation, r.score, r.total) for r in stored
    ]
    assert record.game.players == (game.players[0].name, game.players[1].name)
    game.refresh_from_db()
    assert record.game.scores == (game.scores[0], game.scores[1])


def test_download_reads_back_to_the_same_moves_and_totals(client, game, demo_gcg):
    moves_import_gcg(game=game, data=demo_gcg("demo-1"), by=None)
    response = client.get(url("gcg_download", game))  # public: no login
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="anna-bert-ronde-{game.round.number}.gcg"'
    )
    text = response.content.decode()
    assert "#rules gouds8" in text
    _same_game(text, game)
    assert gcg.read(text).game.result.ending == "turn_limit"


def test_download_then_upload_gives_the_same_game(manager, make_game, demo_gcg):
    first = make_game()
    moves_import_gcg(game=first, data=demo_gcg("demo-1"), by=None)
    second = make_game()
    text = manager.get(url("gcg_download", first)).content
    assert upload(manager, second, text).status_code == 302
    keep = ("notation", "seat", "rack", "score", "total", "words")
    assert [[getattr(r, k) for k in keep] for r in rows(second)] == [
        [getattr(r, k) for k in keep] for r in rows(first)
    ]
    first.refresh_from_db()
    second.refresh_from_db()
    assert (second.outcome, winner(second), second.scores[0], second.scores[1]) == (
        first.outcome,
        winner(first),
        first.scores[0],
        first.scores[1],
    )


@pytest.mark.parametrize(
    ("ruleset", "starter", "notations"),
    [
        (rules.GOUDS_8, 1, ["8H wOORD", "swap H8", "L5 GOE.", "(challenge)", "(flagfall)"]),
        (
            rules.STANDARD,
            0,
            ["8H WOORD", "--", "8H WOORD", "-", "-", "-", "-", "(EEEIINN)", "(AEEIOUB)"],
        ),
        (rules.SBNL_WEDSTRIJD, 0, ["8H WOORD", "(challenge)", "H8 .AAS", "--", "-3"]),
    ],
    ids=["gouds8", "standard", "sbnl"],
)
def test_a_game_entered_move_by_move_round_trips(make_game, ruleset, starter, notations):
    game = make_game(ruleset, starter=starter)
    for notation in notations:
        move_add(game=game, notation=notation, by=None)
    text = game_to_gcg(game)
    record = gcg.read(text)
    assert record.game.rules == ruleset
    assert record.game.first_player == (1 if starter == 1 else 0)
    stored = rows(game)
    assert [(m.score, m.total) for m in record.game.history][: len(stored)] == [
        (r.score, r.total) for r in stored
    ]
    assert record.game.scores == engine.replay(game, stored).engine.scores

    # And read back into another game, it is the same game.
    copy = make_game(ruleset)
    moves_import_gcg(game=copy, data=text.encode(), by=None)
    game.refresh_from_db()
    copy.refresh_from_db()
    assert (copy.outcome, winner(copy), copy.scores[0], copy.scores[1]) == (
        game.outcome,
        winner(game),
        game.scores[0],
        game.scores[1],
    )
    assert copy.starter == game.starter
    assert [(r.seat, r.score, r.total) for r in rows(copy)] == [
        (r.seat, r.score, r.total) for r in stored
    ]
