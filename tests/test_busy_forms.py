"""Nothing typed is lost when the database cannot take a write: every form of the evening,
posted while another writer holds the database, gets the 503 page with what was posted
in a form that saves it again with one tap (passwords excepted: a browser never shows
them back).

The forms are read from the pages as tests/test_odd_forms.py finds them, so a form added
later is covered without touching this test.
"""

import pytest
from django.db import connection

from tests.busy import database_held
from tests.test_odd_forms import NOT_POSTED, page_addresses, post_forms
from tests.test_odd_forms import evening as evening  # the fixture

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.walk]


def as_posted(fields: dict[str, list[str]]) -> dict[str, str]:
    """What a browser posts of a form left as it is shown: each field's first value."""
    return {name: values[0] for name, values in fields.items() if values}


@pytest.mark.parametrize("who", ["secretary", "anna"])
def test_a_refused_write_of_any_form_keeps_what_was_posted(client, evening, who):
    client.force_login(evening[who])
    forms = {}
    for address in page_addresses(evening["values"]):
        response = client.get(address)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            for form in post_forms(response.content.decode(), address):
                if form["action"] not in NOT_POSTED:
                    forms[(form["action"], tuple(sorted(form["fields"])))] = form
    with database_held():
        refused = sum(_kept_when_refused(client, form) for form in forms.values())
    # SQLite takes its write lock at BEGIN, so even a save that changes nothing waits;
    # PostgreSQL waits only where a change reaches the history.
    expected = {"sqlite": {"secretary": 20, "anna": 3}, "postgresql": {"secretary": 6, "anna": 1}}
    assert refused >= expected[connection.vendor][who]


def _kept_when_refused(client, form) -> bool:
    """Post the form as shown; when the write is refused (503), the page must hold it.
    False when nothing had to be written (a preview, a language) or it got through."""
    posted = as_posted(form["fields"])
    response = client.post(form["action"], posted)
    if response.status_code != 503:
        return False
    kept = [
        again
        for again in post_forms(response.content.decode(), form["action"])
        if again["action"] == form["action"]
    ]
    assert len(kept) == 1, form["action"]
    expected = {name: value for name, value in posted.items() if "password" not in name}
    assert as_posted(kept[0]["fields"]) == expected, form["action"]
    assert "Opnieuw opslaan" in response.content.decode()
    return True
