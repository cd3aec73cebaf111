"""A casino's own Bonus paytables kept as data (issue #16, item 9; THB-53).

The games director edits them in the admin award by award, seeing the exact house edge as it is
typed; each save with other pays is a new version; a table plays the latest version from its next
hand and every hand keeps, and replays under, the version it was played under.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from casino.models import AuditEvent
from casino.rules.errors import RuleViolation
from casino.rules.replay import replay_lines
from tables import reads, services
from tables.admin import award_field
from tables.models import Hand, Paytable, PaytableVersion, Table, known_paytable_names, resolve_paytable
from tables.paytables import add_paytable_version

from .helpers import act, play_to_settlement

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]

#: A-A pays 40 to 1 instead of the manual's 30; the rest as the manual (THB-53).
SPECIAL = {"aa-vs-dealer-aa": 1000, "aa": 40, "ak-suited": 25, "aq-aj-suited": 20, "ak-offsuit": 15,
           "kk-qq-jj": 10, "aq-aj-offsuit": 5, "pair-2-10": 3}


@pytest.fixture
def house_special(games_director_gloria):
    paytable = Paytable.objects.create(name="house-special", description="A-A pays 40")
    add_paytable_version(paytable, SPECIAL, by=games_director_gloria, note="first")
    return paytable


def _bonus_of_box_one(hand: Hand) -> int:
    return reads.hand_state(hand).settlement.box(1).bonus.wager.net


@pytest.mark.usefixtures("bonus_paid_without_release")
def test_a_table_plays_the_latest_version_and_each_hand_keeps_and_replays_the_one_it_was_played_under(
    open_table, dealer_dana, house_special, games_director_gloria, client, pit_boss_pat
):
    Table.objects.filter(pk=open_table.pk).update(paytable="house-special")
    act(services.start_hand, open_table, dealer_dana)
    play_to_settlement(open_table, dealer_dana)  # box 1: A-A with a Bonus of 5
    first = Hand.objects.get(table=open_table, number=1)
    assert first.rules["paytable"] == {"name": "house-special", "version": 1, "pays": SPECIAL}
    assert _bonus_of_box_one(first) == 5 * 40

    add_paytable_version(house_special, {**SPECIAL, "aa": 50}, by=games_director_gloria, note="promotion")
    act(services.start_hand, open_table, dealer_dana)
    play_to_settlement(open_table, dealer_dana)
    second = Hand.objects.get(table=open_table, number=2)
    assert second.rules["paytable"]["version"] == 2 and _bonus_of_box_one(second) == 5 * 50
    # The first hand's rules, read again after the change, still hold version 1's 40 to 1.
    assert reads.rules_of(Hand.objects.get(pk=first.pk)).paytable.pays["aa"] == 40

    # The session's export carries each hand's version, and replay_hand pays each as it was paid.
    client.force_login(pit_boss_pat)
    lines = client.get(f"/tables/{open_table.pk}/sessions/{first.session_id}/hands.jsonl").content.decode()
    lines = lines.splitlines()
    assert [json.loads(line)["paytable"]["version"] for line in lines] == [1, 2]
    assert [answer["boxes"][0]["bonus"] for answer in replay_lines(lines)] == [200, 250]


def test_the_phone_shows_the_paytable_its_hand_is_played_under(open_table, dealer_dana, house_special):
    from tables.rendering import paytable_view

    Table.objects.filter(pk=open_table.pk).update(paytable="house-special")
    open_table.refresh_from_db()
    assert reads.snapshot_anywhere(open_table, None).paytable == resolve_paytable("house-special")
    act(services.start_hand, open_table, dealer_dana)
    open_table.refresh_from_db()
    snapshot = reads.snapshot_anywhere(open_table, None)
    assert snapshot.paytable.version == 1
    view = paytable_view(snapshot.paytable)
    assert view["name"] == "house-special v1"
    assert (view["awards"][1]["key"], view["awards"][1]["pays"]) == ("aa", 40)


def test_a_version_is_never_rewritten_a_change_is_a_new_version(house_special):
    version = house_special.current_version()
    with pytest.raises(TypeError, match="append-only"):
        PaytableVersion.objects.filter(pk=version.pk).update(pays={"aa": 1})
    with pytest.raises(TypeError, match="append-only"):
        version.delete()
    version.note = "rewritten"
    with pytest.raises(TypeError, match="append-only"):
        version.save()


def test_postgresql_itself_refuses_to_rewrite_a_paytable_version(house_special):
    from django.db.utils import DatabaseError

    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE tables_paytableversion SET pays = '{\"aa\": 1}'")


def test_a_new_version_is_checked_by_the_engine_numbered_and_audited_THB_53(house_special, games_director_gloria):
    with pytest.raises(RuleViolation, match="royal is not an award") as refused:
        add_paytable_version(house_special, {"royal": 500}, by=games_director_gloria)
    assert refused.value.clause == "THB-53"
    with pytest.raises(RuleViolation, match="at least one award"):
        add_paytable_version(house_special, {}, by=games_director_gloria)
    assert house_special.versions.count() == 1
    version = add_paytable_version(house_special, {"aa": 45}, by=games_director_gloria, note="no jackpot")
    assert version.number == 2 and resolve_paytable("house-special").pays == {"aa": 45}
    assert resolve_paytable("house-special", 1).pays["aa"] == 40
    event = AuditEvent.objects.filter(action="paytable.version_added").latest("pk")
    assert event.details == {"paytable": "house-special", "version": 2, "pays": {"aa": 45}, "note": "no jackpot"}
    assert event.actor_id == games_director_gloria.pk


def test_a_casino_paytable_may_not_take_the_name_of_the_engines_THB_53():
    with pytest.raises(ValidationError, match="manual"):
        Paytable(name="manual").full_clean()


def test_a_table_naming_a_paytable_that_does_not_exist_is_refused_where_it_is_configured_THB_53(table_one):
    table_one.paytable = "vegas"
    with pytest.raises(ValidationError, match="'vegas'.*THB-53"):
        table_one.full_clean()
    with pytest.raises(RuleViolation, match="known paytables: manual"):
        resolve_paytable("vegas")


def test_a_paytable_without_any_version_is_not_offered_to_a_table(games_director_gloria):
    Paytable.objects.create(name="draft")
    assert known_paytable_names() == ["manual"]


# --- The admin ---------------------------------------------------------------------------------------------

def _paytable_form(name="house-special", note="", **pays):
    data = {"name": name, "description": "", "note": note}
    data.update({award_field(k): v for k, v in pays.items()})
    return data


def test_the_games_director_adds_a_paytable_award_by_award_and_a_table_may_then_play_it(
    client, games_director_gloria, table_one
):
    client.force_login(games_director_gloria)
    pays = {k.replace("-", "_"): v for k, v in SPECIAL.items()}
    response = client.post("/admin/tables/paytable/add/",
                           {"name": "house-special", "description": "A-A 40", "note": "new",
                            **{f"pays_{k}": v for k, v in pays.items()}})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert resolve_paytable("house-special").pays == SPECIAL
    assert AuditEvent.objects.filter(action="paytable.version_added", actor=games_director_gloria).exists()
    page = client.get(f"/admin/tables/table/{table_one.pk}/change/").content.decode()
    assert '<option value="house-special">' in page


def test_saving_other_pays_makes_a_new_version_and_the_same_pays_none(client, games_director_gloria, house_special):
    client.force_login(games_director_gloria)
    url = f"/admin/tables/paytable/{house_special.pk}/change/"
    page = client.get(url).content.decode()
    # The exact house edge of the saved version, the base game's figures and the versions with their reason.
    assert "2.0369%" in page and "5.5935%" in page and "first" in page
    same = _paytable_form(**SPECIAL)
    assert client.post(url, same).status_code == 302
    assert house_special.versions.count() == 1
    response = client.post(url, _paytable_form(note="A-A to 50", **{**SPECIAL, "aa": 50}))
    assert response.status_code == 302
    latest = house_special.current_version()
    assert (latest.number, latest.pays["aa"], latest.note) == (2, 50, "A-A to 50")


def test_the_admin_shows_the_exact_house_edge_of_a_saved_version(client, games_director_gloria, house_special):
    from casino.rules.holdem_bonus import paytable_odds

    client.force_login(games_director_gloria)
    edge = paytable_odds(resolve_paytable("house-special")).house_edge
    page = client.get(f"/admin/tables/paytable/{house_special.pk}/change/").content.decode()
    assert f"{float(edge):.4%}" in page and f"{edge.numerator}/{edge.denominator}" in page


@pytest.mark.parametrize(("pays", "says"), [
    ({"aa": 0}, 'class="errorlist'),
    ({}, "THB-53"),
])
def test_the_admin_refuses_pays_the_engine_refuses_and_keeps_the_last_version(
    client, games_director_gloria, house_special, pays, says
):
    client.force_login(games_director_gloria)
    response = client.post(f"/admin/tables/paytable/{house_special.pk}/change/", _paytable_form(**pays))
    assert response.status_code == 200 and says in response.content.decode()
    assert house_special.versions.count() == 1


def test_a_paytable_is_never_deleted_nor_renamed(client, admin_ada, house_special):
    client.force_login(admin_ada)
    assert client.post(f"/admin/tables/paytable/{house_special.pk}/delete/", {"post": "yes"}).status_code == 403
    client.post(f"/admin/tables/paytable/{house_special.pk}/change/",
                _paytable_form(name="renamed", **{**SPECIAL, "aa": 41}))
    assert Paytable.objects.get(pk=house_special.pk).name == "house-special"


def test_the_house_edge_is_counted_as_the_pays_are_typed(client, games_director_gloria):
    client.force_login(games_director_gloria)
    manual = {award_field(k): v for k, v in {**SPECIAL, "aa": 30}.items()}
    answer = client.get("/admin/tables/paytable/house-edge/", manual).json()
    assert answer["house_edge"] == "8.5406%" and answer["exact"] == "13873/162435"
    answer = client.get("/admin/tables/paytable/house-edge/", {**manual, award_field("aa"): "abc"}).json()
    assert "A-A" in answer["error"] and "abc" in answer["error"]
    assert "THB-53" in client.get("/admin/tables/paytable/house-edge/").json()["error"]


@pytest.mark.parametrize("who", ["dealer_dana", "pit_boss_pat"])
def test_only_the_configurers_see_the_house_edge_preview(client, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get("/admin/tables/paytable/house-edge/", {award_field("aa"): 30})
    assert response.status_code == 302 and "/admin/login/" in response.url


# --- paytable_report ---------------------------------------------------------------------------------------

def test_paytable_report_knows_a_casinos_paytables_and_their_versions(house_special, games_director_gloria):
    add_paytable_version(house_special, {"aa": 45}, by=games_director_gloria)
    latest = json.loads(_report("--paytable", "house-special", "--json"))
    assert [a["award"] for a in latest["awards"]] == ["aa"] and latest["awards"][0]["pays"] == 45
    first = _report("--paytable", "house-special", "--paytable-version", "1")
    assert "Bonus paytable 'house-special v1'" in first and "aa" in first
    with pytest.raises(CommandError, match="has no version 7"):
        _report("--paytable", "house-special", "--paytable-version", "7")


def _report(*args) -> str:
    out = io.StringIO()
    call_command("paytable_report", *args, stdout=out)
    return out.getvalue()
