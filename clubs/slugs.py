"""Short names a club or a competition may not take, because a page of the site has them.

A club lives at `/<club>/`, a competition at `/<club>/<competition>/`. A club called `admin`
would sit behind the admin site, a competition called `beheer` behind the club's own
pages. The names are read from the URL configuration when asked (so a page added later is
covered without a change here), plus a few kept for pages to come.

Django: walks the URL resolver; imports no other app (the patterns are read at run time).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import URLPattern, URLResolver, get_resolver, get_urlconf
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils.translation import gettext_lazy as _

#: First path segments kept for pages to come, beyond those the URL configuration has.
FUTURE_CLUB_SLUGS = frozenset(
    {"api", "static", "media", "login", "logout", "beheer", "zoeken", "help", "over"}
)
#: Segments under `/<club>/` kept for club pages to come.
FUTURE_COMPETITION_SLUGS = frozenset(
    {"api", "beheer", "spelers", "competities", "archief", "evenement", "ranglijst"}
)

_LITERAL = re.compile(r"[\w.-]+")


def _route(pattern: object) -> str:
    """A pattern's text as a route: `<slug:club>/`, or a regex's text without anchors."""
    if isinstance(pattern, RoutePattern):
        return str(pattern)
    if isinstance(pattern, RegexPattern):
        return str(pattern).lstrip("^").removesuffix("$").replace("\\", "")
    return ""  # a language prefix, say: no segment of its own


def _routes(patterns: Iterable[URLPattern | URLResolver], prefix: str = "") -> Iterator[str]:
    """Every full route of the configuration, includes joined to their prefix."""
    for entry in patterns:
        route = prefix + _route(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        else:
            yield route


def url_segments(urlconf: str | None = None) -> tuple[frozenset[str], frozenset[str]]:
    """The literal first segments of the site's routes (`admin`, `gezond`, ...), and the
    literal segments right after a club (`/<club>/beheer/...`: `beheer`)."""
    first: set[str] = set()
    under_club: set[str] = set()
    for route in _routes(get_resolver(urlconf).url_patterns):
        segments = route.split("/")
        if _LITERAL.fullmatch(segments[0]):
            first.add(segments[0])
        elif segments[0].startswith("<") and len(segments) > 1 and _LITERAL.fullmatch(segments[1]):
            under_club.add(segments[1])
    return frozenset(first), frozenset(under_club)


@cache
def reserved_club_slugs(urlconf: str) -> frozenset[str]:
    """Kept per URL configuration: it is read once per process (and once per test conf)."""
    return url_segments(urlconf)[0] | FUTURE_CLUB_SLUGS


@cache
def reserved_competition_slugs(urlconf: str) -> frozenset[str]:
    return url_segments(urlconf)[1] | FUTURE_COMPETITION_SLUGS


def _urlconf() -> str:
    """The URL configuration in force: a request's own, else the settings'."""
    return str(get_urlconf() or settings.ROOT_URLCONF)


def validate_club_slug(slug: str) -> None:
    if slug.lower() in reserved_club_slugs(_urlconf()):
        raise ValidationError(
            _("“%(slug)s” is the address of a page of the site; choose another short name."),
            code="reserved",
            params={"slug": slug},
        )


def validate_competition_slug(slug: str) -> None:
    if slug.lower() in reserved_competition_slugs(_urlconf()):
        raise ValidationError(
            _("“%(slug)s” is the address of a page of the club; choose another short name."),
            code="reserved",
            params={"slug": slug},
        )


#: The models whose rows take a short name under `/<club>/` ("app_label.Model"), each
#: registered by its own app (`AppConfig.ready`): a paired competition and a duplicate
#: competition share the club's addresses, so one may not take the other's short name.
#: By label, not by class: clubs imports no app above it.
_SLUG_OWNERS: list[str] = []


def register_competition_slugs(model_label: str) -> None:
    if model_label not in _SLUG_OWNERS:
        _SLUG_OWNERS.append(model_label)


def competition_slug_taken(club_id: int, slug: str, *, own: object = None) -> bool:
    """Whether a competition of the club (of any registered kind) other than `own` has
    this short name. Ask it holding the club's lock (`clubs.locks.club_lock`)."""
    from django.apps import apps

    for label in _SLUG_OWNERS:
        model = apps.get_model(label)
        taken = model._default_manager.filter(club_id=club_id, slug=slug)
        if isinstance(own, model) and own.pk is not None:
            taken = taken.exclude(pk=own.pk)
        if taken.exists():
            return True
    return False
