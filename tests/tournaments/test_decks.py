"""A tournament table's decks (issue #39): each hand names its deck; the deck changes as the house sets (C-17:
at the level's end or when the director says, TDA-26, CC-71), never at a player's request (CC-76); a
defective deck voids the hand (CC-72, CC-73, TDA-35-E, C-35) and is retired with its reason, the floor told;
the inspector lists and replays a deck's hands; a deck is cancelled with two people's signatures."""

from __future__ import annotations

import json
import uuid

import pytest
from django.utils import translation

from casino import deck_reads, decks
from casino.models import AuditEvent, Deck, DeckStep
from casino.rules.errors import RuleViolation
from casino.rules.holdem.replay import replay_holdem_hand
from casino.writes import NotAllowed
from tests.tournaments.conftest import act
from tests.tournaments.test_dealing import at, hand_in_play, to_act
from tournaments import services
from tournaments.models import TableHand, tables_group
from tournaments.reads import hands as hand_reads
from tournaments.services import dealing

pytestmark = pytest.mark.django_db(transaction=True)


def a_checked_deck(table, floor, serial: str, back: str = "red") -> Deck:
    """A deck received into the event's stock, issued to ``table`` and checked there, the floor signing."""
    deck = decks.receive_deck(stock=tables_group(table.tournament_id), stock_name="Sunday", back=back,
                              design="Casino Club", serial=serial, by=floor)
    decks.issue_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=table.group_name, place_name=str(table))
    deck.refresh_from_db()
    decks.check_deck(deck=deck, by=floor, key=uuid.uuid4().hex, expected_version=deck.version, complete=True,
                     undamaged=True, unmarked=True)
    deck.refresh_from_db()
    return deck


def a_hand_folded_to_the_big_blind(table, dealer) -> TableHand:
    at(table, dealing.start_hand, dealer)
    while to_act(table) is not None:
        at(table, dealing.act, dealer, record={"action": "fold", "seat": to_act(table)})
    at(table, dealing.act, dealer, record={"action": "award-pots"})
    return hand_in_play(table)


@pytest.fixture
def deck_in_play(first_table, dealer_dana_here, floor_fede):
    deck = a_checked_deck(first_table, floor_fede, "SUN-001", "red")
    at(first_table, dealing.change_deck, dealer_dana_here, deck=deck, reason="level")
    deck.refresh_from_db()
    return deck


def _refused(clause, fn, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        fn(*args, **kwargs)
    assert refused.value.clause == clause
    return refused.value


def test_each_hand_names_the_deck_it_was_dealt_with_and_its_line_says_so(first_table, dealer_dana_here,
                                                                        deck_in_play, event_in_play):
    assert deck_in_play.state == Deck.State.IN_PLAY and deck_in_play.in_play_at["level"] == 1
    first_table.refresh_from_db()
    assert first_table.deck_id == deck_in_play.pk
    hand = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    assert hand.deck_id == deck_in_play.pk
    (text,) = list(hand_reads.hand_lines_text(event_in_play))
    line = json.loads(text)
    assert line["deck"] == "SUN-001"
    assert "error" not in replay_holdem_hand(line)  # read, not replayed: the line still replays


def test_a_level_change_asks_for_a_new_deck_before_the_next_hand_CC_71(first_table, dealer_dana_here, floor_fede,
                                                                       director_dora, deck_in_play, event_in_play):
    a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=1)  # level 2
    first_table.refresh_from_db()
    version = first_table.version
    refused = _refused("CC-71", at, first_table, dealing.start_hand, dealer_dana_here)
    assert "change the deck" in refused.message
    first_table.refresh_from_db()
    assert first_table.version == version and first_table.hands.count() == 1  # nothing recorded

    blue = a_checked_deck(first_table, floor_fede, "SUN-002", "blue")
    at(first_table, dealing.change_deck, dealer_dana_here, deck=blue, reason="level")
    deck_in_play.refresh_from_db()
    blue.refresh_from_db()
    assert deck_in_play.state == Deck.State.RETIRED and "level" in deck_in_play.reason
    assert blue.state == Deck.State.IN_PLAY and blue.in_play_at["level"] == 2
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert hand_in_play(first_table).deck_id == blue.pk
    assert AuditEvent.objects.filter(action="tournament.table_deck_changed", details__deck="SUN-002",
                                     details__old="SUN-001", details__reason="level").exists()


