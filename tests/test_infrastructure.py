"""Settings, health, layering and translations."""

from __future__ import annotations

import ast
import os
import pkgutil
import subprocess
import sys
from importlib import import_module
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


def test_production_on_postgresql_pools_its_connections():
    """Under uvicorn each request in flight would otherwise open a connection of its own."""
    show = (
        "from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'])"
    )
    postgres = {"DATABASE_URL": "postgresql://protokoll@db.example.se:5432/protokoll"}
    result = run_manage("shell", "-c", show, **PRODUCTION, **postgres, CONN_MAX_AGE="60")
    assert "'max_size': 8" in result.stdout, result.stdout + result.stderr
    assert result.stdout.strip().endswith("} 0")  # no persistent connections beside a pool
    result = run_manage("shell", "-c", show, **PRODUCTION, **postgres, DB_POOL_MAX="0")
    assert result.stdout.strip().endswith("None 0"), result.stdout + result.stderr
    assert run_manage("check", DB_POOL_MAX="-1").returncode != 0
    show += "; print(d.get('DISABLE_SERVER_SIDE_CURSORS'))"
    result = run_manage("shell", "-c", show, **PRODUCTION, **postgres, DB_BEHIND_PGBOUNCER="1")
    assert result.stdout.split()[-3:] == ["None", "0", "True"], result.stdout + result.stderr


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
# league stand on it and never on each other; club evenings stand on those three; the club's
# mail (notices) on the evenings and the club's week (week) on the mail; scoring (the
# games) uses them all; clubdata (a club's data over the years) stands on every app and nothing
# imports it. Lazy imports inside functions and import_module/get_model strings count too.
FORBIDDEN_IMPORTS = {
    "club": {"scoring", "ledger", "league", "evenings", "notices", "week", "clubdata"},
    "ledger": {"scoring", "league", "evenings", "notices", "week", "clubdata"},
    "league": {"scoring", "ledger", "evenings", "notices", "week", "clubdata"},
    "evenings": {"scoring", "notices", "week", "clubdata"},
    # The club's mail (issue 28) stands on the evenings; the club's week on the mail.
    "notices": {"scoring", "week", "clubdata"},
    "week": {"scoring", "clubdata"},
    # Competitions and special-hand honours (issue 29) stand on the week and below, side by
    # side; scoring tells them of each game it stores.
    "competitions": {"scoring", "clubdata", "honours"},
    "honours": {"scoring", "clubdata", "competitions"},
    "scoring": {"clubdata"},
}
for _lower in ("club", "ledger", "league", "evenings", "notices", "week"):
    FORBIDDEN_IMPORTS[_lower] |= {"competitions", "honours"}


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


# No import circles between our modules. What a module imports at module level (under ``if``,
# ``try`` and in class bodies too) runs when it is loaded and must not lead back to it. An
# import inside a function that would close a circle is a deliberate break, allowed only with a
# comment on its line saying why; a real break (a module that neither side needs to import
# back) is better.
PROJECT_PACKAGES = (
    "club",
    "clubdata",
    "competitions",
    "config",
    "core",
    "engine",
    "evenings",
    "league",
    "ledger",
    "live",
    "scoring",
)

# A circle tolerated only inside these packages, a lazy import that closes one without a why
# only between these modules (none now: scoring.games finds its hooks on first use, and
# card_grid lives in scoring/card_grid.py).
CIRCLES_LEFT: set[str] = set()
UNEXPLAINED_LAZY_LEFT: set[tuple[str, str]] = set()


