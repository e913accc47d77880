"""Every page of the site, from the URL configuration and the demo data (`seed_demo`).

`site_routes()` walks `django.urls.get_resolver()` recursively, the admin included, so a
page added later is crawled without anyone naming it here. `addresses()` fills each route's
path parts from the demo data, choosing few values that together show every state the
pages know: per competition the rounds that hold every round status, kind of result and
table size between them (a finished round with a bye and a walk-over, one with a flag
fall, one with an annulled game, tonight's published round, the draft), both duplicate
evenings (finished, under way), games of every outcome, at tables of 2, 3 and 4, entered
move by move or as a final score. The admin's pages are filled per registered model with
its first row.

Used by the browser crawl (tests/e2e/test_crawl.py) and the language check
(tests/test_page_languages.py), which open the same list.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RegexPattern

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")
# An invitation code of the right shape that no player has: the page that says so.
UNKNOWN_CODE = "ABCD-EFGH"
#: The demo's people, by role; all log in with `seed_demo.DEMO_PASSWORD`.
ROLES = {"visitor": None, "player": "speler", "secretary": "secretaris", "admin": "admin"}


def site_routes() -> list[str]:
    """Every URL pattern as its route, e.g. "partij/<id:game_id>/", the admin's included;
    a regular expression's alternatives (the admin's app index) one route each."""
    routes: list[str] = []

    def walk(patterns: Iterable[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern.pattern, RegexPattern):
                # The admin's `^(?P<app_label>auth|clubs|...)/$`: one route per app.
                regex = pattern.pattern._regex
                found = re.fullmatch(r"\^\(\?P<(\w+)>([\w|]+)\)/\$", regex)
                parts = [f"{label}/" for label in found.group(2).split("|")] if found else []
            else:
                parts = [str(pattern.pattern)]
            for part in parts:
                if isinstance(pattern, URLResolver):
                    walk(pattern.url_patterns, prefix + part)
                else:
                    routes.append(prefix + part)

    walk(get_resolver().url_patterns, "")
    return routes


def cover(items: Iterable[tuple[object, set[str]]]) -> list[object]:
    """Few items whose features together are all the features of all items (greedy)."""
    items = list(items)
    wanted = set().union(*(features for _item, features in items)) if items else set()
    chosen = []
    while wanted:
        item, features = max(items, key=lambda pair: len(pair[1] & wanted))
        chosen.append(item)
        wanted -= features
    return chosen


def _game_features(game) -> set[str]:
    features = {f"outcome:{game.outcome or 'pending'}", f"seats:{len(game.seat_list)}"}
    if game.move_count:
        features.add("moves")
    return features


@dataclass
class Demo:
    """The path values of the demo data, and its people."""

    club: str
    competitions: dict[str, dict[str, list[str]]]  # slug -> number/game_id/player_id
    games: list[str]
    players: list[str]
    invited: str  # a player without an account
    admin: dict[str, str]  # "app_label/model_name" -> the first row's pk
    #: the club's events: slug -> its division's short names ("competition") and an entry
    events: dict[str, dict[str, list[str]]]

    @classmethod
    def read(cls) -> Demo:
        from clubs.models import Club, Player
        from competition.models import Competition
        from duplicate.models import DuplicateCompetition
        from games.models import Game

        club = Club.objects.get(slug="gouda")
        speler = Player.objects.get(user__username="speler")
        absent = Player.objects.filter(user=None).order_by("pk")
        games = list(
            Game.objects.filter(round__competition__club=club)
            .with_seats()
            .select_related("round__competition")
            .annotate(move_count=Count("moves"))
            .order_by("round__competition", "round__number", "table")
        )
        chosen = cover((game, _game_features(game)) for game in games)
        # The demo player's game tonight too: its pages offer them the result form.
        own = [
            game
            for game in games
            if not game.outcome and speler.pk in {seat.player_id for seat in game.seat_list}
        ][:1]
        competitions = {}
        for competition in Competition.objects.filter(club=club).order_by("pk"):
            rounds = [
                (
                    round_obj.number,
                    {f"status:{round_obj.status}"}
                    | {
                        f"{'seats' if feature else 'outcome'}:{value}"
                        for game in games
                        if game.round_id == round_obj.pk
                        for feature, value in (
                            (False, game.outcome or "pending"),
                            (True, len(game.seat_list)),
                        )
                    },
                )
                for round_obj in competition.rounds.order_by("number")
            ]
            numbers = [str(number) for number in sorted(cover(rounds))]
            in_competition = [
                str(game.pk) for game in chosen + own if game.round.competition_id == competition.pk
            ]
            competitions[competition.slug] = {
                "number": numbers,
                "game_id": in_competition[:3],
                "player_id": [str(speler.pk)],
            }
        # Duplicate competitions (their own model): every evening, the demo player.
        for duplicate in DuplicateCompetition.objects.filter(club=club).order_by("pk"):
            competitions[duplicate.slug] = {
                "number": [str(n) for n in duplicate.evenings.values_list("number", flat=True)],
                "game_id": [],
                "player_id": [str(speler.pk)],
            }
        events = events_of(club)
        admin = {}
        from django.contrib import admin as django_admin

        for model in django_admin.site._registry:
            first = model._default_manager.order_by("pk").first()
            if first is not None:
                admin[f"{model._meta.app_label}/{model._meta.model_name}"] = str(first.pk)
        return cls(
            club=club.slug,
            competitions=competitions,
            games=list(dict.fromkeys(str(game.pk) for game in chosen + own)),
            players=[str(speler.pk), str(absent.first().pk)],
            invited=str(absent.first().pk),
            admin=admin,
            events=events,
        )

    @staticmethod
    def user_of(role: str):
        username = ROLES[role]
        return None if username is None else get_user_model().objects.get(username=username)


def events_of(club) -> dict[str, dict[str, list[str]]]:
    """The events `club` organises: slug -> its divisions' short names ("competition") and
    an entry, the path values of an event's pages."""
    from events.divisions import divisions_of
    from events.models import Event

    return {
        event.slug: {
            "competition": [division.competition.slug for division in divisions_of(event)],
            "entry_id": [str(pk) for pk in event.entries.values_list("pk", flat=True)[:1]],
        }
        for event in Event.objects.filter(organiser=club).order_by("pk")
    }


