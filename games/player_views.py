"""The players' own pages: "Mijn partijen", and a game's result as its players enter and
confirm it (the secretary confirms or decides it on the same page).

Views are thin: a form is validated, one service of games/confirmation.py is called, and
its message shown.
"""

from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.calendars import calendar_response, calendar_token, player_by_calendar_token
from clubs.history_display import Reading
from clubs.models import Player
from clubs.services import player_calendar_renew
from games.calendars import player_calendar
from games.confirmation import (
    ConfirmationError,
    game_result_confirm,
    game_result_enter,
    game_result_override,
    seats_to_confirm,
)
from games.forms import GameResultForm, VersionForm
from games.history_text import result_text
from games.models import Confirmation, ResultState, RoundStatus
from games.policy import SECRETARY, GameAction, Role, game_actions_for, role_in_game
from games.selectors import my_games
from games.services import (
    SEAT_LETTERS,
    ResultError,
    ResultInput,
    names_in_words,
    result_kind_of,
)
from games.views import _game


def game_role_required(view):
    """The game's two players and its club's secretaries (and staff); anonymous visitors
    log in first, everyone else gets 403 (a game of a draft round stays a 404)."""

    @login_required
    @wraps(view)
    def wrapper(request, game_id: int, **kwargs):
        game = _game(game_id, user=request.user)
        role = role_in_game(game, request.user)
        if role is None:
            raise PermissionDenied
        return view(request, game, role, **kwargs)

    return wrapper


def _initial(game) -> dict:
    return {
        "version": game.version,
        "kind": result_kind_of(game) or "normal",
        # Fewer seats than letters: the seats decide.
        **{f"score_{SEAT_LETTERS[seat]}": score for seat, score in enumerate(game.scores)},
    }


def _counter(game) -> str | None:
    """The other entry of a disputed game as a sentence with the names ("Anke 388 – 412
    Bram, Bram wint"), as the history says it."""
    counter = game.counter_result or {}
    if not counter:
        return None
    return result_text(counter, Reading(names=tuple(player.name for player in game.players)))


def _others(game, seat: int | None) -> list:
    """The other players at the reader's table (none for the secretary)."""
    if seat is None:
        return []
    return [player for position, player in enumerate(game.players) if position != seat]


def _confirmers(game, seat: int | None) -> list:
    """The others whose confirmation the reader's table waits for (`seats_to_confirm`:
    not who did not come)."""
    wanted = seats_to_confirm(game)
    return [
        player
        for position, player in enumerate(game.players)
        if position != seat and position in wanted
    ]


@dataclass(frozen=True)
class SeatStand:
    """Where one player at a table of 3 or 4 stands on the entered result."""

    name: str
    # "entered", "confirmed", "other" (entered another result), "waiting", "absent" (did
    # not come: not asked to confirm)
    stand: str
    mine: bool


def _seat_stands(game, seat: int | None) -> list[SeatStand]:
    """Each player's stand on an entered result at a table of 3 or 4 (a pair's page says it
    in one sentence, as before tables); none while nothing is entered."""
    if len(game.seat_list) <= 2 or not game.has_result or game.claimed_by is None:
        return []
    counter_by = (game.counter_result or {}).get("by")
    wanted = seats_to_confirm(game)
    stands = []
    for position, table_seat in enumerate(game.seat_list):
        if position == game.claimed_by:
            stand = "entered"
        elif position == counter_by:
            stand = "other"
        elif table_seat.confirmed or game.confirmation == Confirmation.CONFIRMED:
            stand = "confirmed"
        elif position not in wanted:
            stand = "absent"
        else:
            stand = "waiting"
        stands.append(SeatStand(table_seat.player.name, stand, position == seat))
    return stands


def _player_at(game, position: int | None):
    players = game.players
    return players[position] if position is not None and 0 <= position < len(players) else None


