"""The jury room of a big duplicate evening: several people type the paper slips at
once, a second typing that differs waits for the spelleider; per table, whose slip is
not in yet."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition.services import CompetitionError
from duplicate import selectors
from duplicate.forms import JurySlipForm, ResolveConflictForm
from duplicate.models import Evening, SlipConflict, Turn
from duplicate.services import DuplicateEveningError
from duplicate.services.jury import jury_slip_type, slip_conflict_resolve
from duplicate.views.player_options_html import player_options
from duplicate.views.shared import evening_url, jury_required, player_labels, refusal


def _shown_turn(request, turns: list[Turn]) -> Turn | None:
    """The turn the jury room shows (`?beurt=`), else the last one drawn."""
    wanted = request.GET.get("beurt", "")
    chosen = next((t for t in turns if wanted.isascii() and str(t.number) == wanted), None)
    return chosen or (turns[-1] if turns else None)


def _jury_url(evening: Evening, turn_number: int | None) -> str:
    address = evening_url("duplicate_jury", evening)
    return f"{address}?beurt={turn_number}" if turn_number else address


@jury_required
def jury_room(request, evening: Evening, *, leads: bool):
    """The jury room of a big duplicate evening: several jury members type the paper
    slips at once, each slip once (a second typing that differs waits as a conflict for
    the spelleider); per table, whose slip for the turn is not in yet."""
    playing = selectors.evening_players(evening)
    players = player_labels(playing)
    names = {p.player_id: p.name for p in playing}
    turns = list(evening.turns.order_by("number"))
    numbers = [turn.number for turn in turns]
    notation = evening.competition.club.slip_notation
    shown = _shown_turn(request, turns)
    form = None
    resolve = None
    if request.method == "POST":
        if request.POST.get("action") == "resolve":
            if not leads:
                raise PermissionDenied
            resolve = ResolveConflictForm(request.POST)
            if resolve.is_valid():
                data = resolve.cleaned_data
                conflict = SlipConflict.objects.filter(
                    pk=data["conflict"], slip__turn__evening=evening
                ).first()
                try:
                    if conflict is None:
                        raise DuplicateEveningError(
                            _("This conflict no longer exists."), code="no_conflict"
                        )
                    slip_conflict_resolve(
                        conflict=conflict,
                        take=data["choice"] == "take",
                        reason=data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    resolve.add_error(None, refusal(error))
                else:
                    messages.success(request, _("Conflict resolved."))
                    return redirect(_jury_url(evening, shown.number if shown else None))
        else:
            form = JurySlipForm(request.POST, players=players, turns=numbers, notation=notation)
            if form.is_valid():
                data = form.cleaned_data
                turn = next(t for t in turns if t.number == data["turn"])
                try:
                    typed = jury_slip_type(
                        turn=turn,
                        player_id=data["player"],
                        text=data["text"],
                        claimed=data["claimed"],
                        by=request.user,
                        position=selectors.turn_position(evening, turns, turn),
                    )
                except CompetitionError as error:
                    form.add_error(None, refusal(error))
                else:
                    if isinstance(typed, SlipConflict):
                        messages.warning(
                            request,
                            _(
                                "%(player)s's slip was typed differently before: both wait "
                                "for the spelleider; the first counts until then."
                            )
                            % {"player": names[data["player"]]},
                        )
                    else:
                        messages.success(request, _("Slip saved."))
                    return redirect(_jury_url(evening, turn.number))
    if form is None:
        form = JurySlipForm(
            players=players,
            turns=numbers,
            notation=notation,
            initial={"turn": shown.number if shown else None},
        )
    return render(
        request,
        "duplicate/jury.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "form": form,
            "player_options": player_options(players, form["player"].value()),
            "resolve": resolve,
            "turns": turns,
            "shown": shown,
            "missing": selectors.missing_slips(evening, shown, playing) if shown else None,
            "conflicts": selectors.open_conflicts(evening),
            "complete": selectors.evening_complete(evening, turns, playing),
            "leads": leads,
            "can_manage": leads,
            "plays": selectors.plays_in(user=request.user, evening=evening),
            "tab": "duplicate",
        },
    )
