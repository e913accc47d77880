"""The attendance page: who is there tonight, a player entered tonight, and a late arrival's
place in a pairing already made, without pairing anyone else again.

Django: views.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.inputs import BIGINT_MAX, query_int
from competition import selectors
from competition.forms import AttendanceForm, EntrantAddForm, LateArrivalForm
from competition.models import Competition, Round
from competition.selectors import entrants_active_in, entrants_unpaired_in
from competition.services import CompetitionError
from competition.services.rounds import pairing_version, round_set_attendance
from competition.views.access import secretary_required
from competition.views.secretary import enter_player
from games.models import Game
from pairing.services import round_add_late_player, round_set_attendance_and_pair

#: The attendance page's query parameter naming the late arrival to seat (just ticked).
LATE_PARAM = "nakomer"


@secretary_required
def attendance(request, competition: Competition, number: int):
    """Who is there tonight, a player entered tonight, and a late arrival's place in a
    pairing already made (without pairing anyone else again)."""
    round_obj = selectors.round_get(competition, number)
    action = request.POST.get("action", "attendance") if request.method == "POST" else None
    active = entrants_active_in(round_obj)
    absent = set(round_obj.absences.values_list("player_id", flat=True))
    form = AttendanceForm(
        request.POST if action == "attendance" else None,
        entrants=active,
        initial={"present": [e.player_id for e in active if e.player_id not in absent]},
    )
    enter_form = EntrantAddForm(
        request.POST if action == "enter" else None,
        competition=competition,
        initial={"joined_round": round_obj.number},
        prefix="enter",
    )
    games = list(round_obj.games.with_seats())
    unpaired = entrants_unpaired_in(round_obj, games=games)
    late_form = _late_arrival_form(
        round_obj,
        games,
        unpaired,
        request.POST if action == "late" else None,
        chosen=query_int(request, LATE_PARAM, maximum=BIGINT_MAX),
    )
    if action == "attendance" and form.is_valid() and request.POST.get("then") == "pair":
        try:
            round_set_attendance_and_pair(
                round=round_obj,
                present_player_ids=map(int, form.cleaned_data["present"]),
                by=request.user,
            )
        except CompetitionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("Attendance saved and the round paired. Review, then publish.")
            )
            return redirect("round_pairing", **competition.url_kwargs, number=number)
    elif action == "attendance" and form.is_valid():
        try:
            round_set_attendance(
                round=round_obj,
                present_player_ids=map(int, form.cleaned_data["present"]),
                by=request.user,
            )
        except CompetitionError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Attendance saved."))
            unpaired = _warn_unpaired(request, round_obj)
            if unpaired:
                # The one just ticked present is the one to seat: chosen in the late form.
                ticked = [e for e in unpaired if e.player_id in absent] or unpaired
                return redirect(f"{request.path}?{LATE_PARAM}={ticked[0].player_id}#late")
            return redirect(round_obj)
    elif action == "enter" and enter_form.is_valid():
        try:
            player = enter_player(competition, enter_form.cleaned_data, by=request.user)
        except CompetitionError as error:
            enter_form.add_error(None, error.message)
        else:
            messages.success(request, _("%(player)s entered.") % {"player": player})
            _warn_unpaired(request, round_obj)
            return redirect(request.path)
    elif action == "late" and late_form is not None and late_form.is_valid():
        try:
            game = round_add_late_player(
                round=round_obj,
                player_id=int(late_form.cleaned_data["player"]),
                opponent_id=late_form.opponent_id(),
                join_table=late_form.join_table(),
                expected_pairing=late_form.cleaned_data["pairing"],
                by=request.user,
            )
        except CompetitionError as error:
            messages.error(request, error.message)
            return redirect(f"{request.path}#late")
        messages.success(request, _late_added_message(game))
        return redirect(round_obj)
    elif action == "late":
        if late_form is not None and _only_left_empty(late_form):
            messages.error(request, _("Choose the late arrival and where they play."))
            chosen = request.POST.get("player", "")
            query = f"?{LATE_PARAM}={chosen}" if chosen.isascii() and chosen.isdigit() else ""
            return redirect(f"{request.path}{query}#late")
        messages.error(
            request,
            _("The pairing or the attendance changed in the meantime: choose the place again."),
        )
        return redirect(f"{request.path}#late")
    return render(
        request,
        "competition/attendance.html",
        {
            "competition": competition,
            "round": round_obj,
            "form": form,
            "enter_form": enter_form,
            "late_form": late_form,
            "unpaired": unpaired,
            # Not paired yet: the main button saves and pairs in one step.
            "can_pair": not games and not round_obj.competition.archived_at,
        },
    )


def _late_arrival_form(
    round_obj, games: list[Game], unpaired: list, data, *, chosen: int | None
) -> LateArrivalForm | None:
    """The late-arrival form of a round that is paired and not finished; else None. It
    offers the players present and without a place (`unpaired`, from
    `entrants_unpaired_in`): an absent player is ticked present first, never seated by
    mistake."""
    if round_obj.status == Round.Status.FINISHED or not games:
        return None
    unplaced = [(e.player_id, e.player.name) for e in unpaired]
    bye_players = [(game.players[0].pk, game.players[0].name) for game in games if game.is_bye]
    if not unplaced:
        return None
    return LateArrivalForm(
        data,
        unplaced=unplaced,
        bye_players=bye_players,
        chosen=chosen,
        tables=_tables_with_room(round_obj, games),
        initial={"pairing": pairing_version(round_obj.status, (game.pk for game in games))},
    )


def _tables_with_room(round_obj, games: list[Game]) -> list[tuple[int, list[str]]]:
    """At tables of 3 and 4: the tables a late arrival may join (fewer than 4 players, no
    result yet), by number with their players' names; one against one: none."""
    if not round_obj.at_tables:
        return []
    return [
        (game.table, [player.name for player in game.players])
        for game in sorted(games, key=lambda game: game.table or 0)
        if game.table
        and not game.is_bye
        and len(game.seat_list) < 4
        and not game.has_entered_result
    ]


def _only_left_empty(form) -> bool:
    """Whether a refused form only lacks a choice (rather than offering a stale one)."""
    errors = form.errors.as_data()
    return bool(errors) and all(
        error.code == "required" for field_errors in errors.values() for error in field_errors
    )


def _warn_unpaired(request, round_obj) -> list:
    unpaired = entrants_unpaired_in(round_obj)
    if unpaired:
        messages.warning(
            request,
            ngettext(
                "%(names)s is present but has no place in the pairing of round %(number)s: "
                "add them below as a late arrival.",
                "%(names)s are present but have no place in the pairing of round %(number)s: "
                "add them below as late arrivals.",
                len(unpaired),
            )
            % {
                "names": ", ".join(entrant.player.name for entrant in unpaired),
                "number": round_obj.number,
            },
        )
    return unpaired


def _late_added_message(game: Game) -> str:
    *others, late = game.players
    if not others:
        return _("%(player)s has a bye in this round.") % {"player": late.name}
    return _("%(player)s plays %(opponent)s at table %(table)s.") % {
        "player": late.name,
        "opponent": str(_(" and ")).join(player.name for player in others),
        "table": game.table,
    }
