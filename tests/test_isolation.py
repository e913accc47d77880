"""Isolation between clubs, shown: every page and every write of club A, tried as people who
have no business there, is refused.

The pages are not listed here: `tests.isolation` walks the URL configuration and fills
every route that names an object of a club with club A's objects (the demo club of
`seed_demo`: competitions with draft, published and finished rounds, games with moves and
tables of 3 and 4, duplicate evenings with turns and slips, players with and without an
account), so a page added later is tried without anyone adding it. Club B has its own
secretary and player, and a competition of its own. Per address:

- A's secretary must get it (a 404 means the values do not fit the route, such as a round
  number in a duplicate competition; a route that no value fits fails);
- if the public gets it too, it is public; otherwise the public, B's player, B's
  secretary and A's member (named by nothing in the address: not at the game, not in the
  competition) must each be refused: sent to log in, 403 or 404. So a member sees what
  the public sees. On the pages under /beheer/, the secretary's as the URLs say, A's
  player too (the demo's, who plays in every competition of the club);
- every post to it, as each of those, must be refused (405 too) and change nothing:
  every table's rows are counted after each post and compared row by row after all of
  them. Each address is posted empty and with each form A's secretary's pages send to it.
  Django's test client skips the CSRF check, so the refusal is the page's own.

Pages that name no club object (home, login, a person's own games) are the site's: what
A's secretary may not open there (the operator's pages), no one of the four may either.
The checks run once for the module (one set of data, one pass), in one test that lists
every failure at once.
"""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.test import Client, override_settings

from clubs.models import Club
from events.models import Event, Season
from persons.services import persons_merge
from ranking.publications import publication_create
from tests.demo_copy import seed
from tests.factories import (
    ClubFactory,
    CompetitionFactory,
    EntrantFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
    secretary_of,
    user_in_club,
)
from tests.isolation import ClubA, Probe, Report, roles_for, site_routes

pytestmark = [pytest.mark.django_db, pytest.mark.walk]


def people() -> dict:
    """A's secretary and player (the demo's), a member of A who plays nothing, club B
    with its secretary and a player who plays a game there, and the operator of the
    service. Club A is a federation here too, with a season and an event it organises, so
    that the pages of a federation and of an event are tried as well."""
    club_a = Club.objects.get(slug="gouda")
    ranked_season(club_a, get_user_model().objects.get(username="speler").player)
    Event.objects.create(organiser=club_a, name="Open Gouda", slug="open-gouda")
    club_b = ClubFactory(name="Scrabbleclub Delft", slug="delft", city="Delft")
    b_player = user_in_club(club_b, username="speler-b")
    opponent = PlayerFactory(name="Tegenstander B")
    MembershipFactory(club=club_b, player=opponent)
    competition = CompetitionFactory(club=club_b, slug="delft-2026")
    for status in ("published", "draft"):
        GameFactory(
            round=RoundFactory(competition=competition, status=status),
            player_a=b_player.player,
            player_b=opponent,
        )
    EntrantFactory(competition=competition, player=b_player.player)
    EntrantFactory(competition=competition, player=opponent)
    operator = UserFactory(username="dienst")
    operator.user_permissions.add(Permission.objects.get(codename="operate_service"))
    return {
        "anonymous": None,
        "a_secretary": get_user_model().objects.get(username="secretaris"),
        "a_member": user_in_club(club_a, username="lid-a"),
        "a_player": get_user_model().objects.get(username="speler"),
        "b_player": b_player,
        "b_secretary": secretary_of(club_b, username="secretaris-b"),
        "operator": operator,
    }


def ranked_season(club, player) -> None:
    """Club A keeps a federation's ranking too: a season with a ranked game of A's player,
    so the ranking's pages (`/<club>/ranglijst/...`) are tried like every other."""
    from datetime import date

    from ranking.models import RankedEvent, RankedGame, RankedResult

    Club.objects.filter(pk=club.pk).update(is_federation=True)
    season = Season.objects.create(
        federation=club,
        name="Seizoen 2026",
        slug="2026",
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
    )
    event = RankedEvent.objects.create(
        season=season,
        uid="00000000-0000-4000-8000-000000000043",
        name="Interclub",
        date=date(2026, 3, 7),
    )
    game = RankedGame.objects.create(
        event=event, number=1, date=date(2026, 3, 7), winner_points=500, median_points=500
    )
    RankedResult.objects.create(
        game=game, player=player, name=player.name, points=500, percentage=100.0
    )
    # Its ranking published as official, so that a version's pages are tried too.
    secretary = get_user_model().objects.get(username="secretaris")
    publication_create(season=season, by=secretary, on=date(2026, 6, 1))


def _a_merge(slug: str) -> None:
    """Two records of one person among the club's members, merged (persons/): the
    undo's address names the merge."""
    club = Club.objects.get(slug=slug)
    keep, other = (PlayerFactory(name="Dubbel Ingevoerd") for _ in range(2))
    for player in (keep, other):
        MembershipFactory(club=club, player=player)
    persons_merge(keep=keep, other=other, by=None)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The data, once for the module: per role a logged-in client, and club A's objects."""
    with django_db_blocker.unblock():
        seed()
        try:
            clients = {}
            for role, user in people().items():
                clients[role] = Client()
                if user is not None:
                    clients[role].force_login(user)
            for slug in ("gouda", "delft"):
                _a_merge(slug)
            yield clients, ClubA.read("gouda"), ClubA.read("delft")
        finally:
            call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def probed(world, django_db_blocker) -> Report:
    with django_db_blocker.unblock():
        started = time.monotonic()
        report = Probe(*world).run()
    report.seconds = time.monotonic() - started
    return report


