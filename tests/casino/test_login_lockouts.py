"""Staff login lock-outs on the floor's shared address: the way out, and its audit."""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from casino.audit import verify_chain
from casino.models import AuditEvent
from tests.conftest import _staff

pytestmark = pytest.mark.django_db

FLOOR = "10.20.0.7"  # the address every tablet on the floor shares (NAT)
OFFICE = "10.30.0.2"


@pytest.fixture(autouse=True)
def _quick_passwords(settings):
    """Many logins here, all in this process: a cheap hasher keeps them fast."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def administrator_ada(django_user_model):
    return _staff(django_user_model, "ada", "administrator", "Ada")


def log_in(client, person, *, password=None, address=FLOOR):
    return client.post(reverse("login"), {"username": person.username, "password": password or person.raw_password},
                       REMOTE_ADDR=address)


def lock_out(person, settings, *, address=FLOOR):
    """The person types a wrong password until the throttle locks them out on ``address``."""
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = log_in(client, person, password="wrong-password", address=address)
    assert response.status_code == 429
    return client


def unlock(client, person, *, address=FLOOR, reason="Pat at the THB pit, checked by sight"):
    return client.post(reverse("staff_unlock_login"),
                       {"username": person.username, "ip_address": address, "reason": reason})


def is_locked_out(person, *, address=FLOOR) -> bool:
    return log_in(Client(), person, address=address).status_code == 429


def audit(action):
    return list(AuditEvent.objects.filter(stream="casino", action=action).order_by("seq"))


def test_a_locked_out_pit_boss_gets_in_after_the_games_director_unlocks_them(
        client, pit_boss_pat, pit_boss_paula, games_director_gloria, settings):
    pat = lock_out(pit_boss_pat, settings)
    assert log_in(pat, pit_boss_pat).status_code == 429  # even the right password waits, and counts
    # The lock holds one username on one address: not Pat from the office, not Paula at the same tablets.
    assert not is_locked_out(pit_boss_pat, address=OFFICE)
    assert not is_locked_out(pit_boss_paula)

    client.force_login(games_director_gloria)
    screen = client.get(reverse("staff_lockouts"))
    assert screen.status_code == 200
    page = screen.content.decode()
    assert "pat" in page and "Pat" in page and FLOOR in page and f"<dd>{settings.AXES_FAILURE_LIMIT + 1}</dd>" in page

    response = unlock(client, pit_boss_pat)
    assert response.status_code == 302 and response.url == reverse("staff_lockouts")

    response = log_in(pat, pit_boss_pat)
    assert response.status_code == 302 and response.url == reverse("home")
    assert 'class="card lockout"' not in client.get(reverse("staff_lockouts")).content.decode()


def test_the_lock_out_and_the_unlock_are_in_the_audit_log_with_who_whom_where_and_why(
        client, pit_boss_pat, games_director_gloria, settings):
    locked = lock_out(pit_boss_pat, settings)
    log_in(locked, pit_boss_pat, password="still-wrong")  # refused tries while locked are not new lock-outs
    log_in(locked, pit_boss_pat)

    [lockout] = audit("login.locked_out")
    assert lockout.actor is None and lockout.actor_label == "login-throttle"
    assert (lockout.object_type, lockout.object_id) == ("auth.user", str(pit_boss_pat.pk))
    assert lockout.details["username"] == "pat" and lockout.details["ip_address"] == FLOOR
    assert lockout.details["failures"] == settings.AXES_FAILURE_LIMIT

    client.force_login(games_director_gloria)
    unlock(client, pit_boss_pat, reason="Pat, in person, at the podium")
    [unlocked] = audit("login.unlocked")
    assert unlocked.actor == games_director_gloria and unlocked.role == "games_director"
    assert (unlocked.object_type, unlocked.object_id) == ("auth.user", str(pit_boss_pat.pk))
    assert unlocked.details["username"] == "pat" and unlocked.details["ip_address"] == FLOOR
    assert unlocked.details["reason"] == "Pat, in person, at the podium"
    assert verify_chain("casino") == (2, None)


def test_a_lock_out_missed_at_the_limit_is_recorded_at_the_next_refused_try_and_only_once(pit_boss_pat, settings):
    # Two failures at the same moment can both count past the limit: neither saw the limit itself.
    AccessAttempt.objects.create(username="pat", ip_address=FLOOR, user_agent="", failures_since_start=6,
                                 get_data="", post_data="", http_accept="", path_info="/login/")
    client = Client()
    assert log_in(client, pit_boss_pat, password="wrong").status_code == 429
    assert log_in(client, pit_boss_pat, password="wrong").status_code == 429
    assert len(audit("login.locked_out")) == 1


def test_the_screen_shows_an_unknown_username_and_since_when(client, games_director_gloria, settings):
    stranger = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        stranger.post(reverse("login"), {"username": "root", "password": "toor"}, REMOTE_ADDR=FLOOR)
    client.force_login(games_director_gloria)
    page = client.get(reverse("staff_lockouts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "root" in page and "no such staff account" in page
    assert "<dt>Since</dt><dd>—</dd>" not in page  # the lock-out was recorded, so its time is known


@pytest.mark.parametrize("person", ["dealer_dana", "pit_boss_paula"])
def test_a_dealer_or_a_pit_boss_can_neither_see_nor_use_the_unlock_screen(client, request, person, pit_boss_pat,
                                                                         settings):
    lock_out(pit_boss_pat, settings)
    client.force_login(request.getfixturevalue(person))
    assert client.get(reverse("staff_lockouts")).status_code == 403
    assert unlock(client, pit_boss_pat).status_code == 403
    assert is_locked_out(pit_boss_pat)
    assert audit("login.unlocked") == []


def test_an_anonymous_visitor_is_sent_to_log_in(client, pit_boss_pat, settings):
    lock_out(pit_boss_pat, settings)
    for response in (client.get(reverse("staff_lockouts")), unlock(client, pit_boss_pat)):
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert is_locked_out(pit_boss_pat)


def test_a_get_cannot_unlock(client, pit_boss_pat, games_director_gloria, settings):
    lock_out(pit_boss_pat, settings)
    client.force_login(games_director_gloria)
    query = {"username": "pat", "ip_address": FLOOR}
    assert client.get(reverse("staff_unlock_login"), query).status_code == 405
    assert client.get(reverse("staff_lockouts"), query).status_code == 200
    assert is_locked_out(pit_boss_pat)


def test_an_unlock_needs_the_csrf_token(pit_boss_pat, games_director_gloria, settings):
    lock_out(pit_boss_pat, settings)
    client = Client(enforce_csrf_checks=True)
    client.force_login(games_director_gloria)
    assert unlock(client, pit_boss_pat).status_code == 403
    assert is_locked_out(pit_boss_pat)


@pytest.mark.parametrize(
    ("form", "says"),
    [
        ({"username": "nobody-locked", "ip_address": FLOOR}, "nothing was changed"),
        ({"username": "pat", "ip_address": OFFICE}, "nothing was changed"),
        # A NUL is refused before the view by casino.bad_input, naming the field.
        ({"username": "pat\x00", "ip_address": FLOOR}, "“username” contains a character that is not allowed"),
        ({"username": "pat", "ip_address": FLOOR + "\x00"}, "“ip_address” contains a character that is not allowed"),
        ({"username": "pat", "ip_address": FLOOR, "reason": "a\x00b"}, "“reason” contains a character"),
        ({"username": "pat", "ip_address": FLOOR, "reason": "x" * 201}, "at most 200 characters"),
        ({"username": "x" * 151, "ip_address": FLOOR}, "at most 150 characters"),
        ({"ip_address": FLOOR}, "This field is required"),
    ],
)
def test_bad_input_to_the_unlock_gets_a_400_with_a_message(client, pit_boss_pat, games_director_gloria, settings,
                                                          form, says):
    lock_out(pit_boss_pat, settings)
    client.force_login(games_director_gloria)
    response = client.post(reverse("staff_unlock_login"), form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert says in response.content.decode()
    assert is_locked_out(pit_boss_pat)
    assert audit("login.unlocked") == []


def test_a_games_director_cannot_unlock_an_administrator_but_an_administrator_can(
        client, games_director_gloria, administrator_ada, settings):
    lock_out(administrator_ada, settings)
    client.force_login(games_director_gloria)
    assert "Only an administrator may unlock this account" in client.get(
        reverse("staff_lockouts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert unlock(client, administrator_ada).status_code == 403
    assert is_locked_out(administrator_ada)

    other_admin = Client()
    other_admin.force_login(_staff(type(administrator_ada), "alba", "administrator", "Alba"))
    assert unlock(other_admin, administrator_ada).status_code == 302
    assert not is_locked_out(administrator_ada)


def test_the_floor_screen_and_the_top_bar_lead_to_the_lock_outs_for_the_games_director_only(
        client, games_director_gloria, pit_boss_pat):
    client.force_login(games_director_gloria)
    floor = client.get(reverse("tables:floor")).content.decode()
    assert floor.count(f'href="{reverse("staff_lockouts")}"') == 2  # the top bar and the floor
    client.force_login(pit_boss_pat)
    assert reverse("staff_lockouts") not in client.get(reverse("tables:pit_home")).content.decode()


def test_the_locked_out_page_says_who_unlocks_and_how_long_to_wait(pit_boss_pat, settings):
    settings.AXES_COOLOFF_TIME = 0.5  # hours
    locked = lock_out(pit_boss_pat, settings)
    page = log_in(locked, pit_boss_pat).content.decode()
    assert "administra" in page and "30" in page  # either language: the administrator, 30 minutes
    english = locked.post(reverse("login"), {"username": "pat", "password": "x"}, REMOTE_ADDR=FLOOR,
                          HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ask the games director or an administrator to unlock you" in english
    assert "wait 30 minutes" in english


PROXY = "10.0.0.1"  # the TLS proxy in front of daphne


def test_behind_one_proxy_the_lock_holds_the_address_the_proxy_saw(pit_boss_pat, settings):
    settings.PROXY_COUNT = 1

    def through_proxy(forwarded_for, password="wrong"):
        return Client().post(reverse("login"), {"username": "pat", "password": password},
                             REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded_for)

    for _ in range(settings.AXES_FAILURE_LIMIT):
        through_proxy(FLOOR)
    assert through_proxy(FLOOR, pit_boss_pat.raw_password).status_code == 429
    # What the client put in front of the proxy's entry changes nothing: it cannot pick a fresh address.
    assert through_proxy(f"203.0.113.9, {FLOOR}", pit_boss_pat.raw_password).status_code == 429
    # Pat from the office, through the same proxy, is not the floor.
    assert through_proxy(OFFICE, pit_boss_pat.raw_password).status_code == 302
    # A header that names no address counts against the connection (the proxy), never a 500.
    for malformed in ("", "not-an-address", "10.20.0.7\x00", "1.2.3.4, "):  # four: the fifth would lock
        assert through_proxy(malformed).status_code == 200
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {FLOOR, PROXY}



def test_with_no_cool_off_the_lock_lasts_until_unlocked_and_is_recorded_once(
        client, pit_boss_pat, games_director_gloria, settings):
    settings.AXES_COOLOFF_TIME = None
    locked = lock_out(pit_boss_pat, settings)
    log_in(locked, pit_boss_pat)
    assert len(audit("login.locked_out")) == 1
    client.force_login(games_director_gloria)
    assert "until unlocked" in client.get(reverse("staff_lockouts"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert unlock(client, pit_boss_pat).status_code == 302
    assert not is_locked_out(pit_boss_pat)
