"""The console's form fields turned into the arguments of one service call, or a clear refusal.

Each parser reads a POST (a ``QueryDict``) and returns plain values (ints, dates, the pure types of
``casino.rules.tournament``); whatever it cannot read raises ``BadInput`` with a sentence naming the
field and what was wrong, which the console shows in its notice (never a 500).

The structure and the payout table are typed as text, one step or one place a line, because a director
on a phone types them faster than they fill a grid of inputs, and the same text copies a structure from
one event to the next::

    100/200 20          level: small blind 100, big blind 200, 20 minutes (no ante)
    200/400/400 20      level with an ante of 400
    break 10 25         a 10-minute break at which the 25 chips leave play (colour-up, TDA-24)

    50 30 20            the payout table: 50%, 30%, 20% of the pool (place 1 first)
"""

from __future__ import annotations

import re
from datetime import date, datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from casino.bad_input import first_field_with_nul
from casino.form_input import BadInput, optional_whole, whole
from casino.rules.decks import CHANGE_TRIGGERS
from casino.rules.tournament.bounds import (
    MAX_CHIPS,
    MAX_MONEY,
    MAX_STARTING_STACK,
    MAX_STEP_MINUTES,
    MAX_STEPS,
    MAX_TABLE_NUMBER,
)
from casino.rules.tournament.eligibility import (
    EARLIEST_BIRTH_DATE,
    ID_TYPES,
    id_number_as_on_a_document,
    name_as_on_a_document,
)
from casino.rules.tournament.options import ANTE_MODES
from casino.rules.tournament.structure import Break, Level, Structure

FREE_TEXT_LIMIT = 200


def text(post, name: str, what: str, *, required: bool = False, limit: int = FREE_TEXT_LIMIT) -> str:
    value = (post.get(name) or "").strip()
    if required and not value:
        raise BadInput(_("%(what)s is required.") % {"what": what})
    if len(value) > limit:
        raise BadInput(_("%(what)s is longer than %(limit)d characters.") % {"what": what, "limit": limit})
    return value


def reason(post) -> str:
    """The reason a correction, an override or a disqualification gives: the record keeps it."""
    return text(post, "reason", _("The reason"), required=True)


def refuse_nul_bytes(post) -> None:
    field = first_field_with_nul(post)
    if field is not None:
        raise BadInput(_("The field “%(field)s” contains a character that is not allowed.") % {"field": field})


def a_date(value, what: str) -> date:
    try:
        return date.fromisoformat(str(value).strip())
    except (TypeError, ValueError):
        raise BadInput(_("%(what)s must be a date (year-month-day), not “%(value)s”.")
                       % {"what": what, "value": value or ""}) from None


#: a date of birth as the desk types it from a document: day first (01/05/1990, 1-5-1990, 01.05.1990, 01051990)
_DAY_FIRST = re.compile(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})|(\d{2})(\d{2})(\d{4})")


def a_typed_date(value, what: str) -> date:
    """A date typed at the desk: day first as a document prints it (the tablet's numeric keypad types
    ``01051990``), or year first as a date input sends it (``1990-05-01``)."""
    text = str(value or "").strip()
    found = _DAY_FIRST.fullmatch(text)
    try:
        if found is None:
            return date.fromisoformat(text)
        day, month, year = (int(n) for n in (found.group(1, 2, 3) if found.group(1) else found.group(4, 5, 6)))
        return date(year, month, day)
    except ValueError:
        raise BadInput(_("%(what)s must be a date (day/month/year), not “%(value)s”.")
                       % {"what": what, "value": text[:40]}) from None


def a_moment(value, what: str) -> datetime:
    """A local date and time from a ``datetime-local`` input, made aware in the casino's time zone."""
    try:
        moment = datetime.fromisoformat(str(value).strip())
    except (TypeError, ValueError):
        raise BadInput(_("%(what)s must be a date and time, not “%(value)s”.")
                       % {"what": what, "value": value or ""}) from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def a_choice(value, choices, what: str) -> str:
    if value not in choices:
        raise BadInput(_("Choose one of the options for %(what)s.") % {"what": what})
    return value


# --------------------------------------------------------------------------- the structure as text

