"""The staff login form."""

from __future__ import annotations

from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator


class StaffLoginForm(AuthenticationForm):
    """Django's login form, with its username's length checked by the form.

    AuthenticationForm sets the username field's ``max_length`` (150) after the field is made, so no
    validator checks it: any length reached ``authenticate``, and django-axes, recording the failure,
    wrote it into a column of 255 characters, a database error and an HTTP 500 (issue #12's fuzz run).
    """

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        username = self.fields["username"]
        username.validators.append(MaxLengthValidator(username.max_length))
