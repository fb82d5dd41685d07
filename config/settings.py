"""Protokoll's one settings module, driven by environment variables (see README.md).

Embedded defaults make a laptop work with nothing set: DEBUG on, a SQLite file, Celery tasks
run eagerly. Production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL (PostgreSQL) and
CELERY_BROKER_URL (Redis).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.checks import DEVELOPMENT_AUDIT_KEY, DEVELOPMENT_SECRET_KEY, development_keys, refusal
from config.env import env_bool, env_int, env_list, env_secret, env_str, env_url
from engine.base import MAX_AMOUNT_ORE as ENGINE_MAX_AMOUNT_ORE

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY") or ""
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
# Seals the audit trail (ledger.audit): an HMAC key kept out of the database and the repository,
# so that someone who can write to the database cannot recompute the chain after an edit.
AUDIT_KEY = env_secret("AUDIT_KEY", debug=DEBUG, development=DEVELOPMENT_AUDIT_KEY)
# Both development values are public (this file): production refuses them (config.checks, whose
# import also registers check --deploy's protokoll.E001 and E002).
if not DEBUG and (_PUBLIC_KEYS := development_keys(SECRET_KEY, AUDIT_KEY)):
    raise ImproperlyConfigured(refusal(_PUBLIC_KEYS))
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "axes",
    "core",
    "club",
    "ledger",
    "league",
    "evenings",
    "notices",
    "week",
    "competitions",
    "honours",
    "scoring",
    "clubdata",
    "live",
]

MIDDLEWARE = [
    # Before everything: a poll that finds nothing new, answered from the shared cache without
    # a session or the database (live/polls.py; config/asgi.py does the same ahead of Django).
    "live.polls.FastPollMiddleware",
    # First, so it sees every answer last (redirects and static files too): Cache-Control for
    # signed-in and secret pages, Permissions-Policy everywhere (config/middleware.py).
    "config.middleware.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "club.context_processors.current_club",
            ],
            "builtins": ["core.templatetags.money"],
        },
    }
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'protokoll.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 0),
        conn_health_checks=True,
    )
}
# A pool of PostgreSQL connections per process (Django's own, psycopg_pool). Under uvicorn a
# sync view runs in a thread of its own request, so without a pool every request in flight
# opens a connection of its own, with no upper bound ("too many clients" under load: make
# load). DB_POOL_MAX connections per web or worker process; 0 turns the pool off (the default
# while DEBUG is on, and the test suite's). Pooling replaces persistent connections:
# CONN_MAX_AGE is 0 with it. Behind PgBouncer in transaction mode, 0 as well.
# DB_BEHIND_PGBOUNCER: DATABASE_URL is a PgBouncer in transaction mode. Then no pool of our own
# (PgBouncer keeps the server connections) and no server-side cursors (a cursor outlives the
# transaction that opened it, and the next fetch could reach another server connection).
DB_BEHIND_PGBOUNCER = env_bool("DB_BEHIND_PGBOUNCER", False)
if DB_BEHIND_PGBOUNCER:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = True
DB_POOL_MAX = env_int("DB_POOL_MAX", 0 if DEBUG or DB_BEHIND_PGBOUNCER else 8)
if DB_POOL_MAX < 0:
    raise ImproperlyConfigured("DB_POOL_MAX must be 0 (no pool) or more")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_POOL_MAX:
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": DB_POOL_MAX,
        "timeout": env_int("DB_POOL_TIMEOUT_SECONDS", 10),  # then the request fails (503)
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent phones on one game: wait for the write lock instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "club.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "club:home"
LOGOUT_REDIRECT_URL = "login"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "sv"
LANGUAGES = [("sv", _("Swedish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Europe/Stockholm")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
MEDIA_ROOT = BASE_DIR / "media"

# Security: strict in production, relaxed only where a laptop has no TLS.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
SESSION_COOKIE_SECURE = not DEBUG
# Sessions are read from the cache (written through to the database): the phones' live-sync
# poll, every 2 s per phone, then costs no session query. With Redis as the cache in
# production every worker shares them; the default per-process cache falls back to the row.
# A cache that is down costs the database read, not the session (config.sessions, issue 23 §3).
SESSION_ENGINE = "config.sessions"
CACHE_URL = env_str("CACHE_URL")
_CACHE_TIMEOUT = env_int("CACHE_TIMEOUT_SECONDS", 1)
if _CACHE_TIMEOUT < 1:
    raise ImproperlyConfigured("CACHE_TIMEOUT_SECONDS must be 1 or more")
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            # A Redis that hangs (a cut network) must not hold a request: redis-py waits for
            # ever by default. config.cache then leaves it alone for a few seconds.
            "OPTIONS": {
                "socket_connect_timeout": _CACHE_TIMEOUT,
                "socket_timeout": _CACHE_TIMEOUT,
            },
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# The poll that finds nothing new is answered from the cache (live/polls.py) only when the
# cache is shared by every process: with a cache per process, one worker would answer for an
# event another worker recorded. On with CACHE_URL (Redis); LIVE_POLL_CACHE=0 turns it off.
LIVE_POLL_CACHE = env_bool("LIVE_POLL_CACHE", bool(CACHE_URL))
# Pages offer the phones a stream of changes (live/stream.py): "auto" when the page is served
# over ASGI (uvicorn: config.asgi), "on" when a proxy sends /live/ to an ASGI server beside a
# WSGI one, "off" never (the pads poll every 2 s).
LIVE_STREAM = env_str("LIVE_STREAM", "auto")
# The one LISTEN connection per web process (live/hub.py) goes here when set: straight to
# PostgreSQL, for a site whose DATABASE_URL is a PgBouncer in transaction mode.
LIVE_LISTEN_URL = env_str("LIVE_LISTEN_URL", "")
if LIVE_STREAM not in ("auto", "on", "off"):
    raise ImproperlyConfigured(f"LIVE_STREAM={LIVE_STREAM!r} is not one of auto, on, off")
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = 0 if DEBUG else env_int("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# Hostile input (issue 13 §1): no form of the app sends more than a few kB or a few dozen
# fields; a larger request is refused (400) before any view reads it. What a view then reads
# goes through core.inputs.
DATA_UPLOAD_MAX_MEMORY_SIZE = 100_000
DATA_UPLOAD_MAX_NUMBER_FIELDS = 300

# Headers, logins and mail (issue 13 §4): config/middleware.py, django-axes, Django's
# password views.
# Every response denies the browser features the app never uses (it uses none of these).
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer",
        "autoplay",
        "browsing-topics",
        "camera",
        "display-capture",
        "encrypted-media",
        "fullscreen",
        "geolocation",
        "gyroscope",
        "hid",
        "idle-detection",
        "interest-cohort",
        "local-fonts",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "picture-in-picture",
        "publickey-credentials-get",
        "screen-wake-lock",
        "serial",
        "usb",
        "window-management",
        "xr-spatial-tracking",
    )
}
# Signed-in answers are all "private, no-store"; these routes are too, signed in or not.
NO_STORE_ROUTES = ["invite-accept"]
# Password guessing: django-axes counts failures per username *and* address, so one member's
# typos (or a stranger's guesses at her name) never lock out another member, and a locked-out
# member waits LOGIN_COOLOFF_MINUTES. Guesses spread over many usernames are counted per address
# as well, with the higher LOGIN_IP_FAILURE_LIMIT (a club's wifi is one address for everyone):
# config.throttle's handler. Success resets only that username's count at that address;
# successful logins are not logged (no one needs a record of when each member signed in).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "config.throttle.AxesHandler"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_IP_FAILURE_LIMIT = env_int("LOGIN_IP_FAILURE_LIMIT", 20)
_COOLOFF_MINUTES = env_int("LOGIN_COOLOFF_MINUTES", 15)
AXES_COOLOFF_TIME = timedelta(minutes=_COOLOFF_MINUTES)
if min(AXES_FAILURE_LIMIT, LOGIN_IP_FAILURE_LIMIT, _COOLOFF_MINUTES) < 1:
    raise ImproperlyConfigured(
        "LOGIN_FAILURE_LIMIT, LOGIN_IP_FAILURE_LIMIT and LOGIN_COOLOFF_MINUTES must be 1 or more"
    )
# The first group is the per-member count; the address alone is the second (config.throttle).
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False  # no banner on every manage.py command; failures are still logged
AXES_LOCKOUT_CALLABLE = "club.views_account.lockout"  # HTTP 429, registration/lockout.html
AXES_USERNAME_CALLABLE = "club.views_account.axes_username"  # bounded to the column
# Behind a proxy REMOTE_ADDR is the proxy: TRUSTED_PROXIES says how many proxies append to
# X-Forwarded-For (0: none, the header is ignored — anyone can send it).
TRUSTED_PROXIES = env_int("TRUSTED_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "config.middleware.client_ip"
# Mail (password reset links): printed to the console on a laptop, sent by SMTP in production
# (check --deploy refuses the console there), or whatever EMAIL_BACKEND says. Django 6.1's
# MAILERS; the EMAIL_* variables keep their familiar names. A mail that cannot be sent is
# logged by the reset form, never a server error. Reset mails are limited per address and per
# client per hour (config.passwords); the page answers the same either way.
PASSWORD_RESET_MAILS_PER_ADDRESS = env_int("PASSWORD_RESET_MAILS_PER_ADDRESS", 3)
PASSWORD_RESET_MAILS_PER_CLIENT = env_int("PASSWORD_RESET_MAILS_PER_CLIENT", 10)
if min(PASSWORD_RESET_MAILS_PER_ADDRESS, PASSWORD_RESET_MAILS_PER_CLIENT) < 1:
    raise ImproperlyConfigured("PASSWORD_RESET_MAILS_PER_* must be 1 or more")
_EMAIL_BACKEND = env_str("EMAIL_BACKEND") or (
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend"
)
_EMAIL_OPTIONS: dict[str, object] = {}
if _EMAIL_BACKEND == "django.core.mail.backends.smtp.EmailBackend":
    _EMAIL_SSL = env_bool("EMAIL_USE_SSL", False)
    _EMAIL_OPTIONS = {
        "host": env_str("EMAIL_HOST", "localhost"),
        "port": env_int("EMAIL_PORT", 465 if _EMAIL_SSL else 587),
        "username": env_str("EMAIL_HOST_USER", ""),
        "password": env_str("EMAIL_HOST_PASSWORD", ""),
        "use_ssl": _EMAIL_SSL,
        "use_tls": env_bool("EMAIL_USE_TLS", not _EMAIL_SSL),
        # A mail server that hangs must not hold a web worker for ever.
        "timeout": env_int("EMAIL_TIMEOUT", 10),
    }
MAILERS = {"default": {"BACKEND": _EMAIL_BACKEND, "OPTIONS": _EMAIL_OPTIONS}}
# The site's own address, for the absolute links in mail (the evening report, unsubscribe).
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "Protokoll <protokoll@localhost>"
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Money: the club-level ceiling on any single amount in öre (a payment, transfer, fee, stake),
# enforced by ledger.postings and the forms; the rules engine's own bound (engine.base) is the
# default, so a club may lower the ceiling but not raise it above 1 000 000 kr.
MAX_AMOUNT_ORE = env_int("MAX_AMOUNT_ORE", ENGINE_MAX_AMOUNT_ORE)
if not 1 <= MAX_AMOUNT_ORE <= ENGINE_MAX_AMOUNT_ORE:
    raise ImproperlyConfigured(f"MAX_AMOUNT_ORE must be from 1 to {ENGINE_MAX_AMOUNT_ORE} (öre)")

# Who may found a club (clubdata.founding, README "Starting your club"): "open" lets any
# signed-in user start one; "invite" leaves it to staff users and `manage.py create_club`.
CLUB_SIGNUP = env_str("CLUB_SIGNUP") or ("open" if DEBUG else "invite")
if CLUB_SIGNUP not in ("open", "invite"):
    raise ImproperlyConfigured('CLUB_SIGNUP must be "open" or "invite"')

# Backups (ledger.backups, README "Backups"): the nightly copy goes here; empty = none.
BACKUP_DIR = env_str("BACKUP_DIR") or ""
BACKUP_KEEP = env_int("BACKUP_KEEP", 14)
if BACKUP_KEEP < 1:
    raise ImproperlyConfigured("BACKUP_KEEP must be at least 1")

# Celery: with no broker configured, tasks run eagerly in the web process.
_BROKER = env_str("CELERY_BROKER_URL") or ""
CELERY_TASK_ALWAYS_EAGER = not _BROKER
# Eager tasks never touch the broker; "memory://" keeps kombu from looking for one.
CELERY_BROKER_URL = _BROKER or "memory://localhost/"
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (
    _BROKER if _BROKER.startswith("redis") else None
)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A web request publishes a task in bounded time or not at all (core.tasks.publish logs and
# drops it: the work is written down in the database and a sweep delivers it). Celery's
# defaults retry a dead broker and result store for about 20 s, holding the scorer's tap.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "max_retries": 0,
}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    "retry_policy": {"max_retries": 0},
}
# Celery beat (production runs one): dues for the current period, daily in the small hours.
# Charging is keyed per member and period, so a day missed is made up and a rerun is harmless.
CELERY_BEAT_SCHEDULE = {
    "charge-dues": {
        "task": "ledger.tasks.charge_all_dues_task",
        "schedule": crontab(hour=4, minute=10),
    },
    # Each club's audit head into the log (logger "protokoll.audit"): a copy outside the
    # database that a rewritten or shortened chain can be compared with (README).
    # A backup of the whole database when BACKUP_DIR is set (the task skips otherwise).
    "backup": {
        "task": "ledger.tasks.backup_task",
        "schedule": crontab(hour=3, minute=30),
    },
    # Export jobs never queued (the broker was away) or whose worker died (ledger.exports).
    "sweep-export-jobs": {
        "task": "ledger.tasks.sweep_export_jobs_task",
        "schedule": crontab(minute="*"),
    },
    # Whatever the league is still owed (a broker that was away when a game finished).
    "deliver-owed-results": {
        "task": "league.tasks.deliver_all_owed_task",
        "schedule": crontab(minute="*"),
    },
    "log-audit-heads": {
        "task": "ledger.tasks.log_audit_heads_task",
        "schedule": crontab(hour=4, minute=40),
    },
    # The club's week: plan every club's evenings three months ahead, once a day; the
    # day-before reminders, every hour (week.tasks).
    "plan-evenings": {
        "task": "week.tasks.plan_ahead_all",
        "schedule": crontab(hour=4, minute=50),
    },
    "week-reminders": {
        "task": "week.tasks.send_reminders",
        "schedule": crontab(minute=15),
    },
    # Mail owed to members and not yet sent: a broker that was away, a failure's back-off.
    "send-owed-mail": {
        "task": "notices.tasks.sweep",
        "schedule": crontab(minute="*/5"),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Tasks run in-process without a broker: a line per finished task would drown the
    # development server's log. A worker logs its tasks itself.
    "loggers": {
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
        # django-axes says INFO for every login and logout; failures and lockouts are WARNING.
        "axes": {"level": "WARNING"},
        # The daily audit heads are kept whatever LOG_LEVEL says (ledger.audit.log_audit_heads).
        "protokoll.audit": {"level": "INFO"},
    },
}
