"""Entering players into a competition, late entry, withdrawal and groups.

Every change is kept in the history (who, before, after) with the competition's id; an
archived competition refuses them all.
"""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.history import HistoryAction, history_record
from clubs.locks import club_lock
from clubs.models import Club, Membership, Player
from competition.core import ratings
from competition.models import Absence, Competition, Entrant, Group
from competition.ratings import club_ratings, seed_rating
from competition.services import CompetitionError, competition_check_open
from competition.versioning import competition_touched
from events.models import Entry
from games.models import Seat

#: Why a division refuses a player: its players are the event's entrants.
NOT_ENTERED = _("%(player)s is not entered in the event: enter them on the event's page first.")


@transaction.atomic
def player_get_or_create_in_club(*, club: Club, name: str) -> tuple[Player, bool]:
    """Find a club member by name (case and surrounding spaces ignored), or enrol a new one."""
    name = " ".join(name.split())
    if not name:
        raise CompetitionError(_("A player needs a name."))
    club_lock(club.pk)
    matches = list(Player.objects.filter(memberships__club=club, name__iexact=name)[:2])
    if len(matches) > 1:
        raise CompetitionError(
            _("The club has more than one player called “%(name)s”.") % {"name": name}
        )
    if matches:
        return matches[0], False
    player = Player.objects.create(name=name)
    Membership.objects.create(club=club, player=player)
    return player, True


@transaction.atomic
def entrant_add(
    *,
    competition: Competition,
    player: Player,
    joined_round: int = 1,
    group: Group | None = None,
    seed: int | None = None,
    by: Any = None,
) -> Entrant:
    """Enter a player; a late entrant plays from `joined_round` on."""
    club_lock(competition.club_id)
    competition_check_open(competition.pk)
    if Entrant.objects.filter(competition=competition, player=player).exists():
        raise CompetitionError(
            _("%(player)s already takes part in this competition.") % {"player": player}
        )
    if group is not None and group.competition_id != competition.pk:
        raise CompetitionError(_("That group belongs to another competition."))
    if competition.event_id is None:
        Membership.objects.get_or_create(club_id=competition.club_id, player=player)
    elif not Entry.objects.filter(event_id=competition.event_id, player=player).exists():
        # A division takes the event's entrants, of any club: their entry says for which.
        raise CompetitionError(NOT_ENTERED % {"player": player})
    entrant = Entrant(
        competition=competition, player=player, joined_round=joined_round, group=group, seed=seed
    )
    entrant.full_clean()
    entrant.save()
    _record(
        entrant,
        HistoryAction.ENTRANT_ADD,
        by=by,
        after={"joined_round": joined_round, "group": group.name if group else None},
    )
    competition_touched(competition_id=competition.pk)
    return entrant


@transaction.atomic
def entrant_enter(
    *,
    competition: Competition,
    player: Player | None,
    new_player_name: str = "",
    joined_round: int = 1,
    group: Group | None = None,
    by: Any = None,
) -> Player:
    """Enter a club member, or a player by name (found in the club, else enrolled there):
    both steps or neither, so a refused entry leaves no new player behind."""
    competition_check_open(competition.pk)
    if player is None:
        player, _created = player_get_or_create_in_club(club=competition.club, name=new_player_name)
    entrant_add(
        competition=competition, player=player, joined_round=joined_round, group=group, by=by
    )
    return player


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, from_round: int, by: Any = None) -> Entrant:
    """Withdraw a player from `from_round` on; earlier results stay in the standings."""
    competition_check_open(entrant.competition_id)
    if from_round <= entrant.joined_round:
        raise CompetitionError(
            _("A player can only withdraw after the round they joined (round %(round)s).")
            % {"round": entrant.joined_round}
        )
    if Seat.objects.filter(
        player=entrant.player,
        round__competition=entrant.competition_id,
        round__number__gte=from_round,
        game__outcome__gt="",
    ).exists():
        raise CompetitionError(
            _("%(player)s already has a result in round %(round)s or later.")
            % {"player": entrant.player, "round": from_round}
        )
    before = _withdrawn_from(entrant)
    entrant.withdrawn_from_round = from_round
    entrant.save(update_fields=["withdrawn_from_round"])
    if before != from_round:
        _record(
            entrant,
            HistoryAction.ENTRANT_WITHDRAW,
            by=by,
            before={"withdrawn_from_round": before},
            after={"withdrawn_from_round": from_round},
        )
    competition_touched(competition_id=entrant.competition_id)
    return entrant


@transaction.atomic
def entrant_reinstate(*, entrant: Entrant, by: Any = None) -> Entrant:
    competition_check_open(entrant.competition_id)
    before = _withdrawn_from(entrant)
    entrant.withdrawn_from_round = None
    entrant.save(update_fields=["withdrawn_from_round"])
    if before is not None:
        _record(
            entrant,
            HistoryAction.ENTRANT_REINSTATE,
            by=by,
            before={"withdrawn_from_round": before},
            after={"withdrawn_from_round": None},
        )
    competition_touched(competition_id=entrant.competition_id)
    return entrant


