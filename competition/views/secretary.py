"""The secretary's pages. Each view validates a form, calls one service, and reports."""

import hashlib
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs.models import Club
from clubs.permissions import can_manage_club
from competition import exports, selectors
from competition.filters import HistoryFilter
from competition.forms import (
    ArchiveForm,
    CompetitionForm,
    CorrectionForm,
    EntrantAddForm,
    EntrantGroupForm,
    GroupForm,
    ImportConfirmForm,
    ImportForm,
    ResultRowForm,
    RoundCreateForm,
    WithdrawForm,
    question_field_name,
)
from competition.models import Competition
from competition.results_page import results_page, results_post
from competition.services import CompetitionError, competitions
from competition.services.competitions import SlugTaken
from competition.services.entrants import (
    entrant_enter,
    entrant_reinstate,
    entrant_set_group,
    entrant_withdraw,
    group_create,
    groups_fill_by_rating,
)
from competition.services.importing import (
    UNDECIDED,
    Action,
    ImportDecisions,
    ImportPlan,
    ImportPlanChanged,
    PlannedGame,
    describe_result,
    results_import_apply,
    results_import_plan,
    results_import_read,
)
from competition.services.rounds import (
    round_correct_result,
    round_create,
)
from competition.views.access import secretary_required
from competition.views.warnings import open_games_warning
from events.permissions import directs_event
from events.selectors import event_get
from games.models import Game
from games.selectors import game_history
from games.services import ResultError, ResultInput


@login_required
def competition_create(request, club: str, event: str | None = None):
    """A new competition of the club (its secretaries); with `event`, a division of that
    event of the club (its directors too)."""
    club_obj = get_object_or_404(Club, slug=club)
    event_obj = event_get(club_obj, event) if event is not None else None
    if not (
        directs_event(request.user, event_obj)
        if event_obj is not None
        else can_manage_club(request.user, club_obj)
    ):
        raise PermissionDenied
    form = CompetitionForm(request.POST or None, instance=Competition(club=club_obj))
    if request.method == "POST" and form.is_valid():
        try:
            created = competitions.competition_create(
                club=club_obj, settings=form.settings(), by=request.user, event=event_obj
            )
        except CompetitionError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Competition created."))
            return redirect("entrants", **created.url_kwargs)
    return render(
        request,
        "competition/competition_form.html",
        {"form": form, "club": club_obj, "event": event_obj},
    )


def _form_error(form: CompetitionForm, error: CompetitionError) -> None:
    form.add_error("slug" if isinstance(error, SlugTaken) else None, error.message)


@secretary_required
def competition_edit(request, competition: Competition):
    form = CompetitionForm(request.POST or None, instance=competition)
    if request.method == "POST" and form.is_valid():
        try:
            competitions.competition_update(
                competition=competition, settings=form.settings(), by=request.user
            )
        except CompetitionError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Settings saved."))
            return redirect(competition)
    return render(
        request,
        "competition/competition_form.html",
        {
            "form": form,
            "club": competition.club,
            "competition": competition,
            "archive_form": ArchiveForm(),
        },
    )


@require_POST
@secretary_required
def competition_archive_view(request, competition: Competition):
    form = ArchiveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Tick the box to confirm the archiving."))
        return redirect("competition_edit", **competition.url_kwargs)
    competitions.competition_archive(
        competition=competition, by=request.user, reason=form.cleaned_data["reason"]
    )
    messages.success(
        request, _("Competition archived: it stays readable and takes no more changes.")
    )
    return redirect(competition)


@secretary_required
def competition_history(request, competition: Competition):
    """Everything that changed in the competition, newest first, filtered and paged."""
    history = HistoryFilter(
        request.GET, queryset=selectors.competition_history(competition), competition=competition
    )
    page = Paginator(history.qs, HISTORY_PAGE_SIZE).get_page(request.GET.get("pagina"))
    query = request.GET.copy()
    query.pop("pagina", None)
    return render(
        request,
        "competition/history.html",
        {
            "competition": competition,
            "filter": history,
            "page": page,
            "query": query.urlencode(),
        },
    )