def project_modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    modules = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported_modules(node: ast.Import | ast.ImportFrom, name: str, path: Path, modules) -> set:
    """The project modules an import statement of module ``name`` loads (``from p import m``
    is module ``p.m`` when there is one, else ``p``)."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = (name if path.name == "__init__.py" else name.rpartition(".")[0]).split(".")
            base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
        targets = [
            f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
            for alias in node.names
        ]
    found = set()
    for target in targets:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


def import_graph(root: Path, packages: tuple[str, ...]):
    """Each module's module-level imports, and its imports inside functions as
    (import statement, modules it loads)."""
    modules = project_modules(root, packages)
    eager: dict[str, set[str]] = {}
    lazy: dict[str, list[tuple[ast.stmt, set[str]]]] = {}
    for name, path in modules.items():
        eager[name], lazy[name] = set(), []
        todo = [(node, False) for node in ast.parse(path.read_text()).body]
        while todo:
            node, in_function = todo.pop()
            if isinstance(node, ast.Import | ast.ImportFrom):
                found = imported_modules(node, name, path, modules)
                if in_function:
                    lazy[name].append((node, found))
                else:
                    eager[name] |= found
                continue
            inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            todo.extend((child, inside) for child in ast.iter_child_nodes(node))
    return modules, eager, lazy


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = {stack.pop()}
            while module not in component:
                component.add(stack.pop())
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def unexplained_lazy_imports(modules, eager, lazy) -> set[tuple[str, str]]:
    """Imports inside functions that close a circle with no comment saying why."""
    graph = {name: eager[name].union(*(found for _node, found in lazy[name])) for name in eager}
    in_circle = {module: i for i, circle in enumerate(circles(graph)) for module in circle}
    unexplained = set()
    for name, imports in lazy.items():
        lines = modules[name].read_text().splitlines()
        for node, found in imports:
            text = " ".join(lines[node.lineno - 1 : node.end_lineno])
            why = text.partition("#")[2].replace("noqa:", "").replace("PLC0415", "").strip(" -")
            for module in found:
                same = name in in_circle and in_circle[name] == in_circle.get(module)
                if same and not why:
                    unexplained.add((name, module))
    return unexplained


def test_no_import_circle_between_modules():
    _modules, eager, _lazy = import_graph(ROOT, PROJECT_PACKAGES)
    left = [
        circle
        for circle in circles(eager)
        if not any(all(m == p or m.startswith(p + ".") for m in circle) for p in CIRCLES_LEFT)
    ]
    assert not left, f"import circles: {[sorted(circle) for circle in left]}"


def test_an_import_inside_a_function_that_closes_a_circle_says_why():
    wrong = unexplained_lazy_imports(*import_graph(ROOT, PROJECT_PACKAGES))
    assert not wrong - UNEXPLAINED_LAZY_LEFT, sorted(wrong - UNEXPLAINED_LAZY_LEFT)


def test_the_circle_check_sees_circles_and_unexplained_lazy_imports(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/a.py").write_text("from app import b\n")
    (tmp_path / "app/b.py").write_text("class B:\n    from app.a import x\n")
    (tmp_path / "app/c.py").write_text("def f():\n    from app import d\n")
    (tmp_path / "app/d.py").write_text("from app.c import f\n")
    (tmp_path / "app/e.py").write_text("def f():\n    from app import g  # g imports e\n")
    (tmp_path / "app/g.py").write_text("import app.e\n")
    modules, eager, lazy = import_graph(tmp_path, ("app",))
    assert circles(eager) == [{"app.a", "app.b"}]
    assert unexplained_lazy_imports(modules, eager, lazy) == {("app.c", "app.d")}


# An app's public face: ``<app>.<name>`` for other apps, from an explicit map in the app's
# package, ``_PUBLIC`` (public name -> the module that defines it), loaded on first use by the
# package's ``__getattr__``. Every app that keeps such a map is held to it here; what each app
# served before its map is its own tests' (e.g. tests/ledger/test_package.py).
PUBLIC_FACES = tuple(
    name
    for name, path in sorted(project_modules(ROOT, PROJECT_PACKAGES).items())
    if path.name == "__init__.py" and "\n_PUBLIC = {" in path.read_text()
)


def public_names() -> list[tuple[str, str]]:
    return [(app, name) for app in PUBLIC_FACES for name in sorted(import_module(app)._PUBLIC)]


@pytest.mark.parametrize(("app", "name"), public_names())
def test_every_public_name_is_defined_by_the_module_the_map_names(app, name):
    module = import_module(import_module(app)._PUBLIC[name])
    assert name in vars(module)
    value = getattr(import_module(app), name)
    assert value is vars(module)[name]
    if callable(value):
        assert value.__module__ == module.__name__


@pytest.mark.parametrize("app", PUBLIC_FACES)
def test_a_public_face_serves_its_map_and_nothing_else(app):
    package = import_module(app)
    assert set(package.__all__) == set(package._PUBLIC)
    assert set(dir(package)) >= set(package._PUBLIC)
    with pytest.raises(AttributeError, match="has no attribute '_not_public'"):
        package._not_public  # noqa: B018
    # A module of the app, once imported, is an attribute of the package: it would hide the
    # public name of the same spelling.
    modules = {info.name for info in pkgutil.iter_modules(package.__path__)}
    assert not modules & set(package._PUBLIC)


def test_no_app_reads_a_games_capabilities_from_its_functions():
    """What a game can do (plays from a pot, keeps betar, draws the first dealer) is read from
    its declaration (``engine.base.Declaration``), never from its functions' signatures; a
    migration, frozen in time, may."""
    readers = [
        str(path.relative_to(ROOT))
        for app in PROJECT_PACKAGES
        if app != "engine"
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts and "signature(" in path.read_text()
    ]
    assert readers == []


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
