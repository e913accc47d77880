"""No form of the site, posted odd values, gets a server error.

Unlike `test_odd_requests`, which names the fields it posts, this test finds the forms
itself: it opens every page of the site (the admin aside) as the club's secretary and as a
player with a game tonight, reads each `<form method="post">` with its fields and their
values, and posts it back with some fields replaced by odd values: digits of other scripts,
huge numbers, NUL bytes, text where a number belongs, fields missing or repeated. A form
added to any page later is covered without touching this file.
"""

from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.models import Round
from competition.services.rounds import (
    round_create,
    round_record_results,
    round_set_pairings,
    round_set_status,
)
from duplicate.models import DuplicateCompetition, Participant
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_submit
from duplicate.services.turns import turn_choose_top, turn_draw
from games.confirmation import game_result_enter
from games.moves import move_add
from games.services import ResultEntry, ResultInput
from tests.factories import MembershipFactory, UserFactory
from tests.seats import pair_spec
from tests.test_odd_requests import PARAMETER, ROUTES, odd_numbers

pytestmark = [pytest.mark.django_db, pytest.mark.walk]


class FormReader(HTMLParser):
    """The page's POST forms: their action and their fields as (name, value) pairs, with
    every option of a select and both states of a checkbox."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            if attributes.get("method", "get").lower() == "post":
                self._form = {"action": attributes.get("action", ""), "fields": {}}
                self.forms.append(self._form)
            return
        if self._form is None:
            return
        name = attributes.get("name")
        fields = self._form["fields"]
        if tag in {"input", "textarea", "button"} and name and name != "csrfmiddlewaretoken":
            fields.setdefault(name, []).append(attributes.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            fields.setdefault(name, [])
        elif tag == "option" and self._select:
            fields[self._select].append(attributes.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def post_forms(html: str, page_url: str) -> list[dict]:
    reader = FormReader()
    reader.feed(html)
    for form in reader.forms:
        form["action"] = urlsplit(urljoin(page_url, form["action"] or page_url)).path
    return reader.forms


@pytest.fixture
def evening(club, competition, four_entrants, secretary):
    """Round 1 finished (Anna–Bert move by move). Round 2 published tonight: Anna and Cor
    disagree on their result at table 1, Bert's table 2 waits for one. Round 3 a draft.
    Anna, Bert and Cor log in; Dirk is a member without an account, to be invited."""
    anna, bert, cor, dirk = four_entrants
    users = {}
    for player in (anna, bert, cor):
        users[player.name.lower()] = user = UserFactory(username=player.name.lower())
        player.user = user
        player.save()
    for player in four_entrants:
        MembershipFactory(club=club, player=player)
    first = round_create(competition=competition)
    games = round_set_pairings(
        round=first,
        pairings=[pair_spec(anna.pk, bert.pk, 1, starter="a"), pair_spec(cor.pk, dirk.pk, 2)],
    )
    for notation in ("8H WOORD", "-", "-"):
        games[0].refresh_from_db()
        move_add(game=games[0], notation=notation, by=None)
    round_record_results(
        round=first,
        entries=[ResultEntry(games[1].pk, ResultInput.of_pair("normal", 310, 290))],
        by=None,
    )
    tonight = round_create(competition=competition)
    disputed, pending = round_set_pairings(
        round=tonight,
        pairings=[pair_spec(anna.pk, cor.pk, 1, starter="a"), pair_spec(bert.pk, dirk.pk, 2)],
    )
    round_set_status(round=tonight, status=Round.Status.PUBLISHED)
    disputed = game_result_enter(
        game=disputed, result=ResultInput.of_pair("normal", 300, 250), by=users["anna"]
    )
    game_result_enter(
        game=disputed, result=ResultInput.of_pair("normal", 250, 300), by=users["cor"]
    )
    draft = round_create(competition=competition)
    round_set_pairings(
        round=draft, pairings=[pair_spec(anna.pk, dirk.pk, 1), pair_spec(bert.pk, cor.pk, 2)]
    )
    _duplicate_evening(competition.club, secretary, (anna, bert, cor))
    return {
        "values": {
            "club": [competition.club.slug],
            "competition": [competition.slug, "duplicate"],
            "number": ["1", "2", "3"],
            "id": [str(games[0].pk), str(disputed.pk), str(pending.pk)],
            "code": ["ABCD-EFGH"],
        },
        "secretary": secretary,
        "anna": users["anna"],
        "bert": users["bert"],
    }


def _duplicate_evening(club, secretary, players) -> None:
    """A duplicate competition's evening 1: turn 1 closed with Anna's slip, turn 2 open
    (so the spelleider's page shows the top to choose, the players their slip form)."""
    anna, _bert, _cor = players
    duplicate = DuplicateCompetition.objects.create(
        club=club, name="Duplicate", slug="duplicate", rules=DuplicateCompetition.Rules.STANDARD
    )
    for player in players:
        Participant.objects.create(competition=duplicate, player=player)
    evening = evening_create(competition=duplicate, number=1, by=secretary)
    first = turn_draw(evening=evening, tiles="KAAS?EN", by=secretary)
    slip_submit(turn=first, player_id=anna.pk, text="8H KAAS", claimed=14, by=secretary)
    turn_choose_top(turn=first, by=secretary)
    turn_draw(evening=evening, tiles="TWOORDA", by=secretary)


def page_addresses(values: dict[str, list[str]]) -> list[str]:
    """Every route with every value of the evening for its path parts."""
    addresses = []
    for route in ROUTES:
        partial = [route]
        for match in PARAMETER.finditer(route):
            converter, name = match.group(1), match.group(2)
            options = values.get(name) or values.get(converter or "") or ["1"]
            partial = [
                address.replace(match.group(0), option, 1)
                for address in partial
                for option in options
            ]
        addresses += ["/" + address for address in partial]
    return addresses


# Posting these would end the session, and every later post would meet the login page.
NOT_POSTED = {"/accounts/logout/"}

ODD_VALUES = st.one_of(
    odd_numbers,
    st.sampled_from(["", "%00", "\x00", "\u202e", "x" * 3000, "<script>", "{}", "[]", "on"]),
    st.text(max_size=12),
)


@pytest.mark.parametrize("who", ["secretary", "anna", "bert"])
def test_no_odd_post_of_any_form_gets_a_server_error(client, evening, who):
    client.force_login(evening[who])
    forms = []
    for address in page_addresses(evening["values"]):
        response = client.get(address)
        assert response.status_code < 500, address
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            forms += post_forms(response.content.decode(), address)
    # The pages of the evening have forms; each distinct one is posted.
    distinct = {
        (form["action"], tuple(sorted(form["fields"]))): form
        for form in forms
        if form["action"] not in NOT_POSTED
    }
    assert len(distinct) >= (30 if who == "secretary" else 6), sorted(distinct)

    @settings(
        max_examples=len(distinct) * 6,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(form=st.sampled_from(sorted(distinct.values(), key=repr)), data=st.data())
    def check(form, data):
        body: dict[str, list[str]] = {}
        for name, values in form["fields"].items():
            choice = data.draw(st.integers(0, 5), label=name)
            if choice == 0:
                continue  # left out
            if choice == 1:
                body[name] = [data.draw(ODD_VALUES, label=name)]
            elif choice == 2:
                body[name] = [data.draw(ODD_VALUES), data.draw(ODD_VALUES)]
            else:
                body[name] = [data.draw(st.sampled_from(values))] if values else [""]
        response = client.post(form["action"], body)
        assert response.status_code < 500, (form["action"], body)

    check()
