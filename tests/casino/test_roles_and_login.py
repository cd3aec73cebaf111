"""Roles, role homes, object checks and throttled staff login."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from casino.roles import ROLE_CAPABILITIES

pytestmark = pytest.mark.django_db


def test_every_role_exists_as_a_group_with_its_capabilities():
    for role, capabilities in ROLE_CAPABILITIES.items():
        group = Group.objects.get(name=role)
        assert set(group.permissions.values_list("codename", flat=True)) == set(capabilities)


@pytest.mark.parametrize(
    ("person", "home"),
    [
        ("dealer_dana", "tables:dealer_home"),
        ("pit_boss_pat", "tables:pit_home"),
        ("games_director_gloria", "tables:floor"),
        ("tournament_director_teo", "tournaments:director_home"),
    ],
)
def test_each_role_lands_on_its_own_home_after_login(client, request, person, home):
    user = request.getfixturevalue(person)
    response = client.post(reverse("login"), {"username": user.username, "password": user.raw_password}, follow=True)
    assert response.redirect_chain[-1][0] == reverse(home)
    assert response.status_code == 200


def test_a_dealer_sees_only_the_tables_they_are_on_duty_at(client, table_one, table_two, dealer_dana):
    client.force_login(dealer_dana)
    page = client.get(reverse("tables:dealer_home")).content.decode()
    assert "THB-1" in page
    assert "THB-2" not in page


def test_a_dealer_cannot_open_the_pit_console(client, dealer_dana):
    client.force_login(dealer_dana)
    assert client.get(reverse("tables:pit_home")).status_code == 403


def test_a_pit_boss_sees_only_the_tables_of_their_own_pit(client, table_one, pit_boss_paula):
    from tables.models import Pit, Table

    other = Pit.objects.create(name="Pit B", pit_boss=pit_boss_paula)
    Table.objects.create(pit=other, name="THB-9", min_ante=20, max_ante=400)
    client.force_login(pit_boss_paula)
    page = client.get(reverse("tables:pit_home")).content.decode()
    assert "THB-9" in page
    assert "THB-1" not in page


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get(reverse("tables:dealer_home"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_staff_with_no_role_get_a_clear_page(client, django_user_model):
    nobody = django_user_model.objects.create_user("nobody", password="x-long-password-1")
    client.force_login(nobody)
    response = client.get(reverse("home"))
    assert response.status_code == 403
    assert "rol" in response.content.decode().lower()


def test_staff_login_is_throttled_after_repeated_failures(client, dealer_dana, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("login"), {"username": "dana", "password": "wrong"})
        assert response.status_code == 200
    # The fifth failure locks the username on this device.
    assert client.post(reverse("login"), {"username": "dana", "password": "wrong"}).status_code == 429
    # Even the right password is refused while locked out, with a clear message.
    response = client.post(reverse("login"), {"username": "dana", "password": dealer_dana.raw_password})
    assert response.status_code == 429
    assert "administra" in response.content.decode().lower()  # who unlocks: administrador / administrator


def test_logout_needs_a_post_with_csrf(dealer_dana):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(dealer_dana)
    assert client.post(reverse("logout")).status_code == 403


def test_a_staff_request_reads_the_user_and_their_roles_in_one_query(client, table_one, dealer_dana):
    client.post(reverse("login"), {"username": dealer_dana.username, "password": dealer_dana.raw_password})
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("tables:dealer_home")).status_code == 200
    people = [q["sql"] for q in queries.captured_queries if '"auth_user"' in q["sql"] or '"auth_group"' in q["sql"]]
    assert len(people) == 1 and '"auth_group"' in people[0] and '"auth_user"' in people[0]


def test_a_role_taken_away_or_a_deactivated_account_counts_from_the_next_request(client, dealer_dana):
    client.post(reverse("login"), {"username": dealer_dana.username, "password": dealer_dana.raw_password})
    assert client.get(reverse("tables:dealer_home")).status_code == 200
    dealer_dana.groups.remove(Group.objects.get(name="dealer"))
    assert client.get(reverse("tables:dealer_home")).status_code == 403
    dealer_dana.groups.add(Group.objects.get(name="dealer"))
    assert client.get(reverse("tables:dealer_home")).status_code == 200
    dealer_dana.is_active = False
    dealer_dana.save(update_fields=["is_active"])
    assert client.get(reverse("tables:dealer_home")).status_code == 302  # logged out: to the login page


def test_a_staff_screen_reads_the_account_and_its_roles_again_in_one_query(dealer_dana, django_user_model):
    from casino.roles import has_role, read_again

    dana = django_user_model.objects.get(pk=dealer_dana.pk)
    assert has_role(dana, "dealer")
    dealer_dana.groups.clear()
    with CaptureQueriesContext(connection) as queries:
        read_again(dana)
    assert len(queries) == 1 and dana.is_active and not has_role(dana, "dealer")
    dealer_dana.groups.add(Group.objects.get(name="dealer"))
    django_user_model.objects.filter(pk=dana.pk).update(is_active=False)
    read_again(dana)
    assert not dana.is_active
    django_user_model.objects.filter(pk=dana.pk).delete()
    read_again(dana)  # an account deleted meanwhile is no longer active, with no error
    assert not dana.is_active and not has_role(dana, "dealer")


def test_a_staff_request_reads_the_permissions_with_the_user_and_checks_a_capability_without_a_query(
    client, dealer_dana
):
    from django.contrib.auth import SESSION_KEY, get_user

    from casino.roles import DEAL, SUPERVISE_PIT, can

    client.force_login(dealer_dana)
    request = RequestFactory().get("/")
    request.session = client.session
    request.session.get(SESSION_KEY)  # the session itself read first (from the database on the laptop's SQLite)
    with CaptureQueriesContext(connection) as reading:
        dana = get_user(request)
    with CaptureQueriesContext(connection) as checking:
        assert can(dana, DEAL) and not can(dana, SUPERVISE_PIT)
    assert len(reading) == 1 and "auth_permission" in reading[0]["sql"]
    assert len(checking) == 0


def test_a_capability_taken_from_a_role_counts_from_the_next_request_and_the_next_push(client, dealer_dana):
    from django.contrib.auth import get_user
    from django.contrib.auth.models import Permission

    from casino.roles import DEAL, can, read_again

    client.force_login(dealer_dana)
    request = RequestFactory().get("/")
    request.session = client.session
    on_the_socket = get_user(request)
    dealers = Group.objects.get(name="dealer")
    dealers.permissions.remove(Permission.objects.get(codename=DEAL))

    assert can(on_the_socket, DEAL)  # kept for the request it was read for
    assert not can(get_user(request), DEAL)  # the next request reads it again
    read_again(on_the_socket)  # before a staff screen's next push
    assert not can(on_the_socket, DEAL)


def test_a_superuser_keeps_every_permission_after_its_roles_are_read_again(django_user_model):
    from casino.roles import DEAL, can, read_again

    boss = django_user_model.objects.create_superuser("root_rita", password="x-secret-2026")
    read_again(boss)
    assert can(boss, DEAL)
