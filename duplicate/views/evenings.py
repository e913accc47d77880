"""The spelleider's pages of an evening: a new evening, the draws, tops, redos, added
time and late slips accepted, the count of slips in, and the secretary's paper slips."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Player
from competition.services import CompetitionError
from duplicate import selectors
from duplicate.forms import (
    AcceptLateForm,
    AddTimeForm,
    CorrectSlipForm,
    DrawForm,
    PaperSlipForm,
    RedoForm,
    TopForm,
)
from duplicate.models import Evening, Slip
from duplicate.services import DuplicateEveningError
from duplicate.services.evenings import evening_create
from duplicate.services.slips import slip_accept_late, slip_correct, slip_submit
from duplicate.services.turns import turn_add_time, turn_choose_top, turn_draw, turn_redo
from duplicate.views.shared import evening_url, leader_required, refusal, seconds_left
from events.permissions import manages_competition

#: How often the spelleider's page asks how many slips are in (seconds).
LEADER_POLL_SECONDS = 3


@require_POST
def evening_create_view(request, club: str, competition: str):
    found = selectors.duplicate_get(club_slug=club, competition_slug=competition)
    if not request.user.is_authenticated or not manages_competition(request.user, found):
        raise PermissionDenied
    number = request.POST.get("number", "")
    if not (number.isascii() and number.isdigit() and 0 < int(number) < 1000):
        messages.error(request, _("Give the evening's number (1–999)."))
        return redirect("duplicate_evenings", found.club.slug, found.slug)
    try:
        evening = evening_create(competition=found, number=int(number), by=request.user)
    except CompetitionError as error:
        messages.error(request, refusal(error))
        return redirect("duplicate_evenings", found.club.slug, found.slug)
    return redirect(evening_url("duplicate_leader", evening))


LEADER_ACTIONS = {
    "draw": (
        DrawForm,
        lambda evening, turn, data, by: turn_draw(
            evening=evening,
            tiles=data["tiles"] or None,
            rejected=data["rejected"] if data["tiles"] else "",
            by=by,
        ),
    ),
    "top": (
        TopForm,
        lambda evening, turn, data, by: turn_choose_top(
            turn=turn, play=data["play"] or None, by=by
        ),
    ),
    "redo": (
        RedoForm,
        lambda evening, turn, data, by: turn_redo(
            turn=turn, reason=data["reason"], tiles=data["tiles"] or None, by=by
        ),
    ),
    "time": (
        AddTimeForm,
        lambda evening, turn, data, by: turn_add_time(
            turn=turn, seconds=data["seconds"], reason=data["reason"], by=by
        ),
    ),
    "accept": (
        AcceptLateForm,
        lambda evening, turn, data, by: slip_accept_late(
            slip=_late_slip(evening, data["slip"]), reason=data["reason"], by=by
        ),
    ),
}


def _late_slip(evening: Evening, slip_id: int) -> Slip:
    """A slip of the evening, for the spelleider to accept (refused when there is none)."""
    found = (
        Slip.objects.standing()
        .filter(pk=slip_id, turn__evening=evening)
        .select_related("turn__evening__competition")
        .first()
    )
    if found is None:
        raise DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
    return found


def _thrown_back(form: DrawForm) -> DrawForm:
    """The draw form again, the refused tiles moved to the draws thrown back."""
    thrown = [form.cleaned_data["rejected"], form.cleaned_data["tiles"]]
    again = DrawForm({"tiles": "", "rejected": ", ".join(t for t in thrown if t)})
    again.is_valid()
    return again


@leader_required
def leader(request, evening: Evening):
    """The spelleider's page: draw (by the app or typed from the bag), choose the top,
    play the last turn again after an error, add time to the open turn, accept a late slip
    of the last turn."""
    forms = {
        "draw": DrawForm(),
        "top": TopForm(),
        "redo": RedoForm(),
        "time": AddTimeForm(),
        "accept": AcceptLateForm(),
    }
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action not in LEADER_ACTIONS:
            messages.error(request, _("Unknown action."))
            return redirect(evening_url("duplicate_leader", evening))
        form_class, service = LEADER_ACTIONS[action]
        form = forms[action] = form_class(request.POST)
        last = evening.turns.order_by("-number").first()
        if form.is_valid():
            if action != "draw" and last is None:
                messages.error(request, _("No turn has been drawn yet."))
                return redirect(evening_url("duplicate_leader", evening))
            try:
                service(evening, last, form.cleaned_data, request.user)
            except CompetitionError as error:
                refused_draw = getattr(error, "code", "") == "duplicate_draw_minimum"
                if action == "draw" and isinstance(form, DrawForm) and refused_draw:
                    # The draw goes back into the bag: the form keeps it as thrown back,
                    # ready for the next draw typed (kept tiles and all, where the rules
                    # send the whole rack back).
                    form = forms[action] = _thrown_back(form)
                form.add_error(None, refusal(error))
            else:
                return redirect(evening_url("duplicate_leader", evening))
    state = selectors.evening_state(evening)
    tops = []
    if state.open_turn is not None:
        tops = state.game.tops()
    return render(
        request,
        "duplicate/leader.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "state": state,
            "board": state.board(),
            "tops": tops,
            **_slips_in(evening, state.open_turn),
            "remaining": seconds_left(state.open_turn),
            "late_slips": selectors.late_slips(state.last_turn),
            "forms": forms,
            "can_manage": True,
            "plays": selectors.plays_in(user=request.user, evening=evening),
            "tab": "duplicate",
        },
    )


@leader_required
def leader_slips(request, evening: Evening):
    """The spelleider's count of the slips in for the open turn, asked every few seconds
    by the spelleider's page, so that the top is chosen when the room has handed in."""
    return render(
        request,
        "duplicate/_leader_slips.html",
        {
            "evening": evening,
            "competition": evening.competition,
            **_slips_in(evening, selectors.open_turn(evening)),
        },
    )


