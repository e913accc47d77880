"""The TSH reader on any text: a tournament, or its own error (TshError) with a code, never
another exception. Mutations of the hand-written file and of what Bordpunt writes."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interchange.core import tsh

HAND_WRITTEN = (Path(__file__).parents[1] / "fixtures" / "tsh_hand_written.t").read_text()
ODD_WORDS = ["0", "-1", "99999999999999999999", "²", "٣", "+50", ";", "p12", "newr", "\x00", ""]


@st.composite
def mutated(draw) -> str:
    lines = HAND_WRITTEN.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "double", "word", "truncate", "junk"]))
        index = draw(st.integers(0, max(len(lines) - 1, 0)))
        if not lines:
            lines = [""]
        if kind == "delete" and len(lines) > 1:
            del lines[index]
        elif kind == "double":
            lines.insert(index, lines[index])
        elif kind == "word":
            words = lines[index].split(" ")
            spot = draw(st.integers(0, len(words) - 1))
            words[spot] = draw(st.sampled_from(ODD_WORDS))
            lines[index] = " ".join(words)
        elif kind == "truncate":
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        else:
            lines.insert(index, draw(st.text(max_size=40)))
    return "\n".join(lines)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_read_or_refuse_with_a_code(text):
    try:
        tsh.to_tournament(tsh.parse(text))
    except tsh.TshError as error:
        assert error.code
