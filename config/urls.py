from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from club import views as club_views
from club import views_league
from config import pwa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("invite/<str:token>/", club_views.invite_accept, name="invite-accept"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", club_views.healthz, name="healthz"),
    # The installable app: served from the root, so the worker's scope covers every page.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("league/<str:token>/", views_league.shared_standings, name="league-shared"),
    path("", include("scoring.urls")),
    path("", include("club.urls")),
]
