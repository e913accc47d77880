"""The board screen (move-by-move entry), the public replay, and GCG upload/download.

Views are thin: a form turns clicks and typing into notation, games.moves records it,
games.board builds what the page shows. htmx swaps the board state in place; without
JavaScript every form still works as a plain POST.
"""

import dataclasses
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

import rules
from clubs.inputs import query_int
from clubs.submissions import AlreadySaved, submission_once, submission_sent
from events.permissions import manages_competition
from games import engine
from games.analysis import game_review
from games.board import board_view, move_in_words, result_summary, squares, table_unplayable
from games.clock import clock_flag, clock_view
from games.confirmation import game_moves_write
from games.forms import CorrectMoveForm, GcgUploadForm, MoveForm, StarterForm, VersionForm
from games.models import Game, Move, Outcome, game_visible_to
from games.moves import (
    MoveError,
    Prepared,
    game_set_starter,
    game_to_gcg,
    move_add,
    move_correct,
    move_prepare,
    move_preview,
    move_undo,
    moves_import_gcg,
    moves_of,
)
from games.policy import role_in_game
from games.rule_messages import blank_hint, message
from games.selectors import game_history
from games.timing import clock_of


def _game(pk: int, *, user) -> Game:
    """The game, if `user` may see it: a draft round's game is a 404 to all but its secretaries."""
    game = get_object_or_404(
        Game.objects.select_related("round__competition__club", "clock")
        .with_seats()
        .exclude(outcome=Outcome.BYE),
        pk=pk,
    )
    if not game_visible_to(user, game):
        raise Http404
    return game


def board_manager_required(view):
    """The game's two players and its club's secretaries and staff; anonymous visitors log
    in first, everyone else gets 403. What a player may still change (their own game, in
    a published round, before the result is confirmed) the services decide
    (games.confirmation.game_moves_write)."""

    @login_required
    @wraps(view)
    def wrapper(request, game_id: int, **kwargs):
        game = _game(game_id, user=request.user)
        if role_in_game(game, request.user) is None:
            raise PermissionDenied
        if reason := table_unplayable(game):
            return _not_on_board(request, game, reason)
        return view(request, game, **kwargs)

    return wrapper


def _not_on_board(request, game: Game, reason: str):
    """The page of a table its rule set cannot play (`table_unplayable`): what it is and
    where its scores go; a post to it changes nothing (422)."""
    return render(
        request,
        "games/not_on_board.html",
        {"game": game, "competition": game.round.competition, "reason": reason},
        status=200 if request.method in ("GET", "HEAD") else 422,
    )


def _board_page(
    request,
    game: Game,
    *,
    form=None,
    refusal: str = "",
    status: int = 200,
    after: tuple[list, engine.Replay] | None = None,
):
    """The board page; `after`: the moves and their replay as the save just left them."""
    moves, replayed = after or (moves_of(game), None)
    view = board_view(game, moves, replayed or engine.replay(game, moves))
    form = form or MoveForm(initial={"version": game.version, "kind": "play"})
    return render(
        request,
        "games/board.html",
        {
            "board": view,
            "game": game,
            # A stored result the board did not reach (typed, with no or only some of its
            # moves) stands above the board, as on the replay: the board is otherwise
            # 0 – 0 with someone to move. A game the board finished says it as "Game over".
            "result": "" if view.is_over else result_summary(game),
            "count": len(moves),
            "form": form,
            "competition": game.round.competition,
            "clock": clock_view(game),
            "refusal": refusal,
            "refused_at": _refused_at(form, view) if refusal else "",
        },
        # htmx swaps a refusal like any answer; a 4xx would also make the browser log an
        # error in the console for every refused move (issue 19). Without htmx, 409/422.
        status=200 if request.htmx else status,
    )


def _prepared(game: Game, version: int, notation: str, rack: str) -> Prepared | None:
    """The move scored before the transaction, so that the write lock is held only to write.
    None when the screen is stale or the move is refused: the save inside the transaction
    then tells why, against the game as it is (a move saved meanwhile is a 409, not this
    move's refusal against a board it was not made on)."""
    if version != game.version:
        return None
    try:
        return move_prepare(game=game, notation=notation, rack=rack)
    except MoveError:
        return None


