"""The club's rating list and a player's rating history: public, read only, a fixed
number of queries (the ratings come from `competition.ratings`, cached per club version).

Django: views.
"""

from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs import numbers
from clubs.models import Club
from competition.core import ratings
from competition.core.charts import Point, chart_svg
from competition.models import Competition
from competition.player_history import club_player_get
from competition.ratings import club_ratings, rating_history

#: Evenings in a player's table unless all are asked for (the chart always has them all).
RECENT_EVENINGS = 20


@require_safe
def rating_list(request, club: str):
    club_obj = get_object_or_404(Club, slug=club)
    data = club_ratings(club_obj)
    return render(
        request,
        "competition/ratings.html",
        {
            "club": club_obj,
            "rows": data.rows,
            "glicko": data.system == ratings.System.GLICKO2,
            "provisional_deviation": int(ratings.PROVISIONAL_DEVIATION),
            "elo_new_games": ratings.ELO_NEW_GAMES,
        },
    )


@require_safe
def rating_history_page(request, club: str, player_id: int):
    club_obj = get_object_or_404(Club, slug=club)
    player = club_player_get(club_obj, player_id)  # a member or entrant, else 404
    data = club_ratings(club_obj)
    history = rating_history(club_obj, data, player.pk)
    labels = _period_labels(club_obj, history)
    # The latest evenings are what a player asks about; all of them on request (`?alle=1`).
    shown = 0 if request.GET.get("alle") == "1" else RECENT_EVENINGS
    evenings = [
        {
            "change": change,
            "label": labels[change.key],
            "games": [
                {
                    "game": game,
                    "name": data.names.get(game.opponent, ""),
                    "result": "win" if game.score == 1 else "loss" if game.score == 0 else "draw",
                }
                for game in change.games
            ],
        }
        for change in reversed(history[-shown:] if shown else history)
    ]
    points = [Point(labels[change.key], round(change.after.rating, 1)) for change in history]
    return render(
        request,
        "competition/rating_history.html",
        {
            "club": club_obj,
            "player": player,
            "row": data.row_of(player.pk),
            "glicko": data.system == ratings.System.GLICKO2,
            "evenings": evenings,
            "hidden": max(len(history) - len(evenings), 0),
            # chart_svg escapes every text it draws.
            "chart": mark_safe(
                chart_svg(
                    points,
                    title=_("Rating after each evening"),
                    decimal_separator=numbers.decimal_separator(),
                )
            ),
        },
    )


def _period_labels(club: Club, history) -> dict[str, str]:
    """An evening by its date; a round without a date by its competition and number (one
    query, always: the page's count does not depend on the history)."""
    names = dict(Competition.objects.filter(club=club).values_list("pk", "name"))
    labels = {}
    for change in history:
        if change.date is not None:
            labels[change.key] = formats.date_format(change.date, "j b Y")
        else:
            competition_id, _dash, number = change.key.partition("-")
            labels[change.key] = _("%(competition)s, round %(number)s") % {
                "competition": names.get(int(competition_id), ""),
                "number": number,
            }
    return labels
