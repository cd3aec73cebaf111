"""The floor's and the director's other commands: late entries, re-entries, absent stacks, seats,
chip counts, hand-for-hand, structure templates."""

from __future__ import annotations

from datetime import date

import pytest

from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tests.tournaments.conftest import act, register
from tournaments import services
from tournaments.models import StructureTemplate
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def running(registering, director_dora, floor_fede):
    for i in range(4):
        register(registering, floor_fede, i)
    act(services.start_tournament, registering, director_dora)
    registering.refresh_from_db()
    return registering


def state(t):
    t.refresh_from_db()
    return event_reads.tournament_state(t)


def last(t):
    return event_reads.tournament_record(t)[-1]


def test_tda08_a_late_entry_gets_a_full_stack_and_an_open_seat(running, floor_fede):
    result = register(running, floor_fede, 4)
    seated = next(e for e in event_reads.tournament_record(running) if e["type"] == "seated" and e["entry"] == 5)
    assert seated["why"] == "late" and seated["chips"] == 10_000
    entry = state(running).entry(result.entry)
    assert entry.status == "seated" and entry.seat not in {e.seat for e in state(running).entries if e.entry != 5}


def test_cc26_a_busted_player_reenters_when_the_event_allows_it(running, director_dora, floor_fede):
    act(services.change_setup, running, director_dora, options={"reentry_allowed": True}, reason="re-entry on")
    e = state(running).entry(1)
    act(services.record_bust, running, floor_fede, table=e.table, seat=e.seat, hand=3)
    again = register(running, floor_fede, 0)
    assert again.refusal is None and again.entry == 5
    registered = next(x for x in event_reads.tournament_record(running)
                      if x["type"] == "registered" and x["entry"] == 5)
    assert registered["reentry_of"] == 1
    assert any(x["type"] == "seated" and x["entry"] == 5 and x["why"] == "reentry"
               for x in event_reads.tournament_record(running))


def test_no_re_entry_while_the_first_entry_is_still_in_play_CC_26(running, director_dora, floor_fede):
    act(services.change_setup, running, director_dora, options={"reentry_allowed": True}, reason="re-entry on")
    assert state(running).entry(1).status == "seated"
    again = register(running, floor_fede, 0)  # the same player, his entry 1 still seated
    assert again.refusal is not None and again.refusal.clause == "CC-26" and again.entry is None
    assert "still in the event with entry 1" in again.refusal.message
    refused = last(running)
    assert refused["type"] == "refused" and refused["clause"] == "CC-26"
    assert len(state(running).entries) == 4
    # Once that entry is out, the same player re-enters.
    e = state(running).entry(1)
    act(services.record_bust, running, floor_fede, table=e.table, seat=e.seat, hand=3)
    assert register(running, floor_fede, 0).refusal is None


def test_a_late_entry_and_a_re_entry_each_get_a_full_starting_stack_CC_32(running, director_dora, floor_fede):
    act(services.change_setup, running, director_dora, options={"reentry_allowed": True}, reason="re-entry on")
    starting = state(running).setup.starting_stack
    late = register(running, floor_fede, 4)
    assert state(running).entry(late.entry).stack == starting
    e = state(running).entry(1)
    act(services.record_bust, running, floor_fede, table=e.table, seat=e.seat, hand=3)
    again = register(running, floor_fede, 0)
    assert again.refusal is None and state(running).entry(again.entry).stack == starting
    seated = [x for x in event_reads.tournament_record(running) if x["type"] == "seated"
              and x["entry"] in (late.entry, again.entry)]
    assert [(x["why"], x["chips"]) for x in seated] == [("late", starting), ("reentry", starting)]


def test_the_desk_seats_no_late_entry_once_the_final_table_is_drawn_TDA_08_A(two_tables_in_play, floor_fede):
    e = state(two_tables_in_play).entry(1)
    act(services.record_bust, two_tables_in_play, floor_fede, table=e.table, seat=e.seat, hand=1)
    act(services.confirm_plan, two_tables_in_play, floor_fede,
        proposed=state(two_tables_in_play).pending_plan[0])
    final = [t for t in state(two_tables_in_play).tables if t.count]
    assert len(final) == 1 and final[0].final and final[0].open_seats()  # a seat is open there
    entries = len(state(two_tables_in_play).entries)
    with pytest.raises(RuleViolation) as refused:
        late_player(two_tables_in_play, floor_fede, 0)
    assert refused.value.clause == "TDA-08-A" and "final table" in refused.value.message
    assert len(state(two_tables_in_play).entries) == entries  # nothing recorded


