"""The board's clock over HTTP: its state as JSON, and the presses (games.clock).

Answers are JSON for static/games/clock.js, always with the clock as the server has it,
so that a refused press (409 another device pressed first, 422 a press that cannot be)
puts the device's clock right at once.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from clubs.inputs import StrictIntegerField
from games.clock import ClockError, clock_flag, clock_press, clock_start, clock_view
from games.models import Game
from games.views import board_manager_required

#: No press is further apart from the clock's origin than a day (ms); no game has 5 seats.
LATEST_MS = 24 * 3600 * 1000


class ClockPressForm(forms.Form):
    action = forms.ChoiceField(
        choices=[(a, a) for a in ("start", "switch", "pause", "resume", "flag")]
    )
    player = StrictIntegerField(min_value=0, max_value=3, required=False)
    sequence = StrictIntegerField(min_value=0, max_value=10_000, required=False)
    at = StrictIntegerField(min_value=0, max_value=LATEST_MS, required=False)
    queued = forms.BooleanField(required=False)


@require_http_methods(["GET", "POST"])
@board_manager_required
def clock(request, game):
    if request.method == "GET":
        return JsonResponse(clock_view(game))
    if "application/json" not in request.headers.get("Accept", ""):
        # The start button without the clock's script: start it, and show the board.
        if request.POST.get("action") == "start":
            try:
                clock_start(game=game, by=request.user)
            except ClockError as error:
                messages.error(request, error.message)
        return redirect("board", game_id=game.pk)
    form = ClockPressForm(request.POST)
    if not form.is_valid():
        return _refused(game, str(next(iter(form.errors.values()))[0]), status=422)
    data = form.cleaned_data
    recorded = False
    try:
        if data["action"] == "start":
            clock_start(game=game, by=request.user)
        elif data["action"] == "flag":
            recorded = clock_flag(game=game, by=request.user)
        else:
            if data["sequence"] is None or data["at"] is None:
                return _refused(game, "", status=422)
            clock_press(
                game=game,
                kind=data["action"],
                player=data["player"],
                sequence=data["sequence"],
                at=data["at"],
                queued=data["queued"],
                by=request.user,
            )
    except ClockError as error:
        status = 403 if error.forbidden else 409 if error.conflict else 422
        return _refused(game, str(error.message), status=status)
    return JsonResponse({**clock_view(_fresh(game)), "flag_recorded": recorded})


def _fresh(game: Game) -> Game:
    """The game as stored now, with its clock (the press was saved in its own transaction)."""
    return Game.objects.select_related("round__competition", "clock").with_seats().get(pk=game.pk)


def _refused(game, reason: str, *, status: int) -> JsonResponse:
    return JsonResponse({"error": reason, "clock": clock_view(_fresh(game))}, status=status)
