"""The rules engine's refusals, in the dealer's language.

The engine (casino.rules) explains a refused action in one English sentence
and names the clause it rests on. A Spanish-speaking dealer must read it in
Spanish, so each sentence the tablet can provoke is matched here against a
pattern and given as a translatable message with the same numbers, boxes and
cards. A sentence no pattern knows is shown as it is, never hidden, with its
clause (services' own refusals arrive already translated).
"""

from __future__ import annotations

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino.rules.errors import RuleViolation

STREET_NAMES = {"flop": _("the flop"), "turn": _("the turn"), "river": _("the river")}
SHOWN_AFTER = {
    "the initial deal": _("the initial deal"),
    "the flop": _("the flop"),
    "the turn": _("the turn"),
}

_PLACES = [
    (re.compile(r"^box (\d+)'s cards$", re.I), _("box %(box)s's cards")),
    (re.compile(r"^the dealer's cards$", re.I), _("the dealer's cards")),
    (re.compile(r"^the board$", re.I), _("the board")),
    (re.compile(r"^the discards$", re.I), _("the discards")),
    (re.compile(r"^the flop$", re.I), _("the flop")),
    (re.compile(r"^the turn$", re.I), _("the turn")),
    (re.compile(r"^the river$", re.I), _("the river")),
    (re.compile(r"^the face-up card$", re.I), _("the face-up card")),
]


def _place(text: str) -> str:
    """'box 3's cards', 'the flop'... in the active language."""
    for pattern, message in _PLACES:
        match = pattern.match(text.strip())
        if match:
            return str(message) % {"box": match.group(1)} if match.groups() else str(message)
    return text


def _street(text: str) -> str:
    return str(STREET_NAMES.get(text, text))


_CARD = r"[2-9TJQKA][cdhs]"

