"""GCG files of 3 and 4 players onto a table's board (issue 20, point 6), the export of a
table and its round trip, and the analysis and history of a table of 4 (point 4)."""

import re
from html import unescape

import pytest
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, Move, Outcome
from games.moves import MoveError, move_add, moves_import_gcg
from rules import gcg
from tests.games.tables import self_played, table_game
from tests.rules.test_gcg_fuzz import ODD_LINES

pytestmark = pytest.mark.django_db


def url(name: str, game) -> str:
    return reverse(name, args=[game.pk])


def text(response) -> str:
    return unescape(response.content.decode())


def fresh(game) -> Game:
    return Game.objects.with_seats().get(pk=game.pk)


def upload(client, game, data: bytes):
    game.refresh_from_db()
    file = SimpleUploadedFile("partij.gcg", data, content_type="text/plain")
    return client.post(url("gcg_upload", game), {"version": game.version, "file": file})


def file_of(count: int, seed: int, names, *, starter: int = 0) -> tuple[bytes, tuple[int, ...]]:
    """A whole self-played game as GCG (the engine's writer, racks on every line), and its
    final scores in the file's player order."""
    played = self_played(count, seed, names=names, starter=starter)
    return gcg.write(played.engine).encode(), played.engine.scores


@pytest.fixture
def manager(secretary_client):
    return secretary_client


@pytest.mark.parametrize(("count", "seed"), [(3, 1), (4, 2)])
def test_a_file_of_the_tables_players_imports_with_the_files_scores(
    manager, competition, count, seed
):
    game = table_game(competition, count, starter="")
    data, scores = file_of(count, seed, ("Anna", "Bert", "Cor", "Dirk"), starter=1)
    assert f"#player{count} ".encode() in data
    response = upload(manager, game, data)
    assert response.status_code == 302, text(response)
    stored = fresh(game)
    assert stored.starter == 1
    assert stored.outcome == Outcome.NORMAL
    assert tuple(seat.score for seat in stored.seat_list) == scores
    first = Move.objects.filter(game=game).order_by("number").first()
    assert first.seat == 1


def test_a_file_listing_the_table_from_another_player_is_seated_round_the_table(
    manager, competition
):
    """The same order round the table, the file starting its list at Cor (and nicknames
    in another case): Cor is the file's player 1 and the table's position 2."""
    game = table_game(competition, 4, starter="")
    data, scores = file_of(4, 3, ("cor", "Dirk", "ANNA", "Bert"), starter=0)
    assert upload(manager, game, data).status_code == 302
    stored = fresh(game)
    assert stored.starter == 2
    # the file's order Cor, Dirk, Anna, Bert; the table's Anna, Bert, Cor, Dirk
    assert tuple(seat.score for seat in stored.seat_list) == (
        scores[2],
        scores[3],
        scores[0],
        scores[1],
    )
    assert [row.seat for row in Move.objects.filter(game=game).order_by("number")[:5]] == [
        2,
        3,
        0,
        1,
        2,
    ]


@pytest.mark.parametrize(
    ("names", "wanted"),
    [
        (
            ("Anna", "Bert", "Cor", "Evert"),
            "Dit bestand beschrijft een partij van Anna, Bert, Cor, Evert; aan deze tafel "
            "zitten Anna, Bert, Cor, Dirk.",
        ),
        (
            ("Anna", "Cor", "Bert", "Dirk"),
            "De spelers in dit bestand zitten in een andere volgorde (Anna – Cor – Bert – "
            "Dirk) dan aan deze tafel (Anna – Bert – Cor – Dirk).",
        ),
    ],
)
def test_a_file_of_other_players_or_another_order_is_refused_in_dutch(
    manager, competition, names, wanted
):
    game = table_game(competition, 4, starter="")
    data, _scores = file_of(4, 2, names)
    response = upload(manager, game, data)
    assert response.status_code == 200
    assert wanted in text(response)
    assert not Move.objects.filter(game=game).exists()
    assert fresh(game).starter is None


