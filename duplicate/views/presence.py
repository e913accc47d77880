"""Who was at a duplicate evening: the spelleider and the jury record a player present,
absent, or left after a turn (`duplicate.services.presence.presence_set`)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition.services import CompetitionError
from duplicate import selectors
from duplicate.forms import PresenceForm
from duplicate.models import Evening, Participant
from duplicate.services.presence import presence_set
from duplicate.views.shared import evening_url, jury_required, player_labels, refusal


@jury_required
def presence_page(request, evening: Evening, *, leads: bool):
    """Every player of the evening with their presence, and the form that records one."""
    playing = selectors.evening_players(evening)
    players = player_labels(playing)
    form = PresenceForm(players=players)
    if request.method == "POST":
        form = PresenceForm(request.POST, players=players)
        if form.is_valid():
            data = form.cleaned_data
            participant = Participant.objects.get(
                competition_id=evening.competition_id, player_id=data["player"]
            )
            try:
                presence_set(
                    evening=evening,
                    participant=participant,
                    status=data["status"],
                    left_after_turn=data["left_after_turn"],
                    reason=data["reason"],
                    by=request.user,
                )
            except CompetitionError as error:
                form.add_error(None, refusal(error))
            else:
                messages.success(request, _("Presence saved."))
                return redirect(evening_url("duplicate_presence", evening))
    return render(
        request,
        "duplicate/presence.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "form": form,
            "rows": selectors.presence_rows(evening, playing),
            "leads": leads,
            "can_manage": leads,
            "tab": "duplicate",
        },
    )
