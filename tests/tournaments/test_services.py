"""The tournament's commands on PostgreSQL: the write path, registration, busts and corrections."""

from __future__ import annotations

import uuid
from datetime import date

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed, StaleVersion
from tests.tournaments.conftest import PLAYERS, act, register
from tournaments import services
from tournaments.models import Entry, ExclusionListEntry, IdCheck, Player, TournamentEvent
from tournaments.reads import event as event_reads

pytestmark = pytest.mark.django_db(transaction=True)


def types(tournament):
    return [e["type"] for e in event_reads.tournament_record(tournament)]


# --- The write path ----------------------------------------------------------------------------------


def test_the_setup_is_the_records_first_event(sunday_event):
    first = event_reads.tournament_record(sunday_event)[0]
    assert first["seq"] == 1 and first["type"] == "setup" and first["at"].endswith("Z")
    assert first["buy_in"] == 100 and first["seats_per_table"] == 9 and first["structure"]["steps"]


def test_a_double_tap_registers_once(registering, floor_fede):
    registering.refresh_from_db()
    key, version = uuid.uuid4().hex, registering.version
    name, id_type, id_number, birth = PLAYERS[0]
    first = services.register(tournament=registering, by=floor_fede, key=key, expected_version=version, name=name,
                              id_type=id_type, id_number=id_number, birth_date=birth)
    again = services.register(tournament=registering, by=floor_fede, key=key, expected_version=version, name=name,
                              id_type=id_type, id_number=id_number, birth_date=birth)
    assert first.entry == 1 and again.duplicate and again.version == first.version
    assert Entry.objects.filter(tournament=registering).count() == 1


def test_a_screen_acting_on_an_old_version_is_told_to_refresh(registering, floor_fede):
    registering.refresh_from_db()
    old = registering.version
    register(registering, floor_fede, 0)
    with pytest.raises(StaleVersion):
        services.register(tournament=registering, by=floor_fede, key=uuid.uuid4().hex, expected_version=old,
                          name="Late Larry", id_type="dni", id_number="1", birth_date=date(1980, 1, 1))


def test_the_floor_cannot_open_registration_nor_a_dealer_register(sunday_event, floor_fede, dealer_dana_here):
    with pytest.raises(NotAllowed, match="tournament director"):
        act(services.open_registration, sunday_event, floor_fede)
    with pytest.raises(NotAllowed):
        register(sunday_event, dealer_dana_here, 0)
    assert types(sunday_event) == ["setup"]


def test_each_command_audits_in_the_tournaments_stream(registering, floor_fede):
    register(registering, floor_fede, 0)
    actions = list(AuditEvent.objects.filter(stream=f"tournaments.tournament.{registering.pk}")
                   .values_list("action", flat=True))
    # each write: its own events, then the digest of the record events it appended
    assert actions == ["tournament.setup", "tournament.record", "tournament.registration_opened",
                       "tournament.record", "tournament.registered", "tournament.record"]


def test_the_record_is_append_only_in_the_database(registering):
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE tournaments_tournamentevent SET type = 'x' WHERE tournament_id = %s",
                           [registering.pk])


def test_registration_before_it_opens_is_refused_and_nothing_is_recorded(sunday_event, floor_fede):
    with pytest.raises(RuleViolation, match="Registration is not open"):
        register(sunday_event, floor_fede, 0)
    assert types(sunday_event) == ["setup"] and not Player.objects.exists()


# --- Registration (CC-23..27) ------------------------------------------------------------------------


def test_registration_records_the_entry_and_its_id_check_but_no_name_or_id_number(registering, floor_fede):
    result = register(registering, floor_fede, 0)
    assert result.entry == 1 and result.refusal is None
    record = event_reads.tournament_record(registering)
    assert [e["type"] for e in record[-2:]] == ["registered", "id_checked"]
    text = str(record)
    assert "Pia" not in text and "30111222" not in text and "30.111.222" not in text
    check = IdCheck.objects.get()
    assert (check.checkpoint, check.id_number) == ("entry", "30111222")


