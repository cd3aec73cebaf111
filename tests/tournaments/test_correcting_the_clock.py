"""A correction that voids one of the clock's commands (CC-04) must leave a clock that replays: found by the
tournament's fuzz run (issue #34). Voiding the "hand-for-hand off" between two "on"s was recorded, and from
then on every screen that shows the clock (the console, the tablets, the displays) answered 500 with RP-08-B's
"Hand-for-hand is already on"."""

from __future__ import annotations

import pytest

from casino.rules.errors import RuleViolation
from casino.rules.tournament import clock
from casino.rules.tournament.structure import Structure
from tests.tournaments.conftest import act
from tournaments import services
from tournaments.models import TournamentEvent
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db


def _clock_line(tournament, kind: str) -> int:
    return (TournamentEvent.objects.filter(tournament=tournament, type="clock", data__kind=kind)
            .order_by("-seq").values_list("seq", flat=True).first())


def _clock_reads(tournament) -> clock.ClockReading:
    state = event_reads.tournament_state(tournament)
    events = list(state.clock_events)
    return clock.clock_at(Structure.from_dict(state.setup.structure), events, events[-1].at,
                          hand_for_hand_seconds=state.setup.options.hand_for_hand_seconds)


def test_it_refuses_to_void_a_clock_command_the_clock_cannot_replay_without_cc_04_rp_08_b(two_tables_in_play,
                                                                                          director_dora, client):
    event_in_play = two_tables_in_play  # hand-for-hand synchronises several tables (issue #36)
    for kind in ("hand_for_hand_on", "hand_for_hand_off", "hand_for_hand_on"):
        act(services.clock_command, event_in_play, director_dora, kind=kind)
    off = _clock_line(event_in_play, "hand_for_hand_off")
    event_in_play.refresh_from_db()
    version = event_in_play.version

    with pytest.raises(RuleViolation) as refused:
        act(services.correct, event_in_play, director_dora, seq=off, reason="pressed by mistake")

    assert refused.value.clause == "RP-08-B"
    event_in_play.refresh_from_db()
    assert event_in_play.version == version  # nothing recorded
    assert _clock_reads(event_in_play).hand_for_hand
    client.force_login(director_dora)
    assert client.get(f"/tournaments/{event_in_play.pk}/").status_code == 200


def test_a_clock_command_whose_voiding_leaves_a_clock_that_replays_is_corrected(two_tables_in_play, director_dora):
    event_in_play = two_tables_in_play
    act(services.clock_command, event_in_play, director_dora, kind="hand_for_hand_on")
    on = _clock_line(event_in_play, "hand_for_hand_on")

    act(services.correct, event_in_play, director_dora, seq=on, reason="not yet at the bubble")

    assert not _clock_reads(event_in_play).hand_for_hand


def test_it_refuses_a_structure_cut_below_the_level_the_clock_has_reached_cc_86(event_in_play, director_dora, client):
    """Found by the fuzz run on the merged #34 branches: the clock skipped to level 4, then the setup saved a
    structure of three levels; every screen showing the clock answered 500 ("The structure has no step 4")."""
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=3)
    structure = event_reads.tournament_state(event_in_play).setup.structure
    event_in_play.refresh_from_db()
    version = event_in_play.version

    with pytest.raises(RuleViolation) as refused:
        act(services.change_setup, event_in_play, director_dora,
            structure={**structure, "steps": structure["steps"][:3]}, reason="a shorter night")

    assert refused.value.clause == "CC-86"
    event_in_play.refresh_from_db()
    assert event_in_play.version == version  # nothing recorded
    assert _clock_reads(event_in_play).step == 3
    client.force_login(director_dora)
    assert client.get(f"/tournaments/{event_in_play.pk}/").status_code == 200