def _fill(route: str, values: dict[str, list[str]]) -> list[str]:
    addresses = [route]
    for match in PARAMETER.finditer(route):
        options = values.get(match.group(2))
        if not options:
            return []
        addresses = [
            address.replace(match.group(0), option, 1)
            for address in addresses
            for option in options
        ]
    return addresses


def addresses(demo: Demo, routes: list[str] | None = None) -> list[str]:
    """Every route with the demo's values for its path parts, each address once."""
    return list(routes_of(demo, routes))


def routes_of(demo: Demo, routes: list[str] | None = None) -> dict[str, str]:
    """Every address of `addresses()`, in the same order, with the route it was filled
    from: pages of one route share a template and differ by the data shown."""
    found: dict[str, str] = {}
    for route in site_routes() if routes is None else routes:
        for address in _route_addresses(route, demo):
            found.setdefault("/" + address, route)
    return found


def _route_addresses(route: str, demo: Demo) -> list[str]:
    """The route filled with the demo's values for its path parts (none: no address)."""
    if route.startswith("admin/"):
        return _admin_addresses(route, demo)
    common = {
        "club": [demo.club],
        "game_id": demo.games,
        "player_id": demo.players,
        "player": [demo.invited],
        "code": [UNKNOWN_CODE],
        "uidb64": ["MQ"],
        "token": ["set-password"],
    }
    if "<slug:event>" in route:  # an event's pages: its divisions, an entry
        return [
            address
            for slug, values in demo.events.items()
            for address in _fill(route, common | values | {"event": [slug]})
        ]
    if "<slug:competition>" not in route:
        return _fill(route, common)
    found: list[str] = []
    duplicate_route = "duplicate/<number:number>" in route
    for slug, values in demo.competitions.items():
        is_duplicate = slug.startswith("duplicate")
        if "<number:number>" in route and duplicate_route != is_duplicate:
            continue  # rounds in a duplicate competition, evenings in a paired one
        found += _fill(route, common | values | {"competition": [slug]})
    return found


def _admin_addresses(route: str, demo: Demo) -> list[str]:
    """The admin's pages: every model's list and its first row's change form; the add
    form, history and delete pages of each app's first model (the same templates for
    every model, which only the list and the change form fill differently)."""
    found = re.fullmatch(r"admin/(\w+)/(\w+)/(<path:object_id>/)?(\w+/)?", route)
    apps = {key.split("/")[0] for key in demo.admin}
    if found is None or found.group(1) not in apps:
        # The index, an app's index, login, password: as they are; view_on_site, a user's
        # password form (reached from the change form) and autocomplete's JSON: left out.
        return [] if "<" in route or "autocomplete" in route or "jsi18n" in route else [route]
    app_label, model_name, row, page = found.groups()
    pk = demo.admin.get(f"{app_label}/{model_name}")
    first = min(key for key in demo.admin if key.startswith(f"{app_label}/"))
    if pk is None or (row and page is None):
        return []  # no row, or the old address of a change form (a redirect to it)
    if page not in (None, "change/") and first != f"{app_label}/{model_name}":
        return []
    return [route.replace("<path:object_id>", pk)]
