from django.urls import path

from club import urls_exports, views, views_league, views_ledger

app_name = "club"

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/", views.club_list, name="club-list"),
    # One club's pages
    path("c/<slug:club_slug>/", views.club_home, name="club-home"),
    path("c/<slug:club_slug>/switch/", views.club_switch, name="club-switch"),
    path("c/<slug:club_slug>/members/", views.member_list, name="member-list"),
    # The books
    path("c/<slug:club_slug>/ledger/", views_ledger.overview, name="ledger"),
    path("c/<slug:club_slug>/ledger/payment/", views_ledger.payment, name="ledger-payment"),
    path("c/<slug:club_slug>/ledger/transfer/", views_ledger.transfer, name="ledger-transfer"),
    path("c/<slug:club_slug>/ledger/me/", views_ledger.my_statement, name="ledger-me"),
    path(
        "c/<slug:club_slug>/ledger/tx/<int:tx_id>/",
        views_ledger.transaction_detail,
        name="ledger-transaction",
    ),
    path(
        "c/<slug:club_slug>/ledger/tx/<int:tx_id>/reverse/",
        views_ledger.transaction_reverse,
        name="ledger-reverse",
    ),
    path(
        "c/<slug:club_slug>/ledger/accounts/<int:account_id>/",
        views_ledger.account_statement,
        name="ledger-account",
    ),
    path("c/<slug:club_slug>/ledger/settle/", views_ledger.settle_up, name="ledger-settle"),
    path(
        "c/<slug:club_slug>/ledger/settle/confirm/",
        views_ledger.settle_confirm,
        name="ledger-settle-confirm",
    ),
    path("c/<slug:club_slug>/ledger/periods/", views_ledger.periods, name="ledger-periods"),
    path(
        "c/<slug:club_slug>/ledger/periods/<int:period_id>/",
        views_ledger.period_report,
        name="ledger-period",
    ),
    # The league
    path("c/<slug:club_slug>/league/", views_league.standings, name="league"),
    path("c/<slug:club_slug>/league/h2h/", views_league.head_to_head, name="league-h2h"),
    path("c/<slug:club_slug>/league/share/", views_league.share, name="league-share"),
    path("c/<slug:club_slug>/league/settings/", views_league.settings_page, name="league-settings"),
    path(
        "c/<slug:club_slug>/league/players/<int:member_id>/",
        views_league.player,
        name="league-player",
    ),
    path(
        "c/<slug:club_slug>/members/<int:member_id>/invite/",
        views.member_invite,
        name="member-invite",
    ),
]

# Membership fees, exports and season statements
urlpatterns += urls_exports.urlpatterns
