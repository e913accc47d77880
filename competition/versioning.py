"""A competition's last change: one timestamp, `Competition.changed_at`, moved forward by
every write to the competition's data, so a repeat visit to a public page costs one query.

- Settings: `Competition.save()` (auto_now), whoever saves it (the form, the admin).
- Entrants, groups, rounds, attendance, pairings, imports: the services in
  competition/services/ call `competition_touched` last, after their other writes (rows
  are always locked game first, competition second: no deadlock between two writers).
- Results and moves: games' services send `games.signals.game_changed` (games may not
  import competition), after their writes; `on_game_changed` below moves the round's
  competition forward.
- A player's or club's name changed in the admin: `clubs.signals` (`on_names_changed`).
- A write that finds nothing to change (a form sent back as shown) moves nothing forward;
  games' services send `games.signals.game_unchanged`, so an archived one still refuses.

It runs inside the writer's transaction: a failed write leaves the timestamp as it was.
Readers take the timestamp before the data, so a page is never keyed newer than it is.

Being the one place every write passes, it is also where an archived competition refuses
a write that got this far (`CompetitionArchived`, which rolls the transaction back): the
same query, limited to competitions that are not archived, tells.

Django: an ORM update.
"""

from django.utils import timezone

from competition.models import Competition


def competition_touched(*, competition_id: int) -> None:
    open_ones = Competition.objects.filter(pk=competition_id, archived_at__isnull=True)
    if not open_ones.update(changed_at=timezone.now()):
        _refuse_if_archived(Competition.objects.filter(pk=competition_id))


def on_game_changed(sender, *, round_id: int, **kwargs) -> None:
    """Moves the round's competition forward: every change of a game, result or not."""
    open_ones = Competition.objects.filter(rounds__id=round_id, archived_at__isnull=True)
    if not open_ones.update(changed_at=timezone.now()):
        _refuse_if_archived(Competition.objects.filter(rounds__id=round_id))


def on_game_unchanged(sender, *, round_id: int, **kwargs) -> None:
    _refuse_if_archived(Competition.objects.filter(rounds__id=round_id))


def on_names_changed(sender, *, player_id: int | None = None, club_id: int | None = None, **kwargs):
    """A player or club was renamed (clubs.signals): every competition that shows the name
    moves forward, archived ones too, since only how they read changes, not their data."""
    if player_id is not None:
        shown = Competition.objects.filter(entrants__player_id=player_id)
    else:
        shown = Competition.objects.filter(club_id=club_id)  # type: ignore[misc]  # one is sent
    Competition.objects.filter(pk__in=shown.values("pk")).update(changed_at=timezone.now())


def _refuse_if_archived(competitions) -> None:
    from competition.services import CompetitionArchived

    if competitions.filter(archived_at__isnull=False).exists():
        raise CompetitionArchived
