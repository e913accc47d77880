"""A club's rows deleted, all of them: what its archive holds (`backup.CLUB_MODELS`).

Only the operator's removal of a club calls this (`hosting.services.club_remove`), after
an archive later than the club's last change was downloaded. Its players go with it unless
another club still knows them (a member there, or in its games, entries, slips); their
accounts stay (a person may sign in elsewhere; erasing an account is privacy/'s).

Django: a service, called inside the removal's transaction.
"""

from __future__ import annotations

from django.db.models import Q

from archives.backup import CLUB_MODELS, _rows_of
from clubs.history import history_forget_club
from clubs.models import Club, Player

#: A player another club still refers to.
_STILL_KNOWN = (
    Q(memberships__isnull=False)
    | Q(entries__isnull=False)
    | Q(seats__isnull=False)
    | Q(absences__isnull=False)
    | Q(duplicate_slips__isnull=False)
    | Q(duplicate_participations__isnull=False)
)


def club_rows_delete(club: Club) -> dict[str, int]:
    """Delete `club`, everything of it and its history (the operator's entries about it
    stay, without it: `history_forget_club`); how many rows of each model went."""
    players = list(_rows_of(Player, club).values_list("pk", flat=True))
    deleted: dict[str, int] = {}
    # Children before parents: games and rounds are PROTECTed from their parents' deletion.
    for model in reversed(CLUB_MODELS):
        if model in (Club, Player):
            continue
        deleted[model._meta.label] = _rows_of(model, club).delete()[0]
    deleted["clubs.HistoryEntry"] = history_forget_club(club_id=club.pk)
    alone = Player.objects.filter(pk__in=players).exclude(
        pk__in=Player.objects.filter(_STILL_KNOWN).values("pk")
    )
    deleted["clubs.Player"] = alone.delete()[0]
    Club.objects.filter(pk=club.pk).delete()
    deleted["clubs.Club"] = 1
    return deleted