# (pattern on the engine's sentence, translatable message, {group: converter}). Order matters: first match wins.
PATTERNS: list[tuple[re.Pattern, object, dict]] = [
    (r"The hand is void: nothing more can happen in it", _("The hand is void: nothing more can happen in it"), {}),
    (r"The hand is settled: nothing more can happen in it",
     _("The hand is settled: nothing more can happen in it"), {}),
    (r"There is no box (?P<box>\d+): boxes are numbered 1 to (?P<n>\d+)",
     _("There is no box %(box)s: boxes are numbered 1 to %(n)s"), {}),
    (r"Box (?P<box>\d+)'s (?P<bet>ante|Bonus|flop bet|turn bet|river bet) must be a whole amount, not (?P<v>.*)",
     _("Box %(box)s: the amount must be a whole number, not %(v)s"), {}),
    (r"Box (?P<box>\d+)'s (?P<bet>ante|Bonus|flop bet|turn bet|river bet) must be more than zero, not (?P<v>.*)",
     _("Box %(box)s: the amount must be more than zero, not %(v)s"), {}),
    (r"Box (?P<box>\d+) has no ante in this hand", _("Box %(box)s has no ante in this hand"), {}),
    (r"Box (?P<box>\d+)'s hand is void: its bets were returned",
     _("Box %(box)s's hand is void: its bets were returned"), {}),
    (r"Box (?P<box>\d+) cannot make its (?P<street>flop|turn|river) decision yet: it comes after (?P<after>.*)",
     _("Box %(box)s cannot decide on %(street)s yet: that comes after %(after)s"),
     {"street": _street, "after": lambda t: str(SHOWN_AFTER.get(t, t))}),
    (r"The (?P<street>flop|turn|river) decisions are over", _("The decisions on %(street)s are over"),
     {"street": _street}),
    (r"Box (?P<box>\d+) folded \(no va\) and has no more decisions",
     _("Box %(box)s folded (no va) and has no more decisions"), {}),
    (r"Box (?P<box>\d+) has already decided on the (?P<street>flop|turn|river)",
     _("Box %(box)s has already decided on %(street)s"), {"street": _street}),
    (r"It is box (?P<to_act>\d+)'s turn to decide, not box (?P<box>\d+)'s.*",
     _("It is box %(to_act)s's turn to decide, not box %(box)s's: ask each box in turn from your left"), {}),
    (r"Enter (?P<what>.*): this hand's cards are recorded by the dealer",
     _("Enter %(what)s: in this hand the dealer records the cards"), {"what": _place}),
    (r"(?P<what>.*) must be (?P<count>\d+) cards?, not (?P<given>\d+)",
     _("%(what)s must be %(count)s card(s), not %(given)s"), {"what": lambda t: _place(t).capitalize()}),
    (rf"(?P<card>{_CARD}) is entered twice in (?P<what>.*): a single deck has one of each card",
     _("%(card)s is entered twice in %(what)s: a single deck has one of each card"), {"what": _place}),
    (rf"(?P<card>{_CARD}) in (?P<what>.*) is already in (?P<where>.*): a single deck has one of each card",
     _("%(card)s in %(what)s is already in %(where)s: a single deck has one of each card"),
     {"what": _place, "where": _place}),
    (r"(?P<what>.*) dealt from the shoe are (?P<actual>.*), not (?P<given>.*)",
     _("%(what)s dealt from the shoe are %(actual)s, not %(given)s"), {"what": lambda t: _place(t).capitalize()}),
    (r"The shoe has run out of cards", _("The shoe has run out of cards"), {}),
    (r"Bets are closed \('no va más'\): the ante is placed before the cards are dealt",
     _("Bets are closed ('no va más'): the ante is placed before the cards are dealt"), {}),
    (r"Box (?P<box>\d+) already has an ante of (?P<ante>\d+): withdraw it to change it",
     _("Box %(box)s already has an ante of %(ante)s: withdraw it to change it"), {}),
    (r"Box (?P<box>\d+)'s ante of (?P<amount>\d+) is below the table minimum of (?P<min>\d+)",
     _("Box %(box)s's ante of %(amount)s is below the table minimum of %(min)s"), {}),
    (r"Box (?P<box>\d+)'s ante of (?P<amount>\d+) is above the table maximum of (?P<max>\d+)",
     _("Box %(box)s's ante of %(amount)s is above the table maximum of %(max)s"), {}),
    (r"Bets are closed \('no va más'\): the Bonus is placed only before the cards are dealt",
     _("Bets are closed ('no va más'): the Bonus is placed only before the cards are dealt"), {}),
    (r"Box (?P<box>\d+) has no ante: the Bonus is only for a player who has placed the ante",
     _("Box %(box)s has no ante: the Bonus is only for a player who has placed the ante"), {}),
    (r"Box (?P<box>\d+) already has a Bonus of (?P<bonus>\d+): withdraw the bets to change it",
     _("Box %(box)s already has a Bonus of %(bonus)s: withdraw the bets to change it"), {}),
    (r"Box (?P<box>\d+)'s Bonus of (?P<amount>\d+) is below the Bonus minimum of (?P<min>\d+)",
     _("Box %(box)s's Bonus of %(amount)s is below the Bonus minimum of %(min)s"), {}),
    (r"Box (?P<box>\d+)'s Bonus of (?P<amount>\d+) is above the Bonus maximum of (?P<max>\d+)",
     _("Box %(box)s's Bonus of %(amount)s is above the Bonus maximum of %(max)s"), {}),
    (r"Bets are closed \('no va más'\): they can no longer be withdrawn",
     _("Bets are closed ('no va más'): they can no longer be withdrawn"), {}),
    (r"Bets are already closed", _("Bets are already closed"), {}),
    (r"No box has an ante: a hand needs at least one player",
     _("No box has an ante: a hand needs at least one player"), {}),
    (r"Announce 'no va más' before dealing", _("Announce 'no va más' before dealing"), {}),
    (r"The initial deal is already done", _("The initial deal is already done"), {}),
    (r"The (?P<street>flop|turn|river) cannot be dealt yet", _("%(street)s cannot be dealt yet"),
     {"street": lambda t: _street(t).capitalize()}),
    (r"Nobody plays against the dealer: no community cards are dealt",
     _("Nobody plays against the dealer: no community cards are dealt"), {}),
    (r"The (?P<street>flop|turn|river) is already dealt", _("%(street)s is already dealt"),
     {"street": lambda t: _street(t).capitalize()}),
    (r"Box (?P<box>\d+) has still to make its (?P<street>flop|turn|river) decision: every player decides "
     r"before the (?P<next>flop|turn|river) is dealt",
     _("Box %(box)s has still to decide on %(street)s: every player decides before %(next)s is dealt"),
     {"street": _street, "next": _street}),
    (r"The flop bet must be exactly twice the ante: box (?P<box>\d+) bets (?P<right>\d+), not (?P<amount>\d+)",
     _("The flop bet must be exactly twice the ante: box %(box)s bets %(right)s, not %(amount)s"), {}),
    (r"Box (?P<box>\d+) made its flop bet: after the flop a player bets or checks, and cannot fold",
     _("Box %(box)s made its flop bet: after the flop a player bets or checks, and cannot fold"), {}),
    (r"The turn bet must equal the ante: box (?P<box>\d+) bets (?P<right>\d+), not (?P<amount>\d+)",
     _("The turn bet must equal the ante: box %(box)s bets %(right)s, not %(amount)s"), {}),
    (r"The river bet must equal the ante: box (?P<box>\d+) bets (?P<right>\d+), not (?P<amount>\d+)",
     _("The river bet must equal the ante: box %(box)s bets %(right)s, not %(amount)s"), {}),
    (r"The dealer's cards are already shown", _("The dealer's cards are already shown"), {}),
    (r"The dealer has no cards yet", _("The dealer has no cards yet"), {}),
    (r"The dealer shows his cards only once the river is dealt and every player has decided",
     _("The dealer shows his cards only once the river is dealt and every player has decided"), {}),
    (r"Box (?P<box>\d+)'s cards are already shown", _("Box %(box)s's cards are already shown"), {}),
    (r"The dealer's hand is shown first, then boxes 7 to 1", _("The dealer's hand is shown first, then boxes 7 to 1"),
     {}),
    (r"Box (?P<box>\d+)'s cards are shown at the showdown, after the river",
     _("Box %(box)s's cards are shown at the showdown, after the river"), {}),
    (r"Box (?P<first>\d+) is shown before box (?P<box>\d+): boxes are shown from 7 down to 1",
     _("Box %(first)s is shown before box %(box)s: boxes are shown from 7 down to 1"), {}),
    (r"Box (?P<box>\d+)'s cards are shown after its decision", _("Box %(box)s's cards are shown after its decision"),
     {}),
    (r"Bonus awards are approved once the hand is settled", _("Bonus awards are approved once the hand is settled"),
     {}),
    (r"Box (?P<box>\d+) has no Bonus award waiting for approval",
     _("Box %(box)s has no Bonus award waiting for approval"), {}),
    (r"No card is dealt yet", _("No card is dealt yet"), {}),
    (r"No card is being dealt yet", _("No card is being dealt yet"), {}),
    (r"Every card of the hand is dealt", _("Every card of the hand is dealt"), {}),
    (r"The number of face-up cards must be (?:a whole amount|more than zero), not (?P<v>.*)",
     _("The number of face-up cards must be a whole number above zero, not %(v)s"), {}),
    (rf"(?P<card>{_CARD}) is not among the undealt cards", _("%(card)s is not among the undealt cards"), {}),
    (r"The boxes have no cards yet", _("The boxes have no cards yet"), {}),
    (r"(?P<v>.*) is not a number of cards", _("%(v)s is not a number of cards"), {}),
    (r"Two cards is the right number for a box", _("Two cards is the right number for a box"), {}),
    (r"Box (?P<box>\d+)'s two cards are already shown", _("Box %(box)s's two cards are already shown"), {}),
    (r"The dealer's two cards are already shown", _("The dealer's two cards are already shown"), {}),
    (r"Two cards is the right number for the dealer", _("Two cards is the right number for the dealer"), {}),
    (r"Say why the hand is void", _("Say why the hand is void"), {}),
    (r"'?(?P<card>[^']*)'? is not a card.*", _("%(card)s is not a card: pick it from the card picker"), {}),
]
PATTERNS = [(re.compile(p + r"\Z", re.S), m, c) for p, m, c in PATTERNS]

