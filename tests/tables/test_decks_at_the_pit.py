"""The pit's decks (issue #39): named at the opening's check in the pit boss's presence (THB-21), a shuffler's two
one red and one blue (THB-36), retired at the closing; the decks a table used in a session, and the hands dealt
while a deck was in play (the inspector's question)."""

from __future__ import annotations

import uuid

import pytest

from casino import deck_reads, decks
from casino.models import AuditEvent, Deck, object_label
from casino.rules.errors import RuleViolation
from casino.writes import NotAllowed
from tables import reads, services, sessions
from tables.models import Table, TableSession
from tables.models import pit_group as pit_label

from .helpers import CLOSE_BETS, DEAL, act, ante, fold, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def issued(table, by, serial: str, back: str) -> Deck:
    """A deck received into the pit's stock and issued to ``table``, the pit boss signing."""
    deck = decks.receive_deck(stock=pit_label(table.pit_id), back=back, serial=serial, by=by)
    decks.issue_deck(deck=deck, by=by, key=uuid.uuid4().hex, expected_version=deck.version,
                     place=object_label(table), place_name=table.name)
    deck.refresh_from_db()
    return deck


def test_the_opening_check_names_the_shufflers_red_and_blue_decks_and_puts_them_in_play_THB_21_THB_36(
        table_one, dealer_dana, pit_boss_pat):
    red, blue = issued(table_one, pit_boss_pat, "R-104", "red"), issued(table_one, pit_boss_pat, "B-221", "blue")
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-104", "B-221"))
    for deck in (red, blue):
        deck.refresh_from_db()
        assert (deck.state, deck.checked_by_id) == (Deck.State.IN_PLAY, pit_boss_pat.pk)
    confirmed = AuditEvent.objects.get(action="table.deck_check_confirmed")
    assert confirmed.details["decks"] == ["R-104", "B-221"]


def test_two_decks_of_one_colour_are_refused_and_nothing_is_recorded_THB_36(table_one, dealer_dana, pit_boss_pat):
    one, two = issued(table_one, pit_boss_pat, "R-1", "red"), issued(table_one, pit_boss_pat, "R-2", "red")
    act(sessions.request_opening, table_one, dealer_dana)
    with pytest.raises(RuleViolation) as refused:
        act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-1", "R-2"))
    assert refused.value.clause == "THB-36"
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.OPENING
    assert {d.state for d in Deck.objects.filter(pk__in=(one.pk, two.pk))} == {Deck.State.ISSUED}


def test_a_deck_not_issued_to_the_table_is_not_checked_there_THB_21(table_one, dealer_dana, pit_boss_pat):
    decks.receive_deck(stock=pit_label(table_one.pit_id), back="red", serial="R-9", by=pit_boss_pat)
    act(sessions.request_opening, table_one, dealer_dana)
    with pytest.raises(RuleViolation) as refused:
        act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-9",))
    assert refused.value.clause == "THB-21"


def test_a_dealer_does_not_issue_a_deck(table_one, dealer_dana, pit_boss_pat):
    deck = decks.receive_deck(stock=pit_label(table_one.pit_id), back="red", serial="R-5", by=pit_boss_pat)
    with pytest.raises(NotAllowed):
        decks.issue_deck(deck=deck, by=dealer_dana, key=uuid.uuid4().hex, expected_version=deck.version,
                         place=object_label(table_one))


