"""The books' pages, under /c/<club>/ledger/ (namespace ``ledger``)."""

from django.urls import path

from ledger import views, views_exports, views_opening

app_name = "ledger"

club = "c/<slug:club_slug>/ledger/"

urlpatterns = [
    path(club, views.overview, name="overview"),
    path(club + "payment/", views.payment, name="payment"),
    path(club + "transfer/", views.transfer, name="transfer"),
    path(club + "me/", views.my_statement, name="me"),
    path(club + "tx/<int:tx_id>/", views.transaction_detail, name="transaction"),
    path(club + "tx/<int:tx_id>/reverse/", views.transaction_reverse, name="reverse"),
    path(club + "accounts/<int:account_id>/", views.account_statement, name="account"),
    path(club + "settle/", views.settle_up, name="settle"),
    path(club + "settle/confirm/", views.settle_confirm, name="settle-confirm"),
    path(club + "periods/", views.periods, name="periods"),
    path(club + "periods/<int:period_id>/", views.period_report, name="period"),
    # Membership fees
    path(club + "dues/", views.dues_plan, name="dues"),
    path(club + "dues/charge/", views.dues_charge, name="dues-charge"),
    # Opening the books from paper
    path(club + "opening/", views_opening.opening, name="opening"),
    # Exports and statements
    path(club + "exports/", views_exports.export_list, name="export-list"),
    path(club + "my-statement/", views_exports.my_statement_start, name="my-statement"),
    path(
        club + "exports/transactions.csv",
        views_exports.transactions_csv,
        name="export-transactions",
    ),
    path(club + "exports/balances.csv", views_exports.balances_csv, name="export-balances"),
    path(club + "exports/statements/", views_exports.statement_start, name="export-statement"),
    path(club + "exports/<int:job_id>/", views_exports.export_job, name="export-job"),
    path(
        club + "exports/<int:job_id>/document/",
        views_exports.export_document,
        name="export-document",
    ),
]
