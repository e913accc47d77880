"""Numbers as the reader writes them: every fraction that Python code writes for a page,
a CSV or a chart comes through here; templates use Django's `floatformat`, which does the
same.

Dutch readers write a decimal comma ("0,67"), English readers a point ("0.67"); Django's
localisation of the active language decides (`django.utils.formats`). No thousands
separator in tables and files (`USE_THOUSAND_SEPARATOR` is off, config/settings.py says
why): a season's 1552 board points stay "1552". JSON is for machines and keeps plain
numbers; these functions are for what people read.

Django: django.utils.formats.
"""

from typing import Any

from django.utils.formats import get_format, number_format


def decimal(value: float | None, places: int) -> str:
    """`value` rounded to `places` decimals, in the reader's notation; None as "".

    >>> from django.utils import translation
    >>> with translation.override("nl"):
    ...     decimal(2 / 3, 2), decimal(1552, 1), decimal(None, 2)
    ('0,67', '1552,0', '')
    >>> with translation.override("en"):
    ...     decimal(2 / 3, 3)
    '0.667'
    """
    # Rounded as Python rounds (the standings always did), then written the reader's way:
    # a standings page formats some thousand numbers, and this is a tenth of floatformat's time.
    return "" if value is None else f"{value:.{places}f}".replace(".", decimal_separator())


def points(value: float | None) -> str:
    """Match points: whole unless a competition awards halves (12, 12,5); None as "".

    >>> from django.utils import translation
    >>> with translation.override("nl"):
    ...     points(12.0), points(12.5), points(None)
    ('12', '12,5', '')
    """
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else decimal(value, 1)


def signed(value: int | None) -> str:
    """A difference, such as a spread, with its sign: every page writes it the same way.

    >>> signed(161), signed(-83), signed(0), signed(None)
    ('+161', '-83', '0', '')
    """
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


def decimal_separator() -> str:
    """The reader's decimal separator: "," in Dutch, "." in English."""
    return str(get_format("DECIMAL_SEPARATOR"))


def csv_delimiter() -> str:
    """The CSV field separator the reader's spreadsheet expects: a semicolon where the
    decimal separator is a comma (Dutch Excel and LibreOffice), else a comma."""
    return ";" if decimal_separator() == "," else ","


def csv_number(value: Any) -> Any:
    """A number for a CSV cell: a whole float as an integer (12.0 as 12), a fraction with
    every digit it has and the reader's decimal separator; anything else as it is.

    >>> from django.utils import translation
    >>> with translation.override("nl"):
    ...     csv_number(12.0), csv_number(1.0584), csv_number(-3), csv_number("Anna")
    (12, '1,0584', -3, 'Anna')
    """
    if isinstance(value, float):
        return int(value) if value.is_integer() else str(number_format(value))
    return value
