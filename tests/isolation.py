"""Every page and every write of a club, found in the URL configuration and tried as
people who have no business there (tests/test_isolation.py).

`site_routes()` walks the URL resolver (Django's admin aside); `names_club_object` keeps
the routes that name an object of a club (`CLUB_OBJECTS`: the club, a competition, a round
or evening, a game, a player). A route with a path part this module does not know fails
loudly, naming the route: a page with a new kind of object is noticed, not skipped; a part
that is a secret (`SECRETS`) leaves the page to the secret's own tests. Routes that name no
club object (the home page, login, a person's own games, the operator's list of clubs) are
the site's, not a club's: they are only held to "what the club's secretary may not open,
no one of ours may".

`Probe` builds the addresses from club A's objects (`ClubA`), asks A's secretary for each
(a 404 means the values do not fit that route, e.g. a round number in a duplicate
competition, and the combination is dropped; a page A's secretary may not open but the
operator may is the operator's), then the public, then the people who must be refused;
then it posts, and last puts club B's rows under club A's addresses (`crossings`).

Django: the URL resolver, the test client.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html import unescape
from urllib.parse import urljoin, urlsplit

from django.apps import apps
from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from tests.crawl import cover
from tests.rendered_forms import rendered_forms

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")
LINK = re.compile(r"""(?:href|action|hx-get|hx-post)=["']([^"']+)["']""")
HX_POST = re.compile(r"""hx-post=["']([^"']+)["']""")

#: Path parts that name no object of a club: a secret in the address opens the page
#: (an invitation code, a password reset link), whoever holds it. Such routes are the
#: secret's, tested with their throttles (tests/clubs/test_invitations.py).
SECRETS = frozenset({"code", "token", "uidb64", "uidb36", "key"})

#: The people who are not club A's secretary, each tried on every page of club A.
STRANGERS = ("anonymous", "b_player", "b_secretary")
#: A member of A named by nothing in the address (not seated at the game, not in the
#: competition): sees what the public sees and writes nothing.
MEMBER = "a_member"
ROLES = (*STRANGERS, MEMBER)
#: A player of A who plays in its competitions (the demo's), tried besides on the pages
#: under /beheer/: the secretary's, by the convention of the URLs.
PLAYER = "a_player"


#: Routes meant for every signed-in person, of any club: an open event's entry page, where
#: players of other clubs enter themselves and their clubs' secretaries their members
#: (docs/events.md). The public is refused there as anywhere; a signed-in stranger gets the
#: page, and their posts must still change nothing (the demo's events take no entries).
OPEN_TO_ACCOUNTS = frozenset({"<slug:club>/evenement/<slug:event>/inschrijven/"})


def must_refuse(page: Page, role: str) -> bool:
    return page.route not in OPEN_TO_ACCOUNTS or role == "anonymous"


def roles_for(page: Page) -> tuple[str, ...]:
    return (*ROLES, PLAYER) if "/beheer/" in "/" + page.route else ROLES


def site_routes(urlconf: str | None = None) -> Iterator[str]:
    """Every route of the URL configuration, includes joined to their prefix; Django's
    admin site (a namespace of its own, staff only, its own login) left out."""

    def walk(patterns: Iterable[URLPattern | URLResolver], prefix: str) -> Iterator[str]:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if entry.namespace == "admin":
                    continue
                yield from walk(entry.url_patterns, prefix + _text(entry.pattern))
            else:
                yield prefix + _text(entry.pattern)

    yield from walk(get_resolver(urlconf).url_patterns, "")


def _text(pattern: object) -> str:
    if isinstance(pattern, RoutePattern):
        return str(pattern)
    # A regular expression (none outside the admin today): its text without anchors.
    return str(pattern).lstrip("^").removesuffix("$").replace("\\", "")


def parameters(route: str) -> list[str]:
    return [match.group(2) for match in PARAMETER.finditer(route)]


class UnknownParameter(LookupError):
    pass


# ----------------------------------------------------------------------------- the data


@dataclass
class ClubA:
    """The objects of club A that addresses name, chosen so that between them every state
    a page tells apart for its visitors is there: a published and a draft round, a game
    with moves, one without a result yet, a table of 4, a duplicate evening under way."""

    club: str
    club_id: int
    #: competition slug -> its round numbers (a paired one) or evening numbers (duplicate)
    numbers: dict[str, list[int]]
    #: competition slug -> game ids in it
    games: dict[str, list[int]]
    players: list[int]
    #: season slug -> the persons with ranked results in it (when the club is a federation)
    seasons: dict[str, list[str]] = field(default_factory=dict)
    #: season slug -> the versions of its ranking published as official
    versions: dict[str, list[int]] = field(default_factory=dict)
    #: the short names of the events the club organises, and their entries' ids
    events: list[str] = field(default_factory=list)
    entries: list[int] = field(default_factory=list)
    #: merges of two records of one person among the club's members (persons/)
    merges: list[int] = field(default_factory=list)
    #: a federation's officials see and undo every club's merges at its address
    #: (docs/persons.md): B's merge is A's too when A is a federation
    is_federation: bool = False

    @classmethod
    def read(cls, slug: str) -> ClubA:
        from clubs.models import Club, Player
        from competition.models import Competition
        from duplicate.models import DuplicateCompetition
        from events.models import Entry, Event
        from games.models import Game, Outcome
        from persons.models import PersonMerge

        club = Club.objects.get(slug=slug)
        games = (
            Game.objects.filter(round__competition__club=club)
            .exclude(outcome=Outcome.BYE)
            .annotate(move_count=Count("moves"), seat_count=Count("seats", distinct=True))
            .select_related("round")
            .order_by("round__competition", "-round__number", "table")
        )
        # Few games whose features together are every feature of the club's games.
        chosen = cover((game, _features(game)) for game in games)
        numbers: dict[str, list[int]] = {}
        by_competition: dict[str, list[int]] = {}
        for competition in Competition.objects.filter(club=club).order_by("pk"):
            mine = [game for game in chosen if game.round.competition_id == competition.pk]
            if mine:
                numbers[competition.slug] = sorted({game.round.number for game in mine})
                by_competition[competition.slug] = [game.pk for game in mine]
        for duplicate in DuplicateCompetition.objects.filter(club=club).order_by("pk"):
            numbers[duplicate.slug] = list(
                duplicate.evenings.order_by("number").values_list("number", flat=True)
            )
            by_competition[duplicate.slug] = []
        members = Player.objects.filter(memberships__club=club).order_by("pk")
        # A player with an account and one without (an invitation's), both with games.
        with_games = members.filter(seats__isnull=False).distinct()
        players = [
            with_games.filter(user__isnull=False).first(),
            with_games.filter(user__isnull=True).first(),
        ]
        from events.models import Season
        from ranking.models import RankedResult
        from ranking.selectors import person_key

        seasons: dict[str, list[str]] = {}
        versions: dict[str, list[int]] = {}
        for season in Season.objects.filter(federation=club).order_by("pk"):
            results = RankedResult.objects.filter(game__event__season=season).order_by("pk")
            keys = [
                person_key(player, number)
                for player, number in results.values_list("player_id", "federation_number")
            ]
            seasons[season.slug] = sorted({key for key in keys if key is not None})[:1]
            versions[season.slug] = list(
                season.publications.order_by("version").values_list("version", flat=True)
            )
        events = Event.objects.filter(organiser=club).order_by("pk")
        merges = PersonMerge.objects.filter(keep__memberships__club=club).order_by("pk")
        return cls(
            club=club.slug,
            club_id=club.pk,
            numbers=numbers,
            games=by_competition,
            players=[player.pk for player in players if player is not None],
            seasons=seasons,
            versions=versions,
            events=[event.slug for event in events],
            entries=list(
                Entry.objects.filter(event__in=events).order_by("pk").values_list("pk", flat=True)
            ),
            merges=list(merges.values_list("pk", flat=True)),
            is_federation=club.is_federation,
        )

    @staticmethod
    def model_club(slug: str):
        from clubs.models import Club

        return Club.objects.get(slug=slug)

    def values(self, name: str, chosen: dict[str, str]) -> list[str]:
        """The values of path part `name`, given the parts already chosen (a round number
        belongs to the competition in the address)."""
        competition = chosen.get("competition")
        if name == "club":
            return [self.club]
        if name == "club_id":
            return [str(self.club_id)]
        if name == "competition":
            return list(self.numbers)
        if name == "number":
            found = self.numbers.get(competition, []) if competition else []
            return [str(number) for number in found]
        if name == "game_id":
            if competition:
                return [str(pk) for pk in self.games.get(competition, [])]
            return [str(pk) for pks in self.games.values() for pk in pks]
        if name in ("player_id", "player"):
            return [str(pk) for pk in self.players]
        if name == "season":
            return list(self.seasons)
        if name == "person":
            season = chosen.get("season")
            return list(self.seasons.get(season, [])) if season else []
        if name == "version":
            season = chosen.get("season")
            return [str(number) for number in self.versions.get(season, [])] if season else []
        if name == "suffix":  # an official version's downloads
            return ["json", "csv"]
        if name == "event":
            return list(self.events)
        if name == "entry_id":
            return [str(pk) for pk in self.entries]
        if name == "merge_id":
            return [str(pk) for pk in self.merges]
        raise UnknownParameter(name)


def _features(game) -> set[str]:
    """What a page of the game or its round shows differently for its visitors."""
    from games.models import Outcome

    features = {f"status:{game.round.status}", "table" if game.seat_count > 2 else "pair"}
    if game.outcome == Outcome.PENDING:
        features.add("pending")  # its board and result page still take writes
    if game.move_count:
        features.add("moves")
    return features


#: Path parts that name an object of a club, filled from `ClubA.values`.
CLUB_OBJECTS = frozenset(
    {
        "club",
        "club_id",
        "competition",
        "number",
        "game_id",
        "player_id",
        "player",
        "season",
        "person",
        "event",
        "entry_id",
        "merge_id",
        "version",
        "suffix",
    }
)


def names_club_object(route: str) -> bool:
    """Whether the route names an object of a club; a path part neither known as one nor
    as a secret raises UnknownParameter (a new kind of page: say what it names)."""
    names = parameters(route)
    for name in names:
        if name not in CLUB_OBJECTS and name not in SECRETS:
            raise UnknownParameter(name)
    return bool(names) and not (set(names) & SECRETS)


def fill(route: str, club_a: ClubA, crossed: str = "", club_b: ClubA | None = None) -> list[str]:
    """Every address of the route with club A's values, in the order of its parts; the
    part `crossed` with club B's values instead (any of B's rows)."""
    names = parameters(route)
    addresses: list[tuple[str, dict[str, str]]] = [("/" + route, {})]
    for name in names:
        addresses = [
            (re.sub(rf"<(?:\w+:)?{name}>", value, address, count=1), chosen | {name: value})
            for address, chosen in addresses
            for value in (
                club_b.values(name, {})
                if name == crossed and club_b
                else club_a.values(name, chosen)
            )
        ]
    return [address for address, _chosen in addresses]


def crossings(route: str) -> list[str]:
    """The path parts of a route that are a row's own id (`<id:game_id>`) beside another
    object of the club: filled with club B's row under club A's address, the page must not
    find it (a game of B corrected on A's correction page, B's player as A's member)."""
    found = [match.group(2) for match in PARAMETER.finditer(route) if match.group(1) == "id"]
    others = set(parameters(route)) - set(found)
    return found if others & CLUB_OBJECTS else []


# ------------------------------------------------------------------------- the answers


def login_url() -> str:
    return resolve_url(settings.LOGIN_URL)


def refused(response) -> bool:
    """Refused as the site refuses: login first, forbidden, not found, or not this method."""
    if response.status_code in (403, 404, 405):
        return True
    return response.status_code == 302 and response["Location"].startswith(login_url() + "?")


def shown(response) -> bool:
    """The page, or a redirect to a page that is not the login."""
    return 200 <= response.status_code < 400 and not refused(response)


#: Tables that are nobody's data: a refused login or code counts toward its throttle, and
#: every login keeps a session.
NOT_DATA = frozenset({"clubs.Throttle", "sessions.Session"})


def data_models() -> list:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.label not in NOT_DATA and model._meta.managed and not model._meta.proxy
    ]