def test_a_deck_change_at_a_players_request_is_refused_CC_76(first_table, dealer_dana_here, floor_fede,
                                                             deck_in_play):
    other = a_checked_deck(first_table, floor_fede, "SUN-003", "blue")
    first_table.refresh_from_db()
    version = first_table.version
    refused = _refused("CC-76", at, first_table, dealing.change_deck, dealer_dana_here, deck=other, reason="player")
    assert "defective" in refused.message
    first_table.refresh_from_db()
    deck_in_play.refresh_from_db()
    assert first_table.version == version and first_table.deck_id == deck_in_play.pk
    assert deck_in_play.state == Deck.State.IN_PLAY


def test_no_level_change_no_deck_change_by_the_level_C_17(first_table, dealer_dana_here, floor_fede, deck_in_play):
    other = a_checked_deck(first_table, floor_fede, "SUN-004", "blue")
    _refused("C-17", at, first_table, dealing.change_deck, dealer_dana_here, deck=other, reason="level")
    # this house (CC-71, the default) does not change the deck at a dealer change
    _refused("C-17", at, first_table, dealing.change_deck, dealer_dana_here, deck=other, reason="dealer_change")


def test_the_director_orders_a_deck_change_and_a_dealer_does_not_TDA_26_CC_71(first_table, dealer_dana_here,
                                                                              director_dora, floor_fede, deck_in_play):
    other = a_checked_deck(first_table, floor_fede, "SUN-005", "blue")
    with pytest.raises(NotAllowed):
        at(first_table, dealing.change_deck, dealer_dana_here, deck=other, reason="director")
    at(first_table, dealing.change_deck, director_dora, deck=other, reason="director")
    first_table.refresh_from_db()
    assert first_table.deck_id == other.pk


def test_a_deck_not_issued_to_the_table_is_not_put_in_play_THB_21(first_table, dealer_dana_here, floor_fede):
    stranger = decks.receive_deck(stock=tables_group(first_table.tournament_id), back="red", serial="SUN-X",
                                  by=floor_fede)
    _refused("THB-21", at, first_table, dealing.change_deck, dealer_dana_here, deck=stranger, reason="level")
    issued = a_checked_deck(first_table, floor_fede, "SUN-Y")
    decks.retire_deck(deck=issued, by=floor_fede, key=uuid.uuid4().hex, expected_version=issued.version)
    _refused("THB-21", at, first_table, dealing.change_deck, dealer_dana_here, deck=issued, reason="level")


def test_a_defective_deck_voids_the_hand_returns_every_bet_and_is_retired_CC_73_TDA_35_E(
        first_table, dealer_dana_here, floor_fede, deck_in_play):
    at(first_table, dealing.start_hand, dealer_dana_here)
    hand = hand_in_play(first_table)
    seat = to_act(first_table)
    at(first_table, dealing.act, dealer_dana_here, record={"action": "call", "seat": seat})
    starts = dict(hand_reads.hand_state(hand).setup.stacks)
    with translation.override("en"):  # the alert is said in the dealer's language
        result = at(first_table, dealing.declare_defective_deck, dealer_dana_here, defect="duplicate",
                    reason="two aces of spades")
    hand.refresh_from_db()
    engine = hand_reads.hand_state(hand)
    assert hand.phase == "void" and dict(engine.stacks) == starts  # every bet returned (C-35)
    deck_in_play.refresh_from_db()
    assert (deck_in_play.state, deck_in_play.defect, deck_in_play.reason) == (
        Deck.State.DEFECTIVE, "duplicate", "two aces of spades")
    assert any("floor is told" in alert for alert in result.alerts)
    assert DeckStep.objects.filter(deck=deck_in_play, action="defective").exists()
    assert AuditEvent.objects.filter(action="tournament.table_deck_defective", details__hand=hand.number).exists()
    # no hand is dealt with it again: a new deck first
    _refused("CC-72", at, first_table, dealing.start_hand, dealer_dana_here)
    fresh = a_checked_deck(first_table, floor_fede, "SUN-006", "blue")
    at(first_table, dealing.change_deck, dealer_dana_here, deck=fresh, reason="defective")
    at(first_table, dealing.start_hand, dealer_dana_here)
    assert hand_in_play(first_table).deck_id == fresh.pk


