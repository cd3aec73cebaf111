"""The pit's configuration in the Django admin (issue #16, item 9; docs/roles.md).

Administrators and the games director enter it by role; a dealer or a pit boss does not. What they
save is checked by the engine's rules before it is kept, and every change is audited.
"""

from __future__ import annotations

import pytest

from casino.models import AuditEvent
from tables.models import Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


def _form(table, **changes):
    data = {"pit": table.pit_id, "name": table.name, "game": table.game, "min_ante": table.min_ante,
            "max_ante": table.max_ante, "bonus_min": table.bonus_min, "bonus_max": table.bonus_max or "",
            "paytable": table.paytable, "house_options": '{"ante_pays_from": "straight"}', "dealer": table.dealer_id}
    data.update(changes)
    return data


@pytest.mark.parametrize("who", ["admin_ada", "games_director_gloria"])
def test_administrators_and_the_games_director_configure_the_tables_in_the_admin(client, request, table_one, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get("/admin/").status_code == 200
    page = client.get(f"/admin/tables/table/{table_one.pk}/change/")
    assert page.status_code == 200
    # The table's own numbers, counted exactly by the engine: the Bonus's and the base game's.
    assert "8.5406%" in page.content.decode() and "2.0369%" in page.content.decode()


@pytest.mark.parametrize("who", ["dealer_dana", "pit_boss_pat"])
def test_dealers_and_pit_bosses_do_not_enter_the_admin(client, request, table_one, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get(f"/admin/tables/table/{table_one.pk}/change/")
    assert response.status_code == 302 and "/admin/login/" in response.url


def test_a_change_is_audited_with_who_and_what_changed(client, table_one, games_director_gloria):
    client.force_login(games_director_gloria)
    response = client.post(f"/admin/tables/table/{table_one.pk}/change/", _form(table_one, min_ante=10, max_ante=200))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Table.objects.get(pk=table_one.pk).max_ante == 200
    event = AuditEvent.objects.get(action="admin.table_changed")
    assert event.actor_id == games_director_gloria.pk
    assert event.details["changed"]["max_ante"] == {"from": 100, "to": 200}


@pytest.mark.parametrize(("changes", "says"), [
    ({"paytable": "vegas"}, "vegas"),  # a paytable the engine does not know: refused here, not at play
    ({"house_options": '{"ante_pays_from": "pair"}'}, "THB-50"),
    ({"house_options": '{"approval_awards": ["jackpot"]}'}, "THB-54"),
    ({"house_options": '{"release_every_bonus": "yes"}'}, "THB-67"),
    ({"max_ante": 4}, "THB-1"),
    ({"max_ante": 200}, "THB-18"),  # 40 times the minimum
    ({"max_ante": 99}, "THB-18"),
    ({"house_options": '{"max_ante_multiple": 0}'}, "THB-18"),
    ({"house_options": '{"colour": 1}'}, "colour"),
    ({"house_options": '{"award_approver_role": "dealer"}'}, "C-30"),
    ({"house_options": '[1, 2]'}, "ante_pays_from"),
])
def test_a_configuration_the_engine_refuses_is_not_saved_and_says_why(client, table_one, games_director_gloria,
                                                                      changes, says):
    client.force_login(games_director_gloria)
    response = client.post(f"/admin/tables/table/{table_one.pk}/change/", _form(table_one, **changes))
    assert response.status_code == 200 and says in response.content.decode()
    table = Table.objects.get(pk=table_one.pk)
    assert (table.paytable, table.max_ante, table.house_options) == ("manual", 100, {})
    assert not AuditEvent.objects.filter(action="admin.table_changed").exists()


def test_thb18_a_maximum_other_than_twenty_times_is_saved_only_under_the_house_option(client, table_one,
                                                                                      games_director_gloria):
    client.force_login(games_director_gloria)
    response = client.post(f"/admin/tables/table/{table_one.pk}/change/",
                           _form(table_one, max_ante=250, house_options='{"max_ante_multiple": null}'))
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get(pk=table_one.pk)
    assert (table.max_ante, table.house_options) == (250, {"max_ante_multiple": None})


def test_the_admin_refuses_a_fifth_table_for_a_pit_boss_THB_72(client, pit_a, games_director_gloria):
    for n in range(4):
        Table.objects.create(pit=pit_a, name=f"T{n}", min_ante=5, max_ante=100)
    client.force_login(games_director_gloria)
    response = client.post("/admin/tables/table/add/", {"pit": pit_a.pk, "name": "T5", "game": "texas-holdem-bonus",
                                                         "min_ante": 5, "max_ante": 100, "bonus_min": 1,
                                                         "paytable": "manual", "house_options": "{}"})
    assert response.status_code == 200 and "THB-72" in response.content.decode()
    assert not Table.objects.filter(name="T5").exists()


def test_an_administrator_gives_a_role_in_the_admin_and_it_is_audited(client, admin_ada, dealer_dana):
    from django.contrib.auth.models import Group

    client.force_login(admin_ada)
    page = client.get(f"/admin/auth/user/{dealer_dana.pk}/change/")
    assert page.status_code == 200
    data = {"username": "dana", "first_name": "Dana", "last_name": "", "email": "", "is_active": "on",
            "groups": [Group.objects.get(name="dealer").pk, Group.objects.get(name="pit_boss").pk],
            "last_login_0": "", "last_login_1": "", "date_joined_0": "2026-11-24", "date_joined_1": "10:00:00"}
    response = client.post(f"/admin/auth/user/{dealer_dana.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert set(dealer_dana.groups.values_list("name", flat=True)) == {"dealer", "pit_boss"}
    event = AuditEvent.objects.get(action="admin.staff_roles_changed")
    assert event.details["roles"] == {"from": ["dealer"], "to": ["dealer", "pit_boss"]}
    assert event.actor_id == admin_ada.pk


def test_the_games_director_sees_the_staff_but_gives_no_role(client, games_director_gloria, dealer_dana):
    client.force_login(games_director_gloria)
    assert client.get("/admin/auth/user/").status_code == 200
    response = client.post(f"/admin/auth/user/{dealer_dana.pk}/change/", {"username": "dana", "groups": []})
    assert response.status_code == 403
    assert set(dealer_dana.groups.values_list("name", flat=True)) == {"dealer"}