def test_cc23_an_under_18_is_refused_and_the_refusal_is_recorded_with_its_reason(registering, floor_fede):
    result = act(services.register, registering, floor_fede, name="Kid Kay", id_type="dni", id_number="50.000.001",
                 birth_date=date(2010, 6, 1))
    assert result.refusal is not None and result.refusal.clause == "CC-23" and result.entry is None
    refused = event_reads.tournament_record(registering)[-1]
    assert refused["type"] == "refused" and refused["clause"] == "CC-23" and refused["reason"]
    assert "Kid" not in str(refused) and not Entry.objects.exists()
    assert event_reads.tournament_state(registering).refusals == 1


def test_cc23_a_player_on_the_exclusion_list_is_refused(registering, director_dora, floor_fede):
    imported = services.import_exclusion_csv(by=director_dora, source="lista-2026-11.csv",
                                             text="id_type,id_number,kind,listed_on\ndni,28333444,self_exclusion,"
                                                  "2026-10-01\n")
    assert imported.added == 1 and ExclusionListEntry.objects.get().source == "lista-2026-11.csv"
    result = register(registering, floor_fede, 1)
    assert result.refusal is not None and result.refusal.clause == "CC-23"


def test_cc26_a_second_entry_is_refused_unless_reentry_is_on(registering, floor_fede):
    register(registering, floor_fede, 0)
    second = register(registering, floor_fede, 0)
    assert second.refusal is not None and second.refusal.clause in ("CC-26", "C-32")
    assert Entry.objects.count() == 1


def test_cc23_a_bad_exclusion_row_is_refused_naming_its_line_and_the_good_rows_are_kept(director_dora):
    imported = services.import_exclusion_csv(by=director_dora, text="id_type,id_number,kind,listed_on\n"
                                                                    "dni,12345678,exclusion,2026-01-01\n"
                                                                    "dni,23456789,exclusion,01/02/2026\n")
    assert (imported.added, imported.updated) == (1, 0)
    assert [refusal.message for refusal in imported.refused] == [
        "Line 3: '01/02/2026' is not a date (write YYYY-MM-DD)"]
    assert list(ExclusionListEntry.objects.values_list("id_number", flat=True)) == ["12345678"]


def test_cc23_an_exclusion_file_that_cannot_be_read_changes_nothing(director_dora):
    services.import_exclusion_csv(by=director_dora, text="id_type,id_number,kind,listed_on\n"
                                                         "dni,12345678,exclusion,2026-01-01\n")
    with pytest.raises(RuleViolation, match="Line 3: a field is longer than 128 KiB"):
        services.import_exclusion_csv(by=director_dora, text="id_type,id_number,kind,listed_on\n"
                                                             "dni,12345678,exclusion,2025-01-01\n"
                                                             "dni,23456789,exclusion,2026-01-01," + "x" * 140_000)
    assert list(ExclusionListEntry.objects.values_list("id_number", "listed_on")) == [("12345678", date(2026, 1, 1))]


def test_accreditation_checks_the_document_is_the_players(registering, floor_fede):
    register(registering, floor_fede, 2)
    with pytest.raises(RuleViolation, match="not entry 1's"):
        act(services.accredit, registering, floor_fede, entry=1, id_type="passport", id_number="ZZ999")
    act(services.accredit, registering, floor_fede, entry=1, id_type="passport", id_number="ab 123456")
    assert list(IdCheck.objects.values_list("checkpoint", flat=True)) == ["entry", "accreditation"]


def test_cc14_closing_registration_fixes_the_prize_pool_from_the_buy_ins(registering, director_dora, floor_fede):
    for i in range(3):
        register(registering, floor_fede, i)
    act(services.close_registration, registering, director_dora)
    closed = event_reads.tournament_record(registering)[-1]
    assert closed["type"] == "registration_closed" and closed["entries"] == 3 and closed["prize_pool"] == 300
    registering.refresh_from_db()
    assert event_reads.tournament_state(registering).prize_pool == 300


