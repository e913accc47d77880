"""Build the compact word list files read by :mod:`rules.lexicon`.

``python -m rules build-lexicon`` rebuilds the shipped defaults in ``rules/data/`` (one
``<kind>.marisa`` per kind plus ``manifest.json``) from Debian's ``wdutch`` word list
(OpenTaal), ``/usr/share/dict/dutch`` unless ``--source`` says otherwise.

``python -m rules build-lexicon --club-list FILE --output OUT`` builds a club's own list
from a plain text file (one entry per line, ``#`` comments), normalised the same way, once
:mod:`rules.lexicon_source` has checked it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rules.dawg import SUFFIX as DAWG_SUFFIX
from rules.dawg import build as build_dawg
from rules.lexicon import (
    DATA_DIR,
    KINDS,
    MANIFEST_NAME,
    MAX_LENGTH,
    MIN_LENGTH,
    SUFFIX,
    UNPLAYABLE,
    Lexicon,
    classify,
    normalise,
    read_entries,
)
from rules.lexicon_source import ClubList, WordListError, read_club_list

DEFAULT_SOURCE = Path("/usr/share/dict/dutch")

HOW_TO_GET_SOURCE = """\
The word list source {path} does not exist.
It is Debian's `wdutch` package (OpenTaal's Dutch word list). Either install it
(`sudo apt-get install wdutch`), or fetch it without installing:

    mkdir -p /tmp/wdutch && cd /tmp/wdutch
    apt-get update && apt-get download wdutch
    dpkg-deb -x wdutch_*.deb .

and pass `--source /tmp/wdutch/usr/share/dict/dutch --source-version <version>`
(the version is in the .deb's file name, e.g. 1:2.20.19-2)."""


@dataclass
class BuildStats:
    """Counts from one build, printed by :func:`main` and kept in the manifest."""

    entries: int = 0
    unplayable: int = 0
    out_of_length: int = 0
    kept_entries: Counter[str] = field(default_factory=Counter)
    words: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "unplayable_entries": self.unplayable,
            "out_of_length_entries": self.out_of_length,
            "kept_entries": dict(self.kept_entries),
            "words": self.words,
        }


def build_kinds(entries: Iterable[str]) -> tuple[dict[str, set[str]], BuildStats]:
    """The normalised word set per kind in :data:`rules.lexicon.KINDS`, with counts."""
    stats = BuildStats()
    words: dict[str, set[str]] = {kind: set() for kind in KINDS}
    for entry in entries:
        stats.entries += 1
        traits = classify(entry)
        if traits & UNPLAYABLE:
            stats.unplayable += 1
            continue
        word = normalise(entry)
        if word is None:  # classify marks these SYMBOL; kept for the type checker
            stats.unplayable += 1
            continue
        if not MIN_LENGTH <= len(word) <= MAX_LENGTH:
            stats.out_of_length += 1
            continue
        for kind, excluded in KINDS.items():
            if not traits & excluded:
                words[kind].add(word)
                stats.kept_entries[kind] += 1
    stats.words = {kind: len(ws) for kind, ws in words.items()}
    return words, stats


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _installed_wdutch_version() -> str | None:
    try:
        result = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "wdutch"],
            capture_output=True,
            text=True,
            check=False,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if result.returncode != 0:
        return None
    return result.stdout.strip() or None


