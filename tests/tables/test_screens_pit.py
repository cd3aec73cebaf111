"""The pit console, game recall, downloads and the player's phone over HTTP; who may see what."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from casino import player_links
from casino.rules.holdem_bonus.record import replay_thb_record
from tables import reads, services
from tables.models import Alert, Hand, Pit, Table
from tests.conftest import issue_box_link

from .helpers import (
    CLOSE_BETS,
    DEAL,
    ante,
    bet_flop,
    bonus,
    flop,
    open_for_play,
    pass_river,
    pass_turn,
    play,
    play_to_settlement,
    reveal_box,
    reveal_dealer,
    river,
    turn,
)
from .screens import console, tablet

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def _aces_against_aces(table, dealer):
    """Box 2 A-A with a Bonus of 5 against the dealer's A-A: the 1000 to 1 award, held (THB-54)."""
    play(table, dealer, ante(2, 10), bonus(2, 5), CLOSE_BETS, DEAL, bet_flop(2, 20), flop("2c 7d 9h"),
         pass_turn(2), turn("Js"), pass_river(2), river("Kc"), reveal_dealer("Ah Ad"), reveal_box(2, "As Ac"))


@pytest.fixture
def started(table_one, dealer_dana, pit_boss_pat):
    open_for_play(table_one, dealer_dana, pit_boss_pat)
    from .helpers import act

    act(services.start_hand, table_one, dealer_dana)
    table_one.refresh_from_db()
    return table_one


# --------------------------------------------------------------------------- who may see what


@pytest.mark.parametrize("url", ["/tables/{table}/", "/tables/{table}/hands/"])
def test_a_dealer_of_another_table_is_refused(client, table_one, table_two, dealer_diego, url):
    client.force_login(dealer_diego)
    assert client.get(url.format(table=table_one.pk)).status_code == 403


def test_a_dealer_cannot_post_to_another_table_or_to_the_console(client, table_one, table_two, dealer_diego,
                                                                 dealer_dana):
    client.force_login(dealer_diego)
    data = {"version": 0, "key": "k1"}
    assert client.post(f"/tables/{table_one.pk}/act/open/", data).status_code == 403
    client.force_login(dealer_dana)
    assert client.post(f"/tables/{table_one.pk}/pit/deck-check/", {**data, "approve": "1"}).status_code == 403
    assert client.get(f"/tables/pit/{table_one.pit_id}/").status_code == 403


def test_a_pit_boss_of_another_pit_is_refused_everywhere(client, table_one, pit_boss_paula, dealer_dana):
    Pit.objects.create(name="Pit B", pit_boss=pit_boss_paula)
    client.force_login(pit_boss_paula)
    assert client.get(f"/tables/pit/{table_one.pit_id}/").status_code == 403
    assert client.get(f"/tables/{table_one.pk}/hands/").status_code == 403
    assert client.post(f"/tables/{table_one.pk}/pit/deck-check/", {"version": 0, "key": "k"}).status_code == 403
    # Nor does a pit boss use a dealer's tablet.
    assert client.get(f"/tables/{table_one.pk}/").status_code == 403


def test_the_pit_boss_lands_on_their_live_console(client, table_one, pit_boss_pat):
    client.force_login(pit_boss_pat)
    page = client.get("/tables/pit/").content.decode()
    assert f'ws-connect="/ws/tables/pit/{table_one.pit_id}/"' in page
    assert f'id="pit-table-{table_one.pk}"' in page


def test_a_director_opens_any_pits_console_from_the_floor(client, table_one, games_director_gloria):
    client.force_login(games_director_gloria)
    floor = client.get("/tables/floor/").content.decode()
    assert f"/tables/pit/{table_one.pit_id}/" in floor
    assert client.get(f"/tables/pit/{table_one.pit_id}/").status_code == 200


# --------------------------------------------------------------------------- the console


