"""Word lists: normalisation, classification per kind, shipped defaults, builds."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from rules.dawg import Dawg
from rules.lexicon import (
    KINDS,
    MAX_LENGTH,
    Lexicon,
    Trait,
    UnknownLexiconKind,
    classify,
    default_manifest,
    in_kind,
    kind_word,
    normalise,
)
from rules.lexicon_build import main
from rules.lexicon_source import MIN_WORDS
from tests.word_lists import filler

# -- normalisation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("woord", "WOORD"),
        ("Woord", "WOORD"),
        ("café", "CAFE"),
        ("beëindigen", "BEEINDIGEN"),
        ("crème fraîche", "CREMEFRAICHE"),
        ("façade", "FACADE"),
        ("Ångström", "ANGSTROM"),
        ("señor", "SENOR"),
        ("ĳs", "IJS"),
        ("Ĳsselmeer", "IJSSELMEER"),
        ("e-mailen", "EMAILEN"),
        ("e‐mailen", "EMAILEN"),  # U+2010 hyphen
        ("pizzeria's", "PIZZERIAS"),
        ("pizzeria’s", "PIZZERIAS"),  # typographic apostrophe
        ("ter orde komen", "TERORDEKOMEN"),
        ("ad  fundum", "ADFUNDUM"),
        ("a.m.", "AM"),
        ("d.w.z.", "DWZ"),
        ("ja, nee", "JANEE"),
        ("Straße", "STRASSE"),
        ("  huis\n", "HUIS"),
    ],
)
def test_normalise(entry: str, expected: str) -> None:
    assert normalise(entry) == expected


@pytest.mark.parametrize(
    "entry",
    ["A4", "3D-printer", "50 eurobiljet", "CO₂", "m²", "B&B", "km/h", "C++", "@-teken", "", " "],
)
def test_normalise_drops_digits_and_symbols(entry: str) -> None:
    assert normalise(entry) is None


def test_kind_word_applies_length_limits() -> None:
    assert kind_word("a") is None  # a single letter is never a word on the board
    assert kind_word("aa") == "AA"
    assert kind_word("x" * MAX_LENGTH) == "X" * MAX_LENGTH
    assert kind_word("x" * (MAX_LENGTH + 1)) is None


# -- classification --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "traits"),
    [
        ("woord", Trait.NONE),
        ("café", Trait.DIACRITIC),
        ("Dodoma", Trait.NAME),
        ("McCain", Trait.NAME),
        ("Nestlé", Trait.NAME | Trait.DIACRITIC),
        ("RTL", Trait.ABBREVIATION),
        ("enz.", Trait.ABBREVIATION),
        ("kW", Trait.ABBREVIATION),
        ("btw", Trait.ABBREVIATION),
        ("e-mailen", Trait.HYPHEN),
        ("NAVO-verdrag", Trait.HYPHEN | Trait.ABBREVIATION),
        ("pizzeria's", Trait.APOSTROPHE),
        ("'s-Hertogenbosch", Trait.APOSTROPHE | Trait.HYPHEN | Trait.NAME),
        ("ter orde komen", Trait.MULTIWORD),
        ("vitamine C", Trait.MULTIWORD | Trait.ABBREVIATION),
        ("Dr. Nolenslaan", Trait.MULTIWORD | Trait.ABBREVIATION | Trait.NAME),
        ("A4", Trait.NUMERAL | Trait.ABBREVIATION),
        ("MCMLXVIII", Trait.NUMERAL | Trait.ABBREVIATION),
        ("km/h", Trait.SYMBOL),
    ],
)
def test_classify(entry: str, traits: Trait) -> None:
    assert classify(entry) == traits


@pytest.mark.parametrize("entry", ["brr", "hm", "st", "pst", "tss"])
def test_vowelless_interjections_are_words(entry: str) -> None:
    assert classify(entry) == Trait.NONE
    assert in_kind(entry, "standard")


@pytest.mark.parametrize(
    ("entry", "gouds8", "standard"),
    [
        ("woord", True, True),
        ("beëindigen", True, True),  # accents dropped, allowed in both
        ("Dodoma", True, False),  # name
        ("RTL", True, False),  # abbreviation
        ("enz.", True, False),  # abbreviation with a dot
        ("e-mailen", True, False),  # hyphen
        ("pizzeria's", True, False),  # apostrophe
        ("ter orde komen", True, False),  # split expression
        ("A4", False, False),  # digits: unplayable
        ("XIV", False, False),  # Roman numeral: unplayable
        ("B&B", False, False),  # symbol
    ],
)
def test_kinds(entry: str, gouds8: bool, standard: bool) -> None:
    assert in_kind(entry, "gouds8") is gouds8
    assert in_kind(entry, "standard") is standard


def test_unknown_kind() -> None:
    with pytest.raises(UnknownLexiconKind, match="nsb") as info:
        Lexicon.default("nsb")
    assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError):
        in_kind("woord", "nsb")
    with pytest.raises(ValueError):
        Lexicon.from_words(["woord"], kind="nsb")


# -- shipped defaults ------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize(
    "word", ["WOORD", "HUIS", "KAT", "BORD", "SPEL", "LETTER", "ZO", "AA", "IJS", "CAFE"]
)
def test_default_has_common_words(kind: str, word: str) -> None:
    assert word in Lexicon.default(kind)


@pytest.mark.parametrize(
    "word", ["NELIS", "DODOMA", "AMSTERDAM", "NAVO", "BTW", "EMAILEN", "PIZZERIAS", "ADFUNDUM"]
)
def test_gouds8_keeps_names_abbreviations_and_split_words(word: str) -> None:
    assert word in Lexicon.default("gouds8")
    assert word not in Lexicon.default("standard")


def test_default_leaves_out_unplayable() -> None:
    lexicon = Lexicon.default()
    for word in ["XIV", "MCMLXVIII", "A", "QQQ", ""]:
        assert word not in lexicon


def test_default_is_cached_and_consistent() -> None:
    gouds8 = Lexicon.default()
    assert Lexicon.default("gouds8") is gouds8
    standard = Lexicon.default("standard")
    assert 250_000 < len(standard) < len(gouds8) < 450_000
    manifest = default_manifest()
    for kind in KINDS:
        assert manifest["kinds"][kind]["words"] == len(Lexicon.default(kind))


def test_default_words_are_normalised() -> None:
    for lexicon in (Lexicon.default("gouds8"), Lexicon.default("standard")):
        for word in lexicon:
            assert word.isascii() and word.isalpha() and word.isupper(), word
            assert 2 <= len(word) <= MAX_LENGTH, word


def test_lookup_is_case_sensitive_but_accepts_normalises() -> None:
    lexicon = Lexicon.default()
    assert "woord" not in lexicon  # documented: `in` wants the normalised word
    assert lexicon.accepts("woord")
    assert lexicon.accepts("Beëindigen")
    assert lexicon.accepts("ad fundum")
    assert not lexicon.accepts("A4")
    assert lexicon.has_prefix("WOOR")
    assert not lexicon.has_prefix("QXZ")


def test_shipped_licence_and_readme() -> None:
    data = Path(__file__).resolve().parents[2] / "rules" / "data"
    assert "OpenTaal" in (data / "LICENSE-OpenTaal.txt").read_text(encoding="utf-8")
    assert "wdutch" in (data / "README.md").read_text(encoding="utf-8")


# -- own lists -------------------------------------------------------------------------


CLUB_LIST = """\
# our club's additions
Woord
beëindigen
ĳs
Gouda
e-mailen
ter orde komen
A4
x
"""


def test_from_words() -> None:
    lexicon = Lexicon.from_words(CLUB_LIST.splitlines()[1:], name="club")
    assert sorted(lexicon) == ["BEEINDIGEN", "EMAILEN", "GOUDA", "IJS", "TERORDEKOMEN", "WOORD"]
    assert len(lexicon) == 6
    assert "club" in repr(lexicon)
    standard = Lexicon.from_words(CLUB_LIST.splitlines(), kind="standard")
    assert sorted(standard) == ["BEEINDIGEN", "IJS"]  # "Woord" is capitalised: a name


def test_from_file_and_pickle(tmp_path: Path) -> None:
    path = tmp_path / "club.txt"
    path.write_text(CLUB_LIST, encoding="utf-8")
    lexicon = Lexicon.from_file(path)
    assert "GOUDA" in lexicon
    assert "X" not in lexicon
    assert len(lexicon) == 6
    copy = pickle.loads(pickle.dumps(lexicon))
    assert isinstance(copy, Lexicon)
    assert sorted(copy) == sorted(lexicon)
    assert copy.name == "club.txt"


def test_empty_list(tmp_path: Path) -> None:
    lexicon = Lexicon.from_words([])
    assert len(lexicon) == 0
    assert "WOORD" not in lexicon
    lexicon.save(tmp_path / "empty.marisa")
    assert len(Lexicon.open(tmp_path / "empty.marisa")) == 0


# -- building --------------------------------------------------------------------------


SOURCE = """\
woord
woorden
café
Nelis
NAVO
enz.
e-mailen
pizzeria's
ter orde komen
A4
XIV
B&B
a
hottentottententententoonstellingen
"""


def test_build_defaults_from_synthetic_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "dutch"
    source.write_text(SOURCE, encoding="utf-8")
    out = tmp_path / "data"
    assert (
        main(["--source", str(source), "--source-version", "test", "--output-dir", str(out)]) == 0
    )
    gouds8 = Lexicon.open(out / "gouds8.marisa")
    standard = Lexicon.open(out / "standard.marisa")
    assert sorted(standard) == ["CAFE", "WOORD", "WOORDEN"]
    listed = ["NELIS", "NAVO", "ENZ", "EMAILEN", "PIZZERIAS", "TERORDEKOMEN"]
    assert sorted(gouds8) == sorted(["CAFE", "WOORD", "WOORDEN", *listed])
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source_version"] == "test"
    assert manifest["counts"]["entries"] == 14
    assert manifest["counts"]["unplayable_entries"] == 3
    assert manifest["counts"]["out_of_length_entries"] == 2
    printed = capsys.readouterr().out
    assert "gouds8: 9 entries -> 9 words" in printed
    assert "standard: 3 entries -> 3 words" in printed


def test_build_is_deterministic(tmp_path: Path) -> None:
    source = tmp_path / "dutch"
    source.write_text(SOURCE, encoding="utf-8")
    for name in ("one", "two"):
        main(["--source", str(source), "--output-dir", str(tmp_path / name)])
    for kind in KINDS:
        one = (tmp_path / "one" / f"{kind}.marisa").read_bytes()
        assert one == (tmp_path / "two" / f"{kind}.marisa").read_bytes()


def test_build_club_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "club.txt"
    source.write_text(CLUB_LIST + "\n".join(filler()), encoding="utf-8")
    output = tmp_path / "out" / "club.marisa"
    assert main(["--club-list", str(source), "--output", str(output)]) == 0
    assert len(Lexicon.open(output)) == 6 + MIN_WORDS
    assert f"-> {6 + MIN_WORDS} words" in capsys.readouterr().out
    assert main(["--club-list", str(source), "--output", str(output), "--kind", "standard"]) == 0
    ours = ["BEEINDIGEN", "IJS"]
    assert [word for word in Lexicon.open(output) if not word.startswith("QQQQ")] == ours
    # The DAWG beside it, for the duplicate tops: the same words, built again with them.
    assert [word for word in Dawg.open(output.with_suffix(".dawg")) if word[:4] != "QQQQ"] == ours
    assert sorted(path.name for path in output.parent.iterdir()) == ["club.dawg", "club.marisa"]


def test_build_missing_source_explains(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--source", str(tmp_path / "nope"), "--output-dir", str(tmp_path)]) == 2
    assert "apt-get download wdutch" in capsys.readouterr().err
    assert main(["--club-list", str(tmp_path / "nope"), "--output", str(tmp_path / "x")]) == 2


def test_build_club_list_needs_output(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main(["--club-list", str(tmp_path / "club.txt")])