def _slips_in(evening: Evening, open_turn) -> dict:
    """The spelleider's count of slips in (`_leader_slips.html`): on the page and each time
    it asks again; None when no turn is open."""
    return {
        "open_slips": open_turn.slips.standing().count() if open_turn is not None else None,
        "entrants": len(selectors.player_names(evening.competition_id)),
        "poll_seconds": LEADER_POLL_SECONDS,
    }


@leader_required
def paper_slips(request, evening: Evening):
    """The secretary types the paper slips, for any player and turn, and corrects a slip
    with a reason."""
    players = sorted(
        Player.objects.filter(duplicate_participations__competition_id=evening.competition_id),
        key=lambda p: p.name,
    )
    turns = list(evening.turns.order_by("number"))
    slips = selectors.slips_of(evening)
    numbers = [turn.number for turn in turns]
    notation = evening.competition.club.slip_notation
    form = PaperSlipForm(players=players, turns=numbers, notation=notation)
    correct = None
    if request.method == "POST":
        if request.POST.get("action") == "correct":
            correct = CorrectSlipForm(request.POST, slips=[s.pk for s in slips])
            if correct.is_valid():
                chosen = next(s for s in slips if s.pk == correct.cleaned_data["slip"])
                try:
                    slip_correct(
                        slip=chosen,
                        text=correct.cleaned_data["text"],
                        claimed=correct.cleaned_data["claimed"],
                        reason=correct.cleaned_data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    correct.add_error(None, refusal(error))
                else:
                    return redirect(evening_url("duplicate_paper", evening))
        else:
            form = PaperSlipForm(request.POST, players=players, turns=numbers, notation=notation)
            if form.is_valid():
                turn = next(t for t in turns if t.number == form.cleaned_data["turn"])
                try:
                    slip_submit(
                        turn=turn,
                        player_id=form.cleaned_data["player"],
                        text=form.cleaned_data["text"],
                        claimed=form.cleaned_data["claimed"],
                        by=request.user,
                        # Handed in on paper when the time was called: never late.
                        on_paper=True,
                    )
                except CompetitionError as error:
                    form.add_error(None, refusal(error))
                else:
                    messages.success(request, _("Slip saved."))
                    return redirect(evening_url("duplicate_paper", evening))
    return render(
        request,
        "duplicate/paper.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "form": form,
            "correct": correct,
            "slips": slips,
            "can_manage": True,
            "plays": selectors.plays_in(user=request.user, evening=evening),
            "tab": "duplicate",
        },
    )
