from django.urls import path

from club import views

app_name = "club"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.club_list, name="club-list"),
    # One club's pages
    path("c/<slug:club_slug>/", views.club_home, name="club-home"),
    path("c/<slug:club_slug>/switch/", views.club_switch, name="club-switch"),
    path("c/<slug:club_slug>/members/", views.member_list, name="member-list"),
    path(
        "c/<slug:club_slug>/members/<int:member_id>/invite/",
        views.member_invite,
        name="member-invite",
    ),
]
