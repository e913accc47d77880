"""The director's pairing flow: generate, review, swap, publish, or undo a round's pairing."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import selectors
from competition.forms import PairingForm, SwapForm
from competition.models import Competition, Round
from competition.services import CompetitionError
from competition.services.pairing import (
    default_standings_round,
    round_pair,
    round_pairing_review,
)
from competition.services.rounds import (
    pairing_version,
    round_clear_pairings,
    round_set_status,
    round_swap_players,
)
from competition.views.access import secretary_required


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
    action = request.POST.get("action")
    # The pairing the page showed: a second click, or a second device, acts on it or not at all.
    shown = request.POST.get("pairing") or None
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
                )
                messages.success(request, _("Players swapped."))
                return redirect("round_pairing", **competition.url_kwargs, number=number)
        elif action == "publish":
            round_set_status(round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=shown)
            messages.success(request, _("Pairing published."))
            return redirect(round_obj)
        elif action == "clear":
            round_clear_pairings(round=round_obj, expected_pairing=shown)
            messages.success(request, _("Pairing undone."))
            return redirect("round_pairing", **competition.url_kwargs, number=number)
    except CompetitionError as error:
        messages.error(request, error.message)
        games = list(selectors.round_games(round_obj))
    standings_round = default_standings_round(round_obj)
    review = round_pairing_review(round_obj, standings_round=standings_round)
    return render(
        request,
        "competition/round_pairing.html",
        {
            "competition": competition,
            "round": round_obj,
            "rows": [(game, review.get(game.pk)) for game in games],
            "standings_round": standings_round,
            "pairing_form": pairing_form,
            "swap_form": swap_form,
            "has_results": any(game.has_result and not game.is_bye for game in games),
            "pairing_version": pairing_version(game.pk for game in games),
        },
    )
