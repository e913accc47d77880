"""How the history values of the ranking read: a season's settings and a ranked game's
figures named in the reader's language.

Registered with `clubs.history_display` by `RankingConfig.ready`.
"""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext_lazy as _

from clubs.history_display import date_text, register


def register_history_texts() -> None:
    from django.db import models

    from events.models import Season
    from events.services import SEASON_FIELDS

    fields = [
        field
        for name in SEASON_FIELDS
        if isinstance(field := Season._meta.get_field(name), models.Field)
    ]

    register(
        labels={
            **{field.name: field.verbose_name for field in fields},
            "winner_points": _("winner's points"),
            "median_points": _("median points"),
            "version": _("version"),
            "on": _("ranking on"),
            "persons": _("persons"),
            "ranked": _("ranked"),
        },
        texts={
            "start": date_text,
            "end": date_text,
            "on": date_text,
            # 701.5 as the reader writes it ("701,5"); a whole median without decimals.
            "median_points": lambda value, reading: formats.number_format(
                int(value) if float(value).is_integer() else value
            ),
        },
    )
