"""Every model has an admin page that opens, and the books are read-only there."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from club.models import Transaction


@pytest.mark.parametrize(
    "model", [m for app in ("club", "scoring") for m in apps.get_app_config(app).get_models()]
)
def test_every_model_is_registered_and_its_list_opens(admin_client, model):
    assert admin.site.is_registered(model)
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200


def test_ledger_rows_cannot_be_changed_in_the_admin(admin_client):
    model_admin = admin.site._registry[Transaction]
    assert not model_admin.has_change_permission(None)
    assert not model_admin.has_delete_permission(None)
    assert admin_client.get(reverse("admin:club_transaction_add")).status_code == 403
