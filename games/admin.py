from django.contrib import admin

from games.models import Game, Move, Seat


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "table", "outcome", "winner", "score_a", "score_b"]
    list_filter = ["outcome", "round__competition"]
    search_fields = ["player_a__name", "player_b__name", "round__competition__name"]
    list_select_related = ["player_a", "player_b", "round__competition"]
    raw_id_fields = ["round", "player_a", "player_b", "entered_by"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "side", "round"]
    list_filter = ["round__competition"]
    search_fields = ["player__name"]
    raw_id_fields = ["game", "round", "player"]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "side", "notation", "score", "total", "problem"]
    list_filter = ["side", "game__round__competition"]
    search_fields = ["notation", "game__player_a__name", "game__player_b__name"]
    raw_id_fields = ["game", "entered_by"]
    list_select_related = ["game__player_a", "game__player_b"]
