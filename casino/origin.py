"""Which page may open a websocket here: one served by this same origin (scheme, host and port).

Browsers send a socket the cookies of its address whatever page opens it, so the Origin header is the
only thing telling a dealer's tablet from another page. Channels' ``AllowedHostsOriginValidator``
compares the Origin's host with ALLOWED_HOSTS and nothing else: a page served by another port of the
same host (``http://127.0.0.1:9999``, any local process) passed. ``SameOriginValidator`` lets a socket
through when its Origin is the socket's own origin (the scheme the browser used, the Host header with
its port, the default port when none), the host being one of ALLOWED_HOSTS, or is one of
CSRF_TRUSTED_ORIGINS (``https://*.example.com`` for the subdomains), as Django's CSRF check trusts them.
Behind the TLS proxy (BEHIND_TLS_PROXY) the scheme is the proxy's X-Forwarded-Proto, as for Django.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an origin, the port filled in; None if it is not an http(s) origin."""
    try:
        parts = urlsplit(f"{scheme}://{netloc}")
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme]


def parse_origin(value: str) -> tuple[str, str, int] | None:
    scheme, _, rest = value.strip().lower().partition("://")
    if not rest or "/" in rest.rstrip("/") or "@" in rest:
        return None
    return _origin(scheme, rest.rstrip("/"))


def own_origin(scope: dict) -> tuple[str, str, int] | None:
    """The origin the browser reached this socket at: its scheme and the Host header."""
    headers = {name: value.decode("latin1") for name, value in scope.get("headers", [])}
    host = headers.get(b"host", "")
    if not host or not validate_host(split_domain_port(host.lower())[0], _allowed_hosts()):
        return None
    secure = scope.get("scheme") in ("wss", "https")
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        secure = secure or headers.get(b"x-forwarded-proto", "").split(",")[0].strip().lower() == "https"
    return _origin("https" if secure else "http", host.lower())


def trusted(origin: tuple[str, str, int]) -> bool:
    """One of CSRF_TRUSTED_ORIGINS (a leading ``*.`` takes the subdomains), scheme and port compared."""
    scheme, host, port = origin
    for pattern in settings.CSRF_TRUSTED_ORIGINS:
        wildcard = "://*." in pattern
        allowed = parse_origin(pattern.replace("://*.", "://", 1))
        if allowed is None or (allowed[0], allowed[2]) != (scheme, port):
            continue
        if host == allowed[1] or (wildcard and is_same_domain(host, "." + allowed[1])):
            return True
    return False


def _allowed_hosts() -> list[str]:
    if settings.DEBUG and not settings.ALLOWED_HOSTS:
        return ["localhost", "127.0.0.1", "[::1]"]  # as Django and Channels allow in development
    return settings.ALLOWED_HOSTS


def origin_allowed(scope: dict) -> bool:
    values = [value for name, value in scope.get("headers", []) if name == b"origin"]
    if len(values) != 1:
        return False
    origin, own = parse_origin(values[0].decode("latin1")), own_origin(scope)
    if origin is None or own is None:
        return False
    return origin == own or trusted(origin)


class SameOriginValidator:
    """Lets a websocket through only from a page of this same origin or a trusted one; denies the rest
    at the handshake (the browser sees a refused socket)."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator guards websockets only")
        if origin_allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
