"""``config.env``: typed readers of the environment that fail loudly."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_secret, env_url

DEVELOPMENT = "a-fixed-development-value"


def test_a_secret_is_required_when_debug_is_off(monkeypatch):
    monkeypatch.delenv("AUDIT_KEY", raising=False)
    with pytest.raises(ImproperlyConfigured, match="AUDIT_KEY must be set when DEBUG is off"):
        env_secret("AUDIT_KEY", debug=False, development=DEVELOPMENT)
    monkeypatch.setenv("AUDIT_KEY", "")
    with pytest.raises(ImproperlyConfigured, match="AUDIT_KEY must be set when DEBUG is off"):
        env_secret("AUDIT_KEY", debug=False, development=DEVELOPMENT)


def test_a_short_secret_is_refused_when_debug_is_off(monkeypatch):
    monkeypatch.setenv("AUDIT_KEY", "hemligt")
    with pytest.raises(ImproperlyConfigured, match="AUDIT_KEY must be at least 32 characters"):
        env_secret("AUDIT_KEY", debug=False, development=DEVELOPMENT)


def test_a_secret_set_in_the_environment_is_used(monkeypatch):
    monkeypatch.setenv("AUDIT_KEY", "k" * 32)
    assert env_secret("AUDIT_KEY", debug=False, development=DEVELOPMENT) == "k" * 32
    assert env_secret("AUDIT_KEY", debug=True, development=DEVELOPMENT) == "k" * 32


def test_a_laptop_gets_the_development_value(monkeypatch):
    monkeypatch.delenv("AUDIT_KEY", raising=False)
    assert env_secret("AUDIT_KEY", debug=True, development=DEVELOPMENT) == DEVELOPMENT


@pytest.mark.parametrize(
    "raw",
    ["club.example.org", "ftp://club.example.org", "https://", "https://x.org/?a=1",
     "https://x.org/#top", "https://x.org:port", "javascript:alert(1)"],
)  # fmt: skip
def test_a_site_url_that_is_not_an_absolute_http_address_is_refused(monkeypatch, raw):
    monkeypatch.setenv("SITE_URL", raw)
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        env_url("SITE_URL", "http://127.0.0.1:8000")


def test_a_site_url_loses_its_trailing_slash_and_keeps_a_path(monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://club.example.org/protokoll/")
    assert env_url("SITE_URL", "http://127.0.0.1:8000") == "https://club.example.org/protokoll"
    monkeypatch.delenv("SITE_URL")
    assert env_url("SITE_URL", "http://127.0.0.1:8000") == "http://127.0.0.1:8000"
