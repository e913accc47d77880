"""A restore is safe against any archive: the tester's findings (issue 17, item 5), each
refused before it costs memory or changes anything, or restored without harm.

Runs on whichever database the suite runs on (SQLite, and PostgreSQL in CI).
"""

import io
import json
import struct
import tracemalloc
import warnings
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

import rules
from archives import backup
from archives.backup import BackupError, club_archive, restore_club
from clubs.models import Club, HistoryEntry, Membership, Player
from games.models import Game, Move
from games.moves import move_add
from tests.factories import (
    CompetitionFactory,
    GameFactory,
    PlayerFactory,
    RoundFactory,
    competition_with_results,
    secretary_of,
)

pytestmark = pytest.mark.django_db
User = get_user_model()


def small_club() -> Club:
    """A demo-like club: a finished competition, a game entered move by move, a secretary
    and history."""
    played = competition_with_results(entrants=5, rounds=2)
    club = played.competition.club
    secretary = secretary_of(club, username="secretaris")
    league = CompetitionFactory(club=club, name="Voorjaar", slug="voorjaar")
    anna, bert = PlayerFactory(name="Anna"), PlayerFactory(name="Bert")
    for player in (anna, bert):
        Membership.objects.create(club=club, player=player)
    board = GameFactory(
        round=RoundFactory(competition=league, number=1),
        table=1,
        player_a=anna,
        player_b=bert,
        starter="a",
        rules=rules.GOUDS_8.to_dict(),
    )
    for notation in ("8H WOORD", "-"):
        move_add(game=board, notation=notation, by=secretary)
    return club


def files_of(club: Club) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(club_archive(club=club))) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zipped(members: list[tuple[str, bytes]], *, method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about a duplicate name
        with zipfile.ZipFile(buffer, "w", compression=method) as archive:
            for name, value in members:
                archive.writestr(name, value)
    return buffer.getvalue()


def edited(files: dict[str, bytes], edit) -> bytes:
    document = json.loads(files["club.json"])
    history = json.loads(files["history.json"])
    edit(document, history)
    return zipped(
        [
            *[(n, v) for n, v in files.items() if n not in ("club.json", "history.json")],
            ("club.json", json.dumps(document).encode()),
            ("history.json", json.dumps(history).encode()),
        ]
    )


def counts() -> list[int]:
    return [m.objects.count() for m in (*backup.CLUB_MODELS, *backup.HISTORY_MODELS, User)]


def refusal(data: bytes) -> str:
    """The refusal's Dutch message; the database as it was before."""
    before = counts()
    with pytest.raises(BackupError) as refused:
        restore_club(data=data, slug="kopie")
    assert counts() == before
    return str(refused.value.message)


@pytest.fixture
def files(db):
    return files_of(small_club())


def _lying_header(data: bytes, name: str, declared: int) -> bytes:
    """`data` with `name`'s uncompressed size in both headers replaced by `declared`."""
    raw = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(name)
    struct.pack_into("<L", raw, info.header_offset + 22, declared)
    at = 0
    while (at := raw.find(b"PK\x01\x02", at)) >= 0:
        length = struct.unpack_from("<H", raw, at + 28)[0]
        if raw[at + 46 : at + 46 + length] == name.encode():
            struct.pack_into("<L", raw, at + 24, declared)
        at += 4
    return bytes(raw)


# --- 1. memory and time bounded before anything is read --------------------------------


def test_a_zip_bomb_is_refused_at_once_without_unpacking_it(db):
    bomb = zipped([("history.json", b"[]"), ("club.json", b"[" + b" " * (170 * 1024 * 1024))])
    assert len(bomb) < 400_000  # the tester's was 270 kB for 4.8 GB of memory

    tracemalloc.start()
    message = refusal(bomb)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    assert "club.json is te groot" in message
    # a few ZIP headers, not 300 MB: nothing was unpacked (benchmarks/restore_safety.py
    # prints how long the refusal takes)
    assert peak < 5 * 1024 * 1024, peak


def test_a_bomb_within_the_size_limit_is_refused_by_its_packing_ratio(db):
    bomb = zipped([("history.json", b"[]"), ("club.json", b" " * (20 * 1024 * 1024))])
    tracemalloc.start()
    message = refusal(bomb)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "te sterk ingepakt" in message
    assert peak < 5 * 1024 * 1024, peak


def test_a_header_that_understates_the_size_does_not_let_more_be_unpacked(files):
    """zipfile stops at the declared size and the checksum then fails: never more read."""
    honest = zipped([("history.json", files["history.json"]), ("club.json", files["club.json"])])
    forged = _lying_header(honest, "club.json", 100)
    assert "kan niet worden uitgepakt" in refusal(forged)


def test_dense_json_within_the_limits_is_refused_before_it_is_parsed(db):
    dense = b"[" + b"{}," * 300_000 + b"{}]"  # 0.9 MB: below the ratio check
    message = refusal(zipped([("club.json", dense), ("history.json", b"[]")]))
    assert "geen bestand dat Bordpunt schrijft" in message


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ([("club.json", b"{}"), ("club.json", b"{}"), ("history.json", b"[]")], "club.json twee"),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("history.json", b"[]")], "twee keer"),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("../club.json", b"")], "../club.json"),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("/etc/passwd", b"")], "/etc/passwd"),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("games/../x.gcg", b"")], "games/.."),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("games/", b"")], "games/"),
        ([("club.json", b"{}"), ("history.json", b"[]"), ("notes.txt", b"")], "notes.txt"),
        ([("club.json", b"{}")], "history.json ontbreekt"),
    ],
)
def test_each_member_is_known_and_appears_once(db, members, message):
    assert message in refusal(zipped(members))


