"""The public pages of a duplicate competition: its evenings and the season ranking, an
evening's ranking, the room's big screen, the post-check, and an evening's papers and
files (its results as CSV, the printed match sheets and slips, the master game as GCG)."""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import numbers
from competition.qr import qr_svg
from competition.spreadsheets import spreadsheet_csv
from duplicate import selectors
from duplicate.models import Evening, Slip
from duplicate.replay import evening_slip_rules
from duplicate.views.shared import evening_url, seconds_left
from events.permissions import manages_competition
from rules import gcg
from rules.board import square_name
from rules.referee import FAULTS

#: Seconds between two polls of the room screen.
SCREEN_POLL_SECONDS = 3


@require_safe
def evenings_page(request, club: str, competition: str):
    """The competition's evenings and the season ranking (average percentage)."""
    found = selectors.duplicate_get(club_slug=club, competition_slug=competition)
    names = selectors.player_names(found.pk)
    season = selectors.season_results(found.pk, found.best_evenings)
    evenings = selectors.evenings_of(found)
    return render(
        request,
        "duplicate/evenings.html",
        {
            "competition": found,
            "evenings": evenings,
            "next_number": (evenings[-1].number + 1) if evenings else 1,
            "season": [(row, names.get(row.player_id, "?")) for row in season],
            "can_manage": manages_competition(request.user, found),
            "tab": "duplicate",
        },
    )


@require_safe
def evening_page(request, club: str, competition: str, number: int):
    """The evening's ranking (total, percentage of the tops, tops, solos) and its turns."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    names = selectors.player_names(evening.competition_id)
    ranking = selectors.evening_results(evening)
    turns = list(evening.turns.order_by("number"))
    closed = [turn for turn in turns if not turn.is_open]
    rules = evening_slip_rules(evening)
    return render(
        request,
        "duplicate/evening.html",
        {
            "evening": evening,
            "rules": rules,
            # Columns for warnings and penalties where a fault can lead to one.
            "counts_faults": any(
                rules.consequence(fault) in ("warning", "penalty") for fault in FAULTS
            ),
            "competition": evening.competition,
            "ranking": [(row, names.get(row.player_id, "?")) for row in ranking],
            "turns": turns,
            "sum_of_tops": closed[-1].total if closed else 0,
            "can_manage": manages_competition(request.user, evening.competition),
            "plays": selectors.plays_in(user=request.user, evening=evening),
            "tab": "duplicate",
        },
    )


def _screen_context(evening: Evening) -> dict:
    state = selectors.evening_state(evening)
    remaining = seconds_left(state.open_turn)
    last = state.last_closed
    return {
        "evening": evening,
        "competition": evening.competition,
        "state": state,
        "board": state.board(),
        "remaining": remaining,
        "last": last,
        # Who found the last top alone (or scored highest alone: the evening's rules say).
        "solo_names": selectors.solo_names(last) if last and not state.open_turn else [],
    }


@require_safe
def screen(request, club: str, competition: str, number: int):
    """The big screen for the room: the rack and its countdown, then the top on the board
    and the sum of the tops. Polls its panel; the last state stays up without a server."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(
        request,
        "duplicate/screen.html",
        {**_screen_context(evening), "poll_seconds": SCREEN_POLL_SECONDS},
    )


@require_safe
def screen_panel(request, club: str, competition: str, number: int):
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(request, "duplicate/_screen_panel.html", _screen_context(evening))


