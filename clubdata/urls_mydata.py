"""URLs of clubdata.mydata: a member's own data, and erasure."""

from django.urls import path

from clubdata import views_mydata

club = "c/<slug:club_slug>/"

urlpatterns = [
    # A member's own data (GDPR art. 15, 20), and an admin's copy of any member's.
    path(club + "me/data.json", views_mydata.data_json, name="my-data-json"),
    path(club + "me/data.pdf", views_mydata.data_pdf, name="my-data-pdf"),
    path(
        club + "members/<int:member_id>/data.json",
        views_mydata.data_json,
        name="member-data-json",
    ),
    path(club + "members/<int:member_id>/data.pdf", views_mydata.data_pdf, name="member-data-pdf"),
    # Forgetting a member (GDPR art. 17).
    path(club + "members/<int:member_id>/erase/", views_mydata.member_erase, name="member-erase"),
]