def _after(prepared: Prepared | None, saved: Move, shown: Game):
    """The moves and the replay the save used, when nothing changed the game since: the
    board after the save is shown without reading and replaying its moves again."""
    if prepared is None or shown.version != prepared.version + 1 or saved.pk is None:
        return None
    return [*prepared.rows, saved], prepared.replayed


def _refused_at(form: MoveForm, view) -> str:
    """Which field of the board the refusal belongs under: the one that was used, or the
    top of the entry column when the board no longer shows that field."""
    if view.pending_end_racks:
        return "endrack"
    if view.is_over or (view.game.starter is None and not view.lines):
        return "top"
    kind = form["kind"].value()
    if kind == "play":
        return "notation" if str(form["notation"].value() or "").strip() else "letters"
    if kind == "swap" and not view.ruleset.blank_swap_allowed:
        return "turn"
    if kind in ("exchange", "swap"):
        return kind
    return "turn"


def _form_refusal(form: MoveForm) -> str:
    """Everything wrong with the form in one text: its own errors, then each field's."""
    texts = [str(error) for error in form.non_field_errors()]
    for name, errors in form.errors.items():
        if name != "__all__":
            texts += [f"{form[name].label}: {error}" for error in errors]
    return " ".join(texts) or _("Incomplete move.")


@board_manager_required
def board(request, game: Game):
    """The board screen; POST records the next move. A refusal is shown under the field
    that was used, with what was typed still in it."""
    if request.method != "POST":
        return _board_page(request, game)
    form = MoveForm(request.POST)
    if form.is_valid():
        notation = form.cleaned_data["notation_text"]
        rack = form.cleaned_data.get("rack") or ""
        prepared = _prepared(game, form.cleaned_data["version"], notation, rack)
        try:
            saved = submission_once(
                submission_sent(request.POST),
                by=request.user,
                kind="move",
                led_to=lambda saved: f"game {game.pk} move {saved.pk}",
                write=lambda: game_moves_write(
                    game=game,
                    by=request.user,
                    write=lambda locked: move_add(
                        game=locked,
                        notation=notation,
                        rack=rack,
                        by=request.user,
                        expected_version=form.cleaned_data["version"],
                        prepared=prepared,
                    ),
                ),
            )
        except AlreadySaved as repeat:
            shown = _game(game.pk, user=request.user)
            if repeat.edited:
                # Sent again, changed: the move as first sent is on the board, the change
                # is not. The form is left empty: what it held would be a move of its own.
                refusal = _(
                    "This move had already been saved as it was first sent (see the moves); "
                    "the change made to it afterwards was not saved. Check the board and "
                    "enter again what is still missing."
                )
                return _board_page(request, shown, refusal=refusal, status=409)
            # Sent again (its answer or the connection was lost): the board as it is now.
            return _board_saved(request, shown)
        except MoveError as error:
            game.refresh_from_db()
            form = MoveForm(
                initial={
                    **form.cleaned_data,
                    "version": game.version,
                    "notation": form.cleaned_data.get("notation") or "",
                }
            )
            return _board_page(
                request,
                game,
                form=form,
                refusal=str(error.message),
                status=409 if error.conflict else 422,
            )
        shown = saved.game
        # A flag that fell while the board lagged behind the clock is entered now.
        if clock_of(shown) is not None and clock_flag(game=shown, by=request.user):
            shown = _game(game.pk, user=request.user)
        return _board_saved(request, shown, after=_after(prepared, saved, shown))
    return _board_page(request, game, form=form, refusal=_form_refusal(form), status=422)


def _board_saved(request, game: Game, *, after=None):
    """The answer to a saved move (or to the same move sent again)."""
    if request.htmx:
        # The board screen (htmx) gets the new board in the same answer: one round trip
        # per move, not a redirect and a second request. The address stays the board's,
        # so a reload reads it again (GET) and nothing is posted twice.
        response = _board_page(request, game, after=after)
        response["HX-Replace-Url"] = reverse("board", args=[game.pk])
        return response
    return redirect("board", game_id=game.pk)


