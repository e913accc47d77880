"""The pages of a duplicate evening: the public evenings and rankings, the spelleider's
page, the room screen, the player's slip on their phone and the secretary's paper slips.

Thin: each view reads through `duplicate.selectors`, writes through one service of
`duplicate.services`, and shows its refusal. The spelleider and the secretary are the
club's secretaries; a player hands in only their own slip.
"""

from __future__ import annotations

import json
from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh, reselect, retarget

from clubs import numbers
from clubs.models import Club, Player
from clubs.permissions import can_manage_club
from clubs.submissions import (
    AlreadySaved,
    submission_applied,
    submission_key,
    submission_once,
)
from competition.exports import spreadsheet_csv
from competition.forms import ArchiveForm
from competition.qr import qr_svg
from competition.services import CompetitionError
from duplicate import clock, hand_in_sql, selectors, services
from duplicate.forms import (
    AcceptLateForm,
    AddTimeForm,
    CorrectSlipForm,
    DrawForm,
    DuplicateCompetitionForm,
    DuplicateRulesForm,
    EveningRulesForm,
    JurySlipForm,
    PaperSlipForm,
    ParticipantForm,
    RedoForm,
    ResolveConflictForm,
    SlipForm,
    TableForm,
    TopForm,
    WithdrawForm,
)
from duplicate.models import (
    DuplicateCompetition,
    Evening,
    Participant,
    Slip,
    SlipConflict,
    Turn,
)
from duplicate.notation import play_read, reason_shown
from duplicate.rule_fields import PRESET_LABELS
from events.permissions import directs_event, manages_competition, on_jury
from events.selectors import event_get
from games.rule_messages import describe
from rules import gcg
from rules.board import square_name
from rules.referee import FAULTS, PRESETS, judge_slip

#: The faults of the score written, which a preview (no score written yet) leaves out.
SCORE_FAULTS = ("score_missing", "score_wrong")
#: Seconds between two polls of the room screen.
SCREEN_POLL_SECONDS = 3
#: How often a phone that has handed in asks whether the next rack is out, and the
#: spelleider's page how many slips are in (seconds).
SLIP_POLL_SECONDS = 5
LEADER_POLL_SECONDS = 3
#: Entries on one page of the history.
HISTORY_PAGE_SIZE = 50


def _duplicate_competition(club: str, competition: str) -> DuplicateCompetition:
    return selectors.duplicate_get(club_slug=club, competition_slug=competition)


def _managed_competition(request, club: str, competition: str) -> DuplicateCompetition:
    """The duplicate competition, for those who manage it only: its club's secretaries
    (and staff), and an event's directors on its divisions."""
    found = _duplicate_competition(club, competition)
    if not manages_competition(request.user, found):
        raise PermissionDenied
    return found


def _evening_url(name: str, evening: Evening) -> str:
    competition = evening.competition
    return reverse(name, args=[competition.club.slug, competition.slug, evening.number])


def leader_required(view):
    """Those who manage the competition only; the view receives the evening."""

    @wraps(view)
    def wrapper(request, club: str, competition: str, number: int):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
        if not manages_competition(request.user, evening.competition):
            raise PermissionDenied
        return view(request, evening)

    return wrapper


def jury_required(view):
    """The jury room's people: the club's secretaries (and staff) and the event's
    directors, who lead the evening, and the jury of the event the competition is a
    division of. The view receives the
    evening and whether the user leads it (resolves conflicts)."""

    @wraps(view)
    def wrapper(request, club: str, competition: str, number: int):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
        leads = manages_competition(request.user, evening.competition)
        if not leads and not on_jury(request.user, evening.competition.event_id):
            raise PermissionDenied
        return view(request, evening, leads=leads)

    return wrapper


def _refusal(error: CompetitionError) -> str:
    """A refusal of a duplicate service, or of every service (an archived competition)."""
    return str(error.message)


# -------------------------------------------------------------------- public


@require_safe
def evenings_page(request, club: str, competition: str):
    """The competition's evenings and the season ranking (average percentage)."""
    found = _duplicate_competition(club, competition)
    names = selectors.player_names(found.pk)
    season = selectors.season_results(found.pk, found.best_evenings)
    evenings = selectors.evenings_of(found)
    return render(
        request,
        "duplicate/evenings.html",
        {
            "competition": found,
            "evenings": evenings,
            "next_number": (evenings[-1].number + 1) if evenings else 1,
            "season": [(row, names.get(row.player_id, "?")) for row in season],
            "can_manage": manages_competition(request.user, found),
            "tab": "duplicate",
        },
    )


