"""URLs of clubdata.settings."""

from django.urls import path

from clubdata import views_settings

club = "c/<slug:club_slug>/"

urlpatterns = [
    # The admins' settings page, and one game's default options
    path(club + "settings/", views_settings.settings_page, name="settings"),
    path(
        club + "settings/games/<str:game_key>/",
        views_settings.game_defaults_page,
        name="settings-game",
    ),
]