def test_cc04_a_setup_change_is_recorded_and_announced(registering, director_dora):
    result = act(services.change_setup, registering, director_dora, reason="house rule", starting_stack=15_000)
    changed = event_reads.tournament_record(registering)[-1]
    assert changed["type"] == "setup_changed" and changed["changes"] == {"starting_stack": 15_000}
    registering.refresh_from_db()
    assert registering.starting_stack == 15_000 and result.version == registering.version
    assert event_reads.tournament_state(registering).setup.starting_stack == 15_000


# --- Seats, busts and corrections ------------------------------------------------------------------


@pytest.fixture
def started(registering, director_dora, floor_fede):
    for i in range(5):
        register(registering, floor_fede, i)
    act(services.close_registration, registering, director_dora)
    act(services.start_tournament, registering, director_dora)
    registering.refresh_from_db()
    return registering


def test_tda07_the_start_draws_every_seat_with_a_full_stack(started):
    state = event_reads.tournament_state(started)
    assert len(state.tables) == 1 and state.players_left == 5
    assert all(e.stack == 10_000 and e.status == "seated" for e in state.entries)
    seats = [e.seat for e in state.entries]
    assert len(set(seats)) == 5 and all(1 <= s <= 9 for s in seats)
    assert set(Entry.objects.values_list("status", flat=True)) == {"seated"}


def seat_of(tournament, entry):
    e = event_reads.tournament_state(tournament).entry(entry)
    return e.table, e.seat


def test_a_bust_is_recorded_and_the_wrong_player_corrected(started, floor_fede):
    table, seat = seat_of(started, 2)
    bust = act(services.record_bust, started, floor_fede, table=table, seat=seat, hand=4)
    assert bust.entry == 2
    started.refresh_from_db()
    assert event_reads.tournament_state(started).entry(2).status == "busted"
    assert Entry.objects.get(number=2).status == "busted"
    right_table, right_seat = seat_of(started, 3)
    act(services.correct, started, floor_fede, seq=bust.seqs[0], reason=f"it was seat {right_seat}",
        replacement={"type": "bust", "entry": 3, "table": right_table, "hand": 4})
    started.refresh_from_db()
    state = event_reads.tournament_state(started)
    assert state.entry(2).status == "seated" and state.entry(2).stack == 10_000
    assert state.entry(3).status == "busted" and [e.entry for e in state.eliminations] == [3]
    assert Entry.objects.get(number=2).status == "seated"
    assert types(started).count("bust") == 1 and types(started)[-1] in ("correction", "plan_proposed")


def test_cc19_two_busts_in_one_hand_need_their_stacks_at_its_start(started, floor_fede):
    t1, s1 = seat_of(started, 1)
    t2, s2 = seat_of(started, 2)
    act(services.record_bust, started, floor_fede, table=t1, seat=s1, hand=7)
    with pytest.raises(RuleViolation, match="CC-19"):
        act(services.record_bust, started, floor_fede, table=t2, seat=s2, hand=7)


def test_report_hand_ranks_busts_by_their_stacks_at_the_start(started, floor_fede):
    state = event_reads.tournament_state(started)
    table = state.tables[0]
    (sa, a), (sb, b), (sc, c) = table.players[:3]
    result = act(services.report_hand, started, floor_fede, table=table.table, hand=1, button=sa,
                 small_blind_seat=sb, big_blind_seat=sc,
                 stacks_at_start={sa: 10_000, sb: 10_000, sc: 10_000}, stacks_at_end={sa: 0, sb: 30_000, sc: 0},
                 busts=[sa, sc])
    assert result.version
    started.refresh_from_db()
    state = event_reads.tournament_state(started)
    assert state.entry(b).stack == 30_000 and {e.entry for e in state.eliminations} == {a, c}
    assert all(e.stack_at_start == 10_000 for e in state.eliminations)
    assert state.chips_in_play == 30_000 + 2 * 10_000
    # the entries' rows (what lists and searches read) follow the record, in one statement
    rows = {e.number: (e.status, e.chips) for e in Entry.objects.filter(tournament=started, number__in=[a, b, c])}
    assert rows == {a: ("busted", 0), b: ("seated", 30_000), c: ("busted", 0)}