@game_role_required
def game_result(request, game, role: Role):
    """Enter, confirm or dispute a game's result (players); confirm or decide it (secretary)."""
    is_secretary = role == SECRETARY
    mine = None if role == SECRETARY else role
    form: GameResultForm | VersionForm
    form = GameResultForm(initial=_initial(game), game=game, seat=mine)
    if request.method == "POST":
        action = request.POST.get("action", "")
        form = GameResultForm(request.POST, game=game, seat=mine)
        if action == "confirm":
            form = VersionForm(request.POST)
        try:
            if not form.is_valid():
                raise ResultError(_("Check the marked fields."))
            data = form.cleaned_data
            if action == "confirm":
                game_result_confirm(
                    game=game,
                    by=request.user,
                    reason=request.POST.get("reason", "")[:500],
                    expected_version=data["version"],
                )
                done = _("Result confirmed.")
            else:
                assert isinstance(form, GameResultForm)  # only "confirm" posts a VersionForm
                service = game_result_override if action == "override" else game_result_enter
                updated = service(
                    game=game,
                    result=ResultInput(data["kind"], form.scores()),
                    by=request.user,
                    reason=data["reason"],
                    expected_version=data["version"],
                )
                done = _done_message(updated, others=_confirmers(updated, mine))
        except ConfirmationError as error:
            if error.forbidden:
                raise PermissionDenied from None
            messages.error(request, error.message)
        except ResultError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
            return redirect("game_result", game_id=game.pk)
        game.refresh_from_db()
        if not isinstance(form, GameResultForm):
            form = GameResultForm(initial=_initial(game), game=game, seat=mine)
    state = game.result_state
    by_moves = game.moves.exists()
    # What this person may do: the services' own rule (games.policy.game_actions_for).
    allowed = game_actions_for(request.user, game, has_moves=by_moves)
    deciding = GameAction.OVERRIDE in allowed
    return render(
        request,
        "games/result.html",
        {
            "game": game,
            "competition": game.round.competition,
            "form": form,
            "is_secretary": is_secretary,
            "state": state,
            "states": ResultState,
            "claimant": _player_at(game, game.claimed_by),
            # The other entry of a dispute: the player who entered it is kept with it.
            "counter_by": _player_at(game, (game.counter_result or {}).get("by")),
            "counter": _counter(game),
            "others": _others(game, mine),
            "stands": _seat_stands(game, mine),
            "others_names": names_in_words(player.name for player in _confirmers(game, mine)),
            "waiting_for_me": mine is not None and GameAction.CONFIRM in allowed,
            "can_enter": deciding or GameAction.ENTER in allowed,
            "deciding": deciding,
            # Where the result can still change: say that the board is the place.
            "moves_note": by_moves and GameAction.MOVES in allowed,
            "can_confirm": GameAction.CONFIRM in allowed,
            "entered_by_me": mine is not None and game.claimed_by == mine,
            "round_closed": game.round.status != RoundStatus.PUBLISHED,
        },
    )


def _done_message(game, *, others) -> str:
    """What the reader did, said from their side, the others at the table by name."""
    name = names_in_words(player.name for player in others) or _("your opponent")
    if game.confirmation == Confirmation.DISPUTED:
        return _("Your entry differs from the entry of %(name)s: the secretary decides.") % {
            "name": name
        }
    if game.confirmation == Confirmation.PROVISIONAL:
        return _("Result saved. It is provisional until %(name)s confirms it.") % {"name": name}
    return _("Result saved and confirmed.")


@dataclass(frozen=True)
class MyGame:
    """One of the reader's games as their list shows it: from their seat."""

    game: Any
    seat: int | None
    opponents: str  # the other players' names, in table order
    scores: str  # the reader's score first: "412 – 388 – 301"
    starts: bool | None  # whether the reader starts; None when not recorded


def _my_game(game, seat: int | None) -> MyGame:
    order = (
        [seat, *[p for p in range(len(game.seat_list)) if p != seat]] if seat is not None else []
    )
    scores = [game.scores[p] for p in order] if order else list(game.scores)
    return MyGame(
        game=game,
        seat=seat,
        opponents=" – ".join(player.name for p, player in enumerate(game.players) if p != seat),
        scores=" – ".join(str(score) for score in scores) if None not in scores else "",
        starts=None if game.starter is None or seat is None else game.starter == seat,
    )


@login_required
def my_games_page(request):
    """A logged-in player's games: tonight's first, then the rest."""
    games = my_games(request.user, today=timezone.localdate())
    rows = [_my_game(game, game.seat_of(request.user)) for game in [*games.current, *games.earlier]]
    current = rows[: len(games.current)]
    earlier = rows[len(games.current) :]
    return render(
        request,
        "games/my_games.html",
        {
            "player": games.player,
            "current": current,
            "earlier": earlier,
            "states": ResultState,
            "calendar_url": _calendar_url(request, games.player),
        },
    )


def _calendar_url(request, player) -> str:
    """The address of the player's own feed, in the language they read this page in."""
    token = calendar_token(player) if player is not None else ""
    if not token:
        return ""
    name = "player_calendar_en" if translation.get_language() == "en" else "player_calendar"
    return request.build_absolute_uri(reverse(name, kwargs={"token": token}))


@require_POST
@login_required
def calendar_renew(request):
    """A new address for the player's own feed; the old one stops working."""
    player = Player.objects.filter(user=request.user).first()
    if player is None:
        raise Http404
    player_calendar_renew(player=player, by=request.user)
    messages.success(request, _("Your calendar has a new address; the old one no longer works."))
    return redirect("my_games")


@require_safe
def calendar_feed(request, token: str, language: str = "nl"):
    """The player's own games as a calendar feed, at their secret address (no login)."""
    player = player_by_calendar_token(token)
    if player is None:
        raise Http404
    with translation.override(language):
        feed = player_calendar(player, base_url=request.build_absolute_uri("/")[:-1])
    return calendar_response(feed, filename="bordpunt")