def test_other_packing_methods_and_encryption_are_refused(db):
    bzip = zipped([("club.json", b"{}"), ("history.json", b"[]")], method=zipfile.ZIP_BZIP2)
    assert "ingepakt op een manier" in refusal(bzip)
    raw = bytearray(zipped([("club.json", b"{}"), ("history.json", b"[]")]))
    at = raw.find(b"PK\x01\x02")
    struct.pack_into("<H", raw, at + 8, struct.unpack_from("<H", raw, at + 8)[0] | 1)
    assert "versleuteld" in refusal(bytes(raw))


def test_a_central_directory_larger_than_the_member_limit_is_refused_before_it_is_read(
    db, monkeypatch
):
    monkeypatch.setattr(backup, "MAX_MEMBERS", 1)
    data = zipped([("club.json", b"{}"), ("history.json", b"[]")])
    assert "te veel bestanden" in refusal(data)


def test_the_command_refuses_a_file_larger_than_an_archive_before_reading_it(
    db, tmp_path, monkeypatch
):
    path = tmp_path / "groot.zip"
    path.write_bytes(b"PK" + b"\x00" * 5000)
    monkeypatch.setattr(backup, "MAX_ARCHIVE_BYTES", 4096)
    with pytest.raises(CommandError, match="Het archief is te groot"):
        call_command("import_club", str(path))
    with pytest.raises(CommandError, match="kan niet worden gelezen"):
        call_command("import_club", str(tmp_path / "nergens.zip"))


def test_the_limits_leave_room_for_a_real_export(files):
    """The archive of a real club is far inside every limit (benchmarks/restore_safety.py
    measures a 300-player club)."""
    report = restore_club(data=zipped(list(files.items())), slug="kopie")
    assert report.rows["games.move"] == 2


# --- 2. every field validated as the forms and the engine validate it ------------------


def _game_with_moves(document) -> dict:
    return next(g for g in document["data"]["games.game"] if g["rules"])


@pytest.mark.parametrize(
    "forged",
    [
        {"name": "vals", "rack_size": 99},
        {"name": "vals", "players_min": 3, "players_max": 4},
        {**rules.GOUDS_8.to_dict(), "lexicon": "klingon"},
        {**rules.GOUDS_8.to_dict(), "turn_limit": "acht"},
        "gouds8",
        [1, 2],
    ],
)
def test_a_forged_rule_set_of_a_game_is_refused(files, forged):
    def edit(document, history):
        _game_with_moves(document)["rules"] = forged

    message = refusal(edited(files, edit))
    assert "games.game" in message and "rules" in message


def test_a_forged_rule_set_code_of_a_competition_is_refused(files):
    def edit(document, history):
        document["data"]["competition.competition"][0]["rules"] = "schaak"

    assert "rules" in refusal(edited(files, edit))

    def custom(document, history):
        document["data"]["competition.competition"][0]["rules"] = "custom"
        document["data"]["competition.competition"][0]["custom_rules"] = {"rack_size": 8}

    assert "custom_rules" in refusal(edited(files, custom))


def test_a_game_under_another_valid_rule_set_restores_and_its_pages_answer(files, client):
    """The pages the forged rules broke (replay, board, analysis, .gcg) work after a restore."""

    def edit(document, history):
        _game_with_moves(document)["rules"] = rules.STANDARD.to_dict()

    report = restore_club(data=edited(files, edit), slug="kopie")
    game = Game.objects.get(round__competition__club=report.club, moves__number=1)
    assert game.rules == rules.STANDARD.to_dict()
    client.force_login(User.objects.create_superuser("beheer", password="x"))
    for name in ("replay", "board", "game_analysis", "gcg_download"):
        assert client.get(reverse(name, kwargs={"game_id": game.pk})).status_code == 200, name


def test_forged_move_scores_are_replaced_by_the_engines(files):
    def edit(document, history):
        for move in document["data"]["games.move"]:
            move["score"], move["total"], move["words"] = 999, 999, [["NEP", 999]]

    report = restore_club(data=edited(files, edit), slug="kopie")
    first = Move.objects.get(game__round__competition__club=report.club, number=1)
    # WOORD from H8 across: W5 O1 O1 R2, D2 on L8's double letter 4 = 13; the centre
    # doubles the word: 26.
    assert (first.score, first.total, first.words) == (26, 26, [["WOORD", 26]])


