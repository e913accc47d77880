"""`bordpunt lexicon` on files that are no word list (rules/lexicon_source.py,
docs/installed.md "What a list file must be"): each refused with its message in the user's
language and nothing built, or cleaned and said; a 20 MB line refused without reading it."""

import tracemalloc
from pathlib import Path

import pytest

from bordpunt.cli import main
from config.home import Home
from rules.lexicon import Lexicon
from rules.lexicon_source import MAX_LINE, MIN_WORDS
from tests.word_lists import club_list, filler


@pytest.fixture
def home(tmp_path) -> Home:
    return Home(tmp_path / "home")


def lexicon(home: Home, source: Path, lang: str = "nl") -> int:
    return main(["--lang", lang, "--home", str(home.root), "lexicon", str(source)])


def built(home: Home) -> list[str]:
    return sorted(path.name for path in home.lexicons.iterdir()) if home.lexicons.is_dir() else []


FILLER = "\n".join(filler()).encode()

BAD = {
    "empty": (b"", "lijst.txt bevat geen woorden; er is niets gemaakt."),
    "only-comments": (b"# onze lijst\n\n   \n# nog niets\n", "lijst.txt bevat geen woorden"),
    "too-few": (
        b"kaas\nsnake\n" + b"\n".join(w.encode() for w in filler(MIN_WORDS - 3)),
        f"lijst.txt bevat {MIN_WORDS - 1} woorden: te weinig om mee te spelen "
        f"(minstens {MIN_WORDS})",
    ),
    "binary": (
        b"PK\x03\x04\x14\x00\x06\x00" + bytes(range(256)),
        "lijst.txt is geen tekstbestand (regel 1 bevat een NUL-byte)",
    ),
    "utf-16": (
        "kaas\nsnake\n".encode("utf-16"),
        "lijst.txt is opgeslagen als UTF-16 (Unicode): sla het op als UTF-8",
    ),
    "latin-1": (
        b"kaas\nsnake\ncaf\xe9\n" + FILLER,
        "Regel 3 van {file} is geen UTF-8: sla het bestand op als UTF-8",
    ),
    "long-line": (
        b"kaas\n" + b"x" * (MAX_LINE + 1) + b"\n" + FILLER,
        f"Regel 2 van {{file}} is langer dan {MAX_LINE} tekens: zo lang is geen woord",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_a_file_that_is_no_word_list_is_refused_and_nothing_is_built(home, tmp_path, capsys, case):
    content, message = BAD[case]
    source = tmp_path / "lijst.txt"
    source.write_bytes(content)
    assert lexicon(home, source) == 2
    said = capsys.readouterr().err
    assert message.format(file=source) in said and "Traceback" not in said, said
    assert built(home) == []


def test_a_refusal_in_english(home, tmp_path, capsys):
    source = tmp_path / "lijst.txt"
    source.write_bytes(b"kaas\n")
    assert lexicon(home, source, lang="en") == 2
    assert "holds 1 words: too few to play with (at least 1000)" in capsys.readouterr().err


def test_a_line_of_20_megabytes_is_refused_without_reading_it(home, tmp_path, capsys):
    source = tmp_path / "lijst.txt"
    with source.open("wb") as file:
        file.write(b"kaas\n")
        for _ in range(20):
            file.write(b"woord" * 200_000)  # 1 MB at a time: one line, no newline
    assert lexicon(home, source) == 2  # once before: the modules imported, not counted
    capsys.readouterr()
    tracemalloc.start()
    try:
        assert lexicon(home, source) == 2
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"Regel 2 van {source} is langer dan {MAX_LINE} tekens" in capsys.readouterr().err
    # Read up to the limit (a buffer or two), never the line: it alone is 20 MB.
    assert peak < 1_000_000, peak
    assert built(home) == []


def test_a_byte_order_mark_is_left_out_and_said(home, tmp_path, capsys):
    """Windows Notepad's UTF-8 starts with a mark: the first word stays a word."""
    source = tmp_path / "Kladblok.txt"
    source.write_bytes("\ufeffkaas\r\nsnake\r\n".encode() + FILLER.replace(b"\n", b"\r\n"))
    assert lexicon(home, source) == 0
    said = capsys.readouterr().out
    assert "De BOM-markering aan het begin van het bestand" in said, said
    assert f"Woordenlijst kladblok gemaakt: {MIN_WORDS + 2} woorden" in said
    words = Lexicon.open(home.lexicons / "kladblok.marisa")
    assert "KAAS" in words and "SNAKE" in words


def test_entries_with_spaces_become_one_word_and_it_is_said(home, tmp_path, capsys):
    source = tmp_path / "lijst.txt"
    source.write_text(club_list("foo bar", "ter zake", "kaas"), encoding="utf-8")
    assert lexicon(home, source) == 0
    said = capsys.readouterr().out
    assert "2 regels met spaties zijn elk één woord geworden" in said, said
    assert "(foo bar: FOOBAR)" in said
    words = Lexicon.open(home.lexicons / "lijst.marisa")
    assert {"FOOBAR", "TERZAKE", "KAAS"} <= set(words)


def test_the_rules_command_refuses_the_same_files(tmp_path, capsys):
    """`python -m rules build-lexicon --club-list` reads through the same checks."""
    from rules.lexicon_build import main as build

    source = tmp_path / "lijst.txt"
    source.write_bytes(b"kaas\n" + b"x" * 50_000)
    output = tmp_path / "out" / "lijst.marisa"
    assert build(["--club-list", str(source), "--output", str(output)]) == 2
    assert f"line 2 is longer than {MAX_LINE} characters" in capsys.readouterr().err
    assert not output.parent.exists()
