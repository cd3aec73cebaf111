"""The director pauses play at one dealt table with his reason and lets it go on (TDA-01, issue #15)."""

from __future__ import annotations

import uuid

import pytest

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tests.tournaments.test_dealing import at, to_act
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_paused_table_records_nothing_until_the_director_resumes_it_TDA_01(first_table, dealer_dana_here,
                                                                              director_dora):
    at(first_table, dealing.start_hand, dealer_dana_here)
    seat = to_act(first_table)
    with pytest.raises(NotAllowed):
        at(first_table, dealing.pause_table, dealer_dana_here, reason="a dispute")  # the director's word
    with pytest.raises(RuleViolation, match="Say why"):
        at(first_table, dealing.pause_table, director_dora, reason=" ")
    at(first_table, dealing.pause_table, director_dora, reason="a dispute over the pot at seat 3")
    with pytest.raises(RuleViolation) as refused:
        at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
    assert refused.value.clause == "TDA-01" and "dispute" in refused.value.message
    at(first_table, dealing.resume_table, director_dora)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "fold", "seat": seat})
    assert [e.action for e in AuditEvent.objects.filter(action__startswith="tournament.table_") if
            e.action in ("tournament.table_paused", "tournament.table_resumed")] == [
        "tournament.table_paused", "tournament.table_resumed"]


def test_the_console_pauses_a_table_and_its_tablet_says_so(client, first_table, dealer_dana_here, director_dora,
                                                           event_in_play):
    at(first_table, dealing.start_hand, dealer_dana_here)
    client.force_login(director_dora)
    event_in_play.refresh_from_db()
    response = client.post(f"/tournaments/{event_in_play.pk}/act/pause-table/",
                           {"version": event_in_play.version, "key": uuid.uuid4().hex, "table": first_table.number,
                            "reason": "chips knocked over"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and "chips knocked over" in response.content.decode()
    client.force_login(dealer_dana_here)
    page = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-paused" in page and "chips knocked over" in page
