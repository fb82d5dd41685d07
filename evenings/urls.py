"""Club evenings, under /c/<club>/evenings/ (namespace ``evenings``)."""

from django.urls import path

from evenings import views

app_name = "evenings"

club = "c/<slug:club_slug>/evenings/"

urlpatterns = [
    path(club, views.evening_list, name="list"),
    path(club + "options/", views.evening_options, name="options"),
    path(club + "<int:evening_id>/", views.evening_detail, name="detail"),
    path(club + "<int:evening_id>/board/", views.evening_board, name="board"),
    path(club + "<int:evening_id>/drive/", views.evening_drive, name="drive"),
    path(club + "<int:evening_id>/close/", views.evening_close, name="close"),
    path(club + "<int:evening_id>/summary/", views.evening_summary, name="summary"),
    path(club + "<int:evening_id>/card.png", views.evening_card, name="card"),
]
