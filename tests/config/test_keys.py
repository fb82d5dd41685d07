"""Production keys: with DEBUG off the app refuses the public development SECRET_KEY and
AUDIT_KEY and says how to make one; ``check --deploy`` reports them (protokoll.E001, E002)."""

from __future__ import annotations

import runpy

import pytest
from django.core.checks import Tags, run_checks
from django.core.exceptions import ImproperlyConfigured

from tests.config.test_auth import PRODUCTION, SETTINGS_FILE

DEVELOPMENT = {
    "SECRET_KEY": "django-insecure-protokoll-development-key-only-for-debug",
    "AUDIT_KEY": "protokoll-development-audit-key-only-for-debug",
}


def load_settings(monkeypatch, **environ) -> dict:
    for name in ("DEBUG", "SECRET_KEY", "AUDIT_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


@pytest.mark.parametrize("name", ["SECRET_KEY", "AUDIT_KEY"])
def test_production_refuses_a_development_key_and_says_how_to_make_one(monkeypatch, name):
    with pytest.raises(ImproperlyConfigured) as refused:
        load_settings(monkeypatch, **{**PRODUCTION, name: DEVELOPMENT[name]})
    message = str(refused.value)
    assert f"{name} must not be the development value when DEBUG is off" in message
    assert 'python3 -c "import secrets; print(secrets.token_urlsafe(48))"' in message


def test_production_starts_on_keys_of_its_own(monkeypatch):
    conf = load_settings(monkeypatch, **PRODUCTION)
    assert (conf["SECRET_KEY"], conf["AUDIT_KEY"]) == (
        PRODUCTION["SECRET_KEY"],
        PRODUCTION["AUDIT_KEY"],
    )


def test_a_laptop_runs_on_the_development_keys(monkeypatch):
    conf = load_settings(monkeypatch)
    assert conf["DEBUG"] is True
    assert (conf["SECRET_KEY"], conf["AUDIT_KEY"]) == (
        DEVELOPMENT["SECRET_KEY"],
        DEVELOPMENT["AUDIT_KEY"],
    )
    assert load_settings(monkeypatch, **DEVELOPMENT)["AUDIT_KEY"] == DEVELOPMENT["AUDIT_KEY"]


def deploy_check_ids() -> set[str]:
    return {
        message.id
        for message in run_checks(tags=[Tags.security], include_deployment_checks=True)
        if message.id.startswith("protokoll.")
    }


def test_check_deploy_reports_the_development_keys(settings):
    settings.SECRET_KEY = DEVELOPMENT["SECRET_KEY"]
    settings.AUDIT_KEY = DEVELOPMENT["AUDIT_KEY"]
    assert deploy_check_ids() == {"protokoll.E001", "protokoll.E002"}
    settings.AUDIT_KEY = PRODUCTION["AUDIT_KEY"]
    assert deploy_check_ids() == {"protokoll.E001"}


def test_check_deploy_is_quiet_about_keys_of_their_own(settings):
    settings.SECRET_KEY = PRODUCTION["SECRET_KEY"]
    settings.AUDIT_KEY = PRODUCTION["AUDIT_KEY"]
    assert deploy_check_ids() == set()