# What the engine notes about a hand: irregularities it applied and why a hand is void (THB-73..76).
NOTES: list[tuple[re.Pattern, object, dict]] = [
    (r"A dealer's card was shown after every player had decided: no effect \(THB-73\)",
     _("A dealer's card was shown after every player had decided: no effect (THB-73)"), {}),
    (rf"A card \((?P<card>{_CARD})\) found face up in the deck is not used this hand \(THB-74\)",
     _("A card (%(card)s) found face up in the deck is not used this hand (THB-74)"), {}),
    (r"A card found face up in the deck is not used this hand \(THB-74\)",
     _("A card found face up in the deck is not used this hand (THB-74)"), {}),
    (r"Box (?P<box>\d+) was dealt (?P<n>\d+) cards: its hand is void and its bets returned \(THB-76\)",
     _("Box %(box)s was dealt %(n)s cards: its hand is void and its bets returned (THB-76)"), {}),
    (r"The dealer was dealt (?P<n>\d+) cards and it was corrected in sequence, face down \(THB-76\)",
     _("The dealer was dealt %(n)s cards and it was corrected in sequence, face down (THB-76)"), {}),
    (r"A dealer's card was shown before every player had decided",
     _("A dealer's card was shown before every player had decided"), {}),
    (r"(?P<n>\d+) cards were found face up in the deck during the deal",
     _("%(n)s cards were found face up in the deck during the deal"), {}),
    (r"The dealer was dealt (?P<n>\d+) cards", _("The dealer was dealt %(n)s cards"), {}),
    (r"Every box's hand is void", _("Every box's hand is void"), {}),
]
NOTES = [(re.compile(p + r"\Z", re.S), m, c) for p, m, c in NOTES]
_WITH_CLAUSE = re.compile(r"(?P<text>.*) \((?P<clause>(?:THB|C)-\d+[a-z]?)\)\Z", re.S)
_HAND_VOID = re.compile(r"Hand void: (?P<reason>.*)\Z", re.S)


