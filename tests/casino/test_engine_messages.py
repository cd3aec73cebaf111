"""The rules engine's refusals in the dealer's language: ``casino.i18n.explain`` and ``makemessages``.

Most tests use a small Spanish catalogue written here (so they do not depend on how far the project's
catalogue is translated); one checks a sentence the project's own catalogue already translates.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command, get_commands
from django.test import override_settings
from django.utils import translation

from casino.i18n import explain
from casino.management.commands.makemessages import Command as MakeMessages
from casino.rules.errors import RuleViolation
from casino.rules.holdem_bonus import ReplayError, TableRules, new_hand, replay

ROOT = Path(settings.BASE_DIR)

# The small catalogue: msgid -> Spanish. Plain strings on purpose (not N_), so that makemessages,
# which also reads the tests, does not take these sentences for the project's.
SPANISH = {
    "Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s":
        "La apuesta inicial del box %(box)s, %(amount)s, es inferior al mínimo de la mesa, %(minimum)s",
    "%(card)s in %(what)s is already in %(where)s: a single deck has one of each card":
        "%(card)s, en %(what)s, ya está en %(where)s: una baraja tiene una sola carta de cada",
    "the turn": "el turn",
    "the board": "las cartas comunitarias",
    "The flop": "El flop",
    "%(what)s must be %(count)s cards, not %(given)s": "%(what)s debe tener %(count)s cartas, no %(given)s",
    "record %(record)s: %(refusal)s": "registro %(record)s: %(refusal)s",
    # A translator's slip: a placeholder the refusal does not have.
    "Box %(box)s has no ante in this hand": "El box %(numero)s no tiene apuesta inicial en esta mano",
}


@pytest.fixture
def spanish(tmp_path):
    """Spanish active, with only the small catalogue above (and Django's own)."""
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "es",
                   "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    for msgid, msgstr in SPANISH.items():
        po.append(polib.POEntry(msgid=msgid, msgstr=msgstr))
    target = tmp_path / "locale" / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    po.save_as_mofile(str(target / "django.mo"))
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]), translation.override("es"):
        yield


def refusal(action) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        action()
    return refused.value


def dealt_to_the_turn():
    hand = new_hand(TableRules(min_ante=5)).place_ante(1, 10).close_bets().deal_initial().bet_flop(1)
    return hand.deal_flop(["2c", "7d", "9h"]).pass_turn(1)


def test_a_refusal_is_translated_with_its_values_and_its_clause(spanish):
    refused = refusal(lambda: new_hand(TableRules(min_ante=5)).place_ante(1, 2))
    assert explain(refused) == ("La apuesta inicial del box 1, 2, es inferior al mínimo de la mesa, 5 (THB-26)")
    assert str(refused) == "Box 1's ante of 2 is below the table minimum of 5 (THB-26)"  # the log stays English


def test_phrases_inside_a_refusal_are_translated_too(spanish):
    refused = refusal(lambda: dealt_to_the_turn().deal_turn("7d"))
    assert explain(refused) == ("7d, en el turn, ya está en las cartas comunitarias: "
                                "una baraja tiene una sola carta de cada (THB-03)")
    refused = refusal(lambda: new_hand().place_ante(1, 10).close_bets().deal_initial().bet_flop(1)
                      .deal_flop(["2c", "7d"]))
    assert explain(refused) == "El flop debe tener 3 cartas, no 2 (THB-42)"


def test_a_replayed_record_is_translated_with_the_refusal_inside(spanish):
    refused = refusal(lambda: replay(TableRules(min_ante=5), [{"action": "place-ante", "box": 1, "amount": 2}]))
    assert isinstance(refused, ReplayError)
    assert explain(refused) == ("registro 1: La apuesta inicial del box 1, 2, es inferior al mínimo de la mesa, 5 "
                                "(THB-26)")


def test_a_sentence_the_catalogue_does_not_know_stays_english(spanish):
    refused = refusal(lambda: new_hand().place_ante(1, 10).close_bets().deal_initial().deal_turn("2c"))
    assert refused.template == "The turn cannot be dealt yet"
    assert explain(refused) == str(refused) == "The turn cannot be dealt yet (THB-44)"
    # A known sentence with a phrase the catalogue lacks: the sentence is Spanish, the phrase English.
    hand = new_hand().place_ante(1, 10).close_bets().deal_initial().bet_flop(1)
    refused = refusal(lambda: hand.deal_flop(["2c", "2c", "9h"]))
    assert explain(refused) == str(refused) == (
        "2c is entered twice in the flop: a single deck has one of each card (THB-03)")


def test_a_translation_that_does_not_fit_its_values_gives_the_english_sentence(spanish):
    refused = refusal(lambda: new_hand().place_ante(1, 10).withdraw_bets(4))
    assert refused.template == "Box %(box)s has no ante in this hand"
    assert explain(refused) == str(refused) == "Box 4 has no ante in this hand (THB-26)"


def test_refusals_written_the_old_way_are_shown_as_they_are(spanish):
    # tables.services raises RuleViolation with a sentence it has already translated, or none at all.
    assert explain(RuleViolation("No hay ninguna mano en juego: empiece una mano.")) == (
        "No hay ninguna mano en juego: empiece una mano.")
    assert explain(RuleViolation("Se devuelve el 100% de lo apostado", "THB-24")) == (
        "Se devuelve el 100% de lo apostado (THB-24)")
    assert explain(RuleViolation("", "THB-24")) == " (THB-24)"  # not gettext(""), the catalogue's header

    class Odd(RuleViolation):
        def __init__(self) -> None:
            Exception.__init__(self, "odd refusal")

    assert explain(Odd()) == "odd refusal"


def test_in_english_explain_is_the_engine_sentence():
    hand = dealt_to_the_turn()
    refusals = [
        refusal(lambda: new_hand(TableRules(min_ante=5)).place_ante(1, 2)),
        refusal(lambda: hand.deal_turn("7d")),
        refusal(lambda: hand.pass_turn(1)),
        refusal(lambda: new_hand().place_ante("x", 5)),
    ]
    with translation.override("en"):
        assert [explain(r) for r in refusals] == [str(r) for r in refusals]


def test_the_projects_spanish_catalogue_translates_a_refusal():
    """Activate the real Spanish catalogue, once it is known to translate the sentence."""
    msgid = "Box %(box)s has no ante in this hand"
    entries = [e for e in polib.pofile(str(ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"))
               if e.msgid == msgid and e.translated() and "fuzzy" not in e.flags and not e.obsolete]
    if not entries:
        pytest.skip("the project's Spanish catalogue does not translate this refusal yet")
    refused = refusal(lambda: new_hand().place_ante(1, 10).withdraw_bets(4))
    with translation.override("es"):
        assert explain(refused) == entries[0].msgstr % {"box": 4} + " (THB-26)"
        assert explain(refused) != str(refused)


# ------------------------------------------------------------------ makemessages


def test_the_projects_makemessages_knows_the_engines_marker():
    assert get_commands()["makemessages"] == "casino"
    assert "--keyword=N_" in MakeMessages.xgettext_options
    assert set(MakeMessages.xgettext_options) >= {"--from-code=UTF-8", "--add-comments=Translators"}


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext (xgettext)")
def test_makemessages_extracts_the_engines_templates_with_python_format(tmp_path, monkeypatch):
    """Run the command on a copy of the hand state module, into a catalogue of its own."""
    shutil.copy(ROOT / "casino" / "rules" / "holdem_bonus" / "state.py", tmp_path / "state.py")
    (tmp_path / "locale").mkdir()
    monkeypatch.chdir(tmp_path)
    with override_settings(LOCALE_PATHS=[tmp_path / "locale"]):
        call_command("makemessages", locale=["es"], verbosity=0)
    po = {e.msgid: e for e in polib.pofile(str(tmp_path / "locale" / "es" / "LC_MESSAGES" / "django.po"))}
    ante = po["Box %(box)s's ante of %(amount)s is below the table minimum of %(minimum)s"]
    assert "python-format" in ante.flags
    assert po["%(box)r is not a box: boxes are numbered 1 to %(boxes)s"].flags == ["python-format"]
    assert {"The turn cannot be dealt yet", "The flop", "the board", "box %(box)s's cards"} <= set(po)
    assert "a place where cards are" in po["the flop"].comment
    assert all("python-format" in e.flags for msgid, e in po.items() if "%(" in msgid)
    assert len(po) >= 80