def test_a_defect_that_is_not_one_is_refused_and_nothing_is_recorded_CC_72(first_table, dealer_dana_here,
                                                                          deck_in_play):
    _refused("CC-72", at, first_table, dealing.declare_defective_deck, dealer_dana_here, defect="sticky")
    deck_in_play.refresh_from_db()
    assert deck_in_play.state == Deck.State.IN_PLAY


def test_the_inspector_lists_and_replays_the_hands_of_a_deck_later_found_marked(
        first_table, dealer_dana_here, director_dora, floor_fede, deck_in_play, event_in_play,
        django_assert_num_queries):
    first = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    second = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=1)
    blue = a_checked_deck(first_table, floor_fede, "SUN-007", "blue")
    at(first_table, dealing.change_deck, dealer_dana_here, deck=blue, reason="level")
    a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)  # with the blue deck
    deck_in_play.refresh_from_db()
    decks.declare_defective(deck=deck_in_play, by=floor_fede, key=uuid.uuid4().hex,
                            expected_version=deck_in_play.version, defect="marked", reason="found in the count room")
    with django_assert_num_queries(1):
        found = hand_reads.hands_with_deck(deck_in_play)
        where = [(h.table.tournament.name, h.table.number, h.number, h.started_at) for h in found]
    assert [h.pk for h in found] == [first.pk, second.pk]
    assert where[0][:3] == ("Sunday Deepstack", first_table.number, 1)
    lines = [json.loads(text) for text in hand_reads.hand_lines_with_deck(deck_in_play)]
    assert [line["deck"] for line in lines] == ["SUN-001", "SUN-001"]
    assert all("error" not in replay_holdem_hand(line) for line in lines)
    # which decks the table played: the red one, then the blue one
    spells = deck_reads.decks_used_at(first_table.group_name)
    assert [s.deck.serial for s in spells] == ["SUN-001", "SUN-007"]
    assert spells[0].end is not None and spells[1].end is None


def test_a_deck_is_cancelled_with_two_signatures_of_two_people_THB_21(first_table, dealer_dana_here, floor_fede,
                                                                     director_dora, deck_in_play):
    decks.retire_deck(deck=deck_in_play, by=floor_fede, key=uuid.uuid4().hex, expected_version=deck_in_play.version,
                      reason="table broken")
    deck_in_play.refresh_from_db()
    with pytest.raises(NotAllowed):  # a dealer does not sign a cancellation
        decks.sign_cancellation(deck=deck_in_play, by=dealer_dana_here, key=uuid.uuid4().hex,
                                expected_version=deck_in_play.version, counted=52)
    decks.sign_cancellation(deck=deck_in_play, by=floor_fede, key=uuid.uuid4().hex,
                            expected_version=deck_in_play.version, counted=52)
    deck_in_play.refresh_from_db()
    assert deck_in_play.state == Deck.State.CANCELLING and deck_in_play.signed_by == [floor_fede.pk]
    steps = DeckStep.objects.filter(deck=deck_in_play).count()
    refused = _refused("THB-21", decks.sign_cancellation, deck=deck_in_play, by=floor_fede, key=uuid.uuid4().hex,
                       expected_version=deck_in_play.version)
    assert "two different people" in refused.message
    deck_in_play.refresh_from_db()
    assert deck_in_play.state == Deck.State.CANCELLING and DeckStep.objects.filter(deck=deck_in_play).count() == steps
    decks.sign_cancellation(deck=deck_in_play, by=director_dora, key=uuid.uuid4().hex,
                            expected_version=deck_in_play.version)
    deck_in_play.refresh_from_db()
    assert deck_in_play.state == Deck.State.CANCELLED
    assert deck_in_play.signed_by == [floor_fede.pk, director_dora.pk]
    actions = [s.action for s in deck_reads.history(deck_in_play)]
    assert actions == ["received", "issued", "checked", "in-play", "retired", "cancel-signed", "cancelled"]
    audited = list(AuditEvent.objects.filter(object_type="casino.deck", object_id=str(deck_in_play.pk))
                   .values_list("action", flat=True))
    assert audited == [f"deck.{a}" for a in actions]