def test_cc34_a_player_who_withdrew_is_refused_again_even_with_reentry_on(running, director_dora, floor_fede):
    act(services.change_setup, running, director_dora, options={"reentry_allowed": True}, reason="re-entry on")
    act(services.withdraw, running, director_dora, entry=1)
    again = register(running, floor_fede, 0)
    assert again.refusal is not None and again.refusal.clause == "CC-34" and again.entry is None
    refused = last(running)
    assert refused["type"] == "refused" and refused["clause"] == "CC-34"
    assert len(state(running).entries) == 4


def late_player(t, by, number, **kwargs):
    return act(services.register, t, by, name=f"Late Player {'ABCDEF'[number]}", id_type="dni",
               id_number=f"41.000.00{number}", birth_date=date(1990, 1, 1), **kwargs)


def test_cc32_late_registration_ends_after_its_level_and_its_break(running, director_dora, floor_fede):
    """The house default structure: levels 1 to 4, a break (step 4), level 5 (step 5)."""
    act(services.change_setup, running, director_dora, late_registration_level=4, reason="late entries to level 4")
    act(services.clock_command, running, director_dora, kind="start")
    assert late_player(running, floor_fede, 0).refusal is None  # level 1
    act(services.clock_command, running, director_dora, kind="skip", step=4)
    assert late_player(running, floor_fede, 1).refusal is None  # the break after level 4
    act(services.clock_command, running, director_dora, kind="skip", step=5)
    refused = late_player(running, floor_fede, 2)
    assert refused.refusal is not None and refused.refusal.clause == "CC-32" and refused.entry is None
    assert last(running)["type"] == "refused" and last(running)["clause"] == "CC-32"
    assert len(state(running).entries) == 6


def test_cc32_without_an_end_set_late_entries_are_taken_at_any_level(running, director_dora, floor_fede):
    act(services.clock_command, running, director_dora, kind="start")
    act(services.clock_command, running, director_dora, kind="skip", step=5)
    assert late_player(running, floor_fede, 0).refusal is None


def test_cc32_the_directors_override_registers_after_the_end_recorded_and_audited(running, director_dora,
                                                                                    floor_fede):
    from django.utils import translation

    from casino.models import AuditEvent
    from tournaments import record_text

    act(services.change_setup, running, director_dora, late_registration_level=1, reason="late entries to level 1")
    act(services.clock_command, running, director_dora, kind="start")
    act(services.clock_command, running, director_dora, kind="skip", step=1)
    with pytest.raises(NotAllowed):
        late_player(running, floor_fede, 0, late_override=True)  # the floor may not override
    result = late_player(running, director_dora, 0, late_override=True)
    assert result.refusal is None and result.entry == 5 and state(running).entry(5).status == "seated"
    registered = next(e for e in event_reads.tournament_record(running)
                      if e["type"] == "registered" and e["entry"] == 5)
    assert registered["late_override"] is True
    with translation.override("en"):  # the sentence is said in the active language, which another test may leave
        assert "override" in record_text.record_sentence(registered)
    audited = AuditEvent.objects.get(action="tournament.registered", details__entry=5)
    assert audited.details["late_override"] is True and audited.actor_id == director_dora.pk
    # an entry in time carries no override, even when the director ticks it
    early = next(e for e in event_reads.tournament_record(running) if e["type"] == "registered" and e["entry"] == 1)
    assert "late_override" not in early


def test_cc30_cc31_absent_stacks_are_removed_unless_held(running, director_dora):
    act(services.hold_stack, running, director_dora, entry=2)
    with pytest.raises(RuleViolation, match="CC-31"):
        act(services.remove_absent_stacks, running, director_dora, absent=[1, 2])
    act(services.remove_absent_stacks, running, director_dora, absent=[1])
    s = state(running)
    assert s.entry(1).status == "busted" and s.entry(2).held and s.entry(2).stack == 10_000


def test_tda07_the_floor_corrects_a_seat_with_a_reason_and_only_the_director_overrides(running, director_dora,
                                                                                        floor_fede):
    s = state(running)
    table = s.tables[0]
    free = next(n for n in range(1, table.seats + 1) if n not in dict(table.players))
    with pytest.raises(RuleViolation, match="Say why"):
        act(services.correct_seat, running, floor_fede, entry=1, table=table.table, seat=free, reason="")
    act(services.correct_seat, running, floor_fede, entry=1, table=table.table, seat=free, reason="sat at 3")
    assert any(x["type"] == "seated" and x["why"] == "correction" and x.get("reason") == "sat at 3"
               for x in event_reads.tournament_record(running))
    assert state(running).entry(1).seat == free
    with pytest.raises(NotAllowed):
        act(services.override_seat, running, floor_fede, entry=1, table=table.table, seat=free, reason="x")


