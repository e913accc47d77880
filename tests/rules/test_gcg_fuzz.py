"""Whatever the bytes, the GCG reader answers with a game or a GCGError, never another
exception: real files (../shared/gcg, the demo games, the conformance fixtures) mutated
by byte flips, lost and doubled lines, odd lines, truncation and random JSON pragmas."""

import contextlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import GCGError, gcg
from rules.ruleset import RuleSet

from .helpers import GCG_DIR, REPO

SOURCES = [
    *sorted(GCG_DIR.glob("*.gcg")),
    *sorted((REPO / "games" / "demo").glob("*.gcg")),
    *sorted((Path(__file__).parent / "fixtures" / "gcg").glob("*.gcg")),
]
FILES = [path.read_bytes() for path in SOURCES]

if os.environ.get("CI") == "true" and not GCG_DIR.is_dir():  # pragma: no cover
    raise RuntimeError(f"{GCG_DIR} is missing: the fuzz test needs the real games")

ODD_LINES = [
    b'#bordpunt-tiles {"letters": 5}',
    b"#bordpunt-rules " + b"[" * 3000,
    b'#bordpunt-rules {"name": "x", "rack_size": 1e400}',
    b"#character-encoding UTF-8\x00",
    b"#character-encoding zlib_codec",
    b"\xff\xfe\x00>",
    b">a: ABC 8H " + b"9" * 5000 + b" +1 1",
    b">a: ABC -\xc2\xb2 +0 0",
    b">doug: ABC -99999999999999999999 +0 0",
    b"#player3 x X",
    b"#player9 x X",
    b"#bordpunt-blankswap >a: H8,H8,H99 +0 0",
    b"#bordpunt-flagfall >",
    b">a: (challenge) +5 99999999999999",
    b">a: (time) -10 0",
    b">a: (ZZZZZZZZZZZZZZZZZZZZ) -1 -1",
    b"\xef\xbb\xbf",
    b"#note \r\n continuation",
]

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=12,
)
FIELD_NAMES = [f for f in RuleSet.__dataclass_fields__] + ["letters", "blanks"]
JSON_OBJECTS = st.dictionaries(st.sampled_from(FIELD_NAMES), JSON, max_size=6)


@st.composite
def mutated(draw):
    data = bytearray(draw(st.sampled_from(FILES)))
    for _ in range(draw(st.integers(1, 4))):
        lines = bytes(data).split(b"\n")
        kind = draw(st.sampled_from(["flip", "delete", "duplicate", "insert", "cut", "json"]))
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        if kind == "flip" and data:
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
            continue
        if kind == "delete":
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "insert":
            lines.insert(at, draw(st.sampled_from(ODD_LINES) | st.binary(max_size=30)))
        elif kind == "cut":
            data = data[: draw(st.integers(0, len(data)))]
            continue
        elif kind == "json":
            pragma = draw(st.sampled_from([b"#bordpunt-rules ", b"#bordpunt-tiles "]))
            value = draw(JSON | JSON_OBJECTS)
            lines.insert(at, pragma + json.dumps(value).encode())
        data = bytearray(b"\n".join(lines))
    return bytes(data)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=mutated())
def test_any_mutation_of_a_real_file_reads_or_raises_gcg_error(data):
    try:
        record = gcg.read(data)
    except GCGError as err:
        assert err.line >= 1 and err.code.startswith("gcg")
        assert str(err).startswith(f"line {err.line}: ")
    else:
        assert len(record.lines) == len(record.game.history)


@pytest.mark.parametrize("line", ODD_LINES)
def test_each_odd_line_in_the_header_of_a_real_file(line):
    data = FILES[0]
    head, _, rest = data.partition(b"\n")
    with contextlib.suppress(GCGError):
        gcg.read(head + b"\n" + line + b"\n" + rest)