def test_a_hand_whose_chips_do_not_add_up_is_refused(started, floor_fede):
    table = event_reads.tournament_state(started).tables[0]
    (sa, _), (sb, _) = table.players[:2]
    with pytest.raises(RuleViolation, match="do not add up"):
        act(services.report_hand, started, floor_fede, table=table.table, hand=1, button=sa, small_blind_seat=sa,
            big_blind_seat=sb, stacks_at_start={sa: 10_000, sb: 10_000}, stacks_at_end={sa: 25_000, sb: 0},
            busts=[sb])


def test_the_floor_may_not_correct_the_directors_actions(started, director_dora, floor_fede):
    act(services.withdraw, started, director_dora, entry=4)
    seq = len(event_reads.tournament_record(started))
    while event_reads.tournament_record(started)[seq - 1]["type"] != "withdrawal":
        seq -= 1
    with pytest.raises(NotAllowed):
        act(services.correct, started, floor_fede, seq=seq, reason="he came back")
    act(services.correct, started, director_dora, seq=seq, reason="he came back")
    started.refresh_from_db()
    assert event_reads.tournament_state(started).entry(4).status == "seated"


def test_a_correction_needs_a_reason_and_the_setup_is_not_corrected(started, director_dora):
    with pytest.raises(RuleViolation):
        act(services.correct, started, director_dora, seq=2, reason="  ")
    with pytest.raises(RuleViolation, match="cannot be corrected"):
        act(services.correct, started, director_dora, seq=1, reason="wrong buy-in")


def test_the_clock_is_kept_from_recorded_commands(started, director_dora):
    act(services.clock_command, started, director_dora, kind="start")
    act(services.clock_command, started, director_dora, kind="pause")
    with pytest.raises(RuleViolation):
        act(services.clock_command, started, director_dora, kind="pause")
    started.refresh_from_db()
    assert [c.kind for c in event_reads.tournament_state(started).clock_events] == ["start", "pause"]


def test_the_winner_is_paid_after_an_id_check_and_only_once_CC_15(started, director_dora, floor_fede):
    for entry in (1, 2, 3, 4):
        table, seat = seat_of(started, entry)
        act(services.record_bust, started, floor_fede, table=table, seat=seat, hand=10 + entry)
        started.refresh_from_db()
        pending = event_reads.tournament_state(started).pending_plan
        if pending:
            act(services.confirm_plan, started, floor_fede, proposed=pending[0])
    act(services.record_results, started, director_dora)
    started.refresh_from_db()
    state = event_reads.tournament_state(started)
    assert state.finished and state.results[0].entries == (5,)
    first_prize = state.results[0].prize_each
    assert first_prize > 0
    _name, id_type, id_number, _birth = PLAYERS[4]
    with pytest.raises(RuleViolation, match="not entry 5's"):
        act(services.pay_prize, started, director_dora, entry=5, id_type="dni", id_number="1")
    act(services.pay_prize, started, director_dora, entry=5, id_type=id_type, id_number=id_number)
    with pytest.raises(RuleViolation, match="paid already"):
        act(services.pay_prize, started, director_dora, entry=5, id_type=id_type, id_number=id_number)
    assert TournamentEvent.objects.filter(type="prize_paid").get().data == {"entry": 5, "amount": first_prize}


def test_a_registration_corrected_away_ends_its_players_phone_links(registering, director_dora, floor_fede):
    from tournaments import services

    register(registering, floor_fede, 0)
    entry = Entry.objects.get(tournament=registering, number=1)
    link = services.issue_entry_link(entry, by=floor_fede)
    registered = TournamentEvent.objects.get(tournament=registering, type="registered")
    act(services.correct, registering, director_dora, seq=registered.seq, reason="registered twice by mistake")
    link.refresh_from_db()
    assert link.revoked_at is not None


