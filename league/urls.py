"""The league's pages, under /c/<club>/league/, and the public link (namespace ``league``)."""

from django.urls import path

from league import views

app_name = "league"

club = "c/<slug:club_slug>/league/"

urlpatterns = [
    path(club, views.standings, name="standings"),
    path(club + "h2h/", views.head_to_head, name="h2h"),
    path(club + "share/", views.share, name="share"),
    path(club + "settings/", views.settings_page, name="settings"),
    path(club + "players/<int:member_id>/", views.player, name="player"),
    # The read-only page a club shares (a secret token, no login).
    path("league/<str:token>/", views.shared_standings, name="shared"),
]
