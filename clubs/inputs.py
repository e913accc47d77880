"""Strict parsing of what comes in from outside: numbers in URLs and query strings, names
typed in forms, uploaded files, and lists of errors to show.

Every app builds on clubs, so every app may use these. The rule: ASCII digits within the
range of the database column, plain text without control characters, files below a size;
anything else is refused with a message, never a server error.
"""

import math
import re
import unicodedata

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

# The ranges of the columns numbers are looked up in (PostgreSQL's smallint, integer, bigint).
SMALLINT_MAX = 32_767
INTEGER_MAX = 2_147_483_647
BIGINT_MAX = 9_223_372_036_854_775_807

_ASCII_DIGITS = re.compile(r"[0-9]+")


def parse_natural(value: str, *, maximum: int, minimum: int = 0) -> int | None:
    """The number written in ASCII digits, if it lies in [minimum, maximum]; else None.

    `str.isdigit()` is not enough: it accepts digits that `int()` refuses.

    >>> parse_natural("12", maximum=100)
    12
    >>> [parse_natural(text, maximum=100) for text in ("²", "①", "٣", "-1", "1e3", " 7", "")]
    [None, None, None, None, None, None, None]
    >>> parse_natural("99999999999999999999", maximum=SMALLINT_MAX) is None
    True
    >>> parse_natural("0", maximum=10, minimum=1) is None
    True
    """
    if len(value) > len(str(maximum)) or not _ASCII_DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if minimum <= number <= maximum else None


def query_int(request, name: str, *, maximum: int = SMALLINT_MAX, minimum: int = 0) -> int | None:
    """A number from the query string (`?name=12`), or None when absent or not a clean number."""
    return parse_natural(request.GET.get(name, ""), maximum=maximum, minimum=minimum)


class _BoundedIntConverter:
    """A path number in ASCII digits that fits its column: `/partij/<id:game_id>/`.

    A number out of range does not match, so the URL is a 404 rather than a database error.
    """

    maximum = BIGINT_MAX

    @property
    def regex(self) -> str:
        return f"[0-9]{{1,{len(str(self.maximum))}}}"

    def to_python(self, value: str) -> int:
        number = parse_natural(value, maximum=self.maximum)
        if number is None:
            raise ValueError(value)
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class IdConverter(_BoundedIntConverter):
    """A primary key (bigint)."""

    maximum = BIGINT_MAX


class NumberConverter(_BoundedIntConverter):
    """A round or table number (smallint)."""

    maximum = SMALLINT_MAX


CONVERTERS = {"id": IdConverter, "number": NumberConverter}


class StrictIntegerField(forms.IntegerField):
    """A whole number typed in ASCII digits (Python's `int()` also takes "٣" or "𝟗")."""

    _pattern = re.compile(r"\s*[+-]?[0-9]+\s*")

    def to_python(self, value):
        if value not in self.empty_values and not self._pattern.fullmatch(str(value)):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def bounded(field, *, minimum: int, maximum: int):
    """Give a form's integer field a range: validators, and min/max on the input element."""
    field.min_value, field.max_value = minimum, maximum
    others = [
        validator
        for validator in field.validators
        if not isinstance(validator, MinValueValidator | MaxValueValidator)
    ]
    field.validators = [*others, MinValueValidator(minimum), MaxValueValidator(maximum)]
    field.widget.attrs.update({"min": minimum, "max": maximum})
    return field


# Unicode's control characters (NUL, escape, line breaks, ...) and the direction overrides
# that make a name display differently from what it is.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def validate_plain_text(value: str) -> None:
    """A name is one line of visible text: no control characters, no direction overrides.

    >>> validate_plain_text("Anke de Vries-Ōno")
    >>> for name in ("Anke\\x00", "Anke\\nde Vries", "\\u202eAnke"):
    ...     try:
    ...         validate_plain_text(name)
    ...     except ValidationError as error:
    ...         print(error.code)
    control_character
    control_character
    control_character
    """
    if any(unicodedata.category(char) in {"Cc", "Cs"} or char in _BIDI_CONTROLS for char in value):
        raise ValidationError(
            _("Use letters, digits and punctuation only: no control characters or line breaks."),
            code="control_character",
        )


def upload_max_size() -> int:
    return settings.UPLOAD_MAX_SIZE


def file_size_text(size: int) -> str:
    """A size for people, rounded up so that too large never reads as the limit itself.

    >>> from django.utils import translation
    >>> with translation.override("nl"):
    ...     file_size_text(2 * 1024 * 1024), file_size_text(2 * 1024 * 1024 + 1), file_size_text(1)
    ('2 MB', '2,1 MB', '1 kB')
    """
    megabytes = size / (1024 * 1024)
    if megabytes >= 1:
        if megabytes == int(megabytes):
            return f"{number_format(int(megabytes))} MB"
        return f"{number_format(math.ceil(megabytes * 10) / 10, 1)} MB"
    return f"{number_format(math.ceil(size / 1024))} kB"


def validate_upload_size(file) -> None:
    """Refuse an uploaded file above `settings.UPLOAD_MAX_SIZE`, saying how big it was."""
    limit = upload_max_size()
    if file.size > limit:
        raise ValidationError(
            _("The file is too large (%(size)s); a file may be at most %(limit)s.")
            % {"size": file_size_text(file.size), "limit": file_size_text(limit)},
            code="file_too_large",
        )


ERRORS_SHOWN = 50


def capped(errors: list, *, limit: int = ERRORS_SHOWN) -> list:
    """The first `limit` errors, then one line saying how many more there are.

    A file of 100,000 bad rows should say so in a page one can read, not in 100,000 lines.
    """
    if len(errors) <= limit:
        return list(errors)
    rest = len(errors) - limit
    more = ngettext("… and %(count)s more error", "… and %(count)s more errors", rest) % {
        "count": number_format(rest, force_grouping=True)
    }
    return [*errors[:limit], more]
