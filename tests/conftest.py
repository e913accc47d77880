"""Fixtures shared by the database tests: a club, its people and a small competition."""

from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from competition.models import Round
from competition.services.rounds import round_create, round_record_results, round_set_pairings
from games.services import ResultEntry, ResultInput
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    PlayerFactory,
    UserFactory,
    secretary_of,
    user_in_club,
)
from tests.mail import smtp  # noqa: F401  (the SMTP server fixture, for every test)
from tests.seats import pair_spec

#: The compiled engine's plugin (`-p tests.compiled_rules`, `make compiled-test`) is no
#: module of examples: imported to look for them, it would put the compiled engine first on
#: the path of the processes the tests start.
collect_ignore = ["compiled_rules.py"]

# No property test fails for being slow: Hypothesis's default deadline (200 ms an example)
# is a timed assert, and this machine is shared. Each test still sets its own max_examples.
hypothesis_settings.register_profile("bordpunt", deadline=None)
hypothesis_settings.load_profile("bordpunt")


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Test users need a password, not a slow one."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True, scope="session")
def static_files_looked_up_when_asked():
    """Each test client loads the middleware anew, and WhiteNoise then reads every file in
    STATIC_ROOT (some 800 after a `make serve` or a `collectstatic`: a fifth of the suite's
    time on such a machine, none on a fresh clone). The tests ask WhiteNoise for no static
    file it must have read first, so it finds one when asked, as under DEBUG."""
    with override_settings(WHITENOISE_AUTOREFRESH=True):
        yield


@pytest.fixture(autouse=True, scope="session")
def room_sized_live_server():
    """The live server takes a room's connections at once, as gunicorn does (its backlog:
    2048). Django's test server listens with a backlog of 10; twenty-five phones
    connecting at once overflowed it, and the kernel reset a connection now and then
    (a SYN cookie that failed): the harness's limit, not the app's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ThreadedWSGIServer, "request_queue_size", 2048)
        yield


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: cached pages are keyed by a competition's last
    change, which a test's factories may repeat."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def club(db):
    return ClubFactory(name="De Goudse Letters", slug="gouda")


@pytest.fixture
def other_club(db):
    return ClubFactory(name="Scrabbleclub Delft", slug="delft")


@pytest.fixture
def competition(club):
    return CompetitionFactory(club=club, name="Clubcompetitie", slug="clubcompetitie")


@pytest.fixture
def secretary(club):
    return secretary_of(club, username="secretaris")


@pytest.fixture
def member(club):
    return user_in_club(club, username="lid")


@pytest.fixture
def other_secretary(other_club):
    return secretary_of(other_club, username="secretaris-delft")


@pytest.fixture
def staff(db):
    return UserFactory(username="beheerder", staff=True)


@pytest.fixture
def four_entrants(competition):
    """Anna, Bert, Cor and Dirk, entered in `competition` from round 1."""
    names = ["Anna", "Bert", "Cor", "Dirk"]
    players = [PlayerFactory(name=name) for name in names]
    for player in players:
        EntrantFactory(competition=competition, player=player)
    return players


@pytest.fixture
def english(client):
    """Choose English as the language switch does: a cookie, which the site follows (the
    browser's Accept-Language is ignored, Dutch being the default)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def secretary_client(client, secretary):
    client.force_login(secretary)
    return client


@pytest.fixture
def club_evening(transactional_db):
    """Round 1 (published) of a Gouds 8 competition, committed for a live server to see;
    the club's secretary logs in as "secretaris" with tests.factories.PASSWORD."""
    club = ClubFactory(name="De Goudse Letters", slug="gouda")
    secretary_of(club, username="secretaris")
    competition = CompetitionFactory(club=club, name="Clubcompetitie", slug="clubcompetitie")
    return Round.objects.create(competition=competition, number=1, status=Round.Status.PUBLISHED)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The tiers of docs/testing.md, given by what a test uses, not by where it was put:
    every test that needs Playwright's browser is `e2e`, every test of the installed wheel
    `installed`; `make check` runs the rest."""
    packaging = Path(__file__).parent / "packaging"
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker(pytest.mark.e2e)
        if packaging in Path(item.path).parents:
            item.add_marker(pytest.mark.installed)
        if is_pure(item):
            item.add_marker(pytest.mark.pure)


#: pytest-django's fixtures that open the test database.
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_setup", "live_server", "django_db_serialized_rollback"}
)


def is_pure(item: pytest.Item) -> bool:
    """A test of the pure code: the rules engine (`rules/`, its tests in tests/rules) and
    the apps' `core` modules, which the import contracts keep from Django, so the test
    reads no database. CI runs these once (docs/testing.md): on PostgreSQL they would run
    the same code on the same input again."""
    parts = Path(item.path).relative_to(Path(__file__).parents[1]).with_suffix("").parts
    if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames):
        return False
    return parts[0] == "rules" or parts[:2] == ("tests", "rules") or "core" in parts


def pytest_configure(config):
    # WhiteNoise warns when `collectstatic` has not run; tests serve no static files.
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")


@pytest.fixture
def two_rounds(competition, four_entrants):
    """Round 1: Anna–Bert 300-290, Cor–Dirk 200-450. Round 2: Anna–Cor 260-250, Bert–Dirk 500-300.

    After round 2: Anna 4 MP 560 BP; Bert 2 MP 790 BP (spread +190); Dirk 2 MP 750 BP
    (spread +50); Cor 0 MP 450 BP. After round 1: Dirk, Anna, Bert, Cor.
    """
    anna, bert, cor, dirk = four_entrants
    for pairs, scores in (
        ([(anna, bert), (cor, dirk)], [(300, 290), (200, 450)]),
        ([(anna, cor), (bert, dirk)], [(260, 250), (500, 300)]),
    ):
        round_obj = round_create(competition=competition)
        games = round_set_pairings(
            round=round_obj,
            pairings=[pair_spec(a.pk, b.pk, table) for table, (a, b) in enumerate(pairs, 1)],
        )
        round_record_results(
            round=round_obj,
            entries=[
                ResultEntry(game.pk, ResultInput.of_pair("normal", *score))
                for game, score in zip(games, scores, strict=True)
            ],
            by=None,
        )
    return four_entrants


@pytest.fixture
def database_clock_behind(db):
    """On PostgreSQL, for the test's transaction: the database's clock an hour behind this
    server's, as a database on another machine may be (or this app server's clock an hour
    ahead). `clock_timestamp()` is shadowed by one in a schema searched before pg_catalog;
    both are rolled back with the test."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE SCHEMA skewed_clock")
        cursor.execute(
            "CREATE FUNCTION skewed_clock.clock_timestamp() RETURNS timestamptz LANGUAGE sql "
            "AS $$ SELECT pg_catalog.clock_timestamp() - interval '1 hour' $$"
        )
        cursor.execute("SET LOCAL search_path = skewed_clock, pg_catalog, public")