def listed(report: Report, kind: str) -> str:
    failures = report.failures.get(kind, [])
    return f"{len(failures)}:\n" + "\n".join(failures)


def test_every_club_object_is_refused_to_everyone_it_is_not_for(probed):
    """One test for every check of the walk, so that `pytest -n 2` never walks twice
    (pytest-xdist may hand the tests of one module to both workers, each then building the
    module's fixture); every failing check is listed, not only the first.

    - Each route gives A's secretary an address, and every path part is known; a draft
      round's page is A's secretary's alone.
    - What the public may not see, no stranger and no member sees.
    - Every write is refused and changes nothing.
    - A's secretary may do everything at A's addresses, but a game or player of B named
      there (its id in the address) is not found, and no post to it changes anything.
    - What the secretary may not open on the site, no one opens.
    - The URL convention that makes /beheer/ the secretary's holds: none of its pages is
      public (and the checks above have them refused to A's member and A's player).

    `pytest -s` prints how many (address, role, method) were tried."""
    print(
        f"\n{probed.checks} checks, {len(probed.kinds)} of them distinct (route, role, "
        f"method), {len(probed.pages)} addresses of {len({p.route for p in probed.pages})} "
        f"routes, in {probed.seconds:.1f} s"
    )
    failures = [
        f"{kind}: {listed(probed, kind)}"
        for kind in ("unknown", "secretary", "read", "write", "crossed", "site")
        if probed.failures.get(kind)
    ]
    kinds = {page.kind for page in probed.pages}
    routes = {page.route for page in probed.pages}
    posts = sum(len(page.bodies) * len(roles_for(page)) for page in probed.pages)
    crossed = {re.sub(r"\d+", "N", address) for address in probed.crossed}
    under = [page for page in probed.pages if "/beheer/" in "/" + page.route]
    for holds, said in (
        ({"public", "private", "action"} <= kinds, f"kinds of page: {sorted(kinds)}"),
        (len(routes) > 60 and len(probed.pages) > 120, "too few routes or addresses"),
        (
            any(page.kind == "private" and "/ronde/" in page.address for page in probed.pages),
            "no draft round's page, private",
        ),
        (posts > 700, f"only {posts} posts"),
        (
            {
                "/gouda/competitie-N/beheer/partij/N/corrigeren/",
                "/gouda/beheer/spelers/N/",
                "/gouda/speler/N/",
            }
            <= crossed,
            f"B's rows tried under A's addresses only at {sorted(crossed)}",
        ),
        (len(under) > 50, f"only {len(under)} pages under /beheer/"),
        (
            not [page.address for page in under if page.kind == "public"],
            "public under /beheer/: "
            + ", ".join(page.address for page in under if page.kind == "public"),
        ),
        (probed.checks > 1000 and len(probed.kinds) > 500, f"only {probed.checks} checks"),
    ):
        if not holds:
            failures.append(said)
    assert failures == [], "\n\n".join(failures)


@override_settings(ROOT_URLCONF="tests.isolation_urls_later")
def test_a_page_added_later_is_tried_without_being_named(world, django_db_blocker):
    """Routes added to the URL configuration are found: a page that asks for a login but
    not whose club it is lets B's people and A's member in and takes their posts; a public
    page that shows a signed-in stranger the way to the secretary's pages; a secretary's
    page that finds a game by its id whatever its club; a route with a path part no one
    has said the meaning of fails, named."""
    added = set(site_routes()) - set(site_routes("config.urls"))
    assert added == {
        "<slug:club>/beheer/ledenlijst/",
        "<slug:club>/beurt/<int:turn_id>/",
        "<slug:club>/mededelingen/",
        "<slug:club>/beheer/partij/<id:game_id>/notitie/",
    }
    report = Probe(*world, only=added.__contains__).run()
    assert report.failures["unknown"] == [
        "/<slug:club>/beurt/<int:turn_id>/: path part <turn_id> names no object "
        "tests/isolation.py knows: add it to CLUB_OBJECTS (and ClubA.values) or to SECRETS"
    ]
    assert report.failures["read"] == [
        f"GET /gouda/beheer/ledenlijst/ (private) as {role}: 200"
        for role in ("b_player", "b_secretary", "a_member", "a_player")
    ] + [
        f"GET /gouda/mededelingen/ as {role} leads to ['/gouda/beheer/spelers/']"
        for role in ("b_secretary", "a_member")
    ]
    b_games = world[2].games["delft-2026"]
    assert report.failures["crossed"] == [
        f"GET /gouda/beheer/partij/{pk}/notitie/ as a_secretary: 200" for pk in b_games
    ]
    assert [failure.split(" [")[0] for failure in report.failures["write"]] == [
        f"POST /gouda/beheer/ledenlijst/ as {role}"
        for role in ("b_player", "b_secretary", "a_member", "a_player")
    ]
