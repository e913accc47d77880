"""Paper for the club evening: the scoresheets of a round, one per table, to print."""

from django.shortcuts import render

from competition import selectors
from competition.core.scoresheets import sheet_layout
from games.engine import ruleset_of
from games.models import Outcome


def round_scoresheets(request, club: str, competition: str, number: int):
    """One sheet per table (byes get none); who may see the round may print its sheets."""
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    round_obj = selectors.visible_round_get(competition_obj, number, user=request.user)
    sheets = []
    for game in selectors.round_games(round_obj).exclude(outcome=Outcome.BYE):
        ruleset = ruleset_of(game)
        minutes = competition_obj.clock_minutes or ruleset.clock_minutes
        layout = sheet_layout(
            turn_limit=ruleset.turn_limit, clock_minutes=minutes, seats=len(game.seat_list)
        )
        sheets.append((game, layout))
    return render(
        request,
        "competition/scoresheets.html",
        {"competition": competition_obj, "round": round_obj, "sheets": sheets},
    )