@require_POST
@board_manager_required
def preview(request, game: Game):
    """The live preview: placed tiles, words with their scores, warnings; nothing saved.
    Before any letter is typed it says what to do next, never an error."""
    form = MoveForm(request.POST)
    is_valid = form.is_valid()
    context: dict[str, Any] = {"game": game}
    if not _letters_typed(request.POST):
        start = form.cleaned_data.get("start")
        if start:
            context["hint"] = _start_hint(start.upper(), form.cleaned_data.get("direction"))
        return render(request, "games/_preview.html", context)
    if is_valid:
        notation = form.cleaned_data["notation_text"]
        try:
            scored = move_preview(
                game=game, notation=notation, rack=form.cleaned_data.get("rack") or ""
            )
        except MoveError as error:
            context["error"] = error.message
        else:
            result = scored.result
            context["result"] = result
            context["board"] = board_view(game, scored.moves, scored.replay, preview=result)
            context["warnings"] = [message(w.code, w.params) for w in result.warnings]
            context["blank_hint"] = blank_hint(notation)
            if not isinstance(result.move, rules.Play):
                # A typed short form (-, *H8, ?+ ...) said in words before it is saved.
                context["meaning"] = move_in_words(result.notation or result.move.notation())
            bonus = context["board"].ruleset.bingo_bonus
            context["bingo_bonus"] = bonus if result.bingo and bonus else 0
    else:
        context["error"] = " ".join(str(e) for e in form.non_field_errors()) or _(
            "Incomplete move."
        )
    return render(request, "games/_preview.html", context)


def _letters_typed(data) -> bool:
    return any(str(data.get(name, "")).strip() for name in ("notation", "letters"))


def _start_hint(start: str, direction: str | None) -> str:
    if direction == "down":
        return _("From %(square)s down: type the letters.") % {"square": start}
    return _("From %(square)s across: type the letters.") % {"square": start}


@require_POST
@board_manager_required
def undo(request, game: Game):
    form = VersionForm(request.POST)
    try:
        if not form.is_valid():
            raise MoveError(_("Reload the page and try again."))
        game_moves_write(
            game=game,
            by=request.user,
            write=lambda locked: move_undo(
                game=locked, by=request.user, expected_version=form.cleaned_data["version"]
            ),
        )
    except MoveError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Last move undone."))
    return redirect("board", game_id=game.pk)


@require_POST
@board_manager_required
def correct(request, game: Game):
    form = CorrectMoveForm(request.POST)
    try:
        if not form.is_valid():
            raise MoveError(_("Type the corrected move."))
        correction = game_moves_write(
            game=game,
            by=request.user,
            write=lambda locked: move_correct(
                game=locked,
                number=form.cleaned_data["number"],
                notation=form.cleaned_data["notation"],
                rack=form.cleaned_data.get("rack") or "",
                by=request.user,
                expected_version=form.cleaned_data["version"],
            ),
        )
    except MoveError as error:
        messages.error(request, error.message)
    else:
        if not correction.changed:
            messages.info(
                request,
                _("Nothing changed: move %(number)s is as it was.")
                % {"number": form.cleaned_data["number"]},
            )
        elif correction.problems:
            messages.warning(
                request,
                _("Move corrected; the later moves marked in red are no longer legal."),
            )
        else:
            messages.success(request, _("Move corrected; all later moves scored again."))
    return redirect("board", game_id=game.pk)


@require_POST
@board_manager_required
def starter(request, game: Game):
    form = StarterForm(request.POST)
    try:
        if not form.is_valid():
            raise MoveError(_("Choose who starts."))
        game_moves_write(
            game=game,
            by=request.user,
            write=lambda locked: game_set_starter(
                game=locked,
                starter=form.cleaned_data["starter"],
                by=request.user,
                expected_version=form.cleaned_data["version"],
            ),
        )
    except MoveError as error:
        messages.error(request, error.message)
    return redirect("board", game_id=game.pk)


