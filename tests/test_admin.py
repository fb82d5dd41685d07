"""Every model has an admin page that opens, and the books are read-only there."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from ledger.models import Transaction


@pytest.mark.parametrize(
    "model",
    [
        m
        for app in ("club", "ledger", "league", "evenings", "notices", "week", "scoring")
        for m in apps.get_app_config(app).get_models()
    ],
)
def test_every_model_is_registered_and_its_list_opens(admin_client, model):
    assert admin.site.is_registered(model)
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200


def test_ledger_rows_cannot_be_changed_in_the_admin(admin_client):
    model_admin = admin.site._registry[Transaction]
    assert not model_admin.has_change_permission(None)
    assert not model_admin.has_delete_permission(None)
    assert admin_client.get(reverse("admin:ledger_transaction_add")).status_code == 403


@pytest.mark.books_by_hand
def test_a_game_transaction_cannot_be_changed_reversed_or_deleted_in_the_admin(admin_client):
    import ledger
    from tests.factories import make_club, make_member

    club = make_club()
    pot = ledger.pot_account(club, "pot:kille", "Pott: Kille")
    anna = ledger.member_account(make_member(club, "Anna", login=False))
    ref = "game:5:event:1"
    tx = ledger.post(club, [(anna, -200), (pot, 200)], "Kille #5", "game", None, key=ref, ref=ref)
    entry = tx.entries.get(account=pot)

    change = reverse("admin:ledger_transaction_change", args=[tx.pk])
    page = admin_client.get(change)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.post(change, {"memo": "Ändrad", "source": "manual"}).status_code == 403
    entry_change = reverse("admin:ledger_entry_change", args=[entry.pk])
    assert admin_client.post(entry_change, {"amount_ore": "9900"}).status_code == 403
    # No bulk action either: the list offers none that could touch the rows.
    changelist = reverse("admin:ledger_transaction_changelist")
    listing = admin_client.get(changelist)
    assert listing.context["action_form"] is None
    admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [tx.pk]})
    tx.refresh_from_db()
    assert (tx.memo, tx.source) == ("Kille #5", "game")
    assert sorted(tx.entries.values_list("amount_ore", flat=True)) == [-200, 200]
    assert ledger.verify_audit(club) == []


@pytest.mark.parametrize("model", ["game", "seat", "event"])
def test_games_seats_and_events_are_read_only_in_the_admin(admin_client, model):
    # What a game moved is what its events replay to: editing them here would leave the books
    # disagreeing with the game.
    model_admin = admin.site._registry[apps.get_model("scoring", model)]
    assert not model_admin.has_add_permission(None)
    assert not model_admin.has_change_permission(None)
    assert not model_admin.has_delete_permission(None)
    assert admin_client.get(reverse(f"admin:scoring_{model}_add")).status_code == 403
