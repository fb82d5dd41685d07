from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy

from club import views as club_views
from club import views_account
from config import health, passwords, pwa

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Your login: an e-mail address for a forgotten password, changing and resetting it
    # (Django's views, the reset mails limited by config.passwords; templates in
    # templates/registration/).
    path("account/", views_account.account, name="account"),
    path(
        "account/password/",
        auth_views.PasswordChangeView.as_view(success_url=reverse_lazy("password-change-done")),
        name="password-change",
    ),
    path(
        "account/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password-change-done",
    ),
    path(
        "password-reset/",
        passwords.PasswordResetView.as_view(
            email_template_name="registration/password_reset_email.txt",
            subject_template_name="registration/password_reset_subject.txt",
            success_url=reverse_lazy("password-reset-sent"),
        ),
        name="password-reset",
    ),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password-reset-sent",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            success_url=reverse_lazy("password-reset-done")
        ),
        name="password-reset-confirm",
    ),
    path(
        "password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password-reset-done",
    ),
    path("invite/<str:token>/", club_views.invite_accept, name="invite-accept"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", health.healthz, name="healthz"),
    # The installable app: served from the root, so the worker's scope covers every page.
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("", include("scoring.urls")),
    path("", include("club.urls")),
    path("", include("ledger.urls")),
    path("", include("league.urls")),
    path("", include("evenings.urls")),
    path("", include("notices.urls")),
    path("", include("week.urls")),
    path("", include("competitions.urls")),
    path("", include("clubdata.urls")),
    path("", include("honours.urls")),
]

# Error pages in the app's style and language (templates/400.html … 500.html).
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