# re.ASCII: \d is 0-9 only, as whole() reads numbers
_LEVEL = re.compile(r"^(\d+)\s*/\s*(\d+)(?:\s*/\s*(\d+))?\s+(\d+)\s*(?:m|min)?$", re.IGNORECASE | re.ASCII)
_BREAK = re.compile(r"^(?:break|descanso|pausa)\s+(\d+)\s*(?:m|min)?((?:\s*[ ,]\s*\d+)*)$",
                    re.IGNORECASE | re.ASCII)


def _on_line(number: int, what: str, digits: str, *, low: int, high: int) -> int:
    """A number of a structure's line within its bounds (issue #34: TDA-23's minutes, the blinds), or the
    line and the field named; never int() of 5,000 digits."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(high)) or not low <= int(digits) <= high:
        raise BadInput(_("Line %(number)d of the structure: %(what)s must be between %(low)d and %(high)d.")
                       % {"number": number, "what": what, "low": low, "high": high})
    return int(digits)


def structure_from_text(raw: str, denominations: tuple[int, ...]) -> Structure:
    """The structure typed one step a line (see the module's docstring); the rules' own checks
    (``check_structure``) run in the service: this only reads the text."""
    steps: list[Level | Break] = []
    for number, line in enumerate((raw or "").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        level = _LEVEL.match(line)
        if level:
            small, big, ante, minutes = level.groups()
            steps.append(Level(
                small_blind=_on_line(number, _("the small blind"), small, low=1, high=MAX_CHIPS),
                big_blind=_on_line(number, _("the big blind"), big, low=1, high=MAX_CHIPS),
                ante=_on_line(number, _("the ante"), ante or "0", low=0, high=MAX_CHIPS),
                minutes=_on_line(number, _("the minutes"), minutes, low=1, high=MAX_STEP_MINUTES)))
            continue
        pause = _BREAK.match(line)
        if pause:
            minutes, removes = pause.groups()
            steps.append(Break(
                minutes=_on_line(number, _("the minutes"), minutes, low=1, high=MAX_STEP_MINUTES),
                removes=tuple(_on_line(number, _("a chip coloured up"), d, low=1, high=MAX_CHIPS)
                              for d in re.findall(r"[0-9]+", removes or ""))))
            continue
        raise BadInput(_("Line %(number)d of the structure is not a level (“100/200 20” or “100/200/25 20”) "
                         "nor a break (“break 10” or “break 10 25”): “%(line)s”.") % {"number": number, "line": line})
    if not steps:
        raise BadInput(_("The structure needs at least one level."))
    if len(steps) > MAX_STEPS:
        raise BadInput(_("A structure has at most %(most)d levels and breaks.") % {"most": MAX_STEPS})
    return Structure(steps=tuple(steps), denominations=denominations)


def structure_as_text(structure: Structure | None) -> str:
    """The structure as the form shows it, so that editing it round-trips."""
    if structure is None:
        return ""
    lines = []
    for step in structure.steps:
        if isinstance(step, Break):
            lines.append(" ".join(["break", str(step.minutes), *(str(d) for d in step.removes)]))
        elif step.ante:
            lines.append(f"{step.small_blind}/{step.big_blind}/{step.ante} {step.minutes}")
        else:
            lines.append(f"{step.small_blind}/{step.big_blind} {step.minutes}")
    return "\n".join(lines)


def numbers(raw: str, what: str, *, high: int = MAX_CHIPS) -> tuple[int, ...]:
    """Whole numbers separated by commas or spaces (denominations, the break order of the tables)."""
    found = []
    for part in re.split(r"[\s,;]+", (raw or "").strip()):
        if part:
            found.append(whole(part, what, low=1, high=high))
    return tuple(found)


_SHARE = re.compile(r"([0-9]{1,3})(?:[.]([0-9]{1,2}))?%?")


def payout_shares(raw: str) -> tuple[int, ...]:
    """The payout table typed as percentages, place 1 first ("50 30 20", decimals allowed: "35.5"),
    as basis points summing to 10,000."""
    parts = [p for p in re.split(r"[\s;]+", (raw or "").replace(",", " ").strip()) if p]
    if not parts:
        raise BadInput(_("A payout line needs each place's share."))
    shares = []
    for place, part in enumerate(parts, 1):
        # decimal text, never float(): "inf" and "1e309" are floats, and round(inf) is an OverflowError
        share = _SHARE.fullmatch(part)
        if share is None:
            raise BadInput(_("The share of place %(place)d must be a percentage with at most two decimals "
                             "(“35” or “35.5”), not “%(value)s”.")
                           % {"place": place, "value": part if len(part) <= 20 else part[:20] + "…"})
        basis_points = int(share[1]) * 100 + int((share[2] or "").ljust(2, "0"))
        if basis_points <= 0:
            raise BadInput(_("The share of place %(place)d must be more than 0%%.") % {"place": place})
        shares.append(basis_points)
    if sum(shares) != 10_000:
        raise BadInput(_("The payout shares add up to %(total)s%%, not 100%%.") % {"total": f"{sum(shares) / 100:g}"})
    if any(higher < lower for higher, lower in zip(shares, shares[1:])):
        raise BadInput(_("A place cannot pay more than the place above it."))
    return tuple(shares)


def payout_as_text(shares) -> str:
    return " ".join(f"{s / 100:g}" for s in shares or ())


#: A payout line without "up to N entries:" applies to any number of entries.
ANY_NUMBER_OF_ENTRIES = 100_000


def payout_table(raw: str) -> list[list]:
    """The payout table by number of entries, one line each, the smallest field first::

        20: 65 35          up to 20 entries, two places paid
        50: 50 30 20       up to 50 entries, three
        40 25 15 12 8      any more (a line without "N:")

    Empty: [] (the house's default table, by number of entries)."""
    table = []
    for number, line in enumerate((raw or "").splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        most, _sep, shares = line.rpartition(":")
        most_entries = whole(most, _("The number of entries on payout line %(number)d") % {"number": number},
                             low=1, high=ANY_NUMBER_OF_ENTRIES) if most.strip() else ANY_NUMBER_OF_ENTRIES
        places = payout_shares(shares)
        if len(places) > most_entries:
            raise BadInput(_("Payout line %(number)d pays %(places)d places with up to %(most)d entries.")
                           % {"number": number, "places": len(places), "most": most_entries})
        table.append([most_entries, list(places)])
    if [row[0] for row in table] != sorted({row[0] for row in table}):
        raise BadInput(_("Order the payout lines by number of entries, each number once."))
    return table


def payout_table_as_text(table) -> str:
    lines = []
    for most, shares in table or ():
        text_shares = payout_as_text(shares)
        lines.append(text_shares if most >= ANY_NUMBER_OF_ENTRIES else f"{most}: {text_shares}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- setup and registration

SEATS_PER_TABLE = (10, 9, 8, 6)


def event_setup(post, *, editing: bool = False) -> dict:
    """The event's setup form: name, start, money, stacks, seats, structure, payouts, options (editing: the
    setup's fields only, as ``services.change_setup`` takes them)."""
    denominations = numbers(post.get("denominations", ""), _("A chip denomination"),
                            high=MAX_CHIPS) or (25, 100, 500, 1000, 5000)
    if list(denominations) != sorted(set(denominations)):
        raise BadInput(_("List the chip denominations once each, smallest first."))
    final_table_size = whole(post.get("final_table_size", 10), _("The final table's size"), low=2, high=10)
    options = {  # the options the form shows; the others keep the event's (or the house's default)
        "final_table_size": final_table_size,
        "ante_mode": a_choice(post.get("ante_mode", "button"), ANTE_MODES, _("the ante")),
        "reentry_allowed": post.get("reentry_allowed") == "1",
        "mucked_hand_recoverable": post.get("mucked_hand_recoverable") == "1",
        "action_seconds": whole(post.get("action_seconds", 60), _("The time to act"), low=0, high=600),
        "clock_seconds": whole(post.get("clock_seconds", 30), _("The clock's seconds"), low=5, high=600),
        "clock_countdown_seconds": whole(post.get("clock_countdown_seconds", 10), _("The seconds counted aloud"),
                                         low=0, high=600),
        "clock_expiry_unfaced": a_choice(post.get("clock_expiry_unfaced", "dead"), ("dead", "check"),
                                         _("the clock's outcome")),
        "max_penalty_rounds": whole(post.get("max_penalty_rounds", 4), _("The longest suspension"), low=1, high=20),
        "boxed_cards": a_choice(post.get("boxed_cards", "CC-100"), ("CC-100", "TDA-35-A"),
                                _("the face-up cards found in the deck")),
        "oot_after_change": a_choice(post.get("oot_after_change", "call_or_fold"), ("call_or_fold", "all_options"),
                                     _("the out-of-turn option")),
        "day_end_chip_race": a_choice(post.get("day_end_chip_race", "before_bagging"), ("before_bagging", "next_day"),
                                      _("when a day ending at a colour-up races its odd chips")),
        "oot_repeats_call_floor": whole(post.get("oot_repeats_call_floor", 2),
                                        _("The acts out of turn that call the floor"), low=0, high=20),
    }
    if post.get("deck_change_shown") == "1":  # C-17 (issue #39): a form without it keeps the event's
        chosen = tuple(t for t in CHANGE_TRIGGERS if post.get(f"deck_change_{t}") == "1")
        if not chosen:
            raise BadInput(_("Choose when the deck changes (C-17): at the level's end, at a dealer change or when "
                             "the director says."))
        options["deck_change_on"] = chosen
    fields = {
        "buy_in": whole(post.get("buy_in"), _("The buy-in"), low=0, high=MAX_MONEY),
        "fee": whole(post.get("fee") or 0, _("The fee"), low=0, high=MAX_MONEY),
        "starting_stack": whole(post.get("starting_stack"), _("The starting stack"), low=1, high=MAX_STARTING_STACK),
        "seats_per_table": int(a_choice(str(post.get("seats_per_table", "")).strip(),
                                        [str(s) for s in SEATS_PER_TABLE], _("the seats per table"))),
        "late_registration_level": optional_whole(post.get("late_registration_level"),
                                                  _("The last level of late registration"), low=1, high=200),
        "structure": structure_from_text(post.get("structure", ""), denominations).as_dict(),
        "payout_table": payout_table(post.get("payouts", "")),
        "break_order": numbers(post.get("break_order", ""), _("A table in the break order"), high=MAX_TABLE_NUMBER),
        "options": options,
    }
    if not editing:
        fields["name"] = text(post, "name", _("The name"), required=True, limit=120)
        fields["starts_at"] = a_moment(post.get("starts_at"), _("The start"))
    return fields


def registration(post) -> dict:
    """A player at the registration desk: name, ID document, birth date, consent to image rights. What no
    document holds is refused naming the field (issue #34, CC-24: ``eligibility.desk_refusal``)."""
    name = text(post, "player_name", _("The player's name"), required=True, limit=120)
    if not name_as_on_a_document(name):
        raise BadInput(_("The player's name has a character no ID document prints (a control or formatting "
                         "character, or no letter at all): type the name as it is on the document."))
    id_type = a_choice(post.get("id_type", ""), ID_TYPES, _("the ID document"))
    id_number = text(post, "id_number", _("The ID number"), required=True, limit=40)
    if not id_number_as_on_a_document(id_number):
        raise BadInput(_("The ID number can only hold letters and digits (with the spaces, dots or dashes the "
                         "document prints between them): type it as it is on the document."))
    birth_date = a_typed_date(post.get("birth_date"), _("The date of birth"))
    if not EARLIEST_BIRTH_DATE <= birth_date <= timezone.localdate():
        raise BadInput(_("The date of birth must be between %(earliest)s and today: check it on the document.")
                       % {"earliest": EARLIEST_BIRTH_DATE.isoformat()})
    return {"player_name": name, "id_type": id_type, "id_number": id_number, "birth_date": birth_date,
            "image_consent": post.get("image_consent") == "1",
            # the director registers after late registration has ended (CC-32): recorded with the entry
            "late_override": post.get("late_override") == "1"}


def stacks_at_start(post, entries: list[int]) -> dict[int, int] | None:
    """CC-19: when two or more bust in one hand at one table, each one's stack at the start of that hand
    ranks them; the form asks for them as ``stack_<entry>``; None when only one busts."""
    if len(entries) < 2:
        return None
    return {entry: whole(post.get(f"stack_{entry}"), _("The stack at the start of the hand of entry %(entry)d")
                         % {"entry": entry}, low=1) for entry in entries}
