from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    # Calculators: no club, no login
    path("calc/", views.calculators, name="calculators"),
    # One club's table
    path("c/<slug:club_slug>/play/", views.play, name="play"),
    path("c/<slug:club_slug>/games/", views.game_list, name="game-list"),
]