def test_the_console_shows_each_tables_phase_boxes_at_risk_dealer_and_session_result(client, started,
                                                                                     dealer_dana, pit_boss_pat):
    play(started, dealer_dana, ante(1, 10), bonus(1, 5), ante(3, 20), CLOSE_BETS, DEAL, bet_flop(1, 20))
    boss = console(client, pit_boss_pat, started)
    row = boss.html[boss.html.index(f'id="pit-table-{started.pk}"'):]
    assert "Decisiones del flop" in row
    assert "<dd>1, 3</dd>" in row
    assert "<dd>55</dd>" in row  # 10 + 5 + 20 + the flop bet 20
    assert "Dana" in row


def test_the_deck_check_is_confirmed_from_the_console(client, table_one, dealer_dana, pit_boss_pat):
    pad = tablet(Client(), dealer_dana, table_one)
    pad.tap("open")
    boss = console(client, pit_boss_pat, table_one)
    assert 'data-action="deck-ok"' in boss.html
    boss.tap("deck-check", approve="1")
    table_one.refresh_from_db()
    assert table_one.status == Table.Status.OPEN


def test_a_refused_deck_keeps_the_table_closed_and_raises_an_alert(client, table_one, dealer_dana, pit_boss_pat):
    pad = tablet(Client(), dealer_dana, table_one)
    pad.tap("open")
    boss = console(client, pit_boss_pat, table_one)
    boss.tap("deck-check", approve="0")
    assert "Subdirector" in boss.html and 'data-action="acknowledge"' in boss.html
    alert = Alert.objects.get(table=table_one)
    boss.tap("alert", alert=str(alert.pk))
    alert.refresh_from_db()
    assert alert.acknowledged_by == pit_boss_pat
    assert "No hay avisos" in boss.html


def test_an_approval_shows_the_hands_cards_and_the_pit_boss_approves_it(client, started, dealer_dana,
                                                                        pit_boss_pat):
    _aces_against_aces(started, dealer_dana)
    boss = console(client, pit_boss_pat, started)
    hand = Hand.objects.get(table=started)
    card = boss.html[boss.html.index(f'id="approval-{hand.pk}-2"'):]
    assert "A-A con A-A del crupier" in card and "1000:1" in card and "paga 5000" in card
    for code in ("As", "Ac", "Ah", "Ad", "2c", "Kc"):
        assert f'data-card="{code}"' in card
    boss.tap("award", hand=str(hand.pk), box="2", approve="1", confirm="1")
    assert f'id="approval-{hand.pk}-2"' not in boss.html
    _hand, state = reads.current_hand(started)
    assert state.settlement.box(2).bonus.approval.value == "approved"
    pad = tablet(Client(), dealer_dana, started)
    assert "Aprobado" in pad.html and 'data-action="new-hand"' in pad.html


def test_the_dealer_who_asked_never_sees_approve_buttons_and_cannot_approve(client, started, dealer_dana,
                                                                           pit_boss_pat, django_user_model):
    from django.contrib.auth.models import Group

    # The dealer on duty is also a pit boss (a relief supervisor dealing): still never their own award (C-30).
    dealer_dana.groups.add(Group.objects.get(name="pit_boss"))
    Pit.objects.filter(pk=started.pit_id).update(pit_boss=dealer_dana)
    _aces_against_aces(started, dealer_dana)
    hand = Hand.objects.get(table=started)
    boss = console(client, dealer_dana, started)
    assert 'data-action="approve"' not in boss.html and "nunca puede aprobarlo" in boss.html
    response = boss.tap("award", hand=str(hand.pk), box="2", approve="1", confirm="1", expect=403)
    assert response["X-Rule-Refusal"] == "1"
    assert "nunca puede aprobarlo" in boss.notice
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1


def test_a_stale_console_is_refreshed_not_overwritten(client, started, dealer_dana, pit_boss_pat):
    _aces_against_aces(started, dealer_dana)
    boss = console(client, pit_boss_pat, started)
    shown = boss.version
    Table.objects.filter(pk=started.pk).update(version=started.version + 5)
    hand = Hand.objects.get(table=started)
    boss.tap("award", hand=str(hand.pk), box="2", approve="1", confirm="1", version=shown, expect=409)
    assert "La mesa cambió" in boss.notice
    assert Hand.objects.get(pk=hand.pk).pending_approvals == 1