def test_the_closing_retires_the_decks_and_the_session_lists_them_and_their_hands(table_one, dealer_dana,
                                                                                  pit_boss_pat):
    red, blue = issued(table_one, pit_boss_pat, "R-104", "red"), issued(table_one, pit_boss_pat, "B-221", "blue")
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-104", "B-221"))
    act(services.start_hand, table_one, dealer_dana)
    play(table_one, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    act(sessions.request_closing, table_one, dealer_dana)
    act(sessions.confirm_closing, table_one, pit_boss_pat)
    for deck in (red, blue):
        deck.refresh_from_db()
        assert deck.state == Deck.State.RETIRED and deck.reason == "table closed"
    session = TableSession.objects.get(table=table_one)
    used = deck_reads.decks_used_at(object_label(table_one), session.opened_at, session.closed_at)
    assert sorted(s.deck.serial for s in used) == ["B-221", "R-104"] and all(s.end is not None for s in used)
    hands = reads.hands_with_deck(red)
    assert [h.pk for h in hands] == list(session.hands.values_list("pk", flat=True))
    # a hand of the next session, with other decks, is not one of them
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    act(services.start_hand, table_one, dealer_dana)
    play(table_one, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    assert len(reads.hands_with_deck(red)) == len(hands) == 1


def test_the_pit_console_shows_each_tables_decks(client, table_one, dealer_dana, pit_boss_pat):
    issued(table_one, pit_boss_pat, "R-104", "red")
    client.force_login(pit_boss_pat)
    body = client.get(f"/tables/pit/{table_one.pit_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-deck="R-104"' in body and "Issued to a table" in body
    assert f'href="/decks/{pit_label(table_one.pit_id)}/"' in body  # the pit's decks page


def test_the_inspector_exports_a_decks_hands_from_both_games_and_they_replay(table_one, dealer_dana, pit_boss_pat,
                                                                            tmp_path):
    import json

    from django.core.management import call_command

    from casino.rules.replay import replay_record

    red = issued(table_one, pit_boss_pat, "R-104", "red")
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-104",))
    act(services.start_hand, table_one, dealer_dana)
    play(table_one, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, fold(1))
    out = tmp_path / "deck.jsonl"
    call_command("export_deck_hands", str(red.pk), out=str(out))
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 1 and lines[0]["game"] == "texas-holdem-bonus"
    assert "error" not in replay_record(lines[0])


def test_verify_audit_checks_each_decks_steps_against_its_stream(table_one, pit_boss_pat):
    from django.db import connection

    from casino.deck_reads import verify_deck_steps
    from casino.models import DeckStep

    deck = issued(table_one, pit_boss_pat, "R-104", "red")
    assert verify_deck_steps() == (1, [])
    with connection.cursor() as cursor:  # a step written behind the services' back: no audit event
        cursor.execute("INSERT INTO casino_deckstep (deck_id, seq, action, place, at, details) "
                       "VALUES (%s, 9, 'in-play', '', now(), '{}')", [deck.pk])
    assert DeckStep.objects.filter(deck=deck).count() == 3
    checked, problems = verify_deck_steps()
    assert checked == 1 and "R-104" in problems[0]


# --- The stock's decks page (casino.deck_views), over HTTP --------------------------------------------------------


def _post(client, stock, action, **fields):
    deck = Deck.objects.filter(pk=fields["deck"]).first() if str(fields.get("deck", "")).isdigit() else None
    data = {"key": uuid.uuid4().hex, **({"version": deck.version} if deck is not None else {}), **fields}
    return client.post(f"/decks/{stock}/{action}/", data, HTTP_ACCEPT_LANGUAGE="en")


def test_the_pit_boss_takes_a_deck_from_receipt_to_cancellation_on_the_decks_page(
        client, table_one, pit_boss_pat, games_director_gloria):
    stock = pit_label(table_one.pit_id)
    client.force_login(pit_boss_pat)
    page = client.get(f"/decks/{stock}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "No deck in this stock yet." in page.content.decode()
    assert _post(client, stock, "receive", back="Red", design="Club", serial="R-300").status_code == 302
    deck = Deck.objects.get(serial="R-300")
    assert (deck.stock, deck.back) == (stock, "red")
    assert _post(client, stock, "issue", deck=deck.pk, place=object_label(table_one)).status_code == 302
    assert _post(client, stock, "check", deck=deck.pk, complete="1", undamaged="1", unmarked="1",
                 counted="52").status_code == 302
    assert _post(client, stock, "retire", deck=deck.pk, reason="worn").status_code == 302
    assert _post(client, stock, "sign", deck=deck.pk, counted="52").status_code == 302
    twice = _post(client, stock, "sign", deck=deck.pk)
    assert twice.status_code == 422 and "two different people" in twice.content.decode()
    deck.refresh_from_db()
    assert deck.state == Deck.State.CANCELLING
    client.force_login(games_director_gloria)
    assert _post(client, stock, "sign", deck=deck.pk).status_code == 302
    deck.refresh_from_db()
    assert deck.state == Deck.State.CANCELLED and deck.signed_by == [pit_boss_pat.pk, games_director_gloria.pk]
    body = client.get(f"/decks/{stock}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-deck-state="cancelled"' in body


def test_the_decks_page_refuses_bad_input_and_other_pits_and_dealers(client, table_one, pit_boss_pat,
                                                                     pit_boss_paula, dealer_dana):
    stock = pit_label(table_one.pit_id)
    client.force_login(pit_boss_pat)
    assert _post(client, stock, "receive", back="", serial="X").status_code == 400  # its back is required
    assert _post(client, stock, "receive", back="red", serial="X" * 81).status_code == 400
    assert _post(client, stock, "receive", back="red", serial="A\x00B").status_code == 400
    assert _post(client, stock, "issue", deck="abc").status_code == 400
    deck = decks.receive_deck(stock=stock, back="red", serial="R-1", by=pit_boss_pat)
    assert _post(client, stock, "issue", deck=deck.pk, place="tables.table.999999").status_code == 400
    assert _post(client, stock, "sign", deck=deck.pk, counted="52").status_code == 422  # not retired
    assert client.get("/decks/tables.pit.999999/").status_code == 404
    client.force_login(pit_boss_paula)  # another pit's boss
    assert client.get(f"/decks/{stock}/").status_code == 403
    client.force_login(dealer_dana)
    assert client.get(f"/decks/{stock}/").status_code == 403
    assert Deck.objects.count() == 1


def test_a_deck_declared_defective_is_shown_on_the_pit_console_at_once_CC_72(client, table_one, dealer_dana,
                                                                            pit_boss_pat):
    issued(table_one, pit_boss_pat, "R-104", "red")
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat, decks=("R-104",))
    deck = Deck.objects.get(serial="R-104")
    decks.declare_defective(deck=deck, by=dealer_dana, key=uuid.uuid4().hex, expected_version=deck.version,
                            defect="marked", reason="the ace of hearts is nicked")
    client.force_login(pit_boss_pat)
    body = client.get(f"/tables/pit/{table_one.pit_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "data-deck-defective" in body and "the ace of hearts is nicked" in body


# --- The decks at the tablet: shown, counted (THB-16), refused at the opening (THB-22) ------------------------------


def opened_with(table, dealer, boss, *pairs) -> list[Deck]:
    """``table`` opened with the decks ``pairs`` (serial, back) issued, checked and put in play."""
    named = [issued(table, boss, serial, back) for serial, back in pairs]
    act(sessions.request_opening, table, dealer)
    act(sessions.confirm_deck_check, table, boss, decks=tuple(serial for serial, _back in pairs))
    for deck in named:
        deck.refresh_from_db()
    return named


def test_the_dealers_tablet_shows_the_shufflers_red_and_blue_decks_in_play_THB_36(client, table_one, dealer_dana,
                                                                                  pit_boss_pat):
    from .screens import tablet

    opened_with(table_one, dealer_dana, pit_boss_pat, ("R-104", "red"), ("B-221", "blue"))
    issued(table_one, pit_boss_pat, "R-300", "red")  # issued, not in play: not shown
    screen = tablet(client, dealer_dana, table_one, language="en")
    assert "Decks in play:" in screen.html
    assert 'data-deck="R-104" data-deck-back="red"' in screen.html
    assert 'data-deck="B-221" data-deck-back="blue"' in screen.html
    assert 'data-deck="R-300"' not in screen.html
    assert '<select name="deck" required>' in screen.html  # two decks: the count says which one


def test_a_tablet_at_a_table_without_named_decks_shows_none(client, open_table, dealer_dana):
    from .screens import tablet

    screen = tablet(client, dealer_dana, open_table, language="en")
    assert "data-decks" not in screen.html and 'name="deck"' not in screen.html


def test_a_count_that_is_not_52_declares_the_deck_in_play_defective_with_its_count_THB_16_CC_72(
        table_one, dealer_dana, pit_boss_pat):
    from tables.models import Alert

    (deck,) = opened_with(table_one, dealer_dana, pit_boss_pat, ("R-104", "red"))
    act(services.record_deck_count, table_one, dealer_dana, cards=51)
    deck.refresh_from_db()
    assert (deck.state, deck.defect, deck.reason) == (Deck.State.DEFECTIVE, "missing", "count 51")
    assert deck.steps.order_by("-seq").first().by == dealer_dana
    assert AuditEvent.objects.filter(action="deck.defective", stream=f"casino.deck.{deck.pk}").count() == 1
    assert AuditEvent.objects.get(action="table.deck_counted").details["deck"] == "R-104"
    assert Alert.objects.get(table=table_one).kind == Alert.Kind.DECK_COUNT  # the alert as before


def test_a_count_names_which_of_two_decks_it_was_and_an_extra_card_is_its_defect_THB_16_CC_72(
        table_one, dealer_dana, pit_boss_pat):
    red, blue = opened_with(table_one, dealer_dana, pit_boss_pat, ("R-104", "red"), ("B-221", "blue"))
    version = Table.objects.get(pk=table_one.pk).version
    with pytest.raises(RuleViolation) as refused:
        act(services.record_deck_count, table_one, dealer_dana, cards=53)
    assert refused.value.clause == "THB-16" and Table.objects.get(pk=table_one.pk).version == version
    with pytest.raises(RuleViolation):
        act(services.record_deck_count, table_one, dealer_dana, cards=53, deck="X-1")
    act(services.record_deck_count, table_one, dealer_dana, cards=53, deck="B-221")
    red.refresh_from_db()
    blue.refresh_from_db()
    assert red.state == Deck.State.IN_PLAY
    assert (blue.state, blue.defect, blue.reason) == (Deck.State.DEFECTIVE, "extra", "count 53")


def test_a_count_of_52_leaves_the_deck_in_play_with_no_step_of_its_own_THB_16(table_one, dealer_dana, pit_boss_pat):
    (deck,) = opened_with(table_one, dealer_dana, pit_boss_pat, ("R-104", "red"))
    steps = deck.steps.count()
    act(services.record_deck_count, table_one, dealer_dana, cards=52)
    deck.refresh_from_db()
    assert deck.state == Deck.State.IN_PLAY and deck.steps.count() == steps
    assert AuditEvent.objects.get(action="table.deck_counted").details["deck"] == "R-104"


def test_the_tablets_count_of_the_blue_deck_over_http_declares_it_defective_THB_16(client, table_one, dealer_dana,
                                                                                   pit_boss_pat):
    from .screens import tablet

    _red, blue = opened_with(table_one, dealer_dana, pit_boss_pat, ("R-104", "red"), ("B-221", "blue"))
    screen = tablet(client, dealer_dana, table_one, language="en")
    screen.tap("deck-count", cards="50", deck="B-221")
    blue.refresh_from_db()
    assert (blue.state, blue.reason) == (Deck.State.DEFECTIVE, "count 50")
    screen.tap("deck-count", expect=400, cards="50", deck="B" * 81)


def test_a_refused_opening_check_declares_the_decks_named_defective_and_leaves_the_others_issued_THB_22(
        table_one, dealer_dana, pit_boss_pat):
    red, blue = issued(table_one, pit_boss_pat, "R-104", "red"), issued(table_one, pit_boss_pat, "B-221", "blue")
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat, approve=False, decks=("R-104",), defect="marked",
        note="the ace of hearts is nicked")
    red.refresh_from_db()
    blue.refresh_from_db()
    assert (red.state, red.defect, red.checked_by_id) == (Deck.State.DEFECTIVE, "marked", pit_boss_pat.pk)
    assert blue.state == Deck.State.ISSUED
    refused = AuditEvent.objects.get(action="table.deck_check_refused")
    assert refused.details["decks"] == ["R-104"] and refused.details["defect"] == "marked"
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.CLOSED


def test_a_refusal_naming_a_deck_not_at_the_table_or_with_no_reason_records_nothing_THB_21_THB_22(
        table_one, dealer_dana, pit_boss_pat):
    red = issued(table_one, pit_boss_pat, "R-104", "red")
    act(sessions.request_opening, table_one, dealer_dana)
    with pytest.raises(RuleViolation) as refused:
        act(sessions.confirm_deck_check, table_one, pit_boss_pat, approve=False, decks=("X-9",))
    assert refused.value.clause == "THB-21"
    with pytest.raises(RuleViolation) as refused:
        act(sessions.confirm_deck_check, table_one, pit_boss_pat, approve=False, decks=("R-104",), defect="worn")
    assert refused.value.clause == "THB-22"
    red.refresh_from_db()
    table_one.refresh_from_db()
    assert red.state == Deck.State.ISSUED and table_one.status == Table.Status.OPENING
    assert not AuditEvent.objects.filter(action="table.deck_check_refused").exists()


def test_the_pit_console_refuses_a_deck_as_marked_over_http_THB_22(client, table_one, dealer_dana, pit_boss_pat):
    from .screens import console

    red = issued(table_one, pit_boss_pat, "R-104", "red")
    act(sessions.request_opening, table_one, dealer_dana)
    screen = console(client, pit_boss_pat, table_one, language="en")
    assert 'name="defect"' in screen.html
    screen.tap("deck-check", expect=400, approve="0", decks="R-104", defect="worn")
    red.refresh_from_db()
    assert red.state == Deck.State.ISSUED
    screen.tap("deck-check", approve="0", decks="R-104", defect="marked")
    red.refresh_from_db()
    assert (red.state, red.defect) == (Deck.State.DEFECTIVE, "marked")


# --- A deck changed between hands on the console (issue #39) ----------------------------------------------------


def _opened_with_pair(table, dealer, boss):
    issued(table, boss, "R-1", "red"), issued(table, boss, "B-1", "blue")
    act(sessions.request_opening, table, dealer)
    act(sessions.confirm_deck_check, table, boss, decks=("R-1", "B-1"))


def _states() -> dict[str, str]:
    return dict(Deck.objects.values_list("serial", "state"))


def test_a_deck_from_the_stock_replaces_the_one_of_its_colour_issued_checked_and_in_play_THB_21_THB_36(
        table_one, dealer_dana, pit_boss_pat):
    _opened_with_pair(table_one, dealer_dana, pit_boss_pat)
    decks.receive_deck(stock=pit_label(table_one.pit_id), back="red", serial="R-2", by=pit_boss_pat)
    act(sessions.change_deck, table_one, pit_boss_pat, deck="R-2")  # no deck named to leave: the red one
    assert _states() == {"R-1": "retired", "B-1": "in-play", "R-2": "in-play"}
    new = Deck.objects.get(serial="R-2")
    assert [s.action for s in new.steps.order_by("seq")] == ["received", "issued", "checked", "in-play"]
    assert {s.by_id for s in new.steps.all()} == {pit_boss_pat.pk}
    changed = AuditEvent.objects.get(action="table.deck_changed")
    assert (changed.details["retired"], changed.details["deck"]) == ("R-1", "R-2")


def test_a_change_that_would_leave_two_red_decks_in_play_is_refused_and_nothing_recorded_THB_36(
        table_one, dealer_dana, pit_boss_pat):
    _opened_with_pair(table_one, dealer_dana, pit_boss_pat)
    issued(table_one, pit_boss_pat, "R-2", "red")
    before = _states()
    with pytest.raises(RuleViolation) as refused:
        act(sessions.change_deck, table_one, pit_boss_pat, deck="R-2", retire="B-1")
    assert refused.value.clause == "THB-36"
    assert _states() == before


def test_no_deck_is_changed_while_a_hand_is_in_play_nor_by_the_dealer_THB_21(table_one, dealer_dana, pit_boss_pat):
    _opened_with_pair(table_one, dealer_dana, pit_boss_pat)
    issued(table_one, pit_boss_pat, "R-2", "red")
    with pytest.raises(NotAllowed):
        act(sessions.change_deck, table_one, dealer_dana, deck="R-2")
    act(services.start_hand, table_one, dealer_dana)
    with pytest.raises(RuleViolation) as refused:
        act(sessions.change_deck, table_one, pit_boss_pat, deck="R-2")
    assert refused.value.clause == "THB-21"
    assert _states()["R-2"] == "issued"


def test_a_deck_neither_issued_to_the_table_nor_in_the_pits_stock_is_refused_THB_21(table_one, dealer_dana,
                                                                                    pit_boss_pat):
    _opened_with_pair(table_one, dealer_dana, pit_boss_pat)
    with pytest.raises(RuleViolation) as refused:
        act(sessions.change_deck, table_one, pit_boss_pat, deck="NOPE")
    assert refused.value.clause == "THB-21"


def test_the_console_offers_the_issued_decks_as_taps_ticked_when_no_choice_is_left_and_changes_a_deck_over_http(
        client, table_one, dealer_dana, pit_boss_pat):
    """Issue #39: at the opening the red and blue pair issued is ticked (one tap opens, THB-21, THB-36); the ticked
    boxes post one ``decks`` field each; between hands "Change a deck" offers the pit's stock (THB-21)."""
    from .screens import console

    issued(table_one, pit_boss_pat, "R-1", "red"), issued(table_one, pit_boss_pat, "B-1", "blue")
    act(sessions.request_opening, table_one, dealer_dana)
    screen = console(client, pit_boss_pat, table_one, language="en")
    assert 'name="decks" value="R-1" checked' in screen.html and 'name="decks" value="B-1" checked' in screen.html
    screen.tap("deck-check", approve="1", decks=["R-1", "B-1"])
    assert _states() == {"R-1": "in-play", "B-1": "in-play"}
    decks.receive_deck(stock=pit_label(table_one.pit_id), back="blue", serial="B-2", by=pit_boss_pat)
    screen.refresh()
    assert 'data-action="change-deck"' in screen.html and 'value="B-2"' in screen.html
    screen.tap("deck-change", expect=400, deck="")
    screen.tap("deck-change", deck="B-2")
    assert _states() == {"R-1": "in-play", "B-1": "retired", "B-2": "in-play"}