def test_a_seat_taken_by_another_player_is_refused_and_nothing_recorded(running, floor_fede):
    s = state(running)
    one, two = s.entry(1), s.entry(2)
    before = len(event_reads.tournament_record(running))
    with pytest.raises(RuleViolation, match="taken by entry 2"):
        act(services.correct_seat, running, floor_fede, entry=1, table=two.table, seat=two.seat, reason="typo")
    assert len(event_reads.tournament_record(running)) == before and state(running).entry(1).seat == one.seat


def test_chip_counts_at_a_break_set_the_stacks(running, floor_fede):
    act(services.enter_chip_count, running, floor_fede, counts={1: 12_500, 2: 7_500})
    s = state(running)
    assert (s.entry(1).stack, s.entry(2).stack) == (12_500, 7_500)


def test_rp08_a_bust_in_hand_for_hand_carries_the_hand_for_hand_hand(two_tables_in_play, director_dora, floor_fede):
    running = two_tables_in_play  # hand-for-hand synchronises several tables (issue #36)
    act(services.clock_command, running, director_dora, kind="hand_for_hand_on")
    act(services.clock_command, running, director_dora, kind="hand_for_hand_hand")
    e = state(running).entry(3)
    act(services.record_bust, running, floor_fede, table=e.table, seat=e.seat, hand=30)
    bust = next(x for x in event_reads.tournament_record(running) if x["type"] == "bust")
    assert bust["hand_for_hand_hand"] == 1
    assert state(running).eliminations[0].hand_for_hand_hand == 1


def test_a_structure_is_saved_as_a_template_and_copied_into_an_event(running, director_dora, floor_fede):
    structure = state(running).setup.structure
    shorter = {**structure, "steps": structure["steps"][:6]}
    template = services.save_structure_template(by=director_dora, name="Turbo", structure=shorter)
    with pytest.raises(NotAllowed):
        services.save_structure_template(by=floor_fede, name="Mine", structure=shorter)
    act(services.copy_structure_template, running, director_dora,
        template=StructureTemplate.objects.get(pk=template.pk))
    changed = last(running)
    assert changed["type"] == "structure_changed" and changed["structure"] == shorter
    assert state(running).setup.structure == shorter


def test_a_refused_setup_change_says_what_is_wrong(running, director_dora):
    with pytest.raises(RuleViolation, match="10, 9, 8 or 6"):
        act(services.change_setup, running, director_dora, seats_per_table=7)
    with pytest.raises(RuleViolation, match="Nothing in the setup changed"):
        act(services.change_setup, running, director_dora, buy_in=100)


def test_registration_is_refused_without_a_valid_id(registering, floor_fede):
    result = act(services.register, registering, floor_fede, name="No Doc", id_type="library_card", id_number="77",
                 birth_date=date(1980, 1, 1))
    assert result.refusal is not None and result.refusal.clause in ("CC-24", "CC-23", "CC-25")


def _race_written() -> bool:
    from casino.rules.tournament import chip_race

    try:
        chip_race.race((), {}, removed=25, into=100, smallest_left=100, rng=None)
    except NotImplementedError:
        return False
    except Exception:  # noqa: BLE001 - written, refusing the empty sample
        return True
    return True


@pytest.mark.skipif(not _race_written(), reason="chip_race.race is being written by another helper (issue #14)")
def test_tda24_a_colour_up_records_the_race_and_sets_the_stacks(running, floor_fede):
    import random

    s = state(running)
    table = s.tables[0]
    seats = [seat for seat, _entry in table.players]
    odd = {seats[0]: 3, seats[1]: 2, seats[2]: 0}
    act(services.colour_up, running, floor_fede, table=table.table, removed=25, into=100, smallest_left=100,
        odd_chips=odd, rng=random.Random(24))
    race = last(running)
    assert race["type"] == "colour_up" and race["removed"] == 25 and race["into"] == 100
    assert [o[0] for o in race["odd_chips"]] == sorted(odd)
    after = state(running)
    for entry, stack in race["stacks"]:
        assert after.entry(entry).stack == stack
    holders = {dict(table.players)[seat] for seat, chips in odd.items() if chips}
    assert set(race["won"]) <= holders


def test_tda11_a_plan_that_is_not_the_one_shown_is_not_confirmed(running, floor_fede):
    with pytest.raises(RuleViolation, match="plan changed"):
        act(services.confirm_plan, running, floor_fede, proposed=999)