def _translate(text: str, patterns) -> str | None:
    for pattern, message, converters in patterns:
        match = pattern.match(text)
        if match is None:
            continue
        params = {k: converters[k](v) if k in converters else v for k, v in match.groupdict().items()}
        return str(message) % params if params else str(message)
    return None


def refusal_message(violation: RuleViolation) -> str:
    """The refusal's sentence in the active language (without its clause)."""
    return _translate(violation.message, PATTERNS) or gettext(violation.message)


def engine_note(text: str) -> str:
    """An engine note (an irregularity applied, why a hand is void) in the active language.

    Notes may end with their clause in brackets and a void one starts with
    "Hand void: "; a note no pattern knows is returned as it is.
    """
    if not text:
        return text
    found = _translate(text, NOTES)
    if found is not None:
        return found
    void = _HAND_VOID.match(text)
    if void:
        return gettext("Hand void: %(reason)s") % {"reason": engine_note(void.group("reason"))}
    with_clause = _WITH_CLAUSE.match(text)
    if with_clause:
        inner = _translate(with_clause.group("text"), NOTES) or _translate(with_clause.group("text"), PATTERNS)
        if inner is not None:
            return f"{inner} ({with_clause.group('clause')})"
    return _translate(text, PATTERNS) or text


def refusal_text(violation: RuleViolation) -> str:
    """The refusal as the dealer reads it: the sentence and the clause it rests on."""
    message = refusal_message(violation)
    if violation.clause and violation.clause not in message:
        return f"{message} ({violation.clause})"
    return message