@secretary_required
def entrants(request, competition: Competition):
    group_form = GroupForm(request.POST if "group-name" in request.POST else None, prefix="group")
    if group_form.is_bound:
        if group_form.is_valid():
            try:
                group_create(
                    competition=competition, name=group_form.cleaned_data["name"], by=request.user
                )
            except CompetitionError as error:
                group_form.add_error("name", error.message)
            else:
                messages.success(request, _("Group added."))
                return redirect("entrants", **competition.url_kwargs)
        form = EntrantAddForm(competition=competition)
    else:
        form = EntrantAddForm(request.POST or None, competition=competition)
    if request.method == "POST" and form.is_bound and form.is_valid():
        try:
            player = enter_player(competition, form.cleaned_data, by=request.user)
        except CompetitionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(player)s entered.") % {"player": player})
            return redirect("entrants", **competition.url_kwargs)
    return render(
        request,
        "competition/entrants.html",
        {
            "competition": competition,
            "form": form,
            "group_form": group_form,
            "entrants": selectors.entrants_with_players(competition),
            "groups": list(competition.groups.all()),
        },
    )


@require_POST
@secretary_required
def entrant_withdraw_view(request, competition: Competition):
    form = WithdrawForm(request.POST, competition=competition)
    if form.is_valid():
        entrant = form.cleaned_data["entrant"]
        try:
            if request.POST.get("reinstate"):
                entrant_reinstate(entrant=entrant, by=request.user)
            else:
                entrant_withdraw(
                    entrant=entrant, from_round=form.cleaned_data["from_round"], by=request.user
                )
        except CompetitionError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Saved."))
    else:
        messages.error(request, _("Give the round from which the player withdraws (2 or later)."))
    return redirect("entrants", **competition.url_kwargs)


@require_POST
@secretary_required
def entrant_group_view(request, competition: Competition):
    form = EntrantGroupForm(request.POST, competition=competition)
    if form.is_valid():
        try:
            entrant_set_group(
                entrant=form.cleaned_data["entrant"],
                group=form.cleaned_data["group"],
                by=request.user,
            )
        except CompetitionError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Saved."))
    else:
        messages.error(request, _("Reload the page and try again."))
    return redirect("entrants", **competition.url_kwargs)


@require_POST
@secretary_required
def groups_fill_view(request, competition: Competition):
    """Fill the groups by the club's rating (before the first round)."""
    try:
        moved = groups_fill_by_rating(competition=competition, by=request.user)
    except CompetitionError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            ngettext(
                "Groups filled by rating: %(count)d player moved.",
                "Groups filled by rating: %(count)d players moved.",
                moved,
            )
            % {"count": moved},
        )
    return redirect("entrants", **competition.url_kwargs)


@require_POST
@secretary_required
def round_create_view(request, competition: Competition):
    form = RoundCreateForm(request.POST)
    if form.is_valid():
        try:
            new_round = round_create(
                competition=competition,
                date=form.cleaned_data["date"],
                number=form.cleaned_data["number"],
                by=request.user,
            )
        except CompetitionError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Round %(number)s added.") % {"number": new_round.number})
            open_games = selectors.games_without_result_before(new_round)
            if open_games:
                messages.warning(request, open_games_warning(new_round, open_games))
            return redirect("attendance", **competition.url_kwargs, number=new_round.number)
    else:
        messages.error(request, _("Reload the page and try again."))
    return redirect(competition)


def enter_player(competition: Competition, data: dict, *, by):
    """A club member or a new player, entered from the round in `data["joined_round"]`."""
    return entrant_enter(
        competition=competition,
        player=data["player"],
        new_player_name=data["new_player_name"],
        joined_round=data["joined_round"],
        group=data.get("group"),
        by=by,
    )


