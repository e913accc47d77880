"""Entering players into a competition, late entry and withdrawal."""

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Membership, Player
from competition.models import Competition, Entrant, Group
from competition.services import CompetitionError, club_lock
from competition.versioning import competition_touched
from games.models import Seat


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
) -> Entrant:
    """Enter a player; a late entrant plays from `joined_round` on."""
    club_lock(competition.club_id)
    if Entrant.objects.filter(competition=competition, player=player).exists():
        raise CompetitionError(
            _("%(player)s already takes part in this competition.") % {"player": player}
        )
    if group is not None and group.competition_id != competition.pk:
        raise CompetitionError(_("That group belongs to another competition."))
    Membership.objects.get_or_create(club_id=competition.club_id, player=player)
    entrant = Entrant(
        competition=competition, player=player, joined_round=joined_round, group=group, seed=seed
    )
    entrant.full_clean()
    entrant.save()
    competition_touched(competition_id=competition.pk)
    return entrant


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, from_round: int) -> Entrant:
    """Withdraw a player from `from_round` on; earlier results stay in the standings."""
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
    entrant.withdrawn_from_round = from_round
    entrant.save(update_fields=["withdrawn_from_round"])
    competition_touched(competition_id=entrant.competition_id)
    return entrant


@transaction.atomic
def entrant_reinstate(*, entrant: Entrant) -> Entrant:
    entrant.withdrawn_from_round = None
    entrant.save(update_fields=["withdrawn_from_round"])
    competition_touched(competition_id=entrant.competition_id)
    return entrant


@transaction.atomic
def group_create(*, competition: Competition, name: str) -> Group:
    """Add a group (division); entrants are then placed in it one by one."""
    name = " ".join(name.split())
    if not name:
        raise CompetitionError(_("A group needs a name."))
    club_lock(competition.club_id)
    if competition.groups.filter(name__iexact=name).exists():
        raise CompetitionError(_("There is already a group “%(name)s”.") % {"name": name})
    group = Group.objects.create(
        competition=competition, name=name, order=competition.groups.count() + 1
    )
    competition_touched(competition_id=competition.pk)
    return group