# --- Who hears of a write --------------------------------------------------------------------------------


@pytest.fixture
def announced(monkeypatch):
    """Every announcement sent after a commit, as (group, version)."""
    from casino import realtime

    sent = []
    monkeypatch.setattr(realtime, "send_now", lambda groups, messages: sent.extend(
        (m["group"], m["version"]) for m in messages))
    return sent


def test_a_plain_hands_report_reaches_the_console_but_not_the_events_other_screens(started, floor_fede, announced):
    """At a hundred dealt tables a hand ends about every second: a hand without a bust changes nothing the
    phones, the clock displays or the other tables' tablets show (models.event_screens_group)."""
    from tournaments.models import event_screens_group

    table = event_reads.tournament_state(started).tables[0]
    (sa, _a), (sb, _b), (sc, _c) = table.players[:3]
    plain = act(services.report_hand, started, floor_fede, table=table.table, hand=1, button=sa, small_blind_seat=sb,
                big_blind_seat=sc, stacks_at_start={sa: 10_000, sb: 10_000, sc: 10_000},
                stacks_at_end={sa: 5_000, sb: 15_000, sc: 10_000})
    bust = act(services.report_hand, started, floor_fede, table=table.table, hand=2, button=sb, small_blind_seat=sc,
               big_blind_seat=sa, stacks_at_start={sa: 5_000, sb: 15_000, sc: 10_000},
               stacks_at_end={sa: 0, sb: 20_000, sc: 10_000}, busts=[sa])
    console, screens = started.group_name, event_screens_group(started.pk)
    assert (console, plain.version) in announced and (console, bust.version) in announced
    assert (screens, plain.version) not in announced and (screens, bust.version) in announced


@pytest.mark.parametrize("why", ["a penalty served", "chips that appear", "hand-for-hand"])
def test_a_hand_that_changes_more_than_its_table_is_announced_to_every_screen(request, floor_fede, director_dora,
                                                                               announced, why):
    # hand-for-hand synchronises several tables (issue #36): that case plays at the first of two
    started = request.getfixturevalue("two_tables_in_play" if why == "hand-for-hand" else "started")
    from tournaments.models import event_screens_group

    table = event_reads.tournament_state(started).tables[0]
    (sa, a), (sb, _b) = table.players[:2]
    starts, ends, penalised = {sa: 10_000, sb: 10_000}, {sa: 5_000, sb: 15_000}, []
    if why == "a penalty served":
        act(services.give_penalty, started, director_dora, entry=a, kind="hands", count=1, reason="soft play")
        penalised = [sa]
    elif why == "chips that appear":
        starts, ends = {}, {sa: 12_000}  # the floor reports a stack it counted, not a whole hand
    else:
        act(services.clock_command, started, director_dora, kind="hand_for_hand_on")
    hand = act(services.report_hand, started, floor_fede, table=table.table, hand=1, button=sa, small_blind_seat=sa,
               big_blind_seat=sb, stacks_at_start=starts, stacks_at_end=ends, penalised=penalised)
    assert (event_screens_group(started.pk), hand.version) in announced


def test_an_entry_corrected_away_keeps_its_number_and_the_next_registration_takes_a_new_one_CC_04(
    registering, director_dora, floor_fede
):
    from tournaments.models import Entry, TournamentEvent

    register(registering, floor_fede, 0)
    register(registering, floor_fede, 1)
    mistake = TournamentEvent.objects.filter(tournament=registering, type="registered").order_by("-seq").first()
    act(services.correct, registering, director_dora, seq=mistake.seq, reason="registered by mistake")

    register(registering, floor_fede, 2)

    registering.refresh_from_db()
    assert sorted(e.entry for e in event_reads.tournament_state(registering).entries) == [1, 3]
    assert list(Entry.objects.filter(tournament=registering).values_list("number", flat=True)) == [1, 2, 3]
