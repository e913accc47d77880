"""The director's pairing flow: generate, review, swap, publish, or undo a round's pairing;
reopen a finished round, or delete a round added by mistake."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from competition import selectors
from competition.forms import PairingForm, RoundDeleteForm, RoundReopenForm, SwapForm
from competition.models import Competition, Round
from competition.pairing_text import explanation_lines
from competition.ratings import club_ratings
from competition.services import CompetitionError
from competition.services.rounds import (
    pairing_version,
    round_clear_pairings,
    round_delete,
    round_reopen,
    round_set_status,
)
from competition.views.access import secretary_required
from competition.views.warnings import open_games_warning
from pairing.services import (
    default_standings_round,
    round_pair,
    round_pairing_review,
    round_swap,
    round_table_review,
)


@dataclass(frozen=True)
class PairingAction:
    """One button of the pairing page: the form it posts (None: no fields but the pairing
    shown) and the one service it calls, which returns the message and where to go next
    (None: back to the pairing page)."""

    form: str | None
    run: Callable[..., tuple[str, Any]]


def _generate(round_obj, data, *, shown, by):
    round_pair(
        round=round_obj,
        system=data["system"],
        standings_round=data["standings_round"],
        seed=data["seed"],
        expected_pairing=shown,
        by=by,
        table_size=data.get("table_size"),
    )
    return _("Pairing generated. Review it, then publish."), None


def _swap(round_obj, data, *, shown, by):
    round_swap(
        round=round_obj,
        player_x=int(data["player_x"]),
        player_y=int(data["player_y"]),
        expected_pairing=shown,
        by=by,
    )
    return _("Players swapped."), None


def _publish(round_obj, data, *, shown, by):
    round_set_status(round=round_obj, status=Round.Status.PUBLISHED, expected_pairing=shown, by=by)
    return _("Pairing published."), round_obj


def _clear(round_obj, data, *, shown, by):
    round_clear_pairings(round=round_obj, expected_pairing=shown, by=by)
    return _("Pairing undone."), None


def _reopen(round_obj, data, *, shown, by):
    round_reopen(round=round_obj, reason=data["reason"], by=by)
    return _("Round %(number)s reopened.") % {"number": round_obj.number}, None


def _delete(round_obj, data, *, shown, by):
    round_delete(round=round_obj, by=by)
    return _("Round %(number)s deleted.") % {"number": round_obj.number}, round_obj.competition


PAIRING_ACTIONS = {
    "generate": PairingAction("pairing_form", _generate),
    "swap": PairingAction("swap_form", _swap),
    "publish": PairingAction(None, _publish),
    "clear": PairingAction(None, _clear),
    "reopen": PairingAction("reopen_form", _reopen),
    "delete": PairingAction("delete_form", _delete),
}


def _pairing_forms(data, *, round_obj: Round, players, bound: str | None) -> dict:
    """The page's forms; the one named `bound` is bound to the posted data."""
    competition = round_obj.competition
    makers = {
        "pairing_form": lambda d: PairingForm(
            d,
            competition=competition,
            initial={"system": competition.pairing_system, "table_size": round_obj.table_size},
        ),
        "swap_form": lambda d: SwapForm(d, players=players),
        "reopen_form": RoundReopenForm,
        "delete_form": RoundDeleteForm,
    }
    return {name: make(data if name == bound else None) for name, make in makers.items()}


@secretary_required
def round_pairing(request, competition: Competition, number: int):
    """The pairing page; a POST is one of `PAIRING_ACTIONS`, each one service."""
    round_obj = selectors.round_get(competition, number)
    games = list(selectors.round_games(round_obj))
    players = sorted(
        ((player.pk, player.name) for game in games for player in game.players),
        key=lambda item: item[1],
    )
    action = PAIRING_ACTIONS.get(request.POST.get("action", ""))
    forms = _pairing_forms(
        request.POST, round_obj=round_obj, players=players, bound=action.form if action else None
    )
    if action is not None:
        form = forms.get(action.form) if action.form else None
        if form is None or form.is_valid():
            try:
                message, target = action.run(
                    round_obj,
                    form.cleaned_data if form is not None else {},
                    # The pairing the page showed: a second click, or a second device,
                    # acts on it or not at all.
                    shown=request.POST.get("pairing") or None,
                    by=request.user,
                )
            except CompetitionError as error:
                messages.error(request, error.message)
                round_obj.refresh_from_db(fields=["status"])
                games = list(selectors.round_games(round_obj))
            else:
                messages.success(request, message)
                if target is not None:
                    return redirect(target)
                return redirect("round_pairing", **competition.url_kwargs, number=number)
    open_games = selectors.games_without_result_before(round_obj)
    standings_round = default_standings_round(round_obj, open_games=open_games)
    at_tables = round_obj.at_tables
    review: Mapping[int, object]  # a table's review or a pair's, as the template shows
    if at_tables:
        review = round_table_review(round_obj, standings_round=standings_round)
    else:
        review = round_pairing_review(round_obj, standings_round=standings_round)
    has_results = any(game.has_entered_result for game in games)
    club_rating = club_ratings(competition.club)
    names = {player.pk: player.name for game in games for player in game.players}

    def chance(game) -> tuple[int, int] | None:
        """Each player's "kans op winst" in percent by the club's ratings (a draw half)."""
        if len(game.players) != 2:
            return None
        first = round(100 * club_rating.chance(*game.players))
        return first, 100 - first

    return render(
        request,
        "competition/round_pairing.html",
        {
            "competition": competition,
            "round": round_obj,
            "rows": [(game, review.get(game.pk), chance(game)) for game in games],
            "at_tables": at_tables,
            "table_rows": [
                (game, review.get(game.pk), _repeats_named(review.get(game.pk), game))
                for game in games
            ]
            if at_tables
            else [],
            "rating_system": club_rating.system,
            "standings_round": standings_round,
            # Which engine made the pairing and why, as the round keeps it (after a reload,
            # and once published): empty for a pairing set by hand or imported.
            "explanation": explanation_lines(
                round_obj.pairing_explanation if games else [],
                lambda player_id: names.get(player_id, "?"),
            ),
            "open_games_warning": open_games_warning(round_obj, open_games)
            if open_games and not has_results
            else "",
            "unpaired": [
                entrant.player.name
                for entrant in selectors.entrants_unpaired_in(round_obj, games=games)
            ],
            **forms,
            "can_delete": not has_results and not any(game.move_count for game in games),
            "has_results": has_results,
            "pairing_version": pairing_version(round_obj.status, (game.pk for game in games)),
        },
    )


def _repeats_named(table, game) -> list[tuple[str, str, int, int]]:
    """A table's repeat meetings with the players' names: (name, name, meetings, last round)."""
    if table is None:
        return []
    names = {player.pk: player.name for player in game.players}
    return [
        (names[repeat.player_a], names[repeat.player_b], repeat.meetings, repeat.last_round)
        for repeat in table.repeats
    ]
