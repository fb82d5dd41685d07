"""Competitions, under /c/<club>/competitions/ (namespace ``competitions``)."""

from django.urls import path

from competitions import views

app_name = "competitions"

club = "c/<slug:club_slug>/competitions/"

urlpatterns = [
    path(club, views.competition_list, name="list"),
    path(club + "<int:competition_id>/", views.competition_detail, name="detail"),
    path(club + "<int:competition_id>/board/", views.competition_board, name="board"),
]