def test_a_file_of_three_onto_a_table_of_four_is_refused_in_dutch(manager, competition):
    game = table_game(competition, 4)
    data, _scores = file_of(3, 1, ("Anna", "Bert", "Cor"))
    response = upload(manager, game, data)
    assert "Dit bestand beschrijft een partij met 3 spelers; aan deze tafel zitten er 4." in text(
        response
    )
    assert not Move.objects.filter(game=game).exists()


def test_the_export_of_a_table_writes_every_player_and_reads_back_the_same(manager, competition):
    played = self_played(4, 2)
    game = table_game(competition, 4, starter=0)
    for _seat, notation, rack in played.turns:
        move_add(game=game, notation=notation, rack=rack, by=None)
    exported = manager.get(url("gcg_download", game))
    assert exported.status_code == 200
    record = exported.content.decode()
    for number, name in enumerate(("Anna", "Bert", "Cor", "Dirk"), 1):
        assert f"#player{number} {name} {name}" in record
    scores = [seat.score for seat in fresh(game).seat_list]
    other = table_game(competition, 4, starter="")
    assert upload(manager, other, exported.content).status_code == 302
    assert [seat.score for seat in fresh(other).seat_list] == scores

    def sheet(table):
        """Seat, notation and rack (the file writes a rack in its own order) of each move."""
        rows = Move.objects.filter(game=table).order_by("number")
        return [(row.seat, row.notation, sorted(row.rack)) for row in rows]

    assert sheet(other) == sheet(game)


def test_the_analysis_and_the_history_of_a_table_of_four(manager, competition, client):
    played = self_played(4, 2)
    game = table_game(competition, 4, starter=0)
    for _seat, notation, rack in played.turns[:8]:
        move_add(game=game, notation=notation, rack=rack, by=None)
    analysis = client.get(url("game_analysis", game), HTTP_HX_REQUEST="true")
    assert analysis.status_code == 200
    page = text(analysis)
    for name in ("Anna", "Bert", "Cor", "Dirk"):
        assert f"{name}: " in page  # the points each left on the table
    assert page.count("<tr data-move=") == 8
    shown = client.get(url("game_analysis", game), {"zet": 6})
    assert shown.status_code == 200
    manager.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    replay = text(manager.get(url("replay", game)))
    history = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", replay[replay.index('id="game-history"') :])
    )
    # Each move's entry names the player of its seat, at every seat (not "player 3").
    for number, (seat, _notation, _rack) in enumerate(played.turns[:8], 1):
        name = ("Anna", "Bert", "Cor", "Dirk")[seat]
        assert f"Move {number}: — → {name}: " in history
    assert "player 3" not in history and "player 4" not in history
    assert client.get(url("replay", game), {"zet": 3}).status_code == 200


@pytest.fixture(scope="module")
def four_player_file() -> bytes:
    return file_of(4, 2, ("Anna", "Bert", "Cor", "Dirk"))[0]


@st.composite
def damaged(draw, original: bytes) -> bytes:
    """The 4-player file with a few lines deleted, doubled, swapped or replaced by odd ones,
    or a byte changed."""
    lines = original.split(b"\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "odd", "flip"]))
        if kind == "delete":
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif kind == "odd":
            lines.insert(at, draw(st.sampled_from(ODD_LINES) | st.binary(max_size=30)))
        elif kind == "flip" and lines[at]:
            line = bytearray(lines[at])
            line[draw(st.integers(0, len(line) - 1))] = draw(st.integers(0, 255))
            lines[at] = bytes(line)
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_damaged_file_of_four_is_stored_or_refused_with_a_dutch_message(
    competition, four_player_file, data
):
    game = table_game(competition, 4, starter="")
    damaged_file = data.draw(damaged(four_player_file))
    with translation.override("nl"):
        try:
            moves_import_gcg(game=game, data=damaged_file, by=None)
        except MoveError as error:
            assert re.match(
                r"(Regel|Zet) \d+: |Dit bestand beschrijft|De spelers in dit bestand",
                str(error.message),
            ), error.message
            assert not Move.objects.filter(game=game).exists()
        else:
            assert Move.objects.filter(game=game).exists()
