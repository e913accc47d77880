"""The pure CSV reader: rows as plain records, every problem a code with its params."""

import pytest

from competition.core import results_csv
from competition.core.results_csv import CsvError, CsvRefused, ImportRow, Limits
from games.services import ResultKind

LIMITS = Limits(max_name=10, min_score=-5, max_score=500)
HEADER = "round;table;player;opponent;score;opponent_score;outcome\n"


def test_a_semicolon_file_reads_as_rows():
    rows = results_csv.read((HEADER + "1;2;An;Bert;300;250;\n").encode(), limits=LIMITS)
    assert rows == [ImportRow(2, 1, 2, "An", "Bert", "normal", 300, 250)]


def test_every_bad_row_is_a_code_with_its_line_and_params():
    data = HEADER + "x;;An;Bert;1;2;\n1;;An;An;1;2;\n1;;Anke de Vries;B;1;2;\n1;;A;B;501;0;\n"
    with pytest.raises(CsvRefused) as refused:
        results_csv.read(data.encode(), limits=LIMITS)
    assert [(e.code, e.line) for e in refused.value.errors] == [
        ("bad_number", 2),
        ("against_self", 3),
        ("name_too_long", 4),
        ("bad_number", 5),
    ]
    assert refused.value.errors[0].params["value"] == "x"
    assert refused.value.errors[3].params == {
        "line": 5, "column": "score", "low": -5, "high": 500, "value": "501"
    }  # fmt: skip


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"round;table\n", "missing_columns"),
        (HEADER.encode(), "no_results"),
        (HEADER.encode() + b"1;;\xe9;B;1;2;\n", "not_utf8"),
        (b"x" * (results_csv.MAX_FILE_BYTES + 1), "too_large"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_error(data, code):
    with pytest.raises(CsvError) as error:
        results_csv.read(data, limits=LIMITS)
    assert error.value.code == code


def test_the_result_kinds_are_the_codes_of_the_results_service():
    """The core cannot import games.services; its kinds must still be the same codes."""
    kinds = {value for value in results_csv.OUTCOMES.values() if value != results_csv.BYE}
    assert kinds == {code for code, _label in ResultKind.choices}
    assert {ResultKind.NORMAL, ResultKind.FLAG_A, ResultKind.FLAG_B} == results_csv.SCORED