def test_bad_console_input_is_a_clear_400(client, started, dealer_dana, pit_boss_pat):
    boss = console(client, pit_boss_pat, started)
    boss.tap("award", hand="tres", box="2", approve="1", confirm="1", expect=400)
    assert "número entero" in boss.notice
    boss.tap("alert", alert="", expect=400)


# --------------------------------------------------------------------------- game recall


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_the_last_hands_are_recalled_as_played_and_each_downloads_as_a_replay_hand_line(
    client, started, dealer_dana, pit_boss_pat, tmp_path
):
    from .helpers import act

    play_to_settlement(started, dealer_dana)
    for _ in range(10):
        act(services.start_hand, started, dealer_dana)
        play(started, dealer_dana, ante(4, 10), CLOSE_BETS, DEAL, {"action": "fold", "box": 4})
    client.force_login(pit_boss_pat)
    page = client.get(f"/tables/{started.pk}/hands/").content.decode()
    assert page.count('class="card recall"') == 10  # a page of the last ten (THB-71)
    assert 'data-action="older"' in page
    page = client.get(f"/tables/{started.pk}/hands/?page=2").content.decode()
    assert page.count('class="card recall"') == 1
    first = Hand.objects.get(table=started, number=1)
    assert f'id="hand-{first.pk}"' in page and "8s" in page  # box 3's cards as they were recorded
    response = client.get(f"/tables/hands/{first.pk}.jsonl")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/jsonl")
    line = response.content.decode()
    assert line.endswith("\n") and line.count("\n") == 1
    answer = replay_thb_record(json.loads(line))
    state = reads.hand_state(first)
    assert {b["box"]: b["net"] for b in answer["boxes"]} == {b.box: b.net for b in state.settlement.boxes}
    path = tmp_path / "hand.jsonl"
    path.write_text(line)
    call_command("replay_hand", str(path))


