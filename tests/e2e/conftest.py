"""Real-browser tests: Playwright driving Debian's Chromium against a live server.

Never a downloaded browser. Without /usr/bin/chromium the tests skip with the reason on a
developer machine, and fail in CI (CI=true), where .ci/run installs it.
"""

import os
import time
from pathlib import Path

import pytest
from django.db import connection
from playwright.sync_api import Browser, BrowserContext, Page

from clubs.models import Club, Membership, Player
from competition.models import Competition, Round
from competition.services.entrants import entrant_add
from competition.services.rounds import round_set_pairings
from games.services import PairingSpec
from tests.e2e.guard import BrowserGuard
from tests.seats import pair_spec

#: The secretary's password in the browser tests that log in.
PASSWORD = "geheim-genoeg-123"

CHROMIUM = Path(os.environ.get("BORDPUNT_CHROMIUM", "/usr/bin/chromium"))

# Playwright's sync API runs an event loop in the test thread; the test's own database
# calls (fixtures, asserts) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    # In CI a missing browser must fail the run: the launch below then fails loudly.
    if CHROMIUM.exists() or os.environ.get("CI", "").lower() == "true":
        return
    skip = pytest.mark.skip(
        reason=f"Chromium not found at {CHROMIUM}; install Debian's chromium package"
    )
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "locale": "nl-NL", "viewport": {"width": 1280, "height": 900}}


@pytest.fixture(autouse=True)
def browser_guard(request, monkeypatch, new_context):
    """Every page a test opens, through the `page` fixture or `browser.new_context()` /
    `browser.new_page()`, is watched; a console error, page error, failed request or response
    of 400 or more fails the test at teardown, unless the test expects it:
    `@pytest.mark.browser_errors(r"response 503 POST .*/bord/")`, each argument a regular
    expression that an expected problem matches.

    It depends on pytest-playwright's `new_context` so that its teardown runs first, while
    the contexts are still open."""
    guard = BrowserGuard()
    new_context_of_browser, new_page_of_browser = Browser.new_context, Browser.new_page
    close_context, close_page = BrowserContext.close, Page.close

    def new_context_watched(self, *args, **kwargs):
        context = new_context_of_browser(self, *args, **kwargs)
        guard.watch_context(context)
        return context

    def new_page_watched(self, *args, **kwargs):
        page = new_page_of_browser(self, *args, **kwargs)
        guard.watch_page(page)
        guard.watch_context(page.context)
        return page

    def close_context_quietly(self, *args, **kwargs):
        guard.closing(self)
        return close_context(self, *args, **kwargs)

    def close_page_quietly(self, *args, **kwargs):
        guard.closing(self)
        return close_page(self, *args, **kwargs)

    monkeypatch.setattr(Browser, "new_context", new_context_watched)
    monkeypatch.setattr(Browser, "new_page", new_page_watched)
    monkeypatch.setattr(BrowserContext, "close", close_context_quietly)
    monkeypatch.setattr(Page, "close", close_page_quietly)
    yield guard
    guard.settle()
    guard.close_all()
    if "live_server" in request.fixturenames:
        wait_for_the_live_server_to_finish()
    expected = [
        pattern for marker in request.node.iter_markers("browser_errors") for pattern in marker.args
    ]
    if unexpected := guard.unexpected(expected):
        pytest.fail(
            f"{len(unexpected)} browser problem(s) the test did not expect:\n"
            + "\n".join(unexpected[:40]),
            pytrace=False,
        )


def wait_for_the_live_server_to_finish(seconds: float = 10) -> None:
    """Wait until no request of the live server is still busy in the database.

    A page closed in the middle of a request (a clock that polls, a slip being sent) leaves
    the server working on it; on PostgreSQL the flush after the test would then take its
    TRUNCATE locks against that request's row locks, and one of the two dies of a deadlock.
    On SQLite the server's requests share the test's connection: nothing to wait for."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
                " AND state <> 'idle'"
            )
            (busy,) = cursor.fetchone()
        if not busy:
            return
        time.sleep(0.05)


def club_with_secretary(django_user_model, name: str, slug: str) -> Club:
    """A club whose secretary logs in as "secretaris" with PASSWORD."""
    club = Club.objects.create(name=name, slug=slug)
    user = django_user_model.objects.create_user("secretaris", password=PASSWORD)
    secretary = Player.objects.create(name="Sietske Secretaris", user=user)
    Membership.objects.create(club=club, player=secretary, role=Membership.Role.SECRETARY)
    return club


@pytest.fixture
def paired_game(django_user_model):
    """A published round of a Gouds 8 club competition with one game, Anke against Bram;
    the club's secretary logs in as "secretaris" with PASSWORD."""
    club = club_with_secretary(django_user_model, "De Goudse Letters", "gouda")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=Competition.Rules.GOUDS_8
    )
    anke, bram = Player.objects.create(name="Anke"), Player.objects.create(name="Bram")
    for player in (anke, bram):
        entrant_add(competition=competition, player=player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    (game,) = round_set_pairings(
        round=round_obj, pairings=[pair_spec(player_a=anke.pk, player_b=bram.pk, table=1)]
    )
    return game


def table_of_players(
    django_user_model,
    names: dict[str, str],
    *,
    table: int,
    rules: str = Competition.Rules.GOUDS_8,
):
    """A published round 1 of a club competition (Gouds 8 unless `rules` says otherwise)
    with one game at `table` between players who have accounts (`names`: username -> name,
    in table order; 2 to 4 of them), each logging in with PASSWORD."""
    club = Club.objects.create(name="De Goudse Letters", slug="gouda")
    competition = Competition.objects.create(
        club=club, name="Clubcompetitie", slug="clubcompetitie", rules=rules
    )
    players = []
    for username, name in names.items():
        user = django_user_model.objects.create_user(username, password=PASSWORD)
        player = Player.objects.create(name=name, user=user)
        Membership.objects.create(club=club, player=player)
        entrant_add(competition=competition, player=player)
        players.append(player)
    round_obj = Round.objects.create(
        competition=competition, number=1, status=Round.Status.PUBLISHED
    )
    (game,) = round_set_pairings(
        round=round_obj,
        pairings=[PairingSpec(players=tuple(player.pk for player in players), table=table)],
    )
    return game
