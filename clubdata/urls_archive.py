"""URLs of clubdata.archive."""

from django.urls import path

from clubdata import views_archive

urlpatterns = [
    # The club's archive (the admin's download; manage.py export_club / import_club)
    path(
        "c/<slug:club_slug>/settings/archive.zip",
        views_archive.club_archive,
        name="archive",
    ),
]