def test_a_void_hand_is_recalled_and_offered_for_download_only_if_it_has_a_replay_line(
    client, started, dealer_dana, pit_boss_pat
):
    play(started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    services.report_irregularity(table=started, by=dealer_dana, key="void-1",
                                 expected_version=Table.objects.get(pk=started.pk).version,
                                 record={"action": "report-dealer-card-exposed"})
    client.force_login(pit_boss_pat)
    hand = Hand.objects.get(table=started)
    page = client.get(f"/tables/{started.pk}/hands/").content.decode()
    assert "Se vio una carta del crupier" in page
    response = client.get(f"/tables/hands/{hand.pk}.jsonl")
    # The page offers exactly what the services can write: never a link that fails.
    assert (f"/tables/hands/{hand.pk}.jsonl" in page) == (response.status_code == 200)
    assert response.status_code in (200, 409)


def test_a_hand_in_play_has_no_download(client, started, dealer_dana, pit_boss_pat):
    play(started, dealer_dana, ante(1, 10))
    client.force_login(pit_boss_pat)
    hand = Hand.objects.get(table=started)
    assert f"/tables/hands/{hand.pk}.jsonl" not in client.get(f"/tables/{started.pk}/hands/").content.decode()
    response = client.get(f"/tables/hands/{hand.pk}.jsonl")
    assert response.status_code == 409 and "liquidada" in response.content.decode()


def test_another_pits_boss_cannot_download_a_hand(client, started, dealer_dana, pit_boss_paula):
    play_to_settlement(started, dealer_dana)
    client.force_login(pit_boss_paula)
    hand = Hand.objects.get(table=started)
    assert client.get(f"/tables/hands/{hand.pk}.jsonl").status_code == 403


# --------------------------------------------------------------------------- the player's phone


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_the_phone_shows_its_bets_result_history_and_the_paytable_with_its_house_edge(client, started, dealer_dana):
    link = issue_box_link(started, 1, dealer_dana)
    play_to_settlement(started, dealer_dana)
    client.get(player_links.url_for(link))
    page = client.get("/p/").content.decode()
    assert "Casilla 1" in page and 'ws-connect="/ws/player/"' in page
    assert "Se le paga: 225" in page  # 45 staked back (ante, Bonus, flop, turn) and 180 won
    assert "Sus manos en esta sesión" in page and "+180" in page
    assert "Tabla de pagos del Bonus" in page and "1000:1" in page
    assert "Ventaja de la casa en la apuesta de Bonus: 8,54%" in page
    # Box 3's and box 5's cards are not on box 1's phone, even after the showdown.
    for code in ("8s", "Ts", "3d", "4d"):
        assert f'data-card="{code}"' not in page


def test_where_the_house_gives_approval_to_the_games_director_the_pit_boss_gets_no_buttons(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria
):
    Table.objects.filter(pk=started.pk).update(house_options={"award_approver_role": "games_director"})
    _aces_against_aces(started, dealer_dana)
    boss = console(client, pit_boss_pat, started)
    assert 'data-action="approve"' not in boss.html
    assert "Solo el Director de juego puede aprobar este premio (C-30)." in boss.html
    director = console(Client(), games_director_gloria, started)
    hand = Hand.objects.get(table=started)
    director.tap("award", hand=str(hand.pk), box="2", approve="0", reason="cards not checked")
    _hand, state = reads.current_hand(started)
    assert state.settlement.box(2).bonus.approval.value == "denied"


def _eleven_hands(table, dealer):
    from .helpers import act

    play_to_settlement(table, dealer)
    for _ in range(10):
        act(services.start_hand, table, dealer)
        play(table, dealer, ante(4, 10), CLOSE_BETS, DEAL, {"action": "fold", "box": 4})


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_the_recall_filters_by_hand_number_session_and_dates(client, started, dealer_dana, pit_boss_pat):
    """Issue #16: the recall was one long page; now it filters and pages (THB-71)."""
    _eleven_hands(started, dealer_dana)
    client.force_login(pit_boss_pat)
    page = client.get(f"/tables/{started.pk}/hands/?hand=3").content.decode()
    third = Hand.objects.get(table=started, number=3)
    assert page.count('class="card recall"') == 1 and f'id="hand-{third.pk}"' in page and "<details open" in page
    session = third.session
    page = client.get(f"/tables/{started.pk}/hands/?session={session.pk}").content.decode()
    assert page.count('class="card recall"') == 10 and "download-session" in page
    # the casino's day (TIME_ZONE), not UTC's: between 23:00 and midnight UTC they differ in Madrid
    today = timezone.localtime(third.started_at).date()
    assert client.get(f"/tables/{started.pk}/hands/?from={today}&to={today}").content.decode().count(
        'class="card recall"') == 10
    assert client.get(f"/tables/{started.pk}/hands/?to=2000-01-01").content.decode().count('class="card recall"') == 0


@pytest.mark.parametrize("query", ["from=yesterday", "hand=tres", "session=x", "to=2026-13-45"])
def test_a_bad_recall_filter_is_named_not_a_500(client, started, pit_boss_pat, query):
    client.force_login(pit_boss_pat)
    response = client.get(f"/tables/{started.pk}/hands/?{query}")
    assert response.status_code == 200 and "data-recall-error" in response.content.decode()


def test_the_table_chooser_goes_to_another_tables_recall_with_the_same_filters(client, started, table_two,
                                                                                pit_boss_pat):
    client.force_login(pit_boss_pat)
    response = client.get(f"/tables/{started.pk}/hands/?table={table_two.pk}&hand=2")
    assert response.status_code == 302 and response.url == f"/tables/{table_two.pk}/hands/?hand=2"


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_whole_table_session_downloads_in_one_replay_hand_file_that_replays_each_hand(
    client, started, dealer_dana, pit_boss_pat, tmp_path
):
    from casino.rules.replay import replay_lines

    _eleven_hands(started, dealer_dana)
    from .helpers import act

    act(services.start_hand, started, dealer_dana)  # a hand in play: not in the file yet
    session = Hand.objects.get(table=started, number=1).session
    client.force_login(pit_boss_pat)
    response = client.get(f"/tables/{started.pk}/sessions/{session.pk}/hands.jsonl")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/jsonl")
    assert f"session-{session.pk}" in response["Content-Disposition"]
    lines = response.content.decode().splitlines()
    assert len(lines) == 11
    for number, answer in enumerate(replay_lines(lines), start=1):
        state = reads.hand_state(Hand.objects.get(table=started, number=number))
        assert {b["box"]: b["net"] for b in answer["boxes"]} == {b.box: b.net for b in state.settlement.boxes}
    path = tmp_path / "session.jsonl"
    path.write_text(response.content.decode())
    call_command("replay_hand", str(path), stdout=__import__("io").StringIO())


def test_a_pit_boss_of_another_pit_cannot_download_the_session(client, started, pit_boss_paula):
    session = started.sessions.first()
    client.force_login(pit_boss_paula)
    assert client.get(f"/tables/{started.pk}/sessions/{session.pk}/hands.jsonl").status_code == 403


def _reconstructions():
    from casino.models import AuditEvent

    return AuditEvent.objects.filter(action="hand.reconstructed")


def test_a_disputed_hand_is_reconstructed_by_the_director_and_signed_by_the_pit_boss_present_THB_71(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria
):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    client.force_login(games_director_gloria)
    url = f"/tables/hands/{hand.pk}/reconstruct"
    assert f'href="{url}"' in client.get(f"/tables/{started.pk}/hands/").content.decode()
    form = client.get(url).content.decode()
    assert "data-step" not in form and f'value="{games_director_gloria.pk}"' in form
    assert "data-pit-boss-signature" in form and 'name="pit_boss_password"' in form and "Pat" in form
    signed = {"reason": "box 3 says it won", "director": games_director_gloria.pk,
              "pit_boss_password": pit_boss_pat.raw_password}
    # Without the director informed, without the dispute or without the pit boss's signature: refused,
    # nothing recorded.
    for missing in ("director", "reason", "pit_boss_password"):
        refused = client.post(url, {k: v for k, v in signed.items() if k != missing})
        assert refused.status_code == 200
        page = refused.content.decode()
        assert "data-reconstruction-error" in page and "THB-71" in page and "data-step" not in page
    assert not _reconstructions().exists()
    page = client.post(url, signed).content.decode()
    assert page.count("data-step=") == hand.actions.count() and "8s" in page and "data-reconstructed" in page
    event = _reconstructions().get()
    assert event.actor == games_director_gloria
    assert event.details == {"hand": 1, "reason": "box 3 says it won", "recorded_by": "gloria",
                             "pit_boss_present": "pat", "games_director_informed": "gloria"}
    # The pit's recall shows it, with who signed it.
    client.force_login(pit_boss_pat)
    recall = client.get(f"/tables/{started.pk}/hands/?hand=1").content.decode()
    assert recall.count("data-reconstructed-at") == 1 and "box 3 says it won" in recall and "pat" in recall


def test_a_wrong_password_signs_no_reconstruction_THB_71(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria
):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    client.force_login(games_director_gloria)
    for password in ("not-his", games_director_gloria.raw_password, "x" * 5000):
        page = client.post(f"/tables/hands/{hand.pk}/reconstruct",
                           {"reason": "box 3 says it won", "director": games_director_gloria.pk,
                            "pit_boss_password": password}).content.decode()
        assert "data-reconstruction-error" in page and "THB-71" in page and "data-step" not in page
    assert not _reconstructions().exists()


def test_wrong_signatures_count_toward_the_pit_bosss_login_lock_out_THB_71(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria, settings
):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    client.force_login(games_director_gloria)
    url = f"/tables/hands/{hand.pk}/reconstruct"
    tries = [client.post(url, {"reason": "box 3", "director": games_director_gloria.pk,
                               "pit_boss_password": "guess"}) for _ in range(settings.AXES_FAILURE_LIMIT)]
    assert tries[-1].status_code == 429  # the lock-out page, as at the login page: no endless guesses
    assert client.post(url, {"reason": "box 3", "director": games_director_gloria.pk,
                             "pit_boss_password": pit_boss_pat.raw_password}).status_code == 429
    assert not _reconstructions().exists()


def test_the_pit_boss_does_not_sign_a_reconstruction_he_records_himself_THB_71(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria
):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    client.force_login(pit_boss_pat)
    url = f"/tables/hands/{hand.pk}/reconstruct"
    page = client.get(url).content.decode()
    assert "data-signer-is-recorder" in page and 'name="pit_boss_password"' not in page
    refused = client.post(url, {"reason": "box 3 says it won", "director": games_director_gloria.pk,
                                "pit_boss_password": pit_boss_pat.raw_password}).content.decode()
    assert "data-reconstruction-error" in refused and "THB-71" in refused and "data-step" not in refused
    assert not _reconstructions().exists()
    with pytest.raises(services.RuleViolation) as refusal:
        services.record_reconstruction(hand=hand, by=pit_boss_pat, reason="box 3", director=games_director_gloria,
                                       pit_boss=pit_boss_pat)
    assert refusal.value.clause == "THB-71"
    assert not _reconstructions().exists()


def test_only_the_pit_boss_of_the_tables_pit_signs_a_reconstruction_THB_71(
    started, dealer_dana, pit_boss_pat, pit_boss_paula, games_director_gloria, admin_ada
):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    for signer in (pit_boss_paula, games_director_gloria, admin_ada, None):
        with pytest.raises(services.RuleViolation) as refusal:
            services.record_reconstruction(hand=hand, by=admin_ada, reason="box 3", director=games_director_gloria,
                                           pit_boss=signer)
        assert refusal.value.clause == "THB-71"
    assert not _reconstructions().exists()
    services.record_reconstruction(hand=hand, by=admin_ada, reason="box 3", director=games_director_gloria,
                                   pit_boss=pit_boss_pat)
    assert _reconstructions().get().details["recorded_by"] == "ada"


def test_a_hand_still_in_play_is_not_reconstructed_THB_71(
    client, started, dealer_dana, pit_boss_pat, games_director_gloria
):
    play(started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    hand = Hand.objects.get(table=started)
    assert not hand.is_over
    client.force_login(games_director_gloria)
    assert 'data-action="reconstruct"' not in client.get(f"/tables/{started.pk}/hands/").content.decode()
    page = client.post(f"/tables/hands/{hand.pk}/reconstruct",
                       {"reason": "box 1 says it won", "director": games_director_gloria.pk,
                        "pit_boss_password": pit_boss_pat.raw_password}).content.decode()
    assert "data-reconstruction-error" in page and "THB-71" in page and "data-step" not in page
    with pytest.raises(services.RuleViolation) as refusal:
        services.record_reconstruction(hand=hand, by=games_director_gloria, reason="box 1",
                                       director=games_director_gloria, pit_boss=pit_boss_pat)
    assert refusal.value.clause == "THB-71"
    assert not _reconstructions().exists()


def test_a_voided_hand_is_reconstructed_THB_71(client, started, dealer_dana, pit_boss_pat, games_director_gloria):
    play(started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL)
    services.report_irregularity(table=started, by=dealer_dana, key="void-1",
                                 expected_version=Table.objects.get(pk=started.pk).version,
                                 record={"action": "report-dealer-card-exposed"})
    hand = Hand.objects.get(table=started)
    assert hand.phase == "void"
    client.force_login(games_director_gloria)
    assert f"/tables/hands/{hand.pk}/reconstruct" in client.get(f"/tables/{started.pk}/hands/").content.decode()
    page = client.post(f"/tables/hands/{hand.pk}/reconstruct",
                       {"reason": "box 1 says the card was not seen", "director": games_director_gloria.pk,
                        "pit_boss_password": pit_boss_pat.raw_password}).content.decode()
    assert "data-step=" in page and "data-reconstruction-error" not in page
    assert _reconstructions().get().details["pit_boss_present"] == "pat"


def test_a_dealer_cannot_reconstruct_a_hand_THB_71(client, started, dealer_dana, games_director_gloria):
    play_to_settlement(started, dealer_dana)
    hand = Hand.objects.get(table=started, number=1)
    client.force_login(dealer_dana)
    response = client.post(f"/tables/hands/{hand.pk}/reconstruct",
                           {"reason": "x", "director": games_director_gloria.pk})
    assert response.status_code in (302, 403)
