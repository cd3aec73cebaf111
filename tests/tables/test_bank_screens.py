"""The bank's screens (issue #39, docs/bank.md): the table's bank page (the float, the drop, the slips), one slip
printable with its QR, the cage's and security's phones, the games director's shift report with its plot, its
CSV (audited) and its signature. A refusal names its clause, bad input is a 400, nothing recorded; CSRF."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.utils import timezone

from casino.models import AuditEvent
from tables import bank, bank_reads, sessions
from tables.models import ChipSlip, FloatCount, ShiftReportSignature, TableSession
from tests.conftest import _staff

from .helpers import act
from .test_bank import OPENING_FLOAT, chips_for, opened_with_float

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_passwords")]


@pytest.fixture
def cashier_carla(django_user_model):
    return _staff(django_user_model, "carla", "cage_cashier", "Carla")


@pytest.fixture
def security_sam(django_user_model):
    return _staff(django_user_model, "sam", "security_officer", "Sam")


def post(client, url, version, **fields):
    return client.post(url, {"version": version, "key": uuid.uuid4().hex, **fields}, HTTP_ACCEPT_LANGUAGE="en")


def chip_fields(chips):
    return {f"chips-{d}": n for d, n in chips.items()}


def test_the_dealer_counts_and_the_pit_boss_signs_the_float_on_the_tables_bank_page_THB_70(
        client, table_one, dealer_dana, pit_boss_pat):
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    table_one.refresh_from_db()
    client.force_login(dealer_dana)
    assert client.get(f"/tables/{table_one.pk}/bank/").status_code == 200
    bad = post(client, f"/tables/{table_one.pk}/bank/count-float/", table_one.version, stage="opening",
               **{"chips-100": "many"})
    assert bad.status_code == 400 and not FloatCount.objects.exists()
    done = post(client, f"/tables/{table_one.pk}/bank/count-float/", table_one.version, stage="opening",
                **chip_fields(OPENING_FLOAT))
    assert done.status_code == 302
    table_one.refresh_from_db()
    client.force_login(pit_boss_pat)
    signed = post(client, f"/tables/{table_one.pk}/bank/sign-float/", table_one.version, stage="opening")
    assert signed.status_code == 302
    assert FloatCount.objects.get().signature.signed_by == pit_boss_pat


def test_a_closing_that_does_not_add_up_is_refused_on_the_page_with_its_clause_THB_70(
        client, table_one, dealer_dana, pit_boss_pat):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    act(sessions.request_closing, table_one, dealer_dana)
    act(bank.count_float, table_one, dealer_dana, stage="closing", chips=chips_for(11_499))
    table_one.refresh_from_db()
    client.force_login(pit_boss_pat)
    refused = post(client, f"/tables/{table_one.pk}/bank/sign-float/", table_one.version, stage="closing")
    assert refused.status_code == 422
    assert "THB-70" in refused.content.decode() and "count it again" in refused.content.decode()
    session = TableSession.objects.get(table=table_one)
    assert bank_reads.signed_float(session, "closing") is None


def test_a_slip_is_requested_signed_on_the_phones_and_printable_with_a_qr_code(
        client, table_one, dealer_dana, pit_boss_pat, cashier_carla, security_sam):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    table_one.refresh_from_db()
    client.force_login(pit_boss_pat)
    assert post(client, f"/tables/{table_one.pk}/bank/request-slip/", table_one.version, kind="fill",
                **chip_fields({100: 20})).status_code == 302
    slip = ChipSlip.objects.get()
    client.force_login(security_sam)
    assert slip.number not in client.get("/tables/security/").content.decode()  # the cage's step first
    client.force_login(cashier_carla)
    assert client.get("/").url == "/tables/cage/"
    assert slip.number in client.get("/tables/cage/").content.decode()
    assert post(client, f"/tables/slips/{slip.pk}/sign", slip.version, back="tables:cage_home").status_code == 302
    slip.refresh_from_db()
    again = post(client, f"/tables/slips/{slip.pk}/sign", slip.version)  # the cashier again, as security
    assert again.status_code == 403
    client.force_login(security_sam)
    page = client.get(f"/tables/slips/{slip.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<svg" in page and f"/tables/slips/{slip.pk}/" in page and 'data-action="sign-slip"' in page
    assert post(client, f"/tables/slips/{slip.pk}/sign", slip.version).status_code == 302
    slip.refresh_from_db()
    client.force_login(dealer_dana)
    assert post(client, f"/tables/slips/{slip.pk}/sign", slip.version).status_code == 302
    assert ChipSlip.objects.get().state == "received"


def test_the_bank_pages_are_for_the_tables_people_only_and_posts_need_csrf(
        table_one, dealer_dana, dealer_diego, pit_boss_paula, cashier_carla):
    client = Client()
    for person in (dealer_diego, pit_boss_paula, cashier_carla):
        client.force_login(person)
        assert client.get(f"/tables/{table_one.pk}/bank/").status_code == 403
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(dealer_dana)
    assert guarded.post(f"/tables/{table_one.pk}/bank/drop/", {"amount": "5"}).status_code == 403
    client.force_login(cashier_carla)
    assert client.get("/tables/shift/").status_code == 403


def test_the_shift_report_shows_the_difference_with_the_tables_hands_its_plot_csv_audited_and_signed(
        client, table_one, dealer_dana, pit_boss_pat, games_director_gloria):
    from .test_bank import closing

    start = timezone.now()
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    closing(table_one, dealer_dana, pit_boss_pat, short_by=1, reason="short one chip")
    client.force_login(games_director_gloria)
    window = {"from": start.isoformat(), "to": timezone.now().isoformat()}
    page = client.get("/tables/shift/", window, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="shift-plot"' in page and 'data-difference="-1"' in page and "short one chip" in page
    assert 'data-table="THB-1" data-win="-1"' in page  # the plot's bar of the table
    assert 'data-details="THB-1"' in page
    csv = client.get("/tables/shift/", {**window, "format": "csv"})
    assert csv["Content-Type"].startswith("text/csv") and "THB-1" in csv.content.decode()
    assert AuditEvent.objects.filter(action="bank.shift_report_exported").exists()
    assert client.get("/tables/shift/", {"from": "yesterday"}).status_code == 400
    assert client.post("/tables/shift/", window).status_code == 302
    signed = ShiftReportSignature.objects.get()
    assert signed.signed_by == games_director_gloria and signed.figures["totals"]["difference"] == -1
    assert AuditEvent.objects.filter(action="bank.shift_report_signed").exists()
    floor = client.get("/tables/floor/", HTTP_ACCEPT_LANGUAGE="en").content.decode()  # shown at once
    assert "data-bank-alert" in floor and "THB-1: the closing float counts" in floor and "short one chip" in floor


def test_a_slips_state_shows_on_the_pit_console_and_its_step_moves_the_consoles_version(
        client, table_one, dealer_dana, pit_boss_pat, cashier_carla):
    from tables import rendering

    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    before = rendering.pit_context(table_one.pit, pit_boss_pat)["version"]
    done = bank.request_slip(table=table_one, by=pit_boss_pat, key=uuid.uuid4().hex, kind="fill", chips={100: 5})
    slip = ChipSlip.objects.get(pk=done.ids["slip"])
    client.force_login(pit_boss_pat)
    page = client.get(f"/tables/pit/{table_one.pit_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-slip="{slip.number}" data-slip-state="requested"' in page
    bank.sign_slip(slip=slip, by=cashier_carla, key=uuid.uuid4().hex, expected_version=1)
    assert rendering.pit_context(table_one.pit, pit_boss_pat)["version"] > before
    page = client.get(f"/tables/pit/{table_one.pit_id}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-slip="{slip.number}" data-slip-state="issued"' in page


def test_the_dealers_opening_count_is_pre_filled_with_the_last_closing_and_a_difference_is_shown_THB_70(
        client, table_one, dealer_dana, pit_boss_pat):
    from .test_bank import closing

    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    closing(table_one, dealer_dana, pit_boss_pat)  # 11 of 1000, 5 of 100
    act(sessions.request_opening, table_one, dealer_dana)
    act(sessions.confirm_deck_check, table_one, pit_boss_pat)
    table_one.refresh_from_db()
    client.force_login(dealer_dana)
    page = client.get(f"/tables/{table_one.pk}/bank/").content.decode()
    count_form = page.split('data-form="count-float"')[1].split("</form>")[0]
    assert 'name="chips-1000" inputmode="numeric" maxlength="6" size="4" autocomplete="off" value="11"' in count_form
    assert 'name="chips-100" inputmode="numeric" maxlength="6" size="4" autocomplete="off" value="5"' in count_form
    assert 'name="chips-25" inputmode="numeric" maxlength="6" size="4" autocomplete="off">' in count_form
    assert 'data-proposal="11500"' in page and "data-proposal-difference" not in page
    assert not FloatCount.objects.filter(session__status=TableSession.Status.OPEN).exists()  # only pre-filled

    done = post(client, f"/tables/{table_one.pk}/bank/count-float/", table_one.version, stage="opening",
                **chip_fields({1000: 11, 100: 4, 25: 2}))  # the dealer counts: two 25s for a 100, one 50 short
    assert done.status_code == 302
    client.force_login(pit_boss_pat)
    page = client.get(f"/tables/{table_one.pk}/bank/").content.decode()
    assert 'data-proposal-difference="-50"' in page
    assert 'data-denomination="25" data-chips="2"' in page and 'data-denomination="100" data-chips="-1"' in page
    # once the opening is signed, the next count (the closing's) is no longer pre-filled
    table_one.refresh_from_db()
    assert post(client, f"/tables/{table_one.pk}/bank/sign-float/", table_one.version,
                stage="opening").status_code == 302
    client.force_login(dealer_dana)
    page = client.get(f"/tables/{table_one.pk}/bank/").content.decode()
    assert 'value="11"' not in page.split('data-form="count-float"')[1].split("</form>")[0]


def test_an_unused_slip_is_voided_on_its_page_by_the_pit_boss_with_a_reason_and_leaves_the_queues(
        client, table_one, dealer_dana, pit_boss_pat, cashier_carla):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    done = bank.request_slip(table=table_one, by=pit_boss_pat, key=uuid.uuid4().hex, kind="fill", chips={100: 10})
    slip = ChipSlip.objects.get(pk=done.ids["slip"])
    client.force_login(cashier_carla)
    assert 'data-form="void-slip"' not in client.get(f"/tables/slips/{slip.pk}/").content.decode()
    assert post(client, f"/tables/slips/{slip.pk}/void", slip.version, reason="not needed").status_code == 403
    client.force_login(pit_boss_pat)
    assert 'data-form="void-slip"' in client.get(f"/tables/slips/{slip.pk}/").content.decode()
    for bad in ("", "   ", "x" * 201):
        refused = post(client, f"/tables/slips/{slip.pk}/void", slip.version, reason=bad)
        assert refused.status_code == 400 and 'id="slip-notice"' in refused.content.decode()
    assert post(client, f"/tables/slips/{slip.pk}/void", slip.version, reason="nul\x00").status_code == 400
    assert ChipSlip.objects.get(pk=slip.pk).state == "requested"
    voided = post(client, f"/tables/slips/{slip.pk}/void", slip.version, reason="the table closes early")
    assert voided.status_code == 302
    slip.refresh_from_db()
    assert slip.state == "voided"
    page = client.get(f"/tables/slips/{slip.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the table closes early" in page and 'data-form="void-slip"' not in page
    assert 'data-action="sign-slip"' not in page
    client.force_login(cashier_carla)
    assert slip.number not in client.get("/tables/cage/").content.decode()
    assert post(client, f"/tables/slips/{slip.pk}/sign", slip.version).status_code == 422  # void: no more steps
    assert AuditEvent.objects.filter(action="slip.voided").count() == 1


def test_a_slip_whose_chips_left_the_cage_offers_no_voiding_and_is_refused_it(
        client, table_one, dealer_dana, pit_boss_pat, cashier_carla):
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    done = bank.request_slip(table=table_one, by=pit_boss_pat, key=uuid.uuid4().hex, kind="fill", chips={100: 10})
    slip = ChipSlip.objects.get(pk=done.ids["slip"])
    bank.sign_slip(slip=slip, by=cashier_carla, key=uuid.uuid4().hex, expected_version=slip.version)
    slip.refresh_from_db()
    client.force_login(pit_boss_pat)
    assert 'data-form="void-slip"' not in client.get(f"/tables/slips/{slip.pk}/").content.decode()
    refused = post(client, f"/tables/slips/{slip.pk}/void", slip.version, reason="too late")
    assert refused.status_code == 422
    assert ChipSlip.objects.get(pk=slip.pk).state == "issued"


def test_the_shift_reports_plot_is_styled_by_the_sites_css_for_every_class_it_draws(
        client, table_one, dealer_dana, pit_boss_pat, games_director_gloria):
    """Every class of the SVG (bars, hold dots, the difference's line, axes, legends) has a rule in casino.css, the
    stylesheet every page loads: without them the bars draw black and the texts at the browser's default size."""
    import re
    from pathlib import Path

    from django.conf import settings

    from .test_bank import closing

    start = timezone.now()
    opened_with_float(table_one, dealer_dana, pit_boss_pat)
    closing(table_one, dealer_dana, pit_boss_pat, short_by=1, reason="short one chip")
    client.force_login(games_director_gloria)
    page = client.get("/tables/shift/", {"from": start.isoformat(), "to": timezone.now().isoformat()}).content.decode()
    svg = page[page.index('<svg class="shift-plot"'):page.index("</svg>")]
    drawn = {name for classes in re.findall(r'class="([^"]+)"', svg) for name in classes.split()}
    css = (Path(settings.BASE_DIR) / "static" / "css" / "casino.css").read_text()
    assert {"plot-bar", "plot-loss", "plot-axis", "plot-difference"} <= drawn
    assert [name for name in sorted(drawn) if f".{name}" not in css] == []


def test_the_shift_reports_window_reads_in_local_time_to_the_second_and_is_shown_again_as_picked(
        client, games_director_gloria):
    client.force_login(games_director_gloria)
    page = client.get("/tables/shift/", {"from": "2026-11-27T14:00:00", "to": "2026-11-27T22:30:15"}).content.decode()
    assert 'type="datetime-local" step="1" name="from" value="2026-11-27T14:00:00"' in page
    assert 'name="to" value="2026-11-27T22:30:15"' in page
