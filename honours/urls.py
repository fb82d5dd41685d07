from django.urls import path

from honours import views

app_name = "honours"

club = "c/<slug:club_slug>/honours/"

urlpatterns = [
    path(club, views.season, name="season"),
    path(club + "prizes/", views.prizes, name="prizes"),
    path(club + "prizes/<str:kind>/", views.prize, name="prize"),
    path(club + "fund/", views.fund, name="fund"),
]
