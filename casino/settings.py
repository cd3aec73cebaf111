"""Settings, read from the environment (django-environ).

Two ways to run:
- Embedded (``DATABASE_URL`` unset): a PostgreSQL of its own under ``var/postgres``
  (casino.embedded_db, started on first need) and the in-memory channel layer,
  DEBUG on by default, a development SECRET_KEY generated once and kept in
  ``var/``. For ``make run`` and ``make test`` on a laptop: one process.
- Deployed (``DATABASE_URL`` set): PostgreSQL and, with ``REDIS_URL``, the
  Redis channel layer, so several daphne processes serve one casino. DEBUG
  defaults to off there, and without a ``SECRET_KEY`` the app refuses to start.

Every variable is listed in README.md.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

EMBEDDED = not env.str("DATABASE_URL", default="")
# A deployment that forgets DEBUG=0 must not show tracebacks: only the embedded
# laptop mode defaults to DEBUG on.
DEBUG = env.bool("DEBUG", default=EMBEDDED)


def _development_key(name: str) -> str:
    """Development only: a random key generated once and kept in ``var/``, so it survives a restart."""
    VAR_DIR.mkdir(exist_ok=True)
    path = VAR_DIR / name
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


def _secret_key() -> str:
    key = env.str("SECRET_KEY", default="")
    if key:
        return key
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Production (DEBUG=0) refuses to start without one: "
            "set SECRET_KEY to a long random string, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
        )
    return _development_key("dev-secret-key")


SECRET_KEY = _secret_key()


def _audit_key() -> str:
    """The key of the audit log's HMAC chain and of its anchors (docs/audit.md). It must live outside
    the database: whoever can write the tables but lacks it cannot recompute a chain."""
    key = env.str("AUDIT_KEY", default="")
    key_file = env.str("AUDIT_KEY_FILE", default="")
    if key_file:
        try:
            key = Path(key_file).read_text().strip()
        except OSError as error:
            raise ImproperlyConfigured(f"AUDIT_KEY_FILE={key_file} cannot be read: {error.strerror}.") from None
    if key:
        if len(key) < 32 and not DEBUG:
            raise ImproperlyConfigured("AUDIT_KEY is too short: give it at least 32 random characters.")
        return key
    if not DEBUG:
        raise ImproperlyConfigured(
            "AUDIT_KEY is not set. Production (DEBUG=0) refuses to start without the audit log's key: "
            "set AUDIT_KEY (or AUDIT_KEY_FILE, a file holding it) to a long random string kept outside the "
            "database and its backups, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`. Lose it and the log can no "
            "longer be verified: keep a copy where the auditors keep theirs."
        )
    return _development_key("dev-audit-key")


AUDIT_KEY = _audit_key()
# The signed heads of the audit streams (casino.audit.anchor_heads), appended outside the database:
# every AUDIT_ANCHOR_EVERY events of a stream, at the first write AUDIT_ANCHOR_SECONDS after its last
# anchor, and whenever `manage.py anchor_audit` runs. Ship the file (or the log lines) off the machine.
AUDIT_ANCHOR_PATH = Path(env.str("AUDIT_ANCHOR_PATH", default=str(VAR_DIR / "audit-anchors.jsonl")))
AUDIT_ANCHOR_EVERY = env.int("AUDIT_ANCHOR_EVERY", default=50)
AUDIT_ANCHOR_SECONDS = env.float("AUDIT_ANCHOR_SECONDS", default=60)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    # The admin, entered by role (casino/admin.py): administrators and the games director.
    "casino.apps.CasinoAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "casino",
    "tables",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below whitenoise: static files keep their long cache; every page the app makes is no-store.
    "casino.headers.NeverStoreMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A NUL byte in any field, cookie or address is a 400 in the viewer's language, never a 500.
    "casino.bad_input.RefuseNulBytesMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view that cannot reach PostgreSQL answers "database unavailable, retry" (503), not a 500.
    "casino.unavailable.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a lockout into its own response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.context_processors.roles",
            ],
        },
    }
]

# --- Database: PostgreSQL, always: DATABASE_URL's, or the embedded one in var/postgres (casino.embedded_db).
if EMBEDDED:
    from casino.embedded_db import database as _embedded_database

    DATABASES = {"default": _embedded_database(VAR_DIR)}
else:
    DATABASES = {"default": env.db("DATABASE_URL")}
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must name a PostgreSQL database (postgres://...).")
DATABASES["default"]["CONN_MAX_AGE"] = 0
# The tables' owner, for migrations only (casino.db_roles): DATABASE_URL is then the application's
# role, which may read and append to the append-only tables but not rewrite them, nor drop their
# triggers. `manage.py migrate` runs as the owner and grants the application its rights afterwards.
if env.str("DATABASE_OWNER_URL", default=""):
    DATABASES["owner"] = env.db("DATABASE_OWNER_URL")
    DATABASES["owner"].update(CONN_MAX_AGE=0, TEST={"MIRROR": "default"})
    if DATABASES["owner"]["NAME"] != DATABASES["default"]["NAME"]:
        raise ImproperlyConfigured("DATABASE_OWNER_URL must name the same database as DATABASE_URL.")
# A PostgreSQL host that stops answering (not refusing) would otherwise hold a connection attempt
# for minutes. libpq's minimum is 2 s.
DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
    "connect_timeout", env.int("DATABASE_CONNECT_TIMEOUT", default=3)
)
# Nothing waits on PostgreSQL for ever. A write holds its aggregate's row lock for milliseconds, so
# a wait of seconds for a lock means a stuck holder: the waiter gives up (the user gets the retry
# page, casino.unavailable) instead of piling up behind it. A statement has as long again and more;
# a transaction left open and idle (a crashed worker thread's) is closed by the server so that its
# locks do not stop every write after it. Each in seconds, 0 to turn it off.
DATABASES["default"]["OPTIONS"].setdefault("options", " ".join(
    f"-c {name}={env.int(variable, default=default) * 1000}"
    for name, variable, default in (
        ("lock_timeout", "DATABASE_LOCK_TIMEOUT", 10),
        ("statement_timeout", "DATABASE_STATEMENT_TIMEOUT", 30),
        ("idle_in_transaction_session_timeout", "DATABASE_IDLE_TRANSACTION_TIMEOUT", 60),
    )
))
if env.bool("DATABASE_POOL", default=True):
    # Every websocket push re-renders from the database: without a pool each one would open a
    # new PostgreSQL connection. psycopg's pool (Django 5.1+) is safe under ASGI, where
    # persistent per-thread connections (CONN_MAX_AGE) are not.
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", default=2),
        "max_size": env.int("DATABASE_POOL_MAX", default=32),
        # How long a request waits for a connection before the "database unavailable, retry" page (503,
        # casino.unavailable): during an outage, every request waits this long.
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=5),
        # After a failed connection the pool retries after 1, 2, 4... s; it gives up after this many
        # seconds and the next request tries at once. Short, so that the pool is back within seconds of
        # PostgreSQL, not after a back-off grown through the outage.
        "reconnect_timeout": env.float("DATABASE_RECONNECT_SECONDS", default=5),
    }
    # The pool checks a connection before lending it (psycopg_pool's check_connection: Django passes it
    # when CONN_HEALTH_CHECKS is on): after a PostgreSQL restart every pooled connection is dead, and
    # each one lent unchecked failed its request with a 500.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channel layer and cache: Redis when REDIS_URL is set, in-process otherwise.
# Seconds a thread may hold the GIL before another that waits gets it (casino.asgi): 1 ms instead of
# Python's 5 ms (docs/decisions/2026-11-22-gil-switch-interval.md).
GIL_SWITCH_INTERVAL = env.float("GIL_SWITCH_INTERVAL", default=0.001)
# The cyclic garbage collector in a process that loads casino.asgi (daphne's, the suite's): what it loaded
# to start is left out of every collection, and a full collection waits for this many collections of the
# middle generation (Python's default is 10) (docs/decisions/2026-11-26-gc-freeze.md).
GC_FREEZE_AT_START = env.bool("GC_FREEZE_AT_START", default=True)
GC_FULL_COLLECTION_EVERY = env.int("GC_FULL_COLLECTION_EVERY", default=100)
# HTTP requests a daphne process runs at once, each in a thread kept for the next (casino.asgi_http);
# more wait their turn. With the websockets' worker threads (asyncio's default executor: CPUs + 4) it
# stays within the database pool (32 by default), so a burst of requests waits for a thread instead
# of timing out on the pool. Not lower: a request holds its thread while it waits for the event loop
# too, and ordinary traffic should never queue for one (docs/decisions/2026-11-23-request-threads-reused.md).
HTTP_THREADS = env.int("HTTP_THREADS", default=20)

REDIS_URL = env.str("REDIS_URL", default="")
REDIS_READ_TIMEOUT = 30  # seconds; channels-redis blocks 5 s per receive (RedisChannelLayer.brpop_timeout)
REDIS_CACHE_TIMEOUT = env.float("REDIS_CACHE_TIMEOUT", default=0.5)  # seconds, for the cache (below)
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "casino.channel_layer.CasinoChannelLayer",
            "CONFIG": {
                # redis-py 8 reads with a 5 s socket timeout by default, the very time channels-redis
                # blocks in BZPOPMIN waiting for a message: an idle socket's receive then fails with
                # "Timeout reading from Redis" and the consumer dies (the phone drops and reconnects).
                # Read for longer than the block, still short enough to notice a dead connection.
                "hosts": [{"address": REDIS_URL, "socket_timeout": REDIS_READ_TIMEOUT}],
                # A push is only a hint (docs/realtime.md), but the last one of a burst is what
                # brings a screen up to date: keep channels-redis's 60 s expiry (screens skip stale
                # pushes cheaply, casino.consumers), and give busy groups room before it drops.
                "expiry": 60,
                "capacity": 500,
                "prefix": env.str("CHANNEL_PREFIX", default="casino"),
            },
        }
    }
    # One connection pool per process (casino.cache): Django's own backend opened one per request.
    CACHES = {
        "default": {
            "BACKEND": "casino.cache.ProcessRedisCache",
            "LOCATION": REDIS_URL,
            # Everything in this cache has the database behind it (sessions, shared snapshots): a Redis
            # that hangs costs a request at most this long per read or write, not redis-py's 5 s.
            "OPTIONS": {"socket_connect_timeout": REDIS_CACHE_TIMEOUT, "socket_timeout": REDIS_CACHE_TIMEOUT},
            # Several casinos (or the test suite's parallel workers) on one Redis database: each its own keys,
            # and clearing the cache deletes only its own (casino.cache.ProcessRedisCache.clear).
            "KEY_PREFIX": env.str("CACHE_KEY_PREFIX", default=""),
        }
    }
    # Sessions stay in PostgreSQL; Redis answers their reads (every staff request reads its session).
    SESSION_ENGINE = "casino.sessions"
    # Each table version's snapshot, made once by the write's process, is read by the others from
    # Redis instead of the database (casino.reads.SHARED_SNAPSHOT_SECONDS).
    SHARE_SNAPSHOTS = env.bool("SHARE_SNAPSHOTS", default=True)
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SHARE_SNAPSHOTS = False  # one process: nobody to share with

# --- People.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend, with the roles read with the user (a session names its backend: staff logged in
    # through ModelBackend before this one log in again).
    "casino.backends.StaffBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Staff login throttling (django-axes): 5 failures for one username from one
# address lock that pair for 15 minutes, with a clear page (templates/axes/).
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("LOGIN_COOLOFF_MINUTES", default=15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The address a login counts against (casino.lockouts.client_address): the connection's, or behind
# PROXY_COUNT proxies that each append to X-Forwarded-For, the one the outermost proxy saw.
PROXY_COUNT = env.int("PROXY_COUNT", default=0)
AXES_CLIENT_IP_CALLABLE = "casino.lockouts.client_address"

# How long a player's QR link stays valid, in hours (a casino session rarely
# lasts longer; the dealer can issue a new one, and revoking works at once).
PLAYER_LINK_HOURS = env.int("PLAYER_LINK_HOURS", default=12)

# Who approves a held Bonus award (THB-54, C-30) at a table whose house options do not say:
# "pit_boss" (the product brief's choice) or "games_director" (the manual's DJ). A table's
# house_options["award_approver_role"] overrides it (docs/tables.md).
AWARD_APPROVER_ROLES = ("pit_boss", "games_director")
AWARD_APPROVER_ROLE = env.str("AWARD_APPROVER_ROLE", default="pit_boss").strip()
if AWARD_APPROVER_ROLE not in AWARD_APPROVER_ROLES:
    raise ImproperlyConfigured(
        f"AWARD_APPROVER_ROLE={AWARD_APPROVER_ROLE!r} is not a role that approves awards: "
        f"use {' or '.join(AWARD_APPROVER_ROLES)}."
    )

# --- Languages: Spanish by default, English selectable.
LANGUAGE_CODE = env.str("LANGUAGE_CODE", default="es")
LANGUAGES = [("es", _("Spanish")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Madrid")
USE_TZ = True

# --- Static files, served by whitenoise (no CDN: htmx is vendored in static/vendor).
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if env.bool("STATIC_MANIFEST", default=not DEBUG)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security. Production defaults are the strict ones; a TLS-terminating proxy
# in front sets BEHIND_TLS_PROXY=1 so that Django trusts its X-Forwarded-Proto.
if env.bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not DEBUG)
# Load balancers probe health over plain HTTP behind the TLS proxy.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
# htmx reads the CSRF token from the page (base.html), never from the cookie.
CSRF_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# What a page may load and run (django-csp). Nothing inline: htmx, its websocket extension and the
# app's scripts and styles are files under static/, and base.html tells htmx not to inject its own
# indicator <style> nor to evaluate script. 'self' in connect-src covers the screens' own ws:/wss:
# sockets on the page's host (CSP level 3, every current browser). The QR code is inline SVG markup.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Devices and browser features no screen of the casino uses (django-permissions-policy): a page that
# was somehow made to run foreign script still cannot reach them.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer", "ambient-light-sensor", "autoplay", "bluetooth", "camera", "display-capture",
        "geolocation", "gyroscope", "hid", "magnetometer", "microphone", "midi", "payment",
        "publickey-credentials-get", "serial", "usb", "xr-spatial-tracking",
    )
}
SESSION_COOKIE_AGE = env.int("SESSION_COOKIE_AGE", default=12 * 3600)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A 4xx is the client's doing: its one line, no traceback (casino.bad_input); a 5xx keeps its traceback.
    "filters": {"client_errors_in_one_line": {"()": "casino.bad_input.ClientErrorsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["client_errors_in_one_line"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}
# How long each write held its aggregate's lock (casino.writes.LOCK_HOLD, a JSON object a line, at DEBUG):
# LOCK_HOLD_LOG=<file> appends them there (several processes may share the file), e.g. for
# bench/bench_event_reports.py. Without it they follow LOG_LEVEL (DEBUG: on the console).
if LOCK_HOLD_LOG := env.str("LOCK_HOLD_LOG", default=""):
    LOGGING["formatters"] = {"message_only": {"format": "%(message)s"}}
    LOGGING["handlers"]["lock_hold_file"] = {"class": "logging.FileHandler", "filename": LOCK_HOLD_LOG,
                                             "formatter": "message_only"}
    LOGGING["loggers"]["casino.writes.lock_hold"] = {"level": "DEBUG", "handlers": ["lock_hold_file"],
                                                     "propagate": False}
