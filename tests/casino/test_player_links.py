"""Passwordless player links: bound to one seat, expiring, revocable at once."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from casino import player_links
from casino.models import AuditEvent, PlayerLink
from tables import sessions
from tests.conftest import issue_box_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def box_three(table_one):
    return table_one.boxes.get(number=3)


@pytest.fixture
def link_box_three(box_three, dealer_dana):
    return issue_box_link(box_three.table, 3, dealer_dana)


def test_a_link_opens_the_players_own_box_without_a_password(client, link_box_three):
    response = client.get(player_links.url_for(link_box_three), follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "THB-1" in page
    assert "Casilla 3" in page


def test_the_player_page_shows_only_the_seat_the_link_is_bound_to(client, table_one, link_box_three):
    client.get(player_links.url_for(link_box_three))
    page = client.get(reverse("player_home")).content.decode()
    assert "Casilla 3" in page
    assert "Casilla 4" not in page


def test_a_tampered_token_is_refused(client, link_box_three):
    token = player_links.token_for(link_box_three)
    response = client.get(reverse("player_enter", args=[token[:-2] + "xx"]))
    assert response.status_code == 404
    assert player_links.SESSION_KEY not in client.session


def test_an_expired_link_is_refused(client, link_box_three):
    link_box_three.expires_at = timezone.now() - timedelta(seconds=1)
    link_box_three.save()
    assert client.get(player_links.url_for(link_box_three)).status_code == 404


def test_revoking_a_link_works_at_once_even_for_a_browser_already_inside(client, link_box_three, dealer_dana):
    client.get(player_links.url_for(link_box_three))
    assert client.get(reverse("player_home")).status_code == 200
    player_links.revoke_player_link(link_box_three, by=dealer_dana)
    assert client.get(reverse("player_home")).status_code == 403
    assert client.get(player_links.url_for(link_box_three)).status_code == 404


def test_issuing_and_revoking_are_audited(link_box_three, dealer_dana):
    player_links.revoke_player_link(link_box_three, by=dealer_dana)
    events = AuditEvent.objects.filter(object_id=str(link_box_three.pk)).order_by("pk")
    actions = list(events.values_list("action", "actor"))
    assert actions == [("player_link.issued", dealer_dana.pk), ("player_link.revoked", dealer_dana.pk)]


def test_the_dealer_issues_a_qr_link_for_a_box_of_their_table(client, table_one, dealer_dana):
    sessions.request_opening(table=table_one, by=dealer_dana, key="open-1", expected_version=table_one.version)
    client.force_login(dealer_dana)
    response = client.post(reverse("tables:issue_box_link", args=[table_one.pk, 5]), follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "<svg" in page  # the QR code, rendered by segno
    assert "/p/" in page


def test_no_link_is_issued_at_a_closed_table_because_a_link_lasts_one_session(client, table_one, dealer_dana):
    client.force_login(dealer_dana)
    response = client.post(reverse("tables:issue_box_link", args=[table_one.pk, 5]), follow=True)
    assert response.status_code == 200
    assert "La mesa está cerrada: ábrala primero" in response.content.decode()
    assert not PlayerLink.objects.exists()


def test_a_dealer_cannot_issue_links_at_another_table(client, table_two, dealer_dana):
    client.force_login(dealer_dana)
    assert client.post(reverse("tables:issue_box_link", args=[table_two.pk, 1])).status_code == 403


def test_a_dealer_cannot_see_or_revoke_a_link_of_another_table(client, table_two, dealer_dana, dealer_diego):
    link = issue_box_link(table_two, 1, dealer_diego)
    client.force_login(dealer_dana)
    assert client.get(reverse("tables:player_link", args=[link.pk])).status_code == 403
    assert client.post(reverse("tables:revoke_link", args=[link.pk])).status_code == 403
    link.refresh_from_db()
    assert link.revoked_at is None


def test_a_link_for_a_box_the_table_does_not_have_is_not_found(client, table_one, dealer_dana):
    sessions.request_opening(table=table_one, by=dealer_dana, key="open-1", expected_version=table_one.version)
    client.force_login(dealer_dana)
    assert client.post(reverse("tables:issue_box_link", args=[table_one.pk, 8])).status_code == 404
    assert not PlayerLink.objects.exists()
