"""What a person reads of the tournament's stored codes and record (issue #36, item 15).

The record keeps codes and numbers (docs/tournament-record.md); the staff read sentences in their language:
one sentence per kind of event (``record_sentence``), a label per ID document and per stage of a dealt hand,
and a registration refusal in the viewer's language although the record keeps its English sentence
(``refusal_sentence``). Nothing here is stored: it is rendered at each view, in the active language.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.rules.errors import N_
from casino.rules.tournament.eligibility import ID_TYPES

#: The ID documents the desk accepts (CC-24), as the desk names them.
ID_TYPE_LABELS = {
    "dni": _("DNI"),
    "cedula": _("Cédula de identidad"),
    "libreta_enrolamiento": _("Libreta de enrolamiento"),
    "passport": _("Passport"),
}
assert set(ID_TYPE_LABELS) == set(ID_TYPES)  # noqa: S101 - a new document type needs its label

#: Where a dealt hand stands (the engine's streets and phases), as the floor says it.
STAGE_LABELS = {
    "preflop": _("Pre-flop"), "flop": _("Flop"), "turn": _("Turn"), "river": _("River"),
    "post-antes": _("Antes"), "post-blinds": _("Blinds"), "deal-hole-cards": _("Dealing"),
    "betting": _("Betting"), "deal-board": _("Dealing the board"), "showdown": _("Showdown"),
    "award-pots": _("Awarding the pots"), "complete": _("Hand over"), "misdeal": _("Misdeal"),
}

#: Why a player took a seat (casino.rules.tournament.seating.WHY).
WHY_LABELS = {
    "draw": _("the draw"), "late": _("late registration"), "reentry": _("re-entry"), "balance": _("balancing"),
    "break": _("a table broken"), "redraw": _("a redraw"), "final_table": _("the final table"),
    "correction": _("a correction"), "override": _("the director's decision"),
}

CHECKPOINT_LABELS = {
    "entry": _("at the entry"), "accreditation": _("at the accreditation"), "seating": _("at the seat"),
    "payout": _("at the payout"),
}

#: The clock's actions (casino.rules.tournament.clock.CLOCK_KINDS).
CLOCK_SENTENCES = {
    "start": N_("The clock started"), "pause": N_("The clock was paused"), "resume": N_("The clock resumed"),
    "adjust": N_("The clock was adjusted by %(seconds)s seconds"), "skip": N_("The clock went to step %(step)s"),
    "hand_for_hand_on": N_("Hand for hand began"), "hand_for_hand_off": N_("Hand for hand ended"),
    "hand_for_hand_hand": N_("The next hand-for-hand deal was released"),
    "finish": N_("The clock stopped: the event is over"),
}


def label(labels: dict, code: Any) -> str:
    """The label of ``code``, or the code itself when it has none (a stored value from a later version)."""
    found = labels.get(code)
    return str(found) if found is not None else ("" if code is None else str(code))


def id_type_label(code: str) -> str:
    return label(ID_TYPE_LABELS, code)


def stage_label(code: str) -> str:
    return label(STAGE_LABELS, code)


# --- The record's sentences -----------------------------------------------------------------------------

#: One sentence per kind of event: its English template (translated when shown) with the event's fields.
SENTENCES: dict[str, str] = {
    "setup": N_("The event was set up: buy-in %(buy_in)s, starting stack %(starting_stack)s, %(seats_per_table)s "
                "seats a table"),
    "setup_changed": N_("The event's settings were changed: %(reason)s"),
    "structure_changed": N_("The structure was changed: %(reason)s"),
    "registration_opened": N_("Registration opened"),
    "registered": N_("Entry %(entry)s registered"),
    "refused": N_("A registration was refused: %(reason)s"),
    "id_checked": N_("Entry %(entry)s showed its ID %(checkpoint)s"),
    "registration_closed": N_("Registration closed: %(entries)s entries, prize pool %(prize_pool)s"),
    "seated": N_("Entry %(entry)s sat at table %(table)s, seat %(seat)s (%(why)s)"),
    "hand": N_("Table %(table)s finished hand %(hand)s"),
    "bust": N_("Entry %(entry)s busted at table %(table)s"),
    "withdrawal": N_("Entry %(entry)s withdrew; %(chips_removed)s chips left play"),
    "disqualification": N_("Entry %(entry)s was disqualified: %(reason)s"),
    "chips_removed": N_("Entry %(entry)s: %(chips)s chips left play (%(reason)s)"),
    "stack_held": N_("The stack of entry %(entry)s is kept for the player (CC-31)"),
    "chip_count": N_("Entry %(entry)s counted %(chips)s chips"),
    "button": N_("The button is at table %(table)s, seat %(seat)s"),
    "plan_proposed": N_("The floor was shown moves to make"),
    "plan_confirmed": N_("The floor confirmed the moves"),
    "table_broken": N_("Table %(table)s was broken"),
    "table_halted": N_("Table %(table)s was halted until balanced"),
    "table_resumed": N_("Table %(table)s plays again"),
    "colour_up": N_("Table %(table)s coloured up its %(removed)s chips"),
    "prize_paid": N_("Entry %(entry)s was paid %(amount)s"),
    "results": N_("The results were recorded"),
    "finished": N_("The tournament is over"),
    "correction": N_("Line %(voids)s was corrected: %(reason)s"),
    "penalty": N_("Entry %(entry)s was given a penalty: %(reason)s"),
    "penalty_ended": N_("The penalty of entry %(entry)s was ended: %(reason)s"),
    "random_draw": N_("The director drew at random (RP-14) among %(choices)s: %(drawn)s (seed %(seed)s). "
                      "%(reason)s"),
    "series_set": N_("The event plays %(series)s qualifying series, each to level %(end_level)s or "
                     "%(qualifiers)s qualifiers (CC-05)"),
    "series_changed": N_("The qualifying series changed: %(reason)s (CC-07)"),
    "series_assigned": N_("Entries put into their series: %(count)s (%(how)s, CC-06)"),
    "series_started": N_("Series %(series)s began at level 1 (CC-05)"),
    "day_ended": N_("The day ended at level %(level)s: %(count)s players bagged their chips (CC-09)"),
    "stage_started": N_("Day %(day)s of the Final Stage began at level %(level)s (CC-08)"),
    "checked_in": N_("Entry %(entry)s checked in to the Final Stage (CC-09)"),
}
#: The series' draw or a player's choice (``series_assigned``'s ``how``).
SERIES_HOW = {"draw": _("the logged draw"), "chosen": _("the player's choice")}
CHECKED_IN_WITHOUT_RECEIPT = N_("Entry %(entry)s checked in to the Final Stage without his chip-count receipt "
                                "(CC-09)")
#: Sentences that read better another way in some cases.
SEATED_MOVED = N_("Entry %(entry)s moved from table %(from_table)s, seat %(from_seat)s to table %(table)s, "
                  "seat %(seat)s (%(why)s)")
REGISTERED_LATE_OVERRIDE = N_("Entry %(entry)s registered after late registration ended, by the director's "
                              "override (CC-32)")
PENALTY_WARNING = N_("Entry %(entry)s was warned: %(reason)s")
PENALTY_HANDS = N_("Entry %(entry)s sits out %(hands)s hands: %(reason)s")
ABSENT = N_("absent at the end of the first level (CC-30)")


class _Blank(dict):
    """A missing field reads as nothing rather than failing the whole page."""

    def __missing__(self, key):
        return ""


def record_sentence(event: dict) -> str:
    """The event as a sentence in the active language; an unknown kind reads as its type (never a failure)."""
    kind = event.get("type", "")
    fields = _Blank(event)
    template = SENTENCES.get(kind)
    if kind == "seated":
        fields["why"] = label(WHY_LABELS, event.get("why"))
        if event.get("from_table") is not None:
            template = SEATED_MOVED
    elif kind == "registered" and event.get("late_override"):
        template = REGISTERED_LATE_OVERRIDE
    elif kind == "random_draw":
        stored = event.get("choices")
        choices = [str(c) for c in stored] if isinstance(stored, list) else []
        index = event.get("drawn")
        fields["drawn"] = choices[index] if isinstance(index, int) and 0 <= index < len(choices) else ""
        fields["choices"] = ", ".join(choices)
    elif kind == "id_checked":
        fields["checkpoint"] = label(CHECKPOINT_LABELS, event.get("checkpoint"))
    elif kind == "clock":
        template = CLOCK_SENTENCES.get(event.get("kind"), N_("The clock changed"))
        fields["step"] = int(event.get("step") or 0) + 1
    elif kind == "refused":
        fields["reason"] = refusal_sentence(str(event.get("reason") or ""))
    elif kind == "chips_removed" and event.get("reason") == "absent":
        fields["reason"] = gettext(ABSENT)
    elif kind == "series_assigned":
        stored = event.get("entries")
        fields["count"] = len(stored) if isinstance(stored, list) else 0
        fields["how"] = label(SERIES_HOW, event.get("how"))
    elif kind == "day_ended":
        stored = event.get("bags")
        fields["count"] = len(stored) if isinstance(stored, list) else 0
    elif kind == "checked_in" and not event.get("shown"):
        template = CHECKED_IN_WITHOUT_RECEIPT
    elif kind == "penalty":
        template = {"warning": PENALTY_WARNING, "hands": PENALTY_HANDS}.get(event.get("kind"), template)
    if template is None:
        return kind.replace("_", " ")
    try:
        return gettext(template) % fields
    except (KeyError, TypeError, ValueError):  # a translation that does not fit its values
        return template % fields


# --- A refusal kept in English ---------------------------------------------------------------------------

#: The refusals a registration records (casino.rules.tournament.eligibility.refusal and the service's own):
#: their English templates, to find the template and the values again from the sentence the record keeps.
REFUSAL_TEMPLATES = (
    N_("%(id_type)s is not an accepted ID (accepted: %(accepted)s)"),
    N_("ID number %(number)r is not valid: 5 to 20 letters or digits"),
    N_("The date of birth is needed to check the minimum age of %(age)s"),
    N_("The date of birth %(born)s is after the day of the event"),
    N_("Under %(age)s on %(on)s: may not play"),
    N_("On the exclusion or self-exclusion register: may not play"),
    N_("Company staff and inspectors may not play"),
    N_("Already entered in this event: one entry per player"),
    N_("This player is still in the event with entry %(entry)s"),
    N_("This player withdrew from the event and may not enter it again"),
    N_("Late registration ended with level %(level)s: level %(now)s is in play"),
)
_PLACEHOLDER = re.compile(r"%\((\w+)\)([sr])")


@cache
def _pattern(template: str) -> re.Pattern:
    parts, last = [], 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[last:match.start()]))
        name, kind = match.groups()
        parts.append(f"(?P<{name}>.+?)" if kind == "s" else f"(?P<{name}>'.*?'|\".*?\")")
        last = match.end()
    parts.append(re.escape(template[last:]))
    return re.compile("".join(parts) + r"\Z", re.DOTALL)


def refusal_sentence(reason: str) -> str:
    """The registration refusal the record keeps (its English sentence) in the active language: the
    template it was made from, translated, with its values; a sentence from no known template as it is."""
    for template in REFUSAL_TEMPLATES:
        match = _pattern(template).match(reason)
        if match is None:
            continue
        values = match.groupdict()
        translated = gettext(template)
        try:
            return translated.replace("%(number)r", "%(number)s") % values
        except (KeyError, TypeError, ValueError):
            return reason
    return gettext(reason) if reason else ""
