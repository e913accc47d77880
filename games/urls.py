from django.urls import path

from games import clock_views, player_views, views

urlpatterns = [
    path("mijn-partijen/", player_views.my_games_page, name="my_games"),
    path("mijn-partijen/agenda/", player_views.calendar_renew, name="player_calendar_renew"),
    # The English feed first: a key never holds a dot, so ".en" is the language's.
    path(
        "mijn-partijen/agenda/<str:token>.en.ics",
        player_views.calendar_feed,
        {"language": "en"},
        name="player_calendar_en",
    ),
    path(
        "mijn-partijen/agenda/<str:token>.ics", player_views.calendar_feed, name="player_calendar"
    ),
    path("partij/<id:game_id>/uitslag/", player_views.game_result, name="game_result"),
    path("partij/<id:game_id>/", views.replay, name="replay"),
    path("partij/<id:game_id>.gcg", views.gcg_download, name="gcg_download"),
    path("partij/<id:game_id>/analyse/", views.analysis, name="game_analysis"),
    path("partij/<id:game_id>/bord/", views.board, name="board"),
    path("partij/<id:game_id>/bord/voorbeeld/", views.preview, name="move_preview"),
    path("partij/<id:game_id>/bord/terug/", views.undo, name="move_undo"),
    path("partij/<id:game_id>/bord/corrigeren/", views.correct, name="move_correct"),
    path("partij/<id:game_id>/bord/begint/", views.starter, name="game_starter"),
    path("partij/<id:game_id>/klok/", clock_views.clock, name="game_clock"),
    path("partij/<id:game_id>/gcg/", views.gcg_upload, name="gcg_upload"),
]
