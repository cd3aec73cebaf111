"""The tables' fixtures: an open table and a hand started, built with ``tests.tables.helpers``."""

from __future__ import annotations

import pytest

from tables import services
from tests.conftest import _staff

from .helpers import act, open_for_play


@pytest.fixture
def quick_passwords(settings):
    """The domain tests never log in: a cheap hasher keeps creating the named people fast.
    (Not autouse: tests that start daphne servers log in with the real hashers.)"""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def admin_ada(django_user_model):
    """An administrator: configures the tables and gives and takes the staff's roles."""
    return _staff(django_user_model, "ada", "administrator", "Ada")


@pytest.fixture
def open_table(table_one, dealer_dana, pit_boss_pat):
    """THB-1 (5/100), opened by Dana with Pat's deck check."""
    return open_for_play(table_one, dealer_dana, pit_boss_pat)


@pytest.fixture
def hand_started(open_table, dealer_dana):
    """A recorded hand with bets open at THB-1."""
    act(services.start_hand, open_table, dealer_dana)
    open_table.refresh_from_db()
    return open_table
