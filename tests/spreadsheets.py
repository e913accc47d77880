"""Reading back the CSV files the site writes, as a spreadsheet would: a Dutch reader's
file is separated by semicolons and writes a decimal comma, an English reader's by commas
with a decimal point (`clubs.numbers`)."""

import csv
import io


def csv_rows(text: str) -> list[dict[str, str]]:
    """The rows of a CSV file, separated by what its header line uses."""
    header = text.split("\n", 1)[0]
    delimiter = ";" if ";" in header else ","
    return list(csv.DictReader(io.StringIO(text), delimiter=delimiter))


def csv_lines(text: str) -> list[list[str]]:
    """The cells of every line, header included."""
    delimiter = ";" if ";" in text.split("\n", 1)[0] else ","
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


def dutch_number(text: str) -> float:
    """A number as a Dutch reader's file writes it: "1,0584" is 1.0584."""
    return float(text.replace(",", "."))
