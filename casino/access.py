"""Who may do what: the two checks every view, socket and command makes, explained here once.

1. The role check, at the door: ``role_required`` on every view (and each consumer's ``authorise``)
   lets in only staff holding one of the roles. What a role is (a group) and may do (capabilities,
   ``can``) is ``casino.roles``'s.
2. The object check, on the object itself: which table, which pit, which tournament. It is the
   game's own question, so each game answers it in its own ``<app>/access.py`` (``tables.access``:
   ``is_dealer_at``, ``supervises``, ``may_view``), and its views, its websocket consumers
   (``authorise``, ``still_allowed``) and its commands (``tables.writing.require_dealer``, ...) all
   ask it there, the same question the same way. The core never asks it: it knows no game.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from casino.roles import has_role


def role_required(*roles: str):
    """Only staff holding one of ``roles`` (an anonymous visitor is sent to log in)."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator
