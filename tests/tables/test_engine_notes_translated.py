"""The engine's notes (an irregularity applied, why a hand is void) reach every screen in its viewer's language,
translated by their template: new alerts, alerts stored before notes were templates, the tablet's notice."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from casino.i18n import explain_note
from casino.rules.errors import Note
from tables import reads, rendering, services
from tables.models import Alert
from tests.rules.test_engine_notes import ENGLISH, _every_note_the_engine_makes

from .helpers import CLOSE_BETS, DEAL, act, ante, bet_flop, bonus, play
from .screens import tablet

RULES = Path(settings.BASE_DIR) / "casino" / "rules"
SPANISH_PO = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sr]")


def _note_templates_in_the_engine() -> set[str]:
    """Every ``Note(N_("..."), ...)`` a hand's engine writes (``errors.py`` defines ``Note``; the tournament's
    seating notes are the floor's warnings, not a hand's, and the catalogue test checks their Spanish)."""
    found = set()
    for path in set(RULES.rglob("*.py")) - {RULES / "errors.py"} - set((RULES / "tournament").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Note" and node.args:
                marked = node.args[0]
                assert isinstance(marked, ast.Call) and marked.func.id == "N_", f"{path}:{node.lineno}: N_ literal"
                found.add(marked.args[0].value)
    return found


def _notes_made():
    notes = []
    for hand in _every_note_the_engine_makes():
        notes.append(hand.irregularities[-1])
        if isinstance(hand.void_reason, Note):
            notes.append(hand.void_reason)
    return notes


def test_every_note_template_the_engine_can_make_has_a_spanish_translation_with_the_same_values():
    written = _note_templates_in_the_engine()
    made = {note.template for note in _notes_made()}
    assert made and made == written  # each written note is one the test makes the engine produce
    catalogue = {e.msgid: e for e in polib.pofile(str(SPANISH_PO)) if not e.obsolete}
    for template in written:
        entry = catalogue.get(template)
        assert entry is not None and entry.msgstr and "fuzzy" not in entry.flags, f"no Spanish for {template!r}"
        assert set(PLACEHOLDER.findall(entry.msgstr)) == set(PLACEHOLDER.findall(template)), template


def test_every_note_reads_in_spanish_with_its_values_and_clause():
    with translation.override("es"):
        spanish = [explain_note(hand.irregularities[-1]) for hand in _every_note_the_engine_makes()]
    assert spanish == [
        "Se vio una carta del crupier cuando todos los jugadores ya habían decidido: no tiene efecto (THB-73)",
        "Mano nula: Se vio una carta del crupier antes de que todos los jugadores decidieran (THB-73)",
        "Una carta (7c) encontrada boca arriba en la baraja no se usa en esta mano (THB-74)",
        "Una carta encontrada boca arriba en la baraja no se usa en esta mano (THB-74)",
        "Mano nula: Se encontraron 2 cartas boca arriba en la baraja durante el reparto (THB-74)",
        "La casilla 1 recibió 3 cartas: su mano es nula y se devuelven sus apuestas (THB-76)",
        "El crupier recibió 3 cartas y se corrigió en orden, boca abajo (THB-76)",
        "Mano nula: El crupier recibió 1 cartas (THB-76)",
        "Mano nula: Las manos de todas las casillas son nulas (THB-76)",
        "Mano nula: The deck was found defective (C-35)",  # what the pit boss typed, as typed
    ]
    with translation.override("en"):
        assert [explain_note(hand.irregularities[-1]) for hand in _every_note_the_engine_makes()] == ENGLISH


def test_a_note_is_translated_by_its_template_not_by_its_english():
    """Were the English reworded, the template is what the catalogue is asked for: values go in as they are."""
    note = Note("Box %(box)s was dealt %(n)s cards: its hand is void and its bets returned", "THB-76", box=6, n=5)
    lookalike = "Box 6 was dealt 5 cards: its hand is void and its bets returned (THB-76)"
    with translation.override("es"):
        assert explain_note(note) == ("La casilla 6 recibió 5 cartas: su mano es nula y se devuelven sus apuestas "
                                      "(THB-76)")
        assert explain_note(lookalike) == lookalike  # plain text is never parsed


def _void_by_a_shown_dealer_card(table, dealer):
    play(table, dealer, ante(1, 10), bonus(1, 5), CLOSE_BETS, DEAL, bet_flop(1, 20))
    return act(services.report_irregularity, table, dealer, record={"action": "report-dealer-card-exposed"})


VOID_ES = ("%(table)s, la mano 1 es nula: Se vio una carta del crupier antes de que todos los jugadores "
           "decidieran (THB-73). Se devuelven todas las apuestas.")


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_passwords")
def test_a_void_alert_keeps_the_english_and_the_template_and_reads_in_each_viewers_language(hand_started,
                                                                                           dealer_dana):
    _void_by_a_shown_dealer_card(hand_started, dealer_dana)
    alert = Alert.objects.get()
    assert alert.params["reason"] == "A dealer's card was shown before every player had decided (THB-73)"
    assert alert.params["notes"]["reason"]["template"] == "A dealer's card was shown before every player had decided"
    with translation.override("es"):
        assert reads.alert_text(alert) == rendering.alert_text(alert) == VOID_ES % alert.params
    with translation.override("en"):
        assert "A dealer's card was shown before every player had decided (THB-73)" in reads.alert_text(alert)


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_passwords")
def test_an_irregularity_alert_stored_before_notes_were_templates_still_reads_in_spanish(hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), ante(2, 10), CLOSE_BETS, DEAL)
    act(services.report_irregularity, hand_started, dealer_dana,
        record={"action": "report-box-wrong-card-count", "box": 2, "cards_dealt": 3})
    alert = Alert.objects.get()
    # As the services wrote it before: the note's English sentence alone.
    Alert.objects.filter(pk=alert.pk).update(params={
        "table": alert.params["table"], "hand": alert.params["hand"],
        "note": "Box 2 was dealt 3 cards: its hand is void and its bets returned (THB-76)",
    })
    alert.refresh_from_db()
    with translation.override("es"):
        expected = "La casilla 2 recibió 3 cartas: su mano es nula y se devuelven sus apuestas (THB-76)"
        assert expected in reads.alert_text(alert) and expected in rendering.alert_text(alert)
    # A stored sentence the hand never noted is shown as it was stored, never guessed at.
    Alert.objects.filter(pk=alert.pk).update(params={**alert.params, "note": "Box 9 was dealt 3 cards (THB-76)"})
    alert.refresh_from_db()
    with translation.override("es"):
        assert "Box 9 was dealt 3 cards (THB-76)" in reads.alert_text(alert)


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_passwords")
def test_a_void_alert_stored_before_notes_were_templates_still_reads_in_spanish(hand_started, dealer_dana):
    _void_by_a_shown_dealer_card(hand_started, dealer_dana)
    alert = Alert.objects.get()
    old = {k: v for k, v in alert.params.items() if k != "notes"}
    Alert.objects.filter(pk=alert.pk).update(params=old)
    alert.refresh_from_db()
    with translation.override("es"):
        assert reads.alert_text(alert) == rendering.alert_text(alert) == VOID_ES % alert.params


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_passwords")
def test_the_dealers_notice_after_an_irregularity_is_in_spanish(client, hand_started, dealer_dana):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS, DEAL, bet_flop(1, 20))
    pad = tablet(client, dealer_dana, hand_started)
    pad.tap("irregularity", kind="face-up-card")
    assert "Una carta encontrada boca arriba en la baraja no se usa en esta mano (THB-74)" in pad.notice


@pytest.mark.django_db
@pytest.mark.usefixtures("quick_passwords")
def test_a_void_reason_the_pit_boss_typed_is_shown_as_typed_in_every_language(hand_started, dealer_dana,
                                                                              pit_boss_pat):
    play(hand_started, dealer_dana, ante(1, 10), CLOSE_BETS)
    act(services.report_irregularity, hand_started, pit_boss_pat,
        record={"action": "void-hand", "reason": "Baraja defectuosa", "clause": "C-35"})
    alert = Alert.objects.get()
    assert alert.params["reason"] == "Baraja defectuosa (C-35)" and alert.params["notes"] == {}
    for language in ("es", "en"):
        with translation.override(language):
            assert "Baraja defectuosa (C-35)" in reads.alert_text(alert)
