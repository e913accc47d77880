"""Results files for the tests: built as the export builds them, or as JSON edited."""

from __future__ import annotations

import json
import uuid
from datetime import date
from decimal import Decimal
from typing import Any

from ranking.files import (
    FileClub,
    FileGame,
    ResultsFile,
    checksum,
    file_content,
    results_file_json,
    results_with_percentages,
)

GOUDA = FileClub("De Goudse Letters", "GL")
DELFT = FileClub("Scrabbleclub Delft", "DE")

#: (federation number, name, club, points) of one interclub game: 500 is the winner,
#: the median of the five is 400.
GAME_ONE = [
    ("1001", "Anna de Vries", GOUDA, 500),
    ("1002", "Bert Bakker", GOUDA, 450),
    ("1003", "Cor Cornelissen", DELFT, 400),
    ("1004", "Dirk Dekker", DELFT, 350),
    (None, "Gast Gastmans", None, 300),
]


def interclub(
    *,
    uid: uuid.UUID | None = None,
    day: date = date(2026, 10, 3),
    games: list[list[tuple[Any, ...]]] | None = None,
    gap_value: Decimal = Decimal("20"),
    name: str = "Interclub Gouda",
) -> ResultsFile:
    games = games if games is not None else [GAME_ONE, GAME_ONE]
    return ResultsFile(
        uid=uid or uuid.uuid4(),
        name=name,
        organiser=GOUDA,
        kind="interclub",
        date=day,
        season="2026-2027",
        games=tuple(
            FileGame(
                number=number,
                date=day,
                division="A",
                gap_value=gap_value,
                results=results_with_percentages(rows, gap_value),
            )
            for number, rows in enumerate(games, 1)
        ),
        program="Bordpunt test",
    )


def as_json(results: ResultsFile) -> bytes:
    return results_file_json(results)


def edited(data: bytes, change, *, sign: bool = False) -> bytes:
    """The file's JSON changed by `change(dict)`; signed again (as another program might)
    only when `sign`."""
    value = json.loads(data)
    change(value)
    if sign:
        content = {key: v for key, v in value.items() if key != "checksum"}
        value["checksum"] = checksum(content)
    return json.dumps(value, ensure_ascii=False).encode()


__all__ = ["DELFT", "GOUDA", "as_json", "edited", "file_content", "interclub"]
