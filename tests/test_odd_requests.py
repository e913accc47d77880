"""No request, however odd, gets a server error.

Every URL pattern of the site (the admin aside) is requested with odd path numbers and odd
query values: digits of other scripts, huge and negative numbers, NUL bytes, very long
strings, percent-encoded bytes that are no UTF-8. The database holds a small competition
with a finished round (one game entered move by move) and a draft round. Visitors and
the club's secretary get a 2xx, 3xx or 4xx, never a 5xx. Every form of the secretary's
pages and of the board is posted odd values too.
"""

import re
from urllib.parse import quote, quote_from_bytes

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.models import Competition
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.moves import move_add
from games.services import ResultEntry, ResultInput
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    PlayerFactory,
    secretary_of,
)
from tests.seats import pair_spec

pytestmark = [pytest.mark.django_db, pytest.mark.walk]


def site_routes() -> list[str]:
    """Every URL pattern as its route, e.g. "partij/<id:game_id>/", the admin left out."""
    routes = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if not route.startswith("admin/"):
                    walk(pattern.url_patterns, route)
            else:
                routes.append(route)

    walk(get_resolver().url_patterns, "")
    return routes


ROUTES = site_routes()
PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")

# Numbers as people, browsers and attackers write them.
ODD_NUMBERS = [
    "²",
    "①",
    "٣",
    "𝟗",
    "-1",
    "0",
    "+1",
    "1e9",
    "1.5",
    "%201",
    "1%00",
    "%C2%B2",
    "9" * 30,
    str(2**63),
    str(2**31),
    str(2**15),
]
# Other odd values, percent-encoded as they travel.
ODD_TEXTS = ["%00", "%FF", "%E2%80%AE", "%", "x" * 3000, "%0D%0A", "<script>"]
# The query parameters the pages read.
PARAMETERS = ["na", "zet", "g0-sort", "g1-sort", "kind", "rules", "name", "next", "page"]

encoded_text = st.text(max_size=40).map(lambda text: quote(text, safe=""))
encoded_bytes = st.binary(max_size=20).map(lambda data: quote_from_bytes(data, safe=""))
odd_numbers = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
)
odd_values = st.one_of(odd_numbers, st.sampled_from(ODD_TEXTS), encoded_text, encoded_bytes)


@pytest.fixture(scope="module")
def shared(django_db_setup, django_db_blocker):
    """The module's rows, made once and committed: each test reads them in a transaction of
    its own, rolled back after it, and they are flushed after the module's last test. (Made
    for each of the ~180 tests, they took as long as the tests' own requests.)

    A competition of Anna, Bert, Cor and Dirk and the club's secretary, as the fixtures of
    tests/conftest.py make them. Round 1 finished, Anna–Bert entered move by move; round 2 a
    draft pairing."""
    with django_db_blocker.unblock():
        club = ClubFactory(name="De Goudse Letters", slug="gouda")
        secretary = secretary_of(club, username="secretaris")
        competition = CompetitionFactory(club=club, name="Clubcompetitie", slug="clubcompetitie")
        anna, bert, cor, dirk = [
            PlayerFactory(name=name) for name in ("Anna", "Bert", "Cor", "Dirk")
        ]
        for player in (anna, bert, cor, dirk):
            EntrantFactory(competition=competition, player=player)
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
        draft = round_create(competition=competition)
        draft_games = round_set_pairings(
            round=draft, pairings=[pair_spec(anna.pk, dirk.pk, 1), pair_spec(bert.pk, cor.pk, 2)]
        )
    yield {
        "secretary": secretary.pk,
        "competition": competition.pk,
        "world": {
            "club": [club.slug],
            "competition": [competition.slug],
            "number": ["1", "2"],
            "id": [str(game.pk) for game in (*games, *draft_games)] + [str(anna.pk)],
        },
    }
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)


@pytest.fixture
def world(db, shared):
    """The path values that reach the shared rows."""
    return shared["world"]


@pytest.fixture
def secretary(db, shared):
    return get_user_model().objects.get(pk=shared["secretary"])


@pytest.fixture
def competition(db, shared):
    return Competition.objects.get(pk=shared["competition"])


