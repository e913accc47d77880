"""Games, seats, moves and clocks are shown here, never changed: results, moves and the
clock's presses are entered on the app's pages, whose services keep the history and check
them (a clock's presses against the server's own clock)."""

from typing import cast

from django.contrib import admin

from clubs.admin import ViewOnlyAdmin
from games.models import Game, GameClock, GameQuerySet, Move, Seat


@admin.register(Game)
class GameAdmin(ViewOnlyAdmin):
    list_display = ["__str__", "round", "table", "outcome", "confirmation"]
    list_filter = ["outcome", "round__competition"]
    search_fields = ["seats__player__name", "round__competition__name"]
    list_select_related = ["round__competition"]

    def get_queryset(self, request):
        return cast(GameQuerySet, super().get_queryset(request)).with_seats()


@admin.register(Seat)
class SeatAdmin(ViewOnlyAdmin):
    list_display = ["player", "game", "position", "score", "place", "round"]
    list_filter = ["round__competition"]
    search_fields = ["player__name"]
    list_select_related = ["player", "game", "round__competition"]


@admin.register(Move)
class MoveAdmin(ViewOnlyAdmin):
    list_display = ["game_id", "number", "seat", "notation", "score", "total", "problem"]
    list_filter = ["seat", "game__round__competition"]
    search_fields = ["notation", "game__seats__player__name"]


@admin.register(GameClock)
class GameClockAdmin(ViewOnlyAdmin):
    list_display = ["game_id", "origin", "flag_ends"]
    list_filter = ["game__round__competition"]
    search_fields = ["game__seats__player__name"]