def row_counts() -> tuple[int, ...]:
    """A cheap fingerprint after every post: every table's rows counted, in one query
    (each change a person makes writes a history entry, so a change that adds no row of
    its own still shows)."""
    quote = connection.ops.quote_name
    counts = ", ".join(
        f"(SELECT COUNT(*) FROM {quote(model._meta.db_table)})" for model in data_models()
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return tuple(cursor.fetchone())


def dump() -> dict[str, list[dict]]:
    """Every row of every table: compared before and after all the posts."""
    return {
        model._meta.label: list(model._default_manager.order_by("pk").values())
        for model in data_models()
    }


def changes(before: dict, after: dict) -> list[str]:
    """Each table that differs, with its first changed row."""
    found = []
    for table, rows in before.items():
        if rows == after[table]:
            continue
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


# ---------------------------------------------------------------------------- the probe

#: A value for an empty field, by its kind: the posts look like a person's, so that a page
#: that asked who is posting only once the form is valid would be found out too.
PLAUSIBLE = {
    "text": "Anke de Vries",
    "textarea": "8H WOORD",
    "number": "1",
    "date": "2026-09-01",
    "time": "20:00",
    "email": "anke@example.org",
    "password": "een-lang-wachtwoord",
    "search": "Anke",
    "url": "https://example.org/",
}


@dataclass
class Page:
    route: str
    address: str
    #: "public": the public gets it too; "private": A's secretary gets it, the public not;
    #: "action": a GET is 405 for A's secretary too (a form's target); "operator": A's
    #: secretary is refused, the operator of the service is not (a page above the clubs).
    kind: str
    bodies: list[dict] = field(default_factory=list)


@dataclass
class Report:
    pages: list[Page] = field(default_factory=list)
    #: (address, role, method, body) tried
    checks: int = 0
    seconds: float = 0.0
    #: the addresses of club A with a row of club B in them
    crossed: list[str] = field(default_factory=list)
    failures: dict[str, list[str]] = field(default_factory=dict)

    #: the distinct (route, role, method) of those checks
    kinds: set[tuple[str, str, str]] = field(default_factory=set)

    def tried(self, route: str, role: str, method: str) -> None:
        self.checks += 1
        self.kinds.add((route, role, method))

    def fail(self, kind: str, message: str) -> None:
        self.failures.setdefault(kind, []).append(message)


class Probe:
    """Asks A's secretary, the public and each role for every address of club A.

    `clients` holds a logged-in test client per role of `ROLES`, plus "a_secretary" and
    "operator"; `only` limits the routes probed (a test of the probe itself)."""

    def __init__(self, clients: dict[str, Client], club_a: ClubA, club_b: ClubA, only=None):
        self.clients = clients
        self.club_a = club_a
        self.club_b = club_b
        self.only = only or (lambda route: True)
        self.report = Report()
        self._bodies: dict[str, dict[str, dict]] = {}

    def get(self, role: str, address: str):
        return self.clients[role].get(address, HTTP_ACCEPT="text/html")

    def run(self) -> Report:
        report = self.report
        # After A's secretary's own reads: one of them may record itself (the club archive's
        # download is kept on the club and in its history); nobody else's read may change a row.
        pages = self.pages()
        untouched = dump()
        for page in pages:
            if page.kind == "public":
                continue
            for role in roles_for(page):
                report.tried(page.route, role, "GET")
                response = self.get(role, page.address)
                if not refused(response) and must_refuse(page, role):
                    report.fail(
                        "read",
                        f"GET {page.address} ({page.kind}) as {role}: {response.status_code}",
                    )
        self._public_pages_alike([page for page in pages if page.kind == "public"])
        before = dump()
        if before != untouched:
            report.fail("read", "the GETs changed: " + "; ".join(changes(untouched, before)))
        for page in pages:
            for role in roles_for(page):
                counts = row_counts()
                for body in page.bodies:
                    report.tried(page.route, role, "POST")
                    response = self.clients[role].post(page.address, body)
                    if not refused(response) and must_refuse(page, role):
                        report.fail(
                            "write",
                            f"POST {page.address} as {role} {sorted(body)}: {response.status_code}",
                        )
                if row_counts() != counts:
                    report.fail("write", f"POST {page.address} as {role} changed the database")
        self._crossed(pages)
        after = dump()
        if after != before:
            report.fail("write", "the posts changed: " + "; ".join(changes(before, after)))
        return report

    def _crossed(self, pages: list[Page]) -> None:
        """Club B's rows under club A's addresses, as A's secretary: not found, and every
        post to them (with the forms of the route's own pages) refused, nothing changed."""
        bodies: dict[str, list[dict]] = {}
        for page in pages:
            bodies.setdefault(page.route, [])
            bodies[page.route] += [body for body in page.bodies if body not in bodies[page.route]]
        for route, sent in bodies.items():
            for name in crossings(route):
                if name == "merge_id" and self.club_a.is_federation:
                    continue  # every club's merge is a federation's (docs/persons.md)
                for address in fill(route, self.club_a, name, self.club_b):
                    self.report.crossed.append(address)
                    self.report.tried(route, "a_secretary", "GET crossed")
                    response = self.get("a_secretary", address)
                    if not refused(response):
                        self.report.fail(
                            "crossed", f"GET {address} as a_secretary: {response.status_code}"
                        )
                    counts = row_counts()
                    for body in sent:
                        self.report.tried(route, "a_secretary", "POST crossed")
                        response = self.clients["a_secretary"].post(address, body)
                        if not refused(response):
                            self.report.fail(
                                "crossed",
                                f"POST {address} as a_secretary {sorted(body)}: "
                                f"{response.status_code}",
                            )
                    if row_counts() != counts:
                        self.report.fail("crossed", f"POST {address} changed the database")

    def _public_pages_alike(self, pages: list[Page]) -> None:
        """A public page leads B's secretary and A's member nowhere the public is not led:
        no link or form into the club that the public's copy lacks (a draft round, a
        secretary's page)."""
        for page in pages:
            seen = self._club_links(self.get("anonymous", page.address))
            if seen is None:
                continue
            for role in ("b_secretary", MEMBER):
                self.report.tried(page.route, role, "GET links")
                more = (self._club_links(self.get(role, page.address)) or set()) - seen
                if more:
                    self.report.fail(
                        "read", f"GET {page.address} as {role} leads to {sorted(more)[:3]}"
                    )

    def _club_links(self, response) -> set[str] | None:
        """The addresses of club A and its games that an HTML page links or posts to."""
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            return None
        html = response.content.decode(errors="replace")
        club = f"/{self.club_a.club}/"
        return {
            urlsplit(unescape(target)).path
            for target in LINK.findall(html)
            if target.startswith((club, "/partij/"))
        }

    def pages(self) -> list[Page]:
        """Club A's pages by what its secretary and the public get; each route of a club
        object must give A's secretary (or the operator) at least one address."""
        report = self.report
        routes: list[str] = []
        for route in site_routes():
            if not self.only(route):
                continue
            try:
                if names_club_object(route):
                    routes.append(route)
                else:
                    self._site_page(route)
            except UnknownParameter as unknown:
                report.fail(
                    "unknown",
                    f"/{route}: path part <{unknown}> names no object tests/isolation.py "
                    "knows: add it to CLUB_OBJECTS (and ClubA.values) or to SECRETS",
                )
        for route in routes:
            found = [
                page for address in fill(route, self.club_a) if (page := self._page(route, address))
            ]
            if not found:
                report.fail(
                    "secretary", f"/{route}: no address of club A that A's secretary can open"
                )
            report.pages += found
        bodies = self._bodies
        # An action's address (a GET is 405) cannot be asked whether its values fit: the
        # addresses that A's secretary's pages post to are kept; a route none of them posts
        # to keeps every address.
        posted_to = {page.route for page in report.pages if page.address in bodies}
        report.pages = [
            page
            for page in report.pages
            if page.kind != "action" or page.address in bodies or page.route not in posted_to
        ]
        for page in report.pages:
            page.bodies = [{}, *bodies.get(page.address, {}).values()]
        return report.pages

    def _page(self, route: str, address: str) -> Page | None:
        response = self.get("a_secretary", address)
        if response.status_code == 405:
            return Page(route, address, "action")
        if shown(response):
            if response.status_code == 200:
                self._forms_of(response, address)
            public = shown(self.get("anonymous", address))
            return Page(route, address, "public" if public else "private")
        as_operator = self.get("operator", address)
        if shown(as_operator) or as_operator.status_code == 405:  # a page or an action's address
            return Page(route, address, "operator")
        if response.status_code != 404:  # 404: values that do not belong together
            self.report.fail(
                "secretary", f"{address} ({route}): A's secretary gets {response.status_code}"
            )
        return None

    def _forms_of(self, response, address: str) -> None:
        """The page's post forms as A's secretary sees them: the bodies posted later, to
        each form's own address (an action's address is found from the page that has it)."""
        if "html" not in response.get("Content-Type", ""):
            return
        html = response.content.decode(errors="replace")
        for target in HX_POST.findall(html):  # htmx posts (a preview as one types): no body
            self._bodies.setdefault(urlsplit(urljoin(address, unescape(target))).path, {})
        for form in rendered_forms(html, address):
            for submitter in form.submitters or [None]:
                body = form.body(submitter)
                body.pop("csrfmiddlewaretoken", None)
                for name, values in body.items():  # what a person would type, roughly
                    typed = PLAUSIBLE.get(form.kinds.get(name, ""), "")
                    body[name] = [value or typed for value in values]
                # One body per kind of form: a form per row (a slip to correct, a player
                # to invite) differs from the next only in its values.
                kind = (sorted(body), submitter, body.get("action"))
                self._bodies.setdefault(form.action, {}).setdefault(repr(kind), body)

    def _site_page(self, route: str) -> None:
        """A page that names no club object: what A's secretary may not open (the
        operator's list of clubs, say), none of the others may either."""
        if "<" in route:
            return  # opened by a secret: tested with it
        address = "/" + route
        response = self.get("a_secretary", address)
        if shown(response) or response.status_code == 405:
            return
        for role in ROLES:
            self.report.tried(route, role, "GET")
            self.report.tried(route, role, "POST")
            if not refused(self.get(role, address)):
                self.report.fail("site", f"{address}: A's secretary is refused, {role} is not")
            if not refused(self.clients[role].post(address, {})):
                self.report.fail("site", f"POST {address}: A's secretary is refused, {role} is not")
