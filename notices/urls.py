"""The club's mail: a member's choice of mail under /c/<club>/mail/, and the one-click
unsubscribe link every mail carries (no login) under /mail/unsubscribe/ (namespace ``notices``)."""

from django.urls import path

from notices import views

app_name = "notices"

urlpatterns = [
    path("c/<slug:club_slug>/mail/", views.mail_choices, name="choices"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