@st.composite
def odd_addresses(draw, route: str, world: dict) -> str:
    """The route with a real or an odd value per path part, and odd values for every query
    parameter the pages read, plus a few unknown ones."""

    def part(match: re.Match) -> str:
        converter, name = match.group(1), match.group(2)
        known = world.get(name) or world.get(converter or "") or ["1"]
        if draw(st.integers(0, 3)):  # mostly real values, so the page itself is reached
            return draw(st.sampled_from(known))
        return draw(odd_numbers if converter in {"id", "number", "int"} else odd_values)

    query = {name: draw(odd_values) for name in PARAMETERS}
    query.update(draw(st.dictionaries(encoded_text.filter(bool), odd_values, max_size=2)))
    address = "/" + PARAMETER.sub(part, route)
    return address + "?" + "&".join(f"{name}={value}" for name, value in query.items())


def test_the_routes_are_all_there():
    assert "partij/<id:game_id>/" in ROUTES
    assert "<slug:club>/<slug:competition>/ronde/<number:number>.json" in ROUTES
    assert "<slug:club>/<slug:competition>/beheer/ronde/<number:number>/uitslagen/" in ROUTES
    assert not any(route.startswith("admin/") for route in ROUTES)


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(("who", "examples"), [("anonymous", 8), ("secretary", 5)])
def test_no_odd_request_gets_a_server_error(client, world, request, route, who, examples):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(address=odd_addresses(route, world))
    def check(address):
        response = client.get(address)
        assert response.status_code < 500, address

    check()


@pytest.mark.parametrize(
    "address",
    [
        "/partij/{game}/?zet=²",
        "/partij/{game}/?zet=%00",
        "/partij/{game}/?zet=-1",
        "/partij/{game}/?zet=99999999999999999999",
        "/partij/{game}.gcg?zet=%FF",
        "/gouda/clubcompetitie/?na=²&g0-sort=%00",
        "/gouda/clubcompetitie/stand.json?na=①",
        "/gouda/clubcompetitie/stand.csv?na=٣",
        "/gouda/?kind=%00&rules=%FF",
        "/partij/99999999999999999999/",
        "/partij/%C2%B2/",
        "/gouda/clubcompetitie/ronde/99999999999999999999/",
        "/gouda/clubcompetitie/speler/-1/",
    ],
)
def test_known_odd_requests(client, world, address):
    response = client.get(address.format(game=world["id"][0]))
    assert response.status_code in {200, 404}


FORM_VALUES = st.one_of(
    st.text(max_size=20),
    odd_numbers,
    st.sampled_from(["1", "2", "2026-13-45", "generate", "swap", "publish", "clear", "swiss"]),
    st.sampled_from(["random", "normal", "forfeit_a", "play", "exchange", "swap", "{}", "[]"]),
)
FORMS = {
    "entrants": ["player", "new_player_name", "joined_round", "group", "group-name"],
    "entrant_withdraw": ["entrant", "from_round", "reinstate"],
    "round_create": ["date"],
    "attendance": ["present"],
    "round_pairing": ["action", "system", "standings_round", "seed", "player_x", "player_y"],
    "round_results": [
        *("form-TOTAL_FORMS", "form-INITIAL_FORMS", "form-0-game", "form-0-version"),
        *("form-0-score_a", "form-0-score_b", "form-0-kind", "form-0-reason"),
    ],
    "competition_edit": [
        *("name", "slug", "kind", "rules", "custom_rules", "number_of_rounds", "start_date"),
        *("bye_match_points", "bye_board_points_fixed", "min_games", "tiebreak_1"),
    ],
    "board": ["notation", "start", "direction", "letters", "tiles", "rack", "kind", "version"],
    "move_preview": ["notation", "start", "letters", "tiles", "squares", "kind", "version"],
    "move_correct": ["number", "notation", "rack", "version"],
    "game_starter": ["starter", "version"],
}


def form_url(name: str, competition, game_id: str) -> str:
    if name in {"board", "move_preview", "move_correct", "game_starter"}:
        return reverse(name, kwargs={"game_id": game_id})
    kwargs = dict(competition.url_kwargs)
    if name in {"attendance", "round_pairing", "round_results"}:
        kwargs["number"] = 2 if name != "round_results" else 1
    return reverse(name, kwargs=kwargs)


def test_no_odd_form_post_gets_a_server_error(client, secretary, world, competition):
    client.force_login(secretary)

    @settings(
        max_examples=120,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(name=st.sampled_from(sorted(FORMS)), data=st.data())
    def check(name, data):
        body = data.draw(st.dictionaries(st.sampled_from(FORMS[name]), FORM_VALUES), label="body")
        response = client.post(form_url(name, competition, world["id"][0]), body)
        assert response.status_code < 500, (name, body)

    check()