@board_manager_required
def gcg_upload(request, game: Game):
    form = GcgUploadForm(
        request.POST or None, request.FILES or None, initial={"version": game.version}
    )
    if request.method == "POST" and form.is_valid():
        try:
            count = game_moves_write(
                game=game,
                by=request.user,
                write=lambda locked: moves_import_gcg(
                    game=locked,
                    data=form.cleaned_data["file"].read(),
                    by=request.user,
                    expected_version=form.cleaned_data["version"],
                ),
            )
        except MoveError as error:
            form.add_error("file", error.message)
        else:
            messages.success(
                request,
                ngettext(
                    "%(count)s move read from the file.",
                    "%(count)s moves read from the file.",
                    count,
                )
                % {"count": count},
            )
            return redirect("board", game_id=game.pk)
    return render(
        request,
        "games/gcg_upload.html",
        {"game": game, "form": form, "competition": game.round.competition},
    )


@require_safe
def gcg_download(request, game_id: int):
    game = _game(game_id, user=request.user)
    if reason := table_unplayable(game):
        return _not_on_board(request, game, reason)
    response = HttpResponse(game_to_gcg(game), content_type="text/plain; charset=utf-8")
    players = "-".join(player.name for player in game.players)
    name = slugify(f"{players}-ronde-{game.round.number}")
    response["Content-Disposition"] = f'attachment; filename="{name}.gcg"'
    return response


def _replay_game(request, game_id: int) -> Game:
    """The game for the public replay pages (the replay and its analysis): one loader,
    so whatever decides who may see a game applies to both."""
    return _game(game_id, user=request.user)


@require_safe
def replay(request, game_id: int):
    """Public: the game's result, and its moves to step through on the board.

    A game with a result shows the stored one (typed scores, walk-over, flag fall,
    annulled: however it came in); the board and whose turn it is are for the moves. A game
    with a result and no moves has no board to show, not even one its rule set cannot play."""
    game = _replay_game(request, game_id)
    unplayable = table_unplayable(game)
    if unplayable and not game.has_result:
        return _not_on_board(request, game, unplayable)
    moves = [] if unplayable else moves_of(game)
    wanted = query_int(request, "zet")
    upto = len(moves) if wanted is None else min(wanted, len(moves))
    on_board = bool(moves) or not game.has_result
    view = board_view(game, moves, engine.replay(game, moves), upto=upto) if on_board else None
    can_manage = manages_competition(request.user, game.round.competition)
    return render(
        request,
        "games/replay.html",
        {
            "board": view,
            "game": game,
            "result": result_summary(game),
            "competition": game.round.competition,
            "upto": upto,
            "count": len(moves),
            "current": moves[upto - 1] if upto else None,
            # The analysis looks only at turns whose rack is known: without one, nothing.
            "can_analyse": any(move.rack for move in moves),
            "can_manage": can_manage or role_in_game(game, request.user) is not None,
            # The game's history is the secretary's: who entered and corrected what.
            "history": game_history(game.pk) if can_manage else None,
        },
    )


@require_safe
def analysis(request, game_id: int):
    """Public, on request: per turn with a known rack the best play and the points left
    on the table. htmx gets the table for the replay page; otherwise (or with ``?zet=N``)
    a page that shows move N's best play on the board before that move."""
    game = _replay_game(request, game_id)
    if reason := table_unplayable(game):
        return _not_on_board(request, game, reason)
    moves = moves_of(game)
    replayed = engine.replay(game, moves)
    review = game_review(game, moves, replayed)
    value = request.GET.get("zet", "")
    number = int(value) if value.isascii() and value.isdigit() and len(value) < 6 else None
    shown = review.turn(number) if number is not None else None
    context = {"game": game, "review": review, "shown": shown}
    if request.htmx and shown is None:
        return render(request, "games/_analysis.html", context)
    upto = shown.number - 1 if shown is not None else len(moves)
    view = board_view(game, moves, replayed, upto=upto)
    if shown is not None:
        engine_game = replayed.engine
        rows = squares(
            engine_game.board, engine_game.tiles, highlight=shown.placed, state="preview"
        )
        view = dataclasses.replace(view, rows=rows)
    context.update(
        board=view,
        result=result_summary(game),
        competition=game.round.competition,
        upto=upto,
        count=len(moves),
    )
    return render(request, "games/analysis.html", context)