def _set(table: str, field: str, value, *, row: int = 0):
    def edit(document, history):
        document["data"][table][row][field] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (_set("clubs.player", "name", "Anna\u202e"), "clubs.player"),
        (_set("clubs.club", "city", "Gouda\nDelft"), "city"),
        (_set("clubs.membership", "role", "baas"), "role"),
        (_set("games.game", "outcome", "gewonnen"), "outcome"),
        (_set("games.game", "confirmation", "misschien"), "confirmation"),
        (_set("games.game", "table", 40_000), "table"),  # smallint, also on SQLite
        (_set("games.game", "score_a", True), "score_a"),
        (_set("games.seat", "score", 1.5), "score"),
        (_set("games.game", "entered_at", "2024-05-01T20:00:00"), "entered_at"),  # no zone
        (_set("games.game", "entered_at", "0001-01-01T00:00:00+14:00"), "entered_at"),
        (_set("games.game", "counter_result", {"outcome": "winst"}), "counter_result"),
        (_set("competition.round", "date", "2024-02-30"), "date"),
        (_set("competition.round", "status", "geheim"), "status"),
        (_set("competition.competition", "tiebreaks", ["loting"]), "tiebreaks"),
        (_set("clubs.player", "rating", -5), "rating"),
        (_set("games.seat", "player", None), "games.seat"),
    ],
)
def test_each_field_is_checked_as_the_forms_check_it(files, edit, expected):
    assert expected in refusal(edited(files, edit))


def test_a_seat_must_be_in_its_games_round(files):
    def edit(document, history):
        seat = document["data"]["games.seat"][0]
        game = next(g for g in document["data"]["games.game"] if g["id"] == seat["game"])
        others = [
            r["id"] for r in document["data"]["competition.round"] if r["id"] != game["round"]
        ]
        seat["round"] = others[0]

    assert "games.seat" in refusal(edited(files, edit))


def test_a_game_at_a_table_has_two_to_four_seats(files):
    def edit(document, history):
        seats = document["data"]["games.seat"]
        table = next(g for g in document["data"]["games.game"] if g["outcome"] != "bye")
        seats.remove(next(seat for seat in seats if seat["game"] == table["id"]))  # one of 2

    assert "games.game" in refusal(edited(files, edit))


def test_a_gcg_file_of_a_game_not_in_the_archive_is_refused(files):
    data = zipped([*files.items(), ("games/999999.gcg", b"#character-encoding UTF-8\n")])
    assert "games/999999.gcg" in refusal(data)


# --- 3. accounts are never linked to existing users ------------------------------------


def test_a_forged_account_link_gives_no_one_a_club(files):
    admin = User.objects.create_superuser("admin", password="x")  # an account with no player

    def edit(document, history):
        player = document["data"]["clubs.player"][0]
        player["user"] = "admin"
        player["invite_code_hash"], player["invite_expires_at"] = (
            "a" * 64,
            "2999-01-01T00:00:00+00:00",
        )
        membership = next(
            m for m in document["data"]["clubs.membership"] if m["player"] == player["id"]
        )
        membership["role"] = "secretary"

    report = restore_club(data=edited(files, edit), slug="kopie")

    assert not Player.objects.filter(user=admin).exists()
    restored = Player.objects.filter(memberships__club=report.club)
    assert not restored.filter(user__isnull=False).exists()
    assert not restored.exclude(invite_code_hash="").exists()
    assert not report.club.memberships.filter(role=Membership.Role.SECRETARY).exists()
    assert "admin" in report.accounts


def test_a_forged_history_author_is_kept_as_a_name_only(files):
    User.objects.create_user("voorzitter", password="x")

    def edit(document, history):
        for entry in history:
            entry["row"]["by"], entry["row"]["by_name"] = "voorzitter", ""

    report = restore_club(data=edited(files, edit), slug="kopie")
    entries = HistoryEntry.objects.filter(club=report.club)
    assert entries.exists() and not entries.filter(by__isnull=False).exists()
    assert set(entries.values_list("by_name", flat=True)) == {"voorzitter"}


def test_the_command_says_that_secretaries_must_be_invited_again(files, tmp_path, capsys):
    path = tmp_path / "club.zip"
    path.write_bytes(zipped(list(files.items())))
    call_command("import_club", str(path), slug="kopie")
    output = capsys.readouterr().out
    assert "Er is geen account gekoppeld" in output
    assert "Secretarissen in het archief, teruggezet als lid" in output
    assert not Club.objects.get(slug="kopie").memberships.filter(role="secretary").exists()


def test_a_refusal_in_the_command_is_a_command_error_and_changes_nothing(files, tmp_path):
    def edit(document, history):
        _game_with_moves(document)["rules"] = {"name": "vals", "rack_size": 99}

    path = tmp_path / "vals.zip"
    path.write_bytes(edited(files, edit))
    before = counts()
    with pytest.raises(CommandError, match=r"games\.game .* rules"):
        call_command("import_club", str(path), slug="kopie")
    assert counts() == before
