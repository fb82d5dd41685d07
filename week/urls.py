"""The club's week, under /c/<club>/week/ (namespace ``week``), and the calendar feed at
/cal/<token>.ics."""

from django.urls import path

from week import views

app_name = "week"

club = "c/<slug:club_slug>/week/"

urlpatterns = [
    path(club, views.mine, name="mine"),
    path(club + "schedule/", views.schedule, name="schedule"),
    path(club + "evenings/<int:evening_id>/", views.evening, name="evening"),
    path(club + "evenings/<int:evening_id>/answer/", views.answer, name="answer"),
    # The feed: no login, the token is the key.
    path("cal/<str:token>.ics", views.calendar, name="calendar"),
]
