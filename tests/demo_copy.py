"""The demo club for the tests that read it: `seed_demo` once per process, its rows after.

`seed_demo` costs some 4 CPU seconds (the duplicate evenings' tops come from the move
generator), and a run of the suite asked for it some 15 times; its 2,300 rows take 0.1 s to
insert. So the first `seed()` in a process runs the command and keeps, model by model, the
rows it added; a later `seed()` inserts those rows again, through the ORM, when the database
is in the same state as it was then: the same rows in every table before (the content
types, after a flush, for one), the same database, the same kind of transaction (in a
test's transaction the demo's commit hooks never run: the season ranking it publishes is
not there), the same day and language. In any other state the command runs in full.
`tests/test_demo_copy.py` compares a copy with the command's own rows, in both kinds of
transaction.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone, translation

Rows = dict[type[Model], dict[Any, dict[str, Any]]]


@dataclass(frozen=True)
class _Kept:
    before: Rows
    added: Rows


_kept: dict[tuple, _Kept] = {}


def seed() -> str:
    """The demo data, as `make run` shows it; says how: "command" or "copy"."""
    key = _key()
    before = rows()
    if (kept := kept_for(key, before)) is not None:
        _insert(kept.added)
        return "copy"
    call_command("seed_demo", force=True, stdout=io.StringIO())
    after = rows()
    if all(after[model].get(pk) == row for model in before for pk, row in before[model].items()):
        added = {
            model: {pk: row for pk, row in after[model].items() if pk not in before[model]}
            for model in after
        }
        _kept[key] = _Kept(before, {model: found for model, found in added.items() if found})
    return "command"


def kept_for(key: tuple, before: Rows) -> _Kept | None:
    """The rows kept from the command's run in the same state, if there was one."""
    kept = _kept.get(key)
    return kept if kept is not None and kept.before == before else None


def _key() -> tuple:
    """What else a copy must share with the command's run: the database, whether the demo's
    commit hooks run, the day, the language."""
    return (
        connection.vendor,
        connection.settings_dict["NAME"],
        connection.in_atomic_block,
        timezone.localdate(),
        translation.get_language(),
    )


def rows() -> Rows:
    """Every row of every table, model by model: {model: {pk: {attname: value}}}."""
    found: Rows = {}
    for model in _models():
        names = [field.attname for field in model._meta.concrete_fields]
        found[model] = {
            row[model._meta.pk.attname]: row
            for row in model._base_manager.order_by("pk").values(*names)
        }
    return found


def _models() -> list[type[Model]]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _insert(added: Rows) -> None:
    """The kept rows again, exactly, in one transaction (foreign keys are checked at its
    commit). `bulk_create` stamps the time of now into `auto_now(_add)` fields; they get
    the kept times back, so that a slip is not handed in after its turn closed. PostgreSQL's
    sequences then continue after the rows, as after `loaddata`."""
    with transaction.atomic():
        for model, found in added.items():
            objects = [model(**row) for row in found.values()]
            model._base_manager.bulk_create(objects)
            stamped = [
                field.attname
                for field in model._meta.concrete_fields
                if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
            ]
            if stamped:
                for instance, row in zip(objects, found.values(), strict=True):
                    for name in stamped:
                        setattr(instance, name, row[name])
                model._base_manager.bulk_update(objects, stamped)
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), list(added)):
                cursor.execute(statement)
