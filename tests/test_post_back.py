"""Every form of the site, posted back exactly as rendered, changes nothing.

Someone who opens a page and presses its button without typing (or presses it twice, or
a browser that resends the page) must not lose or change data: a date that renders in a
form the input cannot read, a select whose first option is not the stored value, a
checkbox rendered unticked for a ticked setting — each would silently change what the
form shows. Like `tests/test_odd_forms.py` this test finds the forms itself: it opens
every page of the club evening as the secretary and as two players, reads each POST form
with the values a browser would send (inputs, ticked boxes, chosen options, textareas),
and posts it with each of its submit buttons. Every table of the apps is compared before
and after; each post runs in a savepoint that is rolled back, so every form meets the same
evening. A form added to any page later is covered without touching this file.

Forms whose very purpose is an action, a button with nothing to fill in, are listed in
`ACTIONS` with the reason; the list is checked against the forms found, so an entry that
no longer matches any form fails too.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import transaction

from competition.models import Competition
from games.models import Move
from tests.rendered_forms import RenderedForm, rendered_forms
from tests.test_odd_forms import NOT_POSTED, evening, page_addresses

pytestmark = [pytest.mark.django_db, pytest.mark.walk]

__all__ = ["evening"]  # the fixture, shared with the odd-forms test

#: The apps whose tables hold what users make and change (sessions, auth aside).
DATA_APPS = ("clubs", "competition", "games", "duplicate")

#: Tables that are no user's data: a refused invitation code counts toward its throttle.
NOT_DATA = {"clubs.Throttle"}

#: (action path ends with, submitter value or the form's `action` field) -> why it changes
#: something when posted as rendered: its purpose is the change, there is nothing to fill.
ACTIONS: dict[tuple[str, str], str] = {
    ("/beheer/spelers/", ""): "Invite / New code: makes a player's invitation code; the "
    "form is the player's id and the button",
    ("/uitslag/", "confirm"): "Confirm the opponent's result: the button is the confirmation",
    ("/bord/", "pass"): "Pass: a move with nothing to type, the button is the move",
    ("/bord/", "flagfall"): "Flag fall: the button records it",
    ("/bord/terug/", ""): "Undo the last move: the button is the undo",
    ("/bord/begint/", "0"): "Who starts: the button is the choice (the seat)",
    ("/bord/begint/", "1"): "Who starts: the button is the choice (the seat)",
    ("/ronde/nieuw/", ""): "Add round: adds the round the page offers, dated tonight (adding "
    "twice is once: round_create returns the round already added)",
    ("/indeling/", "publish"): "Publish the pairing: the button is the publication",
    ("/indeling/", "generate"): "Generate: draws a pairing for the draft round with the "
    "system shown; drawing is its purpose",
    ("/klok/", "start"): "Start the clock: the button switches the game's clock on",
    ("/beheer/duplicate/nieuw/", ""): "Start the next duplicate evening: the form is its "
    "number and the button (starting it twice is once: evening_create returns it)",
    ("/beheer/duplicate/1/", "top"): "Put the top on the board: the engine's default top "
    "is ticked, choosing it is the button's purpose",
    ("/mijn-partijen/agenda/", ""): "Make (or renew) my calendar's private address: the "
    "button is the new address",
}


def dump() -> dict[str, list[dict]]:
    """Every row of the data apps, by table, in primary-key order."""
    tables = {}
    for label in DATA_APPS:
        for model in apps.get_app_config(label).get_models():
            if model._meta.label in NOT_DATA:
                continue
            tables[model._meta.label] = list(model.objects.order_by("pk").values())
    return tables


def changes(before: dict, after: dict) -> list[str]:
    """The tables that differ, each with its first changed row (for the failure message)."""
    found = []
    for table, rows in before.items():
        if rows != after[table]:
            old = {row["id"]: row for row in rows}
            new = {row["id"]: row for row in after[table]}
            added = sorted(set(new) - set(old))
            changed = [pk for pk in old if pk in new and old[pk] != new[pk]]
            if added:
                found.append(f"{table}: added {new[added[0]]}")
            elif changed:
                pk = changed[0]
                diff = {k: (v, new[pk][k]) for k, v in old[pk].items() if new[pk][k] != v}
                found.append(f"{table} #{pk}: {diff}")
            else:
                found.append(f"{table}: removed {sorted(set(old) - set(new))[:3]}")
    return found


def action_of(form: RenderedForm, submitter: tuple[str, str] | None) -> str:
    """What the post does, as `ACTIONS` names it: the submit button's value, else the
    form's hidden `action` field, else ""."""
    if submitter is not None:
        return submitter[1]
    return dict(form.fields).get("action", "")


def forms_of_the_evening(client, values) -> list[RenderedForm]:
    found: dict[tuple, RenderedForm] = {}
    for address in page_addresses(values):
        response = client.get(address)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        for form in rendered_forms(response.content.decode(), address):
            if form.action in NOT_POSTED:
                continue
            names = tuple(sorted(name for name, _value in form.fields))
            found.setdefault((form.action, names, tuple(form.submitters)), form)
    return list(found.values())


def test_every_form_posted_back_as_rendered_changes_nothing(client, evening):
    # What a form could lose: a date (rendered for <input type="date">) and a move's rack.
    Competition.objects.update(start_date=date(2026, 6, 13))
    Move.objects.filter(number=1).update(rack="WOORDENA")
    changed, exempted = [], set()
    for who in ("secretary", "anna", "bert"):
        client.force_login(evening[who])
        forms = forms_of_the_evening(client, evening["values"])
        assert len(forms) >= (30 if who == "secretary" else 5), [form.action for form in forms]
        for form in forms:
            for submitter in form.submitters or [None]:
                key = _action_key(form, submitter)
                with transaction.atomic():
                    before = dump()
                    response = client.post(form.action, form.body(submitter))
                    after = dump()
                    transaction.set_rollback(True)
                cache.clear()
                assert response.status_code < 500, (form.action, submitter)
                found = changes(before, after)
                if key is not None:
                    exempted.add(key)
                elif found:
                    changed.append((who, form.action, action_of(form, submitter), found))
    assert changed == [], "\n".join(map(repr, changed))
    # Each action listed is still a form of the site (a renamed one would hide a change).
    assert exempted == set(ACTIONS)


def _action_key(form: RenderedForm, submitter) -> tuple[str, str] | None:
    action = action_of(form, submitter)
    for key in ACTIONS:
        path, value = key
        if form.action.endswith(path) and action == value:
            return key
    return None
