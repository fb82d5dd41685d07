"""URLs of clubdata.founding."""

from django.urls import path

from clubdata import views_founding

urlpatterns = [
    # Founding a club
    path("clubs/new/", views_founding.club_found, name="club-found"),
    path("clubs/new/short-name/", views_founding.club_found_slug, name="club-found-slug"),
]
