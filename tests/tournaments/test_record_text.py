"""What the staff read of the record and of its codes: sentences and labels in their language, never raw data
(issue #36, item 15), and a screen cached per language (the board's status in each viewer's language)."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation

from casino.i18n import explain
from casino.rules.errors import N_, Note
from casino.rules.tournament import eligibility
from casino.rules.tournament.clock import CLOCK_KINDS
from casino.rules.tournament.options import HouseOptions
from casino.rules.tournament.record import EVENT_TYPES
from casino.rules.tournament.seating import WHY
from tournaments import record_text
from tournaments.models import Tournament
from tournaments.reads import event as event_reads
from tournaments.rendering import clock as clock_screen
from tournaments.templatetags import tournament_console

AT = "2026-11-27T20:00:00+00:00"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_every_kind_of_event_in_the_record_reads_as_a_sentence_without_field_names():
    for kind, fields in EVENT_TYPES.items():
        event = {"seq": 1, "at": AT, "type": kind, **{name: 3 for name in fields}}
        sentence = record_text.record_sentence(event)
        assert sentence and sentence[0].isupper(), (kind, sentence)
        for name in fields:
            if "_" in name:
                assert name not in sentence, (kind, sentence)


def test_a_move_says_where_from_and_where_to_and_why_in_words():
    sentence = record_text.record_sentence({"type": "seated", "entry": 7, "table": 2, "seat": 4, "from_table": 3,
                                            "from_seat": 9, "why": "redraw", "at": AT})
    assert sentence == "Entry 7 moved from table 3, seat 9 to table 2, seat 4 (a redraw)"
    assert "from_table" not in sentence and "why" not in sentence


def test_every_reason_for_a_seat_and_every_clock_action_has_its_words():
    assert set(WHY) <= set(record_text.WHY_LABELS)
    assert "final_table" not in record_text.record_sentence({"type": "seated", "entry": 1, "table": 1, "seat": 1,
                                                             "why": "final_table"})
    for kind in CLOCK_KINDS:
        sentence = record_text.record_sentence({"type": "clock", "kind": kind, "seconds": 60, "step": 2})
        assert (kind not in sentence or "_" not in kind) and sentence[0].isupper(), (kind, sentence)


def test_the_sentences_are_said_in_the_viewers_language(monkeypatch):
    said = []
    monkeypatch.setattr(record_text, "gettext", lambda text: said.append(text) or f"«{text}»")
    sentence = record_text.record_sentence({"type": "bust", "entry": 7, "table": 3})
    assert said == [record_text.SENTENCES["bust"]] and sentence == "«Entry 7 busted at table 3»"


def test_an_unknown_kind_of_event_reads_as_its_name_and_never_fails():
    assert record_text.record_sentence({"type": "something_new", "at": AT}) == "something new"
    assert record_text.record_sentence({"type": "seated"}).startswith("Entry")


@pytest.mark.parametrize("applicant, on", [
    (eligibility.Applicant(id_type="dni", id_number="30111222", birth_date=date(2010, 1, 1)), date(2026, 11, 27)),
    (eligibility.Applicant(id_type="dni", id_number="30111222", birth_date=date(1980, 1, 1), excluded=True),
     date(2026, 11, 27)),
    (eligibility.Applicant(id_type="dni", id_number="30111222", birth_date=None), date(2026, 11, 27)),
])
def test_a_refusal_kept_in_english_is_read_in_spanish_on_the_spanish_console(applicant, on):
    refusal = eligibility.refusal(applicant, on=on, options=HouseOptions())
    assert refusal is not None
    with translation.override("es"):
        expected = explain(refusal).removesuffix(f" ({refusal.clause})")
        assert record_text.refusal_sentence(refusal.message) == expected
    assert record_text.refusal_sentence(refusal.message) == refusal.message


def test_under_18_is_said_in_spanish():
    with translation.override("es"):
        assert record_text.refusal_sentence("Under 18 on 2026-11-27: may not play") == \
            "Menor de 18 el 2026-11-27: no puede jugar"
        assert record_text.refusal_sentence("something a desk never wrote") == "something a desk never wrote"


def test_every_refusal_a_registration_records_has_its_template_here():
    """A new refusal in the engine's eligibility needs its template in record_text (else it stays English)."""
    import inspect
    import re

    source = inspect.getsource(eligibility.refusal)
    for template in re.findall(r'N_\("([^"]+)"\)', source):
        assert template in record_text.REFUSAL_TEMPLATES, template


def test_codes_read_as_labels():
    assert tournament_console.id_type_label("libreta_enrolamiento") == "Libreta de enrolamiento"
    assert tournament_console.id_type_label("passport") == "Passport"
    assert tournament_console.stage_label("complete") == "Hand over"
    assert tournament_console.stage_label("misdeal") == "Misdeal"
    assert tournament_console.stage_label("preflop") == "Pre-flop"


def test_a_plan_warning_is_said_with_its_clause_tda_11_d():
    note = Note(N_("Table %(table)s is %(short)s players short of the fullest table: it may halt until balanced"),
                "TDA-11-D", table=3, short=3)
    assert tournament_console.note_text(note).endswith("(TDA-11-D)")


@pytest.mark.django_db
def test_the_boards_status_is_read_in_each_viewers_language_not_the_first_viewers(director_dora):
    """Issue #36: an English TV showed "Status: En juego" after a Spanish screen read the board first."""
    from tests.tournaments import display_fixtures as fx

    tournament = fx.a_tournament(director_dora)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    with translation.override("es"):
        board = event_reads.board_at(tournament)
        assert "En juego" in clock_screen.clock_display_fragment(board)
    with translation.override("en"):
        board = event_reads.board_at(tournament)
        html = clock_screen.clock_display_fragment(board)
        assert "Running" in html and "En juego" not in html
