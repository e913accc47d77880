"""A player's page at club level: every competition and season, head to head, charts."""

from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import numbers
from clubs.models import Club
from competition.core.charts import chart_svg
from competition.player_history import club_player_get, player_history


@require_safe
def player_history_page(request, club: str, player_id: int):
    """Public, like the standings: only published rounds, for every reader."""
    club_obj = get_object_or_404(Club, slug=club)
    player = club_player_get(club_obj, player_id)
    history = player_history(club_obj, player)
    # chart_svg escapes every text it draws.
    separator = numbers.decimal_separator()
    charts = {
        season.competition.pk: {
            "ranks": mark_safe(
                chart_svg(
                    season.ranks,
                    title=_("Rank after each round"),
                    invert=True,
                    low=1,
                    high=season.field_size,
                    decimal_separator=separator,
                )
            ),
            "match_points": mark_safe(
                chart_svg(
                    season.match_points,
                    title=_("Match points over the season"),
                    low=0,
                    decimal_separator=separator,
                )
            ),
            "board_points": mark_safe(
                chart_svg(
                    season.board_points,
                    title=_("Board points per game"),
                    kind="bar",
                    decimal_separator=separator,
                )
            ),
        }
        for season in history.seasons
    }
    seasons = [(season, charts[season.competition.pk]) for season in history.seasons]
    return render(
        request,
        "competition/player_history.html",
        {"history": history, "club": club_obj, "player": player, "seasons": seasons},
    )
