from django.urls import path

from scoring import calculators, views, views_competition, views_guest

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
    # A guest at the pad: the host's buttons, then the links that need no login (scoring.guest)
    path("c/<slug:club_slug>/games/<int:game_id>/guest/", views_guest.guest_new, name="guest-new"),
    path(
        "c/<slug:club_slug>/games/<int:game_id>/guest/close/",
        views_guest.guest_close,
        name="guest-close",
    ),
    path("t/<str:token>/", views_guest.table_follow, name="table-follow"),
    path(
        "t/<str:token>/poll/<int:game_id>/",
        views_guest.table_follow_poll,
        name="table-follow-poll",
    ),
    path("g/<str:token>/", views_guest.guest_pad, name="guest-pad"),
    path("g/<str:token>/poll/", views_guest.guest_poll, name="guest-poll"),
    path("g/<str:token>/events/", views_guest.guest_event, name="guest-event"),
    path(
        "c/<slug:club_slug>/games/<int:game_id>/confirm/", views.game_confirm, name="game-confirm"
    ),
    # A competition table's pad (issue 29): its game, or the start of it.
    path(
        "c/<slug:club_slug>/competitions/table/<int:table_id>/play/",
        views_competition.competition_table_play,
        name="competition-table-play",
    ),
]