def test_a_dealer_does_not_receive_or_issue_decks(first_table, dealer_dana_here):
    with pytest.raises(NotAllowed):
        decks.receive_deck(stock=tables_group(first_table.tournament_id), back="red", serial="X", by=dealer_dana_here)


def test_a_deck_step_is_never_rewritten(first_table, floor_fede, deck_in_play):
    step = DeckStep.objects.filter(deck=deck_in_play).first()
    with pytest.raises(TypeError):
        step.save()
    with pytest.raises(TypeError):
        DeckStep.objects.filter(deck=deck_in_play).delete()
    from django.db import connection, transaction

    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE casino_deckstep SET action = 'x' WHERE id = %s", [step.pk])


# --- At the tablet, over HTTP ---------------------------------------------------------------------------------


def tap(client, table, action, **fields):
    table.refresh_from_db()
    data = {"version": table.version, "key": uuid.uuid4().hex, **fields}
    return client.post(f"/tournaments/{table.tournament_id}/tables/{table.number}/deal/{action}/", data,
                       HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")


def test_at_a_level_change_the_tablet_asks_for_the_new_deck_and_records_it_CC_71(
        client, first_table, dealer_dana_here, floor_fede, director_dora, deck_in_play, event_in_play):
    client.force_login(dealer_dana_here)
    body = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "In play: deck SUN-001 (red)." in body and "data-deck-due" not in body
    act(services.clock_command, event_in_play, director_dora, kind="skip", step=1)
    refused = tap(client, first_table, "new-hand")
    assert refused.status_code == 422  # a rule refused: nothing recorded
    assert "CC-71" in refused.content.decode()
    body = client.get(f"/tournaments/{event_in_play.pk}/tables/{first_table.number}/deal/",
                      HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-deck-due="level"' in body and "change the deck before the next hand (CC-71)" in body
    a_checked_deck(first_table, floor_fede, "SUN-010", "blue")
    unknown = tap(client, first_table, "change-deck", reason="level", serial="NOPE")
    assert unknown.status_code == 400 and "No checked deck NOPE" in unknown.content.decode()
    changed = tap(client, first_table, "change-deck", reason="level", serial="SUN-010")
    assert changed.status_code == 200 and "In play: deck SUN-010 (blue)." in changed.content.decode()
    assert tap(client, first_table, "new-hand").status_code == 200
    assert hand_in_play(first_table).deck.serial == "SUN-010"


def test_at_the_tablet_a_players_request_for_a_new_deck_is_refused_CC_76(client, first_table, dealer_dana_here,
                                                                       floor_fede, deck_in_play):
    client.force_login(dealer_dana_here)
    a_checked_deck(first_table, floor_fede, "SUN-011", "blue")
    refused = tap(client, first_table, "change-deck", reason="player", serial="SUN-011")
    assert refused.status_code == 422 and "CC-76" in refused.content.decode()
    first_table.refresh_from_db()
    assert first_table.deck_id == deck_in_play.pk


def test_at_the_tablet_a_defective_deck_voids_the_hand_CC_73(client, first_table, dealer_dana_here, deck_in_play):
    client.force_login(dealer_dana_here)
    tap(client, first_table, "new-hand")
    body = tap(client, first_table, "call", seat=to_act(first_table)).content.decode()
    assert 'data-action="defective-deck"' in body
    bad = tap(client, first_table, "defective-deck", defect="sticky")
    assert bad.status_code == 400
    done = tap(client, first_table, "defective-deck", defect="different-backs", reason="a blue back")
    assert done.status_code == 200
    assert 'data-deck-due="out"' in done.content.decode()
    assert hand_in_play(first_table).phase == "void"
    deck_in_play.refresh_from_db()
    assert (deck_in_play.state, deck_in_play.defect) == (Deck.State.DEFECTIVE, "different-backs")


def test_manage_export_deck_hands_writes_a_tournament_decks_hands_for_replay(first_table, dealer_dana_here,
                                                                            deck_in_play, tmp_path):
    from django.core.management import call_command

    hand = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    out = tmp_path / "deck.jsonl"
    call_command("export_deck_hands", str(deck_in_play.pk), out=str(out))
    (line,) = [json.loads(text) for text in out.read_text().splitlines()]
    assert line["hand"] == f"t{first_table.tournament_id}-{first_table.number}-{hand.number}"
    assert line["deck"] == "SUN-001" and "error" not in replay_holdem_hand(line)


def test_the_floor_opens_the_events_decks_page_and_another_events_label_is_not_found(client, first_table,
                                                                                     floor_fede, deck_in_play):
    client.force_login(floor_fede)
    stock = tables_group(first_table.tournament_id)
    body = client.get(f"/decks/{stock}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-deck="SUN-001"' in body and 'data-deck-state="in-play"' in body
    assert client.get(f"/decks/{tables_group(first_table.tournament_id + 1000)}/").status_code == 404
    console = client.get(f"/tournaments/{first_table.tournament_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="/decks/{stock}/"' in console


def test_the_setup_form_sets_when_the_deck_changes_C_17(director_dora):
    import re

    from django.urls import reverse

    from tests.tournaments.conftest import english_client
    from tournaments.models import Tournament
    from tournaments.reads import event as event_reads

    client = english_client(director_dora)
    form = client.get(reverse("tournaments:new")).content.decode()
    assert 'name="deck_change_level" value="1" checked' in form  # CC-71's level + director, the house's default
    assert 'name="deck_change_director" value="1" checked' in form
    fields = {"key": uuid.uuid4().hex, "version": "0", "name": "Martes Turbo", "starts_at": "2026-12-01T20:00",
              "buy_in": "50", "fee": "5", "starting_stack": "5000", "seats_per_table": "6", "final_table_size": "6",
              "ante_mode": "button", "structure": "25/50 10\n50/100 10", "denominations": "25 100 500",
              "payouts": "100", "deck_change_shown": "1"}
    none = client.post(reverse("tournaments:new"), fields)
    assert none.status_code == 400 and "C-17" in none.content.decode()
    made = client.post(reverse("tournaments:new"), {**fields, "key": uuid.uuid4().hex, "deck_change_level": "1",
                                                    "deck_change_dealer_change": "1"})
    assert made.status_code == 302
    tournament_id = int(re.search(r"/tournaments/(\d+)/", made["Location"]).group(1))
    setup = event_reads.tournament_state(Tournament.objects.get(pk=tournament_id)).setup
    assert setup.options.deck_change_on == ("level", "dealer_change")


def test_where_the_house_says_a_dealer_change_asks_for_a_new_deck_TDA_26(
        first_table, dealer_dana_here, floor_fede, director_dora, deck_in_play, event_in_play, django_user_model):
    from tests.conftest import _staff

    act(services.change_setup, event_in_play, director_dora, reason="C-17",
        options={"deck_change_on": ["level", "dealer_change", "director"]})
    diego = _staff(django_user_model, "diego", "dealer", "Diego")
    at(first_table, dealing.assign_dealer, floor_fede, dealer=diego)
    _refused("TDA-26", at, first_table, dealing.start_hand, diego)
    blue = a_checked_deck(first_table, floor_fede, "SUN-020", "blue")
    at(first_table, dealing.change_deck, diego, deck=blue, reason="dealer_change")
    at(first_table, dealing.start_hand, diego)
    assert hand_in_play(first_table).deck_id == blue.pk


def test_verify_audit_finds_a_hands_deck_changed_behind_the_services_back(first_table, dealer_dana_here, floor_fede,
                                                                          deck_in_play):
    from tournaments.audit_check import verify_dealt_hands

    hand = a_hand_folded_to_the_big_blind(first_table, dealer_dana_here)
    assert verify_dealt_hands() == (1, [])
    other = a_checked_deck(first_table, floor_fede, "SUN-030", "blue")
    TableHand.objects.filter(pk=hand.pk).update(deck=other)  # a rewrite: the hand "dealt" with another deck
    checked, problems = verify_dealt_hands()
    assert checked == 1 and any("its deck differs" in p for p in problems)
