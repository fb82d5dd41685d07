"""URLs of clubdata.people: edit, leave and return, CSV import and export, merge."""

from django.urls import path

from clubdata import views_people

club = "c/<slug:club_slug>/members/"

urlpatterns: list = [
    # One member
    path(club + "<int:member_id>/edit/", views_people.member_edit, name="member-edit"),
    path(club + "<int:member_id>/leave/", views_people.member_leave, name="member-leave"),
    path(club + "<int:member_id>/return/", views_people.member_return, name="member-return"),
    # The list as CSV
    path(club + "import/", views_people.members_import, name="members-import"),
    path(club + "export.csv", views_people.members_export, name="members-export"),
    # Two people into one
    path(club + "merge/", views_people.member_merge, name="member-merge"),
]
