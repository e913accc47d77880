"""Games, seats, moves and clocks are shown here, never changed: results, moves and the
clock's presses are entered on the app's pages, whose services keep the history and check
them (a clock's presses against the server's own clock)."""

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from games.models import Game, GameClock, Move, Seat


@admin.register(Game)
class GameAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "round", "table", "outcome", "winner", "score_a", "score_b"]
    list_filter = ["outcome", "round__competition"]
    search_fields = ["player_a__name", "player_b__name", "round__competition__name"]
    list_select_related = ["player_a", "player_b", "round__competition"]


@admin.register(Seat)
class SeatAdmin(ViewOnlyAdmin):
    list_display = ["player", "game", "side", "round"]
    list_filter = ["round__competition"]
    search_fields = ["player__name"]
    list_select_related = ["player", "game__player_a", "game__player_b", "round__competition"]


@admin.register(Move)
class MoveAdmin(ViewOnlyAdmin):
    list_display = ["game", "number", "side", "notation", "score", "total", "problem"]
    list_filter = ["side", "game__round__competition"]
    search_fields = ["notation", "game__player_a__name", "game__player_b__name"]
    list_select_related = ["game__player_a", "game__player_b"]


@admin.register(GameClock)
class GameClockAdmin(ViewOnlyAdmin):
    list_display = ["game", "origin", "flag_ends"]
    list_filter = ["game__round__competition"]
    search_fields = ["game__player_a__name", "game__player_b__name"]
    list_select_related = ["game__player_a", "game__player_b"]
