"""The director's pairing flow: generate, review, swap, publish, or undo a round's pairing;
reopen a finished round, or delete a round added by mistake."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import selectors
from competition.forms import PairingForm, RoundDeleteForm, RoundReopenForm, SwapForm
from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.pairing import (
    default_standings_round,
    round_pair,
    round_pairing_review,
)
from competition.services.rounds import (
    entrants_unpaired_in,
    pairing_version,
    round_clear_pairings,
    round_delete,
    round_reopen,
    round_set_status,
    round_swap_players,
)
from competition.views.access import secretary_required
from competition.views.warnings import open_games_warning


@secretary_required
def round_pairing(request, competition: Competition, number: int):
    round_obj = selectors.round_get(competition, number)
    games = list(selectors.round_games(round_obj))
    players = sorted(
        (
            (player.pk, player.name)
            for game in games
            for player in (game.player_a, game.player_b)
            if player is not None
        ),
        key=lambda item: item[1],
    )
    pairing_form = PairingForm(initial={"system": competition.pairing_system})
    swap_form = SwapForm(players=players)
    reopen_form = RoundReopenForm()
    delete_form = RoundDeleteForm()
    action = request.POST.get("action")
    # The pairing the page showed: a second click, or a second device, acts on it or not at all.
    shown = request.POST.get("pairing") or None
    by = request.user
    try:
        if action == "generate":
            pairing_form = PairingForm(request.POST)
            if pairing_form.is_valid():
                data = pairing_form.cleaned_data
                round_pair(
                    round=round_obj,
                    system=data["system"],
                    standings_round=data["standings_round"],
                    seed=data["seed"],
                    expected_pairing=shown,
                    by=by,
                )
                messages.success(request, _("Pairing generated. Review it, then publish."))
                return redirect("round_pairing", **competition.url_kwargs, number=number)
        elif action == "swap":
            swap_form = SwapForm(request.POST, players=players)
            if swap_form.is_valid():
                round_swap_players(
                    round=round_obj,
                    player_x=int(swap_form.cleaned_data["player_x"]),
                    player_y=int(swap_form.cleaned_data["player_y"]),
                    expected_pairing=shown,
                    by=by,
                )
                messages.success(request, _("Players swapped."))
                return redirect("round_pairing", **competition.url_kwargs, number=number)
        elif action == "publish":
            round_set_status(
                round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=shown, by=by
            )
            messages.success(request, _("Pairing published."))
            return redirect(round_obj)
        elif action == "clear":
            round_clear_pairings(round=round_obj, expected_pairing=shown, by=by)
            messages.success(request, _("Pairing undone."))
            return redirect("round_pairing", **competition.url_kwargs, number=number)
        elif action == "reopen":
            reopen_form = RoundReopenForm(request.POST)
            if reopen_form.is_valid():
                round_reopen(round=round_obj, reason=reopen_form.cleaned_data["reason"], by=by)
                messages.success(request, _("Round %(number)s reopened.") % {"number": number})
                return redirect("round_pairing", **competition.url_kwargs, number=number)
        elif action == "delete":
            delete_form = RoundDeleteForm(request.POST)
            if delete_form.is_valid():
                round_delete(round=round_obj, by=by)
                messages.success(request, _("Round %(number)s deleted.") % {"number": number})
                return redirect(competition)
    except CompetitionError as error:
        messages.error(request, error.message)
        round_obj.refresh_from_db(fields=["status"])
        games = list(selectors.round_games(round_obj))
    open_games = selectors.games_without_result_before(round_obj)
    standings_round = default_standings_round(round_obj, open_games=open_games)
    review = round_pairing_review(round_obj, standings_round=standings_round)
    has_results = any(game.has_entered_result for game in games)
    return render(
        request,
        "competition/round_pairing.html",
        {
            "competition": competition,
            "round": round_obj,
            "rows": [(game, review.get(game.pk)) for game in games],
            "standings_round": standings_round,
            "open_games_warning": open_games_warning(round_obj, open_games)
            if open_games and not has_results
            else "",
            "unpaired": [
                entrant.player.name for entrant in entrants_unpaired_in(round_obj, games=games)
            ],
            "pairing_form": pairing_form,
            "swap_form": swap_form,
            "reopen_form": reopen_form,
            "delete_form": delete_form,
            "can_delete": not has_results and not any(game.move_count for game in games),
            "has_results": has_results,
            "pairing_version": pairing_version(game.pk for game in games),
        },
    )
