"""The secretary's pages of a duplicate competition: a new one, its rules, its settings
and archiving, its players, its history."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from clubs.permissions import can_manage_club
from competition.forms import ArchiveForm
from competition.services import CompetitionError
from duplicate import selectors
from duplicate.forms import (
    DuplicateCompetitionForm,
    DuplicateRulesForm,
    EveningRulesForm,
    ParticipantForm,
    TableForm,
    WithdrawForm,
)
from duplicate.models import DuplicateCompetition, Participant
from duplicate.replay import duplicate_settings
from duplicate.rule_fields import PRESET_LABELS
from duplicate.services.competitions import (
    duplicate_archive,
    duplicate_create,
    duplicate_rules_set,
    duplicate_update,
    evening_rules_apply,
)
from duplicate.services.participants import (
    participant_add,
    participant_reinstate,
    participant_table_set,
    participant_withdraw,
)
from duplicate.views.shared import managed_competition, refusal
from events.permissions import directs_event
from events.selectors import event_get
from rules.referee import PRESETS

#: Entries on one page of the history.
HISTORY_PAGE_SIZE = 50


@login_required
def duplicate_create_view(request, club: str, event: str | None = None):
    """A new duplicate competition of the club (its secretaries); with `event`, a division
    of that event of the club (its directors too)."""
    club_obj = get_object_or_404(Club, slug=club)
    event_obj = event_get(club_obj, event) if event is not None else None
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
            made = duplicate_create(
                club=club_obj, settings=form.settings(), by=request.user, event=event_obj
            )
        except CompetitionError as error:
            form.add_error(None, refusal(error))
        else:
            return redirect(made.get_absolute_url())
    return render(
        request, "duplicate/settings.html", {"club": club_obj, "form": form, "event": event_obj}
    )


@login_required
def rules_page(request, club: str, competition: str):
    """The competition's duplicate rules (its secretaries): a preset loaded into the form,
    what the club plays differently, saved for the evenings to come; and the evenings
    made under other rules, which the spelleider may bring under these with a reason."""
    found = managed_competition(request, club, competition)
    current = duplicate_settings(found)
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
                    evening_rules_apply(
                        evening=apply_form.cleaned_data["evening"],
                        reason=apply_form.cleaned_data["reason"],
                        by=request.user,
                    )
                except CompetitionError as error:
                    apply_form.add_error(None, refusal(error))
                else:
                    messages.success(request, _("The evening is counted under these rules."))
                    return redirect("duplicate_rules", found.club.slug, found.slug)
        else:
            form = DuplicateRulesForm(request.POST, current=current)
            if form.is_valid() and form.settings is not None:
                try:
                    duplicate_rules_set(competition=found, settings=form.settings, by=request.user)
                except CompetitionError as error:
                    form.add_error(None, refusal(error))
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


@login_required
def settings_page(request, club: str, competition: str):
    """Its settings, and archiving it (its secretaries)."""
    found = managed_competition(request, club, competition)
    form = DuplicateCompetitionForm(instance=found)
    if request.method == "POST":
        try:
            if "archive" in request.POST:
                archive_form = ArchiveForm(request.POST)
                if archive_form.is_valid():
                    duplicate_archive(
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
                changed = duplicate_update(
                    competition=found, settings=form.settings(), by=request.user
                )
                messages.success(request, _("Settings saved."))
                return redirect("duplicate_settings", changed.club.slug, changed.slug)
        except CompetitionError as error:
            form.add_error(None, refusal(error))
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


@login_required
def participants_page(request, club: str, competition: str):
    """Its players: enter a player of the club, withdraw one from an evening on, or
    reinstate them, give each a table for the jury room (its secretaries)."""
    found = managed_competition(request, club, competition)
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
                    participant_add(competition=found, player=player, by=request.user)
                    return redirect("duplicate_participants", found.club.slug, found.slug)
            elif "table" in request.POST:
                seat = TableForm(request.POST, participants=participants)
                if not seat.is_valid():
                    messages.error(request, _("A table is a number 1–999."))
                else:
                    participant_table_set(
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
                    participant_reinstate(participant=chosen, by=request.user)
                elif form.cleaned_data["from_evening"] is None:
                    messages.error(
                        request, _("Give the evening from which the player withdraws (1–999).")
                    )
                else:
                    participant_withdraw(
                        participant=chosen,
                        from_evening=form.cleaned_data["from_evening"],
                        by=request.user,
                    )
                return redirect("duplicate_participants", found.club.slug, found.slug)
        except CompetitionError as error:
            messages.error(request, refusal(error))
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


@login_required
def history_page(request, club: str, competition: str):
    """Everything that changed in the duplicate competition, newest first (secretaries)."""
    found = managed_competition(request, club, competition)
    page = Paginator(selectors.duplicate_history(found), HISTORY_PAGE_SIZE).get_page(
        request.GET.get("pagina")
    )
    return render(
        request,
        "duplicate/history.html",
        {"competition": found, "page": page, "can_manage": True, "tab": "history"},
    )
