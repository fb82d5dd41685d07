"""Dues, CSV exports and season statements; appended to ``club.urls`` (namespace ``club``)."""

from django.urls import path

from club import views_exports, views_ledger

urlpatterns = [
    # Membership fees
    path("c/<slug:club_slug>/ledger/dues/", views_ledger.dues_plan, name="ledger-dues"),
    path(
        "c/<slug:club_slug>/ledger/dues/charge/",
        views_ledger.dues_charge,
        name="ledger-dues-charge",
    ),
    # Exports
    path("c/<slug:club_slug>/ledger/exports/", views_exports.export_list, name="export-list"),
    path(
        "c/<slug:club_slug>/ledger/my-statement/",
        views_exports.my_statement_start,
        name="my-statement",
    ),
    path(
        "c/<slug:club_slug>/ledger/exports/transactions.csv",
        views_exports.transactions_csv,
        name="export-transactions",
    ),
    path(
        "c/<slug:club_slug>/ledger/exports/balances.csv",
        views_exports.balances_csv,
        name="export-balances",
    ),
    path(
        "c/<slug:club_slug>/ledger/exports/statements/",
        views_exports.statement_start,
        name="export-statement",
    ),
    path(
        "c/<slug:club_slug>/ledger/exports/<int:job_id>/",
        views_exports.export_job,
        name="export-job",
    ),
    path(
        "c/<slug:club_slug>/ledger/exports/<int:job_id>/document/",
        views_exports.export_document,
        name="export-document",
    ),
]
