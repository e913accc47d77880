"""The restore on mutated archives: a valid club restored, or our refusal (BackupError) with
the database unchanged, never another exception. Mutations of a real export of a small club:
bytes, JSON values and types, member names, declared sizes, duplicate members, zip bombs."""

import json
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archives.backup import BackupError, restore_club
from competition import selectors
from competition.models import Competition
from games import engine
from games.models import Game, Move
from tests.archives.test_restore_safety import counts, files_of, small_club, zipped

pytestmark = pytest.mark.django_db

ODD_VALUES = [
    None,
    True,
    0,
    -1,
    1.5,
    32_768,
    2**31,
    2**63,
    10**40,
    "",
    "x" * 300,
    "\x00",
    "\ud800",
    "Anna\u202e",
    "a\nb",
    "2024-02-30",
    "2024-05-01T20:00:00",
    "9999-12-31T23:59:59-14:00",
    "gouds8",
    "secretary",
    "admin",
    [],
    [1, [2, [3]]],
    {},
    {"name": "x"},
    {"name": "x", "rack_size": 99},
]
ODD_NAMES = ["../club.json", "/club.json", "games/0.gcg", "games/99.gcg", "CLUB.JSON", "games/"]
BOMB = b" " * (2 * 1024 * 1024)  # packs 1,000 to 1, above the ratio's free size


@st.composite
def mutated_json(draw, files: dict[str, bytes]) -> dict[str, bytes]:
    document = json.loads(files["club.json"])
    history = json.loads(files["history.json"])
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()) and history:
            row = draw(st.sampled_from(history))["row"]
        else:
            table = draw(st.sampled_from(sorted(document["data"])))
            if not document["data"][table]:
                continue
            row = draw(st.sampled_from(document["data"][table]))
        key = draw(st.sampled_from(sorted(row)))
        kind = draw(st.sampled_from(["value", "delete", "id", "swap"]))
        if kind == "value":
            row[key] = draw(st.sampled_from(ODD_VALUES))
        elif kind == "delete":
            del row[key]
        elif kind == "id":
            row[key] = draw(st.integers(-2, 40))
        else:
            other = draw(st.sampled_from(sorted(row)))
            row[key], row[other] = row[other], row[key]
    return {
        **files,
        "club.json": json.dumps(document).encode(),
        "history.json": json.dumps(history).encode(),
    }


def _with_declared_size(data: bytes, size: int) -> bytes:
    raw = bytearray(data)
    at = raw.find(b"PK\x01\x02")
    if at >= 0:
        struct.pack_into("<L", raw, at + 24, size % 2**32)
    return bytes(raw)


@st.composite
def mutated_archive(draw, files: dict[str, bytes]) -> bytes:
    kind = draw(st.sampled_from(["json", "bytes", "name", "size", "duplicate", "bomb", "drop"]))
    members = list((draw(mutated_json(files)) if kind == "json" else files).items())
    if kind == "name":
        index = draw(st.integers(0, len(members) - 1))
        members[index] = (draw(st.sampled_from(ODD_NAMES)), members[index][1])
    elif kind == "duplicate":
        members.append(draw(st.sampled_from(members)))
    elif kind == "bomb":
        members.append((draw(st.sampled_from(["club.json", "games/1.gcg"])), BOMB))
    elif kind == "drop":
        del members[draw(st.integers(0, len(members) - 1))]
    data = zipped(members)
    if kind == "bytes":
        raw = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        if draw(st.booleans()):
            raw = raw[: draw(st.integers(0, len(raw)))]
        data = bytes(raw)
    elif kind == "size":
        data = _with_declared_size(data, draw(st.sampled_from([0, 1, 2**31, 2**32 - 1])))
    return data


def _usable(report) -> None:
    """What a restored club's pages need: standings, and every scoresheet replays."""
    for competition in Competition.objects.filter(club=report.club):
        selectors.standings_get(competition)
    games = Game.objects.filter(round__competition__club=report.club, moves__isnull=False)
    for game in games.distinct().with_seats():
        engine.replay(game, list(Move.objects.filter(game=game).order_by("number")))


def test_a_mutated_archive_restores_or_is_refused_and_nothing_else(db):
    files = files_of(small_club())
    restored = iter(range(10_000))

    @settings(
        max_examples=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated_archive(files))
    def restore_or_refuse(data):
        before = counts()
        try:
            report = restore_club(data=data, slug=f"fuzz-{next(restored)}")
        except BackupError as error:
            assert str(error.message)
            assert counts() == before
        else:
            _usable(report)

    restore_or_refuse()