def build_default(
    source: Path, output_dir: Path, source_version: str | None, out: TextIO
) -> BuildStats:
    """Write ``<kind>.marisa`` for every kind and ``manifest.json`` into ``output_dir``."""
    with source.open(encoding="utf-8") as fh:
        words, stats = build_kinds(read_entries(fh))
    output_dir.mkdir(parents=True, exist_ok=True)
    files: dict[str, dict[str, Any]] = {}
    for kind, kind_words in words.items():
        path = output_dir / f"{kind}{SUFFIX}"
        Lexicon.from_words(sorted(kind_words)).save(path)
        files[kind] = {"file": path.name, "words": len(kind_words), "bytes": path.stat().st_size}
        # The move generator's structure, from the same words (see rules/dawg.py).
        dawg_path = output_dir / f"{kind}{DAWG_SUFFIX}"
        dawg = build_dawg(kind_words, name=kind)
        dawg.save(dawg_path)
        files[kind]["dawg"] = {
            "file": dawg_path.name,
            "nodes": len(dawg.masks),
            "bytes": dawg_path.stat().st_size,
        }
    manifest = {
        "source": "OpenTaal Dutch word list, Debian package wdutch (/usr/share/dict/dutch)",
        "source_file": source.name,
        "source_version": source_version or "unknown",
        "source_sha256": _sha256(source),
        "licence": "BSD (revised) or CC BY 3.0, at the user's choice; see LICENSE-OpenTaal.txt",
        "min_length": MIN_LENGTH,
        "max_length": MAX_LENGTH,
        "kinds": files,
        "counts": stats.as_dict(),
    }
    with (output_dir / MANIFEST_NAME).open("w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=2, sort_keys=True)
        fh.write("\n")
    print(f"source: {source} (version {manifest['source_version']})", file=out)
    print(
        f"entries read: {stats.entries}; unplayable (digits, numerals, symbols): "
        f"{stats.unplayable}; outside length {MIN_LENGTH}..{MAX_LENGTH}: {stats.out_of_length}",
        file=out,
    )
    for kind, info in files.items():
        print(
            f"{kind}: {stats.kept_entries[kind]} entries -> {info['words']} words, "
            f"{output_dir / info['file']} ({info['bytes']} bytes), "
            f"{output_dir / info['dawg']['file']} ({info['dawg']['bytes']} bytes)",
            file=out,
        )
    return stats


def build_club_list(source: Path, output: Path, kind: str | None, out: TextIO) -> ClubList:
    """Write a club's own list: ``output`` (the marisa file, for checking words) and the
    DAWG beside it (``.dawg``, for the duplicate tops); returns what was read. The file is
    checked first (:mod:`rules.lexicon_source`: WordListError, and nothing written); the
    DAWG is written first, so a list whose marisa file is there is whole."""
    club_list = read_club_list(source, kind)
    lexicon = Lexicon(club_list.words, name=output.stem)
    output.parent.mkdir(parents=True, exist_ok=True)
    dawg_path = output.with_suffix(DAWG_SUFFIX)
    partial = dawg_path.with_name(f".{dawg_path.name}.tmp")
    try:
        build_dawg(club_list.words, name=output.stem).save(partial)
        partial.replace(dawg_path)
    except BaseException:
        partial.unlink(missing_ok=True)  # a full disk leaves no half file behind
        raise
    lexicon.save(output)
    print(
        f"{source}: {club_list.entries} entries -> {len(lexicon)} words"
        f"{f' (kind {kind})' if kind else ''}, {output} ({output.stat().st_size} bytes)",
        file=out,
    )
    if club_list.dropped:
        print(
            f"left out: {club_list.dropped} entries that are no words of 2 to 15 letters", file=out
        )
    if club_list.byte_order_mark:
        print("a byte-order mark was dropped", file=out)
    if club_list.first_joined:
        entry, word = club_list.first_joined
        print(
            f"{club_list.joined} entries with spaces became one word each "
            f"(e.g. {entry!r} -> {word}): one word a line if they are separate words",
            file=out,
        )
    return club_list


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m rules build-lexicon",
        description=(
            "Rebuild the shipped word lists from Debian's wdutch (OpenTaal) list, or build "
            "a club's own list from a plain text file."
        ),
    )
    p.add_argument(
        "--source",
        type=Path,
        default=DEFAULT_SOURCE,
        help=f"wdutch word list to build the defaults from (default {DEFAULT_SOURCE})",
    )
    p.add_argument(
        "--source-version",
        help="version of the wdutch package, recorded in manifest.json "
        "(default: asked from dpkg when the installed list is used)",
    )
    p.add_argument(
        "--output-dir",
        type=Path,
        default=DATA_DIR,
        help=f"where the default lists go (default {DATA_DIR})",
    )
    p.add_argument("--club-list", type=Path, help="plain text list, one entry per line")
    p.add_argument("--output", type=Path, help="output file for --club-list")
    p.add_argument(
        "--kind",
        choices=sorted(KINDS),
        help="with --club-list: keep only entries of this kind (default: all that normalise)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Command line entry point; returns the exit status."""
    p = parser()
    args = p.parse_args(list(argv) if argv is not None else None)
    out = sys.stdout
    if args.club_list is not None:
        if args.output is None:
            p.error("--club-list needs --output")
        if not args.club_list.is_file():
            print(f"club list {args.club_list} does not exist", file=sys.stderr)
            return 2
        try:
            build_club_list(args.club_list, args.output, args.kind, out)
        except WordListError as error:
            print(f"club list {args.club_list}: {error}", file=sys.stderr)
            return 2
        return 0
    if args.output is not None or args.kind is not None:
        p.error("--output and --kind go with --club-list; use --output-dir for the defaults")
    source: Path = args.source
    if not source.is_file():
        print(HOW_TO_GET_SOURCE.format(path=source), file=sys.stderr)
        return 2
    version = args.source_version
    if version is None and source == DEFAULT_SOURCE:
        version = _installed_wdutch_version()
    build_default(source, args.output_dir, version, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
