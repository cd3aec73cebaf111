"""A tournament's record against the digests the audit log keeps of it (verify_audit)."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from tests.tournaments.conftest import register
from tournaments import services
from tournaments.audit_check import verify_tournaments
from tournaments.models import TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def with_entries(registering, floor_fede):
    for i in range(3):
        register(registering, floor_fede, i)
    return registering


def test_an_untouched_record_agrees_with_the_log(with_entries, capsys):
    assert verify_tournaments() == (1, [])
    call_command("verify_audit")
    assert "Tournaments: 1 records checked" in capsys.readouterr().out


def test_an_event_changed_past_the_trigger_fails_verify_audit(with_entries):
    row = TournamentEvent.objects.get(tournament=with_entries, type="registered", data__entry=2)
    table = "tournaments_tournamentevent"
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only")
        cursor.execute(f"UPDATE {table} SET data = %s WHERE id = %s", [json.dumps({"entry": 7}), row.pk])
        cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only")
    checked, problems = verify_tournaments(f"tournaments.tournament.{with_entries.pk}")
    assert checked == 1 and any(f"events {row.seq}.." in p for p in problems)
    with pytest.raises(CommandError):
        call_command("verify_audit")


def test_a_double_tap_adds_nothing_to_check(with_entries, director_dora):
    with_entries.refresh_from_db()
    version = with_entries.version
    for _tap in range(2):
        services.close_registration(tournament=with_entries, by=director_dora, key="close-1",
                                    expected_version=version)
    assert verify_tournaments() == (1, [])
    assert TournamentEvent.objects.filter(type="registration_closed").count() == 1
