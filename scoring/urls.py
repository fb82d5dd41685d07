from django.urls import path

from scoring import calculators, views

app_name = "scoring"

urlpatterns = [
    # Calculators: no club, no login
    path("calc/", views.calculators, name="calculators"),
    # …and one module per game in scoring/calculators/, found there
    *calculators.urlpatterns(),
    path("help/<slug:game_key>/", views.game_help, name="game-help"),
    # One club's table
    path("c/<slug:club_slug>/play/", views.play, name="play"),
    path("c/<slug:club_slug>/play/<slug:game_key>/", views.game_start, name="game-start"),
    path("c/<slug:club_slug>/games/", views.game_list, name="game-list"),
    path("c/<slug:club_slug>/games/<int:game_id>/", views.game_detail, name="game-detail"),
    path("c/<slug:club_slug>/games/<int:game_id>/poll/", views.game_poll, name="game-poll"),
    path("c/<slug:club_slug>/games/<int:game_id>/events/", views.game_event, name="game-event"),
    path("c/<slug:club_slug>/games/<int:game_id>/void/", views.game_void, name="game-void"),
]