@require_POST
def evening_create_view(request, club: str, competition: str):
    found = _duplicate_competition(club, competition)
    if not request.user.is_authenticated or not manages_competition(request.user, found):
        raise PermissionDenied
    number = request.POST.get("number", "")
    if not (number.isascii() and number.isdigit() and 0 < int(number) < 1000):
        messages.error(request, _("Give the evening's number (1–999)."))
        return redirect("duplicate_evenings", found.club.slug, found.slug)
    try:
        evening = services.evening_create(competition=found, number=int(number), by=request.user)
    except CompetitionError as error:
        messages.error(request, _refusal(error))
        return redirect("duplicate_evenings", found.club.slug, found.slug)
    return redirect(_evening_url("duplicate_leader", evening))


@require_safe
def evening_page(request, club: str, competition: str, number: int):
    """The evening's ranking (total, percentage of the tops, tops, solos) and its turns."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    names = selectors.player_names(evening.competition_id)
    ranking = selectors.evening_results(evening)
    turns = list(evening.turns.order_by("number"))
    closed = [turn for turn in turns if not turn.is_open]
    rules = services.evening_slip_rules(evening)
    return render(
        request,
        "duplicate/evening.html",
        {
            "evening": evening,
            "rules": rules,
            # Columns for warnings and penalties where a fault can lead to one.
            "counts_faults": any(
                rules.consequence(fault) in ("warning", "penalty") for fault in FAULTS
            ),
            "competition": evening.competition,
            "ranking": [(row, names.get(row.player_id, "?")) for row in ranking],
            "turns": turns,
            "sum_of_tops": closed[-1].total if closed else 0,
            "can_manage": manages_competition(request.user, evening.competition),
            "tab": "duplicate",
        },
    )


# -------------------------------------------------------------------- the secretary


def duplicate_create_view(request, club: str, event: str | None = None):
    """A new duplicate competition of the club (its secretaries); with `event`, a division
    of that event of the club (its directors too)."""
    club_obj = get_object_or_404(Club, slug=club)
    event_obj = event_get(club_obj, event) if event is not None else None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not (
        directs_event(request.user, event_obj)
        if event_obj is not None
        else can_manage_club(request.user, club_obj)
    ):
        raise PermissionDenied
    form = DuplicateCompetitionForm(
        request.POST or None, instance=DuplicateCompetition(club=club_obj)
    )
    if request.method == "POST" and form.is_valid():
        try:
            made = services.duplicate_create(
                club=club_obj, settings=form.settings(), by=request.user, event=event_obj
            )
        except CompetitionError as error:
            form.add_error(None, _refusal(error))
        else:
            return redirect(made.get_absolute_url())
    return render(
        request, "duplicate/settings.html", {"club": club_obj, "form": form, "event": event_obj}
    )


def rules_page(request, club: str, competition: str):
    """The competition's duplicate rules (its secretaries): a preset loaded into the form,
    what the club plays differently, saved for the evenings to come; and the evenings
    made under other rules, which the spelleider may bring under these with a reason."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _managed_competition(request, club, competition)
    current = services.duplicate_settings(found)
    form = DuplicateRulesForm(current=current)
    apply_form = EveningRulesForm(evenings=selectors.evenings_of(found))
    if request.method == "POST" and not found.is_archived:
        action = request.POST.get("action")
        if action == "preset":
            chosen = PRESETS.get(str(request.POST.get("preset")), current)
            form = DuplicateRulesForm(current=chosen)
            messages.info(request, _("The preset is in the form: save to play it."))
        elif action == "apply":
            apply_form = EveningRulesForm(request.POST, evenings=selectors.evenings_of(found))
            if apply_form.is_valid():
                try:
                    services.evening_rules_apply(
                        evening=apply_form.cleaned_data["evening"],
                        reason=apply_form.cleaned_data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    apply_form.add_error(None, _refusal(error))
                else:
                    messages.success(request, _("The evening is counted under these rules."))
                    return redirect("duplicate_rules", found.club.slug, found.slug)
        else:
            form = DuplicateRulesForm(request.POST, current=current)
            if form.is_valid() and form.settings is not None:
                try:
                    services.duplicate_rules_set(
                        competition=found, settings=form.settings, by=request.user
                    )
                except CompetitionError as error:
                    form.add_error(None, _refusal(error))
                else:
                    messages.success(request, _("Rules saved."))
                    return redirect("duplicate_rules", found.club.slug, found.slug)
    return render(
        request,
        "duplicate/rules.html",
        {
            "club": found.club,
            "competition": found,
            "form": form,
            "apply_form": apply_form,
            "other_evenings": selectors.evenings_under_other_rules(found, current.slips),
            "presets": PRESET_LABELS,
            "can_manage": True,
            "tab": "rules",
        },
    )


def settings_page(request, club: str, competition: str):
    """Its settings, and archiving it (its secretaries)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _managed_competition(request, club, competition)
    form = DuplicateCompetitionForm(instance=found)
    if request.method == "POST":
        try:
            if "archive" in request.POST:
                archive_form = ArchiveForm(request.POST)
                if archive_form.is_valid():
                    services.duplicate_archive(
                        competition=found,
                        by=request.user,
                        reason=archive_form.cleaned_data["reason"],
                    )
                    messages.success(request, _("The competition is archived."))
                    return redirect(found.get_absolute_url())
                found.refresh_from_db()
                return render(
                    request,
                    "duplicate/settings.html",
                    {
                        "club": found.club,
                        "competition": found,
                        "form": form,
                        "archive_form": archive_form,
                        "can_manage": True,
                        "tab": "settings",
                    },
                )
            form = DuplicateCompetitionForm(request.POST, instance=found)
            if form.is_valid():
                changed = services.duplicate_update(
                    competition=found, settings=form.settings(), by=request.user
                )
                messages.success(request, _("Settings saved."))
                return redirect("duplicate_settings", changed.club.slug, changed.slug)
        except CompetitionError as error:
            form.add_error(None, _refusal(error))
        # A refused form keeps what was typed; the competition shown is the stored one.
        found.refresh_from_db()
    return render(
        request,
        "duplicate/settings.html",
        {
            "club": found.club,
            "competition": found,
            "form": form,
            "archive_form": ArchiveForm(),
            "can_manage": True,
            "tab": "settings",
        },
    )


def participants_page(request, club: str, competition: str):
    """Its players: enter a player of the club, withdraw one from an evening on, or
    reinstate them, give each a table for the jury room (its secretaries)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _managed_competition(request, club, competition)
    participants = selectors.participants_of(found)
    entered = {p.player_id for p in participants}
    # A division of an event takes the event's entrants, of any club (docs/events.md).
    members = (
        Player.objects.filter(memberships__club=found.club)
        if found.event_id is None
        else Player.objects.filter(event_entries__event=found.event_id)
    ).order_by("name")
    others = [p for p in members if p.pk not in entered]
    add = ParticipantForm(players=others)
    if request.method == "POST":
        try:
            if "player" in request.POST:
                add = ParticipantForm(request.POST, players=others)
                if add.is_valid():
                    player = next(p for p in others if p.pk == add.cleaned_data["player"])
                    services.participant_add(competition=found, player=player, by=request.user)
                    return redirect("duplicate_participants", found.club.slug, found.slug)
            elif "table" in request.POST:
                seat = TableForm(request.POST, participants=participants)
                if not seat.is_valid():
                    messages.error(request, _("A table is a number 1–999."))
                else:
                    services.participant_table_set(
                        participant=next(
                            p for p in participants if p.pk == seat.cleaned_data["participant"]
                        ),
                        table=seat.cleaned_data["table"],
                        by=request.user,
                    )
                return redirect("duplicate_participants", found.club.slug, found.slug)
            else:
                form = WithdrawForm(request.POST, participants=participants)
                if not form.is_valid():
                    messages.error(
                        request, _("Give the evening from which the player withdraws (1–999).")
                    )
                    return redirect("duplicate_participants", found.club.slug, found.slug)
                chosen: Participant = next(
                    p for p in participants if p.pk == form.cleaned_data["participant"]
                )
                if "reinstate" in request.POST:
                    services.participant_reinstate(participant=chosen, by=request.user)
                elif form.cleaned_data["from_evening"] is None:
                    messages.error(
                        request, _("Give the evening from which the player withdraws (1–999).")
                    )
                else:
                    services.participant_withdraw(
                        participant=chosen,
                        from_evening=form.cleaned_data["from_evening"],
                        by=request.user,
                    )
                return redirect("duplicate_participants", found.club.slug, found.slug)
        except CompetitionError as error:
            messages.error(request, _refusal(error))
            return redirect("duplicate_participants", found.club.slug, found.slug)
    return render(
        request,
        "duplicate/participants.html",
        {
            "club": found.club,
            "competition": found,
            "participants": participants,
            "add": add,
            "can_manage": True,
            "tab": "participants",
        },
    )


def history_page(request, club: str, competition: str):
    """Everything that changed in the duplicate competition, newest first (secretaries)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    found = _managed_competition(request, club, competition)
    page = Paginator(selectors.duplicate_history(found), HISTORY_PAGE_SIZE).get_page(
        request.GET.get("pagina")
    )
    return render(
        request,
        "duplicate/history.html",
        {"competition": found, "page": page, "can_manage": True, "tab": "history"},
    )


# -------------------------------------------------------------------- the room screen


def seconds_left(turn) -> int | None:
    """What the countdowns show of an open turn: the seconds left by the server's clock
    (`Turn.deadline`), never the device's; None for a closed turn or one without a clock."""
    if turn is None or not turn.is_open:
        return None
    return clock.seconds_left(turn.deadline, timezone.now())


def _screen_context(evening: Evening) -> dict:
    state = selectors.evening_state(evening)
    remaining = seconds_left(state.open_turn)
    last = state.last_closed
    return {
        "evening": evening,
        "competition": evening.competition,
        "state": state,
        "board": state.board(),
        "remaining": remaining,
        "last": last,
        # Who found the last top alone (or scored highest alone: the evening's rules say).
        "solo_names": selectors.solo_names(last) if last and not state.open_turn else [],
    }


@require_safe
def screen(request, club: str, competition: str, number: int):
    """The big screen for the room: the rack and its countdown, then the top on the board
    and the sum of the tops. Polls its panel; the last state stays up without a server."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(
        request,
        "duplicate/screen.html",
        {**_screen_context(evening), "poll_seconds": SCREEN_POLL_SECONDS},
    )


@require_safe
def screen_panel(request, club: str, competition: str, number: int):
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(request, "duplicate/_screen_panel.html", _screen_context(evening))


# -------------------------------------------------------------------- the spelleider


LEADER_ACTIONS = {
    "draw": (
        DrawForm,
        lambda evening, turn, data, by: services.turn_draw(
            evening=evening,
            tiles=data["tiles"] or None,
            rejected=data["rejected"] if data["tiles"] else "",
            by=by,
        ),
    ),
    "top": (
        TopForm,
        lambda evening, turn, data, by: services.turn_choose_top(
            turn=turn, play=data["play"] or None, by=by
        ),
    ),
    "redo": (
        RedoForm,
        lambda evening, turn, data, by: services.turn_redo(
            turn=turn, reason=data["reason"], tiles=data["tiles"] or None, by=by
        ),
    ),
    "time": (
        AddTimeForm,
        lambda evening, turn, data, by: services.turn_add_time(
            turn=turn, seconds=data["seconds"], reason=data["reason"], by=by
        ),
    ),
    "accept": (
        AcceptLateForm,
        lambda evening, turn, data, by: services.slip_accept_late(
            slip=_late_slip(evening, data["slip"]), reason=data["reason"], by=by
        ),
    ),
}


def _late_slip(evening: Evening, slip_id: int) -> Slip:
    """A slip of the evening, for the spelleider to accept (refused when there is none)."""
    found = (
        Slip.objects.filter(pk=slip_id, turn__evening=evening)
        .select_related("turn__evening__competition")
        .first()
    )
    if found is None:
        raise services.DuplicateEveningError(_("This slip no longer exists."), code="no_slip")
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
            return redirect(_evening_url("duplicate_leader", evening))
        form_class, service = LEADER_ACTIONS[action]
        form = forms[action] = form_class(request.POST)
        last = evening.turns.order_by("-number").first()
        if form.is_valid():
            if action != "draw" and last is None:
                messages.error(request, _("No turn has been drawn yet."))
                return redirect(_evening_url("duplicate_leader", evening))
            try:
                service(evening, last, form.cleaned_data, request.user)
            except CompetitionError as error:
                refused_draw = getattr(error, "code", "") == "duplicate_draw_minimum"
                if action == "draw" and isinstance(form, DrawForm) and refused_draw:
                    # The draw goes back into the bag: the form keeps it as thrown back,
                    # ready for the next draw typed (kept tiles and all, where the rules
                    # send the whole rack back).
                    form = forms[action] = _thrown_back(form)
                form.add_error(None, _refusal(error))
            else:
                return redirect(_evening_url("duplicate_leader", evening))
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
            "tab": "duplicate",
        },
    )


# -------------------------------------------------------------------- slips


def _slip_turn(state: selectors.EveningState):
    """A phone hands in for the open turn, or (late) for the turn just closed."""
    return state.open_turn or state.last_closed


def _preview_of(state: selectors.EveningState, turn, text: str) -> dict:
    """What the engine makes of a slip before it is sent: its score, or why it scores 0
    (the top is not given away)."""
    if not text.strip() or turn is None:
        return {}
    if turn.is_open:
        board, rack = state.game.game, turn.rack
    else:
        board, rack = state.game.position(turn.number), turn.rack
    # Judged as the hand-in will judge it, but without a score written: the phone asks
    # what the play scores, so only the faults of the play itself are told.
    notation = state.notation
    scored = judge_slip(
        board,
        rack,
        services._clean(text),
        claimed=None,
        top=None,
        rules=services.evening_slip_rules(state.evening),
        notation=notation,
    )
    if scored.reason:
        return {"error": reason_shown(scored.reason, dict(scored.params), notation)}
    return {
        "score": scored.score,
        "words": scored.words,
        "faults": [describe(f, {}) for f in scored.faults if f not in SCORE_FAULTS],
        **play_read(scored.notation or "", notation),
    }


def _slip_page(request, evening, player, *, form=None, state=None, fragment=False, added=None):
    """The slip page; `state`: the evening as the caller has just read it. `fragment`:
    only the part a hand-in changes (the turn, the form or "your slip is in", and the
    list of slips out of band), for the phone's own form: when the whole room hands in
    within seconds, the board is not rendered again for each slip. `added`: the slip
    just handed in, whose row alone goes to the list the phone shows."""
    state = state or selectors.evening_state(evening)
    turn = _slip_turn(state)
    if added is None:
        mine = list(
            Slip.objects.filter(turn__evening=evening, player=player)
            .select_related("turn")
            .order_by("turn__number")
        )
        handed_in = turn is not None and any(slip.turn_id == turn.pk for slip in mine)
    else:
        mine, handed_in = [], True
    context = {
        "evening": evening,
        "competition": evening.competition,
        "player": player,
        "turn": turn,
        "handed_in": handed_in,
        "mine": mine,
        "added": added,
        "form": form or SlipForm(notation=evening.competition.club.slip_notation),
        "fragment": fragment,
        "remaining": seconds_left(turn),
        "time_added": turn.added_seconds if turn is not None and turn.is_open else None,
        "next_turn_url": _evening_url("duplicate_slip_next_turn", evening),
        "tab": "duplicate",
        # The page follows the draws. A reload comes only with a new draw, when a slip
        # typed for the turn before could no longer be handed in anyway.
        "follow": None if state.is_over else state.last_draw,
        "poll_seconds": SLIP_POLL_SECONDS,
    }
    if fragment:
        return render(request, "duplicate/_slip_hand_in.html", context)
    context["board"] = state.board() if turn is None or turn.is_open else None
    return render(request, "duplicate/slip.html", context)


def _turn_over_page(request, evening, player, *, form, state):
    """The whole page (a new rack, another board): for the phone's form too, whose
    answer htmx then puts in place of the whole page instead of the form alone."""
    response = _slip_page(request, evening, player, form=form, state=state)
    if request.htmx:
        retarget(response, "main")
        reselect(response, "main")
    return response


def _slip_state(evening):
    """The evening as the phone's slip page shows it, its turns read in SQL of our own
    (`duplicate.hand_in_sql` says why)."""
    return selectors.evening_state(evening, hand_in_sql.turns_of(evening))


def _evening_for_player(request, club, competition, number):
    """The evening and the logged-in player's entry in its competition (403 otherwise;
    404 for no such evening). Read in SQL of our own (`duplicate.hand_in_sql` says why)."""
    found = hand_in_sql.evening_and_entry(
        club_slug=club, competition_slug=competition, number=number, user_id=request.user.pk
    )
    if found is None:
        raise Http404
    evening, participation = found
    if participation is None:
        raise PermissionDenied
    return evening, participation


def slip(request, club: str, competition: str, number: int):
    """The player's slip on their own phone: coordinates and word, the score shown before
    sending, sent once per turn (after the turn's time or the top it is marked late)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    evening, participation = _evening_for_player(request, club, competition, number)
    player = participation.player
    if request.method != "POST":
        return _slip_page(request, evening, player, state=_slip_state(evening))
    form = SlipForm(request.POST, notation=evening.competition.club.slip_notation)
    state = _slip_state(evening)
    if submission_applied(submission_key(request.POST)):
        return _slip_sent_again(request, evening, player, state)
    turn = _slip_turn(state)
    wanted = request.POST.get("turn", "")
    if turn is None or wanted != str(turn.number):
        form.is_valid()
        form.add_error(None, _("This turn is over: the spelleider has drawn the next one."))
        return _turn_over_page(request, evening, player, form=form, state=state)
    fragment = bool(request.htmx)
    if not form.is_valid():
        return _slip_page(request, evening, player, form=form, state=state, fragment=fragment)
    try:
        slip = submission_once(
            submission_key(request.POST),
            by=request.user,
            kind="slip",
            led_to=lambda slip: f"slip {slip.pk}",
            write=lambda: services.slip_submit(
                turn=turn,
                player_id=player.pk,
                text=form.cleaned_data["text"],
                claimed=form.cleaned_data["claimed"],
                by=request.user,
                participation=participation,
                # The open turn's board and rack, as the page has just replayed them.
                position=state.game if turn.is_open else None,
            ),
        )
    except AlreadySaved:
        return _slip_sent_again(request, evening, player, state)
    except CompetitionError as error:
        form.add_error(None, _refusal(error))
        return _slip_page(request, evening, player, form=form, state=state, fragment=fragment)
    if fragment:
        # The phone (htmx) gets "your slip is in" at once: one round trip, not a redirect
        # and a second read of the whole page, when the whole room hands in within seconds.
        return _slip_page(request, evening, player, state=state, fragment=True, added=slip)
    return redirect(_evening_url("duplicate_slip", evening))


def _slip_sent_again(request, evening, player, state):
    """A slip sent again (its answer or the connection was lost): answered as the first,
    "your slip is in"."""
    if request.htmx:
        return _slip_page(request, evening, player, state=state, fragment=True)
    return redirect(_evening_url("duplicate_slip", evening))


@require_POST
def slip_preview(request, club: str, competition: str, number: int):
    """The live preview of a slip (htmx): nothing saved."""
    if not request.user.is_authenticated:
        raise PermissionDenied
    evening, participation = selectors.evening_and_participation(
        club_slug=club, competition_slug=competition, number=number, user=request.user
    )
    if participation is None and not manages_competition(request.user, evening.competition):
        raise PermissionDenied
    state = selectors.evening_state(evening)
    text = str(request.POST.get("text", ""))[:60]
    preview = _preview_of(state, _slip_turn(state), text)
    return render(request, "duplicate/_slip_preview.html", preview)


@require_safe
def slip_next_turn(request, club: str, competition: str, number: int):
    """Asked every few seconds by the slip page: 204 while the evening's last draw is the
    one the phone shows; once the spelleider draws the next rack (or the last one again),
    an answer that has htmx load the slip page again, with the new rack; once the spelleider
    adds time (``added``: the seconds added the phone knows), its new countdown alone.
    Nothing personal and one query: the draw and the clock are on the room's screen too."""
    shown = str(request.GET.get("shown", ""))
    last = selectors.last_draw_clock(club_slug=club, competition_slug=competition, number=number)
    if last.draw != shown:
        return HttpResponseClientRefresh()
    if str(request.GET.get("added", "")) in ("", str(last.added_seconds)):
        return HttpResponse(status=204)
    # The spelleider added time: the phone's countdown follows, the slip typed stays. Nothing
    # personal, so rendered without the request's context (no user read for it).
    return render(
        None,
        "duplicate/_slip_clock_follow.html",
        {
            "remaining": clock.seconds_left(last.deadline, timezone.now())
            if last.is_open
            else None,
            "follow": last.draw,
            "time_added": last.added_seconds,
            "poll_seconds": SLIP_POLL_SECONDS,
            "next_turn_url": request.path,
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
        "open_slips": open_turn.slips.count() if open_turn is not None else None,
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
                    services.slip_correct(
                        slip=chosen,
                        text=correct.cleaned_data["text"],
                        claimed=correct.cleaned_data["claimed"],
                        reason=correct.cleaned_data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    correct.add_error(None, _refusal(error))
                else:
                    return redirect(_evening_url("duplicate_paper", evening))
        else:
            form = PaperSlipForm(request.POST, players=players, turns=numbers, notation=notation)
            if form.is_valid():
                turn = next(t for t in turns if t.number == form.cleaned_data["turn"])
                try:
                    services.slip_submit(
                        turn=turn,
                        player_id=form.cleaned_data["player"],
                        text=form.cleaned_data["text"],
                        claimed=form.cleaned_data["claimed"],
                        by=request.user,
                        # Handed in on paper when the time was called: never late.
                        on_paper=True,
                    )
                except CompetitionError as error:
                    form.add_error(None, _refusal(error))
                else:
                    messages.success(request, _("Slip saved."))
                    return redirect(_evening_url("duplicate_paper", evening))
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
            "tab": "duplicate",
        },
    )


# -------------------------------------------------------------------- the jury room


def _shown_turn(request, turns: list[Turn]) -> Turn | None:
    """The turn the jury room shows (`?beurt=`), else the last one drawn."""
    wanted = request.GET.get("beurt", "")
    chosen = next((t for t in turns if wanted.isascii() and str(t.number) == wanted), None)
    return chosen or (turns[-1] if turns else None)


def _jury_url(evening: Evening, turn_number: int | None) -> str:
    address = _evening_url("duplicate_jury", evening)
    return f"{address}?beurt={turn_number}" if turn_number else address


@jury_required
def jury_room(request, evening: Evening, *, leads: bool):
    """The jury room of a big duplicate evening: several jury members type the paper
    slips at once, each slip once (a second typing that differs waits as a conflict for
    the spelleider); per table, whose slip for the turn is not in yet."""
    playing = selectors.jury_players(evening)
    players = [(player, _player_label(table, name)) for player, table, name in playing]
    names = {player: name for player, _table, name in playing}
    turns = list(evening.turns.order_by("number"))
    numbers = [turn.number for turn in turns]
    notation = evening.competition.club.slip_notation
    shown = _shown_turn(request, turns)
    form = JurySlipForm(
        players=players,
        turns=numbers,
        notation=notation,
        initial={"turn": shown.number if shown else None},
    )
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
                        raise services.DuplicateEveningError(
                            _("This conflict no longer exists."), code="no_conflict"
                        )
                    services.slip_conflict_resolve(
                        conflict=conflict,
                        take=data["choice"] == "take",
                        reason=data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    resolve.add_error(None, _refusal(error))
                else:
                    messages.success(request, _("Conflict resolved."))
                    return redirect(_jury_url(evening, shown.number if shown else None))
        else:
            form = JurySlipForm(request.POST, players=players, turns=numbers, notation=notation)
            if form.is_valid():
                data = form.cleaned_data
                turn = next(t for t in turns if t.number == data["turn"])
                try:
                    typed = services.jury_slip_type(
                        turn=turn,
                        player_id=data["player"],
                        text=data["text"],
                        claimed=data["claimed"],
                        by=request.user,
                        position=selectors.turn_position(evening, turns, turn),
                    )
                except CompetitionError as error:
                    form.add_error(None, _refusal(error))
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
    return render(
        request,
        "duplicate/jury.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "form": form,
            "resolve": resolve,
            "turns": turns,
            "shown": shown,
            "missing": selectors.missing_slips(evening, shown, playing) if shown else None,
            "conflicts": selectors.open_conflicts(evening),
            "complete": selectors.evening_complete(evening),
            "leads": leads,
            "can_manage": leads,
            "tab": "duplicate",
        },
    )


def _player_label(table: int | None, name: str) -> str:
    """A player as the jury finds them on the paper slip: the table first."""
    if table is None:
        return name
    return _("table %(table)s · %(name)s") % {"table": table, "name": name}


@require_safe
def post_check(request, club: str, competition: str, number: int):
    """The post-check (nacontrole): every slip the engine did not take as written, with
    what it did and why, and how many players' totals it changed."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(
        request,
        "duplicate/post_check.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "check": selectors.post_check(evening),
            "complete": selectors.evening_complete(evening),
            "can_manage": manages_competition(request.user, evening.competition),
            "tab": "duplicate",
        },
    )


# -------------------------------------------------------------------- print and export

#: The evening's results as CSV: English column names, as the standings CSV has them.
RESULTS_COLUMNS = [
    "rank",
    "player",
    "player_id",
    "total",
    "percentage",
    "tops",
    "solos",
    "points",
    "solo_bonus",
    "warnings",
    "penalty",
]


@require_safe
def evening_csv(request, club: str, competition: str, number: int):
    """The evening's ranking as CSV (every cell safe to open in a spreadsheet)."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    names = selectors.player_names(evening.competition_id)
    rows = [
        {
            "rank": row.rank,
            "player": names.get(row.player_id, ""),
            "player_id": row.player_id,
            "total": row.total,
            "percentage": numbers.decimal(row.percentage, 2),
            "tops": row.tops,
            "solos": row.solos,
            "points": row.points,
            "solo_bonus": row.solo_bonus,
            "warnings": row.warnings,
            "penalty": row.penalty,
        }
        for row in selectors.evening_results(evening)
    ]
    response = HttpResponse(
        spreadsheet_csv(RESULTS_COLUMNS, rows), content_type="text/csv; charset=utf-8"
    )
    name = f"{slugify(evening.competition.name)}-avond-{evening.number}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


#: Blank slips (beurtbriefjes) on one printed page: two columns of six.
SLIPS_PER_PAGE = 12


@require_safe
def evening_print(request, club: str, competition: str, number: int):
    """The papers of the evening: each player's match sheet (wedstrijdblad) with the turns
    played so far, and a page of blank slips; each with a QR code that opens the slip page
    on a phone."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    turns = [turn for turn in evening.turns.order_by("number") if not turn.is_open]
    names = selectors.player_names(evening.competition_id)
    by_player: dict[int, dict[int, Slip]] = {}
    for found in Slip.objects.filter(turn__evening=evening).select_related("turn"):
        by_player.setdefault(found.player_id, {})[found.turn.number] = found
    sheets = []
    for player_id, name in sorted(names.items(), key=lambda item: item[1]):
        running, lines = 0, []
        for turn in turns:
            own = by_player.get(player_id, {}).get(turn.number)
            running += own.counted_score if own else 0
            lines.append((turn, own, running))
        sheets.append((name, lines))
    slip_url = request.build_absolute_uri(_evening_url("duplicate_slip", evening))
    qr = qr_svg(slip_url, title=_("Scan to hand in your slip on your phone"))
    return render(
        request,
        "duplicate/print.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "sheets": sheets,
            # Empty lines for the turns still to come (an evening has some 20).
            "blank_rows": range(len(turns) + 1, max(len(turns) + 3, 21)),
            "blank_slips": range(SLIPS_PER_PAGE),
            "qr": qr,
        },
    )


@require_safe
def evening_gcg(request, club: str, competition: str, number: int):
    """The master game as GCG: one player (the tops) with each turn's rack; a note per
    turn says what was drawn and which blank went back to the bag for its letter (GCG has
    no move for that: a program that replays the file scores later words through that
    square as a blank)."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    game = selectors.evening_state(evening).game
    notes = {}
    for index, turn in enumerate(game.turns):
        lines = [f"turn {turn.number}: drawn {turn.drawn}, top {turn.score}, total {turn.total}"]
        lines += [
            f"blank on {square_name(row, col)} replaced by {letter}"
            for row, col, letter in turn.replaced
        ]
        notes[index] = lines
    text = gcg.write(
        game.game,
        notes=notes,
        pragmas={"bordpunt-duplicate": json.dumps(game.draw_rules.to_dict(), sort_keys=True)},
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = f"{slugify(evening.competition.name)}-avond-{evening.number}.gcg"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
