"""Settings, health, layering and translations."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from engine.base import MAX_AMOUNT_ORE

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # A clean process: none of the test session's own switches (the browser tests allow
    # async-unsafe ORM calls in their thread, which a deployment must never do).
    dropped = ("DEBUG", "SECRET_KEY", "AUDIT_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-key-with-enough-entropy-1234567890",
    "AUDIT_KEY": "a-long-random-production-audit-key-kept-outside-the-database",
    "ALLOWED_HOSTS": "protokoll.example.se",
}


def test_check_deploy_is_clean_with_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_without_an_audit_key():
    without = {k: v for k, v in PRODUCTION.items() if k != "AUDIT_KEY"}
    result = run_manage("check", **without)
    assert result.returncode != 0
    assert "AUDIT_KEY must be set when DEBUG is off" in result.stderr


def test_a_bad_boolean_fails_loudly():
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr


def test_the_money_ceiling_can_be_lowered_but_not_raised_above_the_engines_bound():
    # The default is the engine's constant (engine never imports Django: it cannot read it).
    assert django_settings.MAX_AMOUNT_ORE == MAX_AMOUNT_ORE
    assert run_manage("check", MAX_AMOUNT_ORE="50000").returncode == 0
    for value in ("100000001", "0", "mycket"):
        result = run_manage("check", MAX_AMOUNT_ORE=value)
        assert result.returncode != 0
        assert "MAX_AMOUNT_ORE" in result.stderr


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "database": "ok",
        "cache": "ok",
        "broker": "eager",
        "down": [],
    }


@pytest.mark.django_db
def test_healthz_names_an_unreachable_broker_but_keeps_the_host_in_service(client, settings):
    """The app survives a broker outage (work owed is written down and swept later), and the
    broker is shared by every host: 200, ``ok`` false, the broker named as down."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    from config.celery import app

    app.conf.broker_url = settings.CELERY_BROKER_URL
    try:
        response = client.get(reverse("healthz"))
    finally:
        app.conf.broker_url = "memory://"
    assert response.status_code == 200
    assert response.json()["broker"].startswith("error")
    assert response.json()["ok"] is False
    assert response.json()["down"] == ["broker"]


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_is_standard_library_python_only():
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    for path in (ROOT / "engine").rglob("*.py"):
        assert imports_of(path) <= allowed, f"{path.name} imports {imports_of(path) - allowed}"


# One-way imports between our apps: club (people, seasons) is the base; the books and the
# league stand on it and never on each other; club evenings stand on those three; scoring (the
# games) uses them all; clubdata (a club's data over the years) stands on every app and nothing
# imports it. Lazy imports inside functions and import_module/get_model strings count too.
FORBIDDEN_IMPORTS = {
    "club": {"scoring", "ledger", "league", "evenings", "clubdata"},
    "ledger": {"scoring", "league", "evenings", "clubdata"},
    "league": {"scoring", "ledger", "evenings", "clubdata"},
    "evenings": {"scoring", "clubdata"},
    "scoring": {"clubdata"},
}


def app_references(path: Path) -> set[str]:
    """What a module imports, plus the apps it names in import_module("…") or
    apps.get_model("…", …) calls."""
    names = imports_of(path)
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "get_model")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


@pytest.mark.parametrize("app", sorted(FORBIDDEN_IMPORTS))
def test_apps_import_one_way(app):
    for path in (ROOT / app).rglob("*.py"):
        wrong = app_references(path) & FORBIDDEN_IMPORTS[app]
        assert not wrong, f"{path.relative_to(ROOT)} imports {wrong}"


def test_the_import_rule_sees_lazy_and_string_imports(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "def f():\n    from scoring import views\n"
        "def g(apps):\n    return apps.get_model('ledger', 'Account')\n"
    )
    assert {"scoring", "ledger"} <= app_references(module)


def test_core_imports_only_django_and_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"core", "django", "__future__"}
    for path in (ROOT / "core").rglob("*.py"):
        assert imports_of(path) <= allowed, f"{path.name} imports {imports_of(path) - allowed}"


def test_every_swedish_message_is_translated():
    po = ROOT / "locale/sv/LC_MESSAGES/django.po"
    result = subprocess.run(
        ["msgfmt", "--statistics", "--check-format", "-o", os.devnull, str(po)],
        capture_output=True,
        text=True,
        check=True,
    )
    stats = result.stderr.strip()
    assert "translated" in stats, stats
    assert "untranslated" not in stats, stats
    assert "fuzzy" not in stats, stats


@pytest.mark.slow
def test_collectstatic_works_as_production_runs_it(settings, tmp_path):
    """DEBUG off stores static files with a manifest, which refuses a file that names a source
    map that is not there (the service worker's vendored Workbox files do)."""
    from django.core.management import call_command

    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    assert (tmp_path / "staticfiles.json").exists()
    assert list(tmp_path.glob("vendor/workbox/workbox-sw.*.js"))