@transaction.atomic
def entrant_set_group(*, entrant: Entrant, group: Group | None, by: Any = None) -> Entrant:
    """Move a player to another group (or to none); the standings follow at once."""
    competition_check_open(entrant.competition_id)
    if group is not None and group.competition_id != entrant.competition_id:
        raise CompetitionError(_("That group belongs to another competition."))
    before = Entrant.objects.filter(pk=entrant.pk).values_list("group__name", flat=True).get()
    entrant.group = group
    entrant.save(update_fields=["group"])
    after = group.name if group else None
    if before != after:
        _record(
            entrant,
            HistoryAction.ENTRANT_GROUP,
            by=by,
            before={"group": before},
            after={"group": after},
        )
    competition_touched(competition_id=entrant.competition_id)
    return entrant


@transaction.atomic
def groups_fill_by_rating(*, competition: Competition, by: Any = None) -> int:
    """Fill the competition's groups by strength before it starts: the entrants by the
    club's rating (`seed_rating`), strongest first, in blocks over the groups in their
    order. Each move is one history entry (`entrant_set_group`). Returns how many moved."""
    competition_check_open(competition.pk)
    groups = list(competition.groups.all())
    if not groups:
        raise CompetitionError(_("Add the groups first."))
    if Seat.objects.filter(round__competition=competition).exists():
        raise CompetitionError(
            _("The competition has started: move players from one group to another one by one.")
        )
    club_rating = club_ratings(competition.club)
    entrants = list(competition.entrants.select_related("player"))

    def strength(entrant: Entrant) -> tuple:
        rating = seed_rating(club_rating, entrant.player)
        return (rating is None, -(rating or 0), entrant.player.name, entrant.pk)

    ordered = sorted(entrants, key=strength)
    by_pk = {entrant.pk: entrant for entrant in entrants}
    moved = 0
    blocks = ratings.fill_groups([entrant.pk for entrant in ordered], len(groups))
    for group, block in zip(groups, blocks, strict=True):
        for pk in block:
            entrant = by_pk[pk]
            if entrant.group_id != group.pk:
                entrant_set_group(entrant=entrant, group=group, by=by)
                moved += 1
    return moved


@transaction.atomic
def group_create(*, competition: Competition, name: str, by: Any = None) -> Group:
    """Add a group (division); entrants are then placed in it one by one."""
    name = " ".join(name.split())
    if not name:
        raise CompetitionError(_("A group needs a name."))
    club_lock(competition.club_id)
    competition_check_open(competition.pk)
    if competition.groups.filter(name__iexact=name).exists():
        raise CompetitionError(_("There is already a group “%(name)s”.") % {"name": name})
    group = Group.objects.create(
        competition=competition, name=name, order=competition.groups.count() + 1
    )
    history_record(
        club_id=competition.club_id,
        by=by,
        action=HistoryAction.GROUP_CREATE,
        object_type="group",
        object_id=group.pk,
        label=name,
        after={"name": name},
        competition_id=competition.pk,
    )
    competition_touched(competition_id=competition.pk)
    return group


@transaction.atomic
def entrant_remove(*, entrant: Entrant, by: Any = None) -> None:
    """Take a player out of a competition they have not played in yet (an entry in an
    event taken back): no seat and no absence; one who played is withdrawn instead."""
    club_lock(entrant.competition.club_id)
    competition_check_open(entrant.competition_id)
    rounds = {"round__competition": entrant.competition_id, "player": entrant.player_id}
    if Seat.objects.filter(**rounds).exists() or Absence.objects.filter(**rounds).exists():
        raise CompetitionError(
            _("%(player)s has played in %(competition)s: withdraw them from a round instead.")
            % {"player": entrant.player, "competition": entrant.competition}
        )
    _record(entrant, HistoryAction.ENTRANT_REMOVE, by=by, before={"player": entrant.player.name})
    entrant.delete()
    competition_touched(competition_id=entrant.competition_id)


def _withdrawn_from(entrant: Entrant) -> int | None:
    """As stored, not as the caller's copy says (it may be stale)."""
    return (
        Entrant.objects.filter(pk=entrant.pk).values_list("withdrawn_from_round", flat=True).get()
    )


def _record(entrant: Entrant, action: str, *, by: Any, before=None, after=None) -> None:
    history_record(
        club_id=entrant.competition.club_id,
        by=by,
        action=action,
        object_type="entrant",
        object_id=entrant.pk,
        label=entrant.player.name,
        before=before,
        after=after,
        competition_id=entrant.competition_id,
    )
