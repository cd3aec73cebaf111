"""The screen where the games director or an administrator lifts a staff login lock-out."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from casino import lockouts
from casino.access import role_required
from casino.roles import LOGIN_UNLOCKERS


class UnlockForm(forms.Form):
    # Django's CharField refuses NUL bytes and over-long values with a message: bad input is a 400.
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    ip_address = forms.CharField(label=gettext_lazy("Address"), max_length=45, required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200, required=False)


def _screen(request, *, error: str = "", status: int = 200):
    rows = [(lockout, lockouts.may_unlock(request.user, lockout.person)) for lockout in lockouts.locked_out_now()]
    return render(request, "casino/lockouts.html", {"rows": rows, "error": error}, status=status)


@never_cache
@role_required(*LOGIN_UNLOCKERS)
@require_GET
def lockout_list(request):
    """Who cannot log in now: username, name, address, failures, since and until when."""
    return _screen(request)


@never_cache
@role_required(*LOGIN_UNLOCKERS)
@require_POST
def unlock_login(request):
    """Lift one lock (through django-axes), with the reason typed, recorded in the audit log."""
    form = UnlockForm(request.POST)
    if not form.is_valid():
        problems = "; ".join(f"{form[name].label}: {' '.join(errors)}" for name, errors in form.errors.items())
        return _screen(request, error=problems, status=400)
    username, ip_address = form.cleaned_data["username"], form.cleaned_data["ip_address"] or None
    try:
        lockouts.unlock(by=request.user, username=username, ip_address=ip_address,
                        reason=form.cleaned_data["reason"])
    except lockouts.CannotUnlock:
        error = _("“%(username)s” is not locked out from %(address)s (any more): nothing was changed.") % {
            "username": username, "address": ip_address or _("an unknown address")}
        return _screen(request, error=error, status=400)
    messages.success(request, _("“%(username)s” may log in again from %(address)s.") % {
        "username": username, "address": ip_address or _("an unknown address")})
    return redirect("staff_lockouts")
