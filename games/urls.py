from django.urls import path

from games import clock_views, player_views, views

urlpatterns = [
    path("mijn-partijen/", player_views.my_games_page, name="my_games"),
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
