"""The player's slip on their own phone: the page that follows the draws, the hand-in
(once per turn, late after the turn's time or the top), the live preview, and the poll
for the next rack."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh, reselect, retarget

from clubs.submissions import AlreadySaved, submission_check, submission_once, submission_sent
from clubs.timing import arrived_at
from competition.services import CompetitionError
from duplicate import clock, hand_in_sql, selectors
from duplicate.forms import SlipForm
from duplicate.models import Slip
from duplicate.notation import play_read, reason_shown
from duplicate.replay import evening_slip_rules, slip_text
from duplicate.services.slips import slip_submit
from duplicate.views.shared import evening_url, refusal, seconds_left
from events.permissions import manages_competition
from games.rule_messages import describe
from rules.referee import judge_slip

#: The faults of the score written, which a preview (no score written yet) leaves out.
SCORE_FAULTS = ("score_missing", "score_wrong")


#: How often a phone that has handed in asks whether the next rack is out (seconds).
SLIP_POLL_SECONDS = 5


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
        slip_text(text),
        claimed=None,
        top=None,
        rules=evening_slip_rules(state.evening),
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


def _slip_page(
    request,
    evening,
    player,
    *,
    form=None,
    state=None,
    fragment=False,
    added=None,
    refusal="",
    status=200,
):
    """The slip page; `state`: the evening as the caller has just read it. `fragment`:
    only the part a hand-in changes (the turn, the form or "your slip is in", and the
    list of slips out of band), for the phone's own form: when the whole room hands in
    within seconds, the board is not rendered again for each slip. `added`: the slip
    just handed in, whose row alone goes to the list the phone shows. `refusal`: a send
    refused for no field of the form (a slip changed after it was handed in), `status` its
    status (409) for a plain post; htmx gets 200 and swaps the refusal in like any answer."""
    state = state or selectors.evening_state(evening)
    turn = _slip_turn(state)
    if added is None:
        mine = list(
            Slip.objects.filter(turn__evening=evening, player=player)
            .select_related("turn")
            .order_by("turn__number")
        )
        # A slip the spelleider's redo voided is listed, and the player hands in again.
        handed_in = turn is not None and any(
            slip.turn_id == turn.pk and not slip.void for slip in mine
        )
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
        "refusal": refusal,
        "form": form or SlipForm(notation=evening.competition.club.slip_notation),
        "fragment": fragment,
        "remaining": seconds_left(turn),
        "time_added": turn.added_seconds if turn is not None and turn.is_open else None,
        "next_turn_url": evening_url("duplicate_slip_next_turn", evening),
        "tab": "duplicate",
        "plays": True,  # the page of the player's own entry (`_evening_for_player`)
        # The page follows the draws. A reload comes only with a new draw, when a slip
        # typed for the turn before could no longer be handed in anyway.
        "follow": None if state.is_over else state.last_draw,
        "poll_seconds": SLIP_POLL_SECONDS,
    }
    status = 200 if request.htmx else status
    if fragment:
        return render(request, "duplicate/_slip_hand_in.html", context, status=status)
    context["board"] = state.board() if turn is None or turn.is_open else None
    return render(request, "duplicate/slip.html", context, status=status)


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


@login_required
def slip(request, club: str, competition: str, number: int):
    """The player's slip on their own phone: coordinates and word, the score shown before
    sending, sent once per turn (after the turn's time or the top it is marked late)."""
    evening, participation = _evening_for_player(request, club, competition, number)
    player = participation.player
    if request.method != "POST":
        return _slip_page(request, evening, player, state=_slip_state(evening))
    form = SlipForm(request.POST, notation=evening.competition.club.slip_notation)
    state = _slip_state(evening)
    sent = submission_sent(request.POST)
    try:
        submission_check(sent)
    except AlreadySaved as repeat:
        return _slip_sent_again(request, evening, player, state, edited=repeat.edited)
    turn = _slip_turn(state)
    wanted = request.POST.get("turn", "")
    if turn is None or wanted != str(turn.number):
        form.is_valid()
        form.add_error(None, _("This turn is over: the spelleider has drawn the next one."))
        return _turn_over_page(request, evening, player, form=form, state=state)
    fragment = bool(request.htmx)
    if not form.is_valid():
        return _slip_page(request, evening, player, form=form, state=state, fragment=fragment)
    # Judged by when it reached us, not by when this worker took it (`clubs.timing`).
    arrived = arrived_at(request)
    try:
        slip = submission_once(
            sent,
            by=request.user,
            kind="slip",
            led_to=lambda slip: f"slip {slip.pk}",
            write=lambda: slip_submit(
                turn=turn,
                player_id=player.pk,
                text=form.cleaned_data["text"],
                claimed=form.cleaned_data["claimed"],
                by=request.user,
                participation=participation,
                arrived_at=arrived,
                # The open turn's board and rack, as the page has just replayed them.
                position=state.game if turn.is_open else None,
            ),
        )
    except AlreadySaved as repeat:
        return _slip_sent_again(request, evening, player, state, edited=repeat.edited)
    except CompetitionError as error:
        form.add_error(None, refusal(error))
        return _slip_page(request, evening, player, form=form, state=state, fragment=fragment)
    if fragment:
        # The phone (htmx) gets "your slip is in" at once: one round trip, not a redirect
        # and a second read of the whole page, when the whole room hands in within seconds.
        return _slip_page(request, evening, player, state=state, fragment=True, added=slip)
    return redirect(evening_url("duplicate_slip", evening))


def _slip_sent_again(request, evening, player, state, *, edited: bool):
    """A slip sent again (its answer or the connection was lost): answered as the first,
    "your slip is in". Changed since it was first sent, the change is refused in words:
    the slip is in as first sent (the list of slips shows it), one slip per turn."""
    if edited:
        refusal = _(
            "Your slip had already been handed in as it was first sent (see your slips); "
            "the change made to it afterwards was not saved."
        )
        fragment = bool(request.htmx)
        return _slip_page(
            request, evening, player, state=state, fragment=fragment, refusal=refusal, status=409
        )
    if request.htmx:
        return _slip_page(request, evening, player, state=state, fragment=True)
    return redirect(evening_url("duplicate_slip", evening))


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