@secretary_required
def round_results(request, competition: Competition, number: int):
    """Every table of the round on one screen; one save; nothing saved when a row is wrong.

    The cursor starts in the first empty score and, after a refused save, in the first
    marked field; a score out of the ordinary is saved only once its row confirms it. A row
    whose game changed under the page (another device, a first move on the board) is
    marked and kept as typed, and the other rows are saved (`competition.results_page`).
    """
    round_obj = selectors.round_get(competition, number)
    if request.method == "POST":
        answer = results_post(
            competition=competition, round_obj=round_obj, data=request.POST, by=request.user
        )
        for level, text in answer.messages:
            messages.add_message(request, level, text)
        if answer.page is None:
            return redirect(round_obj)
        page, status = answer.page, answer.status
    else:
        page, status = results_page(competition, round_obj), 200
    return render(
        request,
        "competition/round_results.html",
        {"competition": competition, "round": round_obj, **page.context()},
        status=status,
    )


@secretary_required
def game_correct(request, competition: Competition, game_id: int):
    game = get_object_or_404(
        Game.objects.select_related("round").with_seats(),
        pk=game_id,
        round__competition=competition,
    )
    form = CorrectionForm(
        request.POST or None, initial={**ResultRowForm.initial_for(game), "reason": ""}, game=game
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            round_correct_result(
                game=game,
                result=ResultInput(data["kind"], form.scores()),
                by=request.user,
                reason=data["reason"],
                expected_version=data["version"],
            )
        except ResultError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Result corrected."))
            return redirect(game.round)
    return render(
        request,
        "competition/game_correct.html",
        {
            "competition": competition,
            "game": game,
            "form": form,
            "history": game_history(game.pk),
        },
    )


HISTORY_PAGE_SIZE = 50


@secretary_required
def results_csv_download(request, competition: Competition):
    """Every result of the published rounds as the results CSV's long form (one row per
    player), which the import reads back: pairs and tables of 3 and 4 alike."""
    games = list(selectors.results_export_games(competition))
    response = HttpResponse(exports.results_csv(games), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-uitslagen.csv"'
    return response


def _import_session_key(competition: Competition) -> str:
    return f"results-import-{competition.pk}"


@secretary_required
def results_import_view(request, competition: Competition):
    """Upload a results file, see what it would change, then confirm.

    The file stays on the server (in the session) between the preview and the confirmation;
    the browser only sends back its digest, the plan's fingerprint and the answers on names.
    The service plans again and refuses when any of them no longer matches.
    """
    key = _import_session_key(competition)
    stored = request.session.get(key)
    if request.method == "POST" and "cancel" in request.POST:
        request.session.pop(key, None)
        return redirect("results_import", **competition.url_kwargs)
    if request.method == "POST" and "digest" in request.POST:
        if stored is None:
            messages.error(request, _("The uploaded file has expired; choose it again."))
            return redirect("results_import", **competition.url_kwargs)
        return _results_import_confirm(request, competition, stored)

    form = ImportForm(request.POST or None, request.FILES or None)
    errors = []
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        try:
            rows = results_import_read(data=data)
        except CompetitionError as error:
            errors = error.errors or [error.message]
        else:
            stored = {
                "text": data.decode("utf-8"),
                "digest": hashlib.sha256(data).hexdigest(),
                "filename": form.cleaned_data["file"].name[:100],
            }
            request.session[key] = stored
            return _import_preview(request, competition, stored, _proposed_plan(competition, rows))
    return render(
        request,
        "competition/import.html",
        {"competition": competition, "form": form, "errors": errors},
    )


def _proposed_plan(competition: Competition, rows: list) -> ImportPlan:
    """The plan with the preview's proposals for names: see `NameQuestion.default`."""
    plan = results_import_plan(competition=competition, rows=rows, decisions=ImportDecisions())
    proposed = {q.key: q.default for q in plan.questions if q.default != UNDECIDED}
    return results_import_plan(
        competition=competition,
        rows=rows,
        # Without the undecided (""): a player's id, or None for a new player.
        decisions=ImportDecisions(players=cast(dict[str, int | None], proposed)),
    )


def _results_import_confirm(request, competition: Competition, stored: dict):
    """Update the preview with the answers on names, or write it when confirmed."""
    data = stored["text"].encode("utf-8")
    rows = results_import_read(data=data)
    questions = results_import_plan(
        competition=competition, rows=rows, decisions=ImportDecisions()
    ).questions
    form = ImportConfirmForm(request.POST, questions=questions)
    if request.POST.get("digest") != stored["digest"]:
        messages.warning(
            request, _("Another file was uploaded in the meantime; this is its preview.")
        )
        return _import_preview(request, competition, stored, _proposed_plan(competition, rows))
    if not form.is_valid():  # the names on offer changed since the preview
        messages.warning(request, ImportPlanChanged.text)
        return _import_preview(request, competition, stored, _proposed_plan(competition, rows))
    decisions = ImportDecisions(players=form.decisions(), replace=True)
    if "confirm" in request.POST:
        try:
            summary = results_import_apply(
                competition=competition,
                data=data,
                decisions=decisions,
                by=request.user,
                expected_fingerprint=form.cleaned_data["fingerprint"],
            )
        except ImportPlanChanged as error:
            messages.warning(request, error.message)
        except CompetitionError as error:
            messages.error(request, error.message)
        else:
            request.session.pop(_import_session_key(competition), None)
            messages.success(
                request,
                _("Imported %(games)s in %(rounds)s (%(replaced)s); %(players)s.")
                % {
                    "games": ngettext("%(count)s game", "%(count)s games", summary.games)
                    % {"count": summary.games},
                    "rounds": ngettext("%(count)s round", "%(count)s rounds", summary.rounds)
                    % {"count": summary.rounds},
                    "replaced": ngettext(
                        "%(count)s result replaced", "%(count)s results replaced", summary.replaced
                    )
                    % {"count": summary.replaced},
                    "players": ngettext(
                        "%(count)s new player", "%(count)s new players", summary.new_players
                    )
                    % {"count": summary.new_players},
                },
            )
            return redirect(competition)
    plan = results_import_plan(competition=competition, rows=rows, decisions=decisions)
    return _import_preview(request, competition, stored, plan, answers=form.cleaned_data)


PREVIEW_ROWS = 200  # per list; the counts above them are always complete


def _import_preview(request, competition, stored, plan: ImportPlan, answers=None):
    """Render a plan. The fingerprint is always the plan's own: confirming means "this,
    as shown"."""
    initial = {"digest": stored["digest"], "fingerprint": plan.fingerprint}
    form = ImportConfirmForm(questions=plan.questions, initial=initial)
    for question in plan.questions:
        name = question_field_name(question)
        if answers and answers.get(name) is not None:
            form.initial[name] = answers[name]
    lists = {
        action: [_preview_row(game) for game in plan.of(action)[:PREVIEW_ROWS]]
        for action in (Action.ADD, Action.ENTER, Action.REPLACE)
    }
    counts = {
        action: len(plan.of(action))
        for action in (Action.ADD, Action.ENTER, Action.REPLACE, Action.SAME)
    }
    return render(
        request,
        "competition/import_preview.html",
        {
            "competition": competition,
            "plan": plan,
            "form": form,
            "filename": stored.get("filename", ""),
            "lists": lists,
            "counts": counts,
            "preview_rows": PREVIEW_ROWS,
        },
    )


def _preview_row(game: PlannedGame) -> dict:
    return {
        "line": game.line,
        "round": game.round,
        "table": game.table,
        "player_a": game.names[0],
        "player_b": " – ".join(name for name in game.names[1:] if name),
        "before": describe_result(game.before, game.names) if game.before else "",
        "after": describe_result(game.result, game.names),
    }