@require_safe
def post_check(request, club: str, competition: str, number: int):
    """The post-check (nacontrole): every slip the engine did not take as written, with
    what it did and why, and how many players' totals it changed."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    return render(
        request,
        "duplicate/post_check.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "check": selectors.post_check(evening),
            "complete": selectors.evening_complete(evening),
            "can_manage": manages_competition(request.user, evening.competition),
            "plays": selectors.plays_in(user=request.user, evening=evening),
            "tab": "duplicate",
        },
    )


#: The evening's results as CSV: English column names, as the standings CSV has them.
RESULTS_COLUMNS = [
    "rank",
    "player",
    "player_id",
    "total",
    "percentage",
    "tops",
    "solos",
    "points",
    "solo_bonus",
    "warnings",
    "penalty",
]


@require_safe
def evening_csv(request, club: str, competition: str, number: int):
    """The evening's ranking as CSV (every cell safe to open in a spreadsheet)."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    names = selectors.player_names(evening.competition_id)
    rows = [
        {
            "rank": row.rank,
            "player": names.get(row.player_id, ""),
            "player_id": row.player_id,
            "total": row.total,
            "percentage": numbers.decimal(row.percentage, 2),
            "tops": row.tops,
            "solos": row.solos,
            "points": row.points,
            "solo_bonus": row.solo_bonus,
            "warnings": row.warnings,
            "penalty": row.penalty,
        }
        for row in selectors.evening_results(evening)
    ]
    response = HttpResponse(
        spreadsheet_csv(RESULTS_COLUMNS, rows), content_type="text/csv; charset=utf-8"
    )
    name = f"{slugify(evening.competition.name)}-avond-{evening.number}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


#: Blank slips (beurtbriefjes) on one printed page: two columns of six.
SLIPS_PER_PAGE = 12


@require_safe
def evening_print(request, club: str, competition: str, number: int):
    """The papers of the evening: each player's match sheet (wedstrijdblad) with the turns
    played so far, and a page of blank slips; each with a QR code that opens the slip page
    on a phone."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    turns = [turn for turn in evening.turns.order_by("number") if not turn.is_open]
    names = selectors.player_names(evening.competition_id)
    by_player: dict[int, dict[int, Slip]] = {}
    for found in Slip.objects.standing().filter(turn__evening=evening).select_related("turn"):
        by_player.setdefault(found.player_id, {})[found.turn.number] = found
    sheets = []
    for player_id, name in sorted(names.items(), key=lambda item: item[1]):
        running, lines = 0, []
        for turn in turns:
            own = by_player.get(player_id, {}).get(turn.number)
            running += own.counted_score if own else 0
            lines.append((turn, own, running))
        sheets.append((name, lines))
    slip_url = request.build_absolute_uri(evening_url("duplicate_slip", evening))
    qr = qr_svg(slip_url, title=_("Scan to hand in your slip on your phone"))
    return render(
        request,
        "duplicate/print.html",
        {
            "evening": evening,
            "competition": evening.competition,
            "sheets": sheets,
            # Empty lines for the turns still to come (an evening has some 20).
            "blank_rows": range(len(turns) + 1, max(len(turns) + 3, 21)),
            "blank_slips": range(SLIPS_PER_PAGE),
            "qr": qr,
            "plays": selectors.plays_in(user=request.user, evening=evening),
        },
    )


@require_safe
def evening_gcg(request, club: str, competition: str, number: int):
    """The master game as GCG: one player (the tops) with each turn's rack; a note per
    turn says what was drawn and which blank went back to the bag for its letter (GCG has
    no move for that: a program that replays the file scores later words through that
    square as a blank)."""
    evening = selectors.evening_get(club_slug=club, competition_slug=competition, number=number)
    game = selectors.evening_state(evening).game
    notes = {}
    for index, turn in enumerate(game.turns):
        lines = [f"turn {turn.number}: drawn {turn.drawn}, top {turn.score}, total {turn.total}"]
        lines += [
            f"blank on {square_name(row, col)} replaced by {letter}"
            for row, col, letter in turn.replaced
        ]
        notes[index] = lines
    text = gcg.write(
        game.game,
        notes=notes,
        pragmas={"bordpunt-duplicate": json.dumps(game.draw_rules.to_dict(), sort_keys=True)},
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = f"{slugify(evening.competition.name)}-avond-{evening.number}.gcg"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
