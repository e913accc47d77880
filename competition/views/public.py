"""Public pages: no login, read only, a fixed number of queries each."""

from django.conf import settings
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, render
from django.utils import timezone, translation
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from clubs.calendars import calendar_response
from clubs.inputs import query_int
from clubs.models import Club, Player
from clubs.permissions import can_manage_club
from competition import selectors
from competition.calendars import competition_calendar
from competition.core import standings
from competition.filters import CompetitionFilter
from competition.models import Competition, Round
from competition.tables import StandingsTable
from competition.views.warnings import open_games_warning
from events.permissions import manages_competition


def after_round_param(request) -> int | None:
    """`?na=3`: the standings after round 3; anything but a round number shows the latest."""
    return query_int(request, "na", minimum=1)


@require_safe
def club_detail(request, club: str):
    club_obj = get_object_or_404(Club, slug=club)
    can_manage = can_manage_club(request.user, club_obj)
    counted = Q() if can_manage else Q(rounds__in=Round.objects.published())
    competitions = CompetitionFilter(
        request.GET,
        queryset=Competition.objects.filter(club=club_obj).annotate(
            round_count=Count("rounds", filter=counted, distinct=True),
            entrant_count=Count("entrants", distinct=True),
        ),
    )
    listed = list(competitions.qs)
    return render(
        request,
        "competition/club.html",
        {
            "club": club_obj,
            "filter": competitions,
            "competitions": [c for c in listed if not c.is_archived],
            "archived": [c for c in listed if c.is_archived],
            "can_manage": can_manage,
        },
    )


def standings_page(request, club: str, competition: str):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    can_manage = manages_competition(request.user, competition_obj)

    def standings_content() -> dict:
        # Computed only when the template's cache (keyed by the competition's last
        # change) has no copy of this page's tables yet.
        view = selectors.standings_get(competition_obj, after_round=after_round_param(request))
        tables = []
        for prefix, (group, rows) in enumerate(view.groups.items()):
            table = StandingsTable(rows, competition=competition_obj, prefix=f"g{prefix}-")
            RequestConfig(request, paginate=False).configure(table)
            tables.append((group, table))
        return {
            "tables": tables,
            "view": view,
            "round_numbers": range(1, view.last_round + 1),
            "rounds": selectors.rounds_of(competition_obj, with_drafts=can_manage),
        }

    next_round_number = selectors.next_round_number(competition_obj) if can_manage else None
    return render(
        request,
        "competition/standings.html",
        {
            "competition": competition_obj,
            "standings": SimpleLazyObject(standings_content),
            "can_manage": can_manage,
            "next_round_number": next_round_number,
            # A new round is played on the next planned evening, else tonight, in the club's
            # time zone (editable on the page).
            "tonight": selectors.next_evening(competition_obj, today=timezone.localdate())
            if can_manage
            else None,
            "add_round_warning": _add_round_warning(competition_obj, next_round_number)
            if next_round_number is not None  # the secretary's alone
            else "",
        },
    )


@require_safe
def competition_calendar_feed(request, club: str, competition: str):
    """The competition's evenings as a calendar feed, in the club's language (Dutch)."""
    found = selectors.competition_get(club_slug=club, competition_slug=competition)
    with translation.override(settings.LANGUAGE_CODE):
        feed = competition_calendar(found, base_url=request.build_absolute_uri("/")[:-1])
    return calendar_response(feed, filename=found.slug)


def _add_round_warning(competition: Competition, number: int) -> str:
    """Said beside "Add round" while the last round still has games without a result."""
    upcoming = Round(competition=competition, number=number)
    open_games = selectors.games_without_result_before(upcoming)
    return open_games_warning(upcoming, open_games) if open_games else ""


def round_page(request, club: str, competition: str, number: int):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    round_obj = selectors.visible_round_get(competition_obj, number, user=request.user)
    can_manage = manages_competition(request.user, competition_obj)
    games = list(selectors.round_games(round_obj))
    return render(
        request,
        "competition/round.html",
        {
            "competition": competition_obj,
            "round": round_obj,
            "games": games,
            # A table of 3 or 4 lists its players and scores across the three columns.
            "at_tables": any(len(game.seat_list) > 2 for game in games),
            "rounds": selectors.rounds_of(competition_obj, with_drafts=can_manage),
            "can_manage": can_manage,
        },
    )


def player_page(request, club: str, competition: str, player_id: int):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    player = get_object_or_404(
        Player.objects.filter(Q(entries__competition=competition_obj)), pk=player_id
    )
    can_manage = manages_competition(request.user, competition_obj)
    games = list(selectors.player_games(competition_obj, player, with_drafts=can_manage))
    records = [
        record
        for record in selectors.game_records(competition_obj)
        if player.pk in record.player_ids
    ]
    totals = {
        line.round_number: line
        for line in standings.running_totals(
            player.pk, records, selectors.standings_settings(competition_obj)
        )
    }
    lines = [(game, totals.get(game.round.number)) for game in games]
    return render(
        request,
        "competition/player.html",
        {"competition": competition_obj, "player": player, "lines": lines},
    )


def crosstable_page(request, club: str, competition: str):
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    crosstable = selectors.crosstable_get(competition_obj)
    # Cells are joined here, not in the template: 300 players make 90,000 cells. Their
    # texts are built from numbers and result marks only, so they need no escaping.
    rows = [
        (
            row,
            mark_safe(
                "".join(
                    f'<td class="self">{"<br>".join(texts)}</td>'
                    if column == position
                    else f"<td>{'<br>'.join(texts)}</td>"
                    for column, texts in enumerate(cells)
                )
            ),
        )
        for position, (row, cells) in enumerate(zip(crosstable.rows, crosstable.cells, strict=True))
    ]
    return render(
        request,
        "competition/crosstable.html",
        {"competition": competition_obj, "rows": rows},
    )


def round_print(request, club: str, competition: str, number: int):
    """The pairing list to pin on the wall: by table, and alphabetically by name."""
    competition_obj = selectors.competition_get(club_slug=club, competition_slug=competition)
    round_obj = selectors.visible_round_get(competition_obj, number, user=request.user)
    games = list(selectors.round_games(round_obj))
    by_name = sorted(
        (
            (seat.player, game, seat.position, [o for o in game.seat_list if o is not seat])
            for game in games
            for seat in game.seat_list
        ),
        key=lambda item: item[0].name.casefold(),
    )
    return render(
        request,
        "competition/round_print.html",
        {
            "competition": competition_obj,
            "round": round_obj,
            "games": games,
            "by_name": by_name,
            "has_starters": any(game.starter is not None for game in games),
            # A round with a table of 3 or 4 lists each table's players, not a pair's columns.
            "at_tables": any(len(game.seat_list) > 2 for game in games),
        },
    )
