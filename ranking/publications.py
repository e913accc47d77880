"""Publishing a season's ranking as the federation's official version, and the reads of
the versions published (docs/ranking.md, *Publishing*).

`publication_create` freezes the ranking on a date as rows (`PublishedPerson`,
`PublishedClub`), under the federation's lock: versions of a season are numbered 1, 2, ...
without a gap or a double, and an official who publishes after seeing version N is refused
when another published N + 1 meanwhile. A version is never changed afterwards (but for an
erasure, privacy/erasure.py); a correction is a new version with its reason, and
`publication_changes` lists what changed from the version before.

Django: services and selectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.permissions import can_manage_club
from events.models import Season
from ranking.changes import Change, Row, changes
from ranking.models import Publication, PublishedClub, PublishedPerson
from ranking.selectors import NUMBER_PREFIX, Standings, season_standings

MESSAGES: dict[str, Any] = {
    "not_official": _("Only the federation's officials may publish its ranking."),
    "reason_needed": _("Say why a new version is published: the correction is announced."),
    "published_meanwhile": _(
        "Version %(version)s was published in the meantime. Look at it, then publish again "
        "if a correction is still needed."
    ),
}


class PublicationError(ValueError):
    """A publication refused: `code` is one of `MESSAGES`; `message` in the reader's
    language."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        return str(MESSAGES[self.code] % self.params) if self.params else str(MESSAGES[self.code])


def _person_rows(publication: Publication, standings: Standings) -> list[PublishedPerson]:
    rows = []
    for position, row in enumerate(standings.ranking.persons, 1):
        club = standings.person_clubs.get(row.person)
        rows.append(
            PublishedPerson(
                publication=publication,
                position=position,
                person=row.person,
                player_id=None if row.person.startswith(NUMBER_PREFIX) else int(row.person),
                rank=row.rank,
                federation_number=standings.federation_numbers.get(row.person, ""),
                name=standings.names[row.person],
                club_name=standings.club_names.get(club or 0, ""),
                games=row.games,
                interclubs=row.interclubs,
                counted=row.counted,
                average=row.average,
                unranked_reason=(
                    "games" if row.too_few_games else "interclubs" if row.too_few_interclubs else ""
                ),
            )
        )
    return rows


def _club_rows(publication: Publication, standings: Standings) -> list[PublishedClub]:
    return [
        PublishedClub(
            publication=publication,
            position=position,
            club_id=row.club,
            name=standings.club_names.get(row.club, ""),
            rank=row.rank,
            score=row.score,
            results=row.results,
        )
        for position, row in enumerate(standings.ranking.clubs, 1)
    ]


def publication_create(
    *,
    season: Season,
    by: Any,
    on: date | None = None,
    reason: str = "",
    after_version: int | None = None,
    now: datetime | None = None,
) -> Publication:
    """Publish the season's ranking on `on` (default: the ranking's own date) as its next
    version. `after_version` is the latest version the official saw (0: none); when
    another was published since, `PublicationError("published_meanwhile")`. A version
    after the first needs a reason. One history entry in the federation's history."""
    if not can_manage_club(by, season.federation):
        raise PublicationError("not_official")
    reason = reason.strip()
    try:
        with transaction.atomic():
            club_lock(season.federation_id)
            latest = season.publications.aggregate(last=Max("version"))["last"] or 0
            if after_version is not None and after_version != latest:
                raise PublicationError("published_meanwhile", version=latest)
            if latest and not reason:
                raise PublicationError("reason_needed")
            standings = season_standings(season, on)
            publication = Publication.objects.create(
                season=season,
                version=latest + 1,
                on=standings.ranking.on,
                published_at=now or timezone.now(),
                by=by if getattr(by, "is_authenticated", False) else None,
                by_name=by.get_username() if getattr(by, "is_authenticated", False) else "",
                reason=reason,
                interclubs=standings.ranking.interclubs,
                interclubs_needed=standings.ranking.interclubs_needed,
            )
            persons = _person_rows(publication, standings)
            PublishedPerson.objects.bulk_create(persons, batch_size=500)
            PublishedClub.objects.bulk_create(_club_rows(publication, standings), batch_size=500)
            history_record(
                club_id=season.federation_id,
                by=by,
                action=HistoryAction.RANKING_OFFICIAL,
                object_type="publication",
                object_id=publication.pk,
                label=f"{season.name} – {publication.version}",
                after={
                    "version": publication.version,
                    "on": publication.on.isoformat(),
                    "persons": len(persons),
                    "ranked": sum(1 for person in persons if person.rank is not None),
                },
                reason=reason,
            )
    except IntegrityError:
        # Only without the lock's protection (a version numbered elsewhere): the
        # constraint keeps one version N; the loser is told as if it had seen it.
        raise PublicationError("published_meanwhile", version=latest + 1) from None
    return publication


# --- reads --------------------------------------------------------------------------------


def publication_latest(season: Season) -> Publication | None:
    """The season's official version now (one query)."""
    return season.publications.order_by("-version").first()


def publication_get(season: Season, version: int) -> Publication | None:
    return season.publications.filter(version=version).first()


@dataclass(frozen=True)
class VersionChanges:
    """What changed from the version before (`previous` None: the first version)."""

    previous: int | None
    persons: list[Change]
    clubs: list[Change]


def _person_row(row: PublishedPerson) -> Row:
    return Row(row.person, row.name, row.rank, row.average, row.club_name)


def _club_row(row: PublishedClub) -> Row:
    return Row(row.name, row.name, row.rank, row.score)


def publication_changes(publication: Publication) -> VersionChanges:
    """The changes from the version before, for persons and clubs (four queries)."""
    previous = (
        Publication.objects.filter(season_id=publication.season_id, version__lt=publication.version)
        .order_by("-version")
        .first()
    )
    if previous is None:
        return VersionChanges(None, [], [])
    persons = PublishedPerson.objects.filter(publication__in=[previous, publication])
    clubs = PublishedClub.objects.filter(publication__in=[previous, publication])
    before = [_person_row(p) for p in persons if p.publication_id == previous.pk]
    after = [_person_row(p) for p in persons if p.publication_id == publication.pk]
    clubs_before = [_club_row(c) for c in clubs if c.publication_id == previous.pk]
    clubs_after = [_club_row(c) for c in clubs if c.publication_id == publication.pk]
    return VersionChanges(
        previous.version, changes(before, after), changes(clubs_before, clubs_after)
    )
