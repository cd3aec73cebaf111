"""Who may enter (CC-23..27, C-32, I-CC-11), and the exclusion list the app imports (CC-23).

``refusal`` gives the first reason a person may not enter, each with its clause, in the order a
registration desk checks them: a valid ID (CC-24, CC-23 "cannot prove identity"), the minimum age on the
day of the event (CC-23), the exclusion and self-exclusion register (CC-23), company staff and inspectors
(CC-23), no entry again after a voluntary withdrawal (CC-34), and one entry per event unless the event allows
re-entry (CC-26, C-32).

ID numbers are compared after ``normalise_id_number`` ("12.345.678" and "12345678" are one DNI).
``parse_exclusion_csv`` reads the exclusion register's CSV export (the format is in
docs/tournaments-registration.md) and names the line of any bad row.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from casino.rules.errors import N_, RuleViolation
from casino.rules.tournament.options import HouseOptions

#: I-CC-11: the ID types are a configurable list; these are the regulations' (CC-24).
ID_TYPES = ("dni", "cedula", "libreta_enrolamiento", "passport")

#: the two registers of CC-23
EXCLUSION_KINDS = ("exclusion", "self_exclusion")

#: the exclusion CSV's header, in this order
EXCLUSION_COLUMNS = ("id_type", "id_number", "listed_on", "kind")

_ID_NUMBER = re.compile(r"[0-9A-Z]{5,20}")
_ID_SEPARATORS = re.compile(r"[\s.\-]+")


@dataclass(frozen=True, slots=True)
class Applicant:
    id_type: str
    id_number: str
    birth_date: date | None
    excluded: bool = False  # on the exclusion or self-exclusion list (CC-23)
    staff: bool = False  # company staff or inspector (CC-23)
    entries_in_event: int = 0  # entries this person already has in the event (CC-26)
    withdrew: bool = False  # one of those entries withdrew voluntarily (CC-34)


def normalise_id_number(text: str) -> str:
    """An ID number as it is compared: no spaces, dots or dashes, upper case ("12.345.678" -> "12345678")."""
    return _ID_SEPARATORS.sub("", text or "").upper()


def valid_id_number(text: str) -> bool:
    """5 to 20 letters or digits once normalised (a DNI, a cédula, a passport number)."""
    return bool(_ID_NUMBER.fullmatch(normalise_id_number(text)))


#: What a desk may type of a document (issue #34, item 8): the earliest date of birth a living player's
#: document holds, the characters of an ID number as printed (letters and digits, with the spaces, dots and
#: dashes some documents print between them), and no character that no document prints in a name.
EARLIEST_BIRTH_DATE = date(1900, 1, 1)
_ID_AS_PRINTED = re.compile(r"[0-9A-Za-z]+(?:[ .\-][0-9A-Za-z]+)*")
#: control (Cc: NUL..US, DEL, ESC of ANSI colours), format (Cf: the bidi overrides U+202A-202E and isolates
#: U+2066-2069, zero-width characters), surrogates, private use, unassigned; line and paragraph separators
_NEVER_IN_A_NAME = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def name_as_on_a_document(name: str) -> bool:
    """A name a document prints: at least one letter, and no control, format or bidi character. Accents,
    apostrophes, hyphens and any script's letters are a name's ("María José O'Neill-Pérez")."""
    return (any(unicodedata.category(c).startswith("L") for c in name)
            and not any(unicodedata.category(c) in _NEVER_IN_A_NAME for c in name))


def id_number_as_on_a_document(text: str) -> bool:
    """An ID number typed as a document prints it: ASCII letters and digits, maybe with single spaces, dots
    or dashes between them; never markup or symbols that normalising would strip ("<script>" is no ID)."""
    return bool(_ID_AS_PRINTED.fullmatch((text or "").strip()))


def desk_refusal(*, name: str, id_number: str, birth_date: date | None) -> RuleViolation | None:
    """What the registration desk typed that no ID document holds (CC-24), or None: refused before the
    person is looked up, nothing recorded (the form says the same naming the field)."""
    if not name_as_on_a_document(name or ""):
        return RuleViolation(N_("The name must be written as on the ID document: letters, without control "
                                "or formatting characters"), "CC-24")
    if not id_number_as_on_a_document(id_number):
        return RuleViolation(N_("The ID number must be written as on the ID document: letters and digits"),
                             "CC-24")
    if birth_date is not None and birth_date < EARLIEST_BIRTH_DATE:
        return RuleViolation(N_("A date of birth before %(earliest)s is on no valid ID document"), "CC-24",
                             earliest=EARLIEST_BIRTH_DATE.isoformat())
    return None


def age_on(birth_date: date, on: date) -> int:
    """Whole years of age on ``on``: the birthday counts from its own day.

    Someone born on 29 February turns a year older on 1 March in a year without a 29 February.
    """
    return on.year - birth_date.year - ((on.month, on.day) < (birth_date.month, birth_date.day))


def refusal(applicant: Applicant, *, on: date, options: HouseOptions,
            id_types: tuple[str, ...] = ID_TYPES) -> RuleViolation | None:
    """The reason this person may not enter, or None. ``on`` is the date of the event (or of the day played)."""
    if applicant.id_type not in id_types:
        return RuleViolation(N_("%(id_type)s is not an accepted ID (accepted: %(accepted)s)"), "CC-24",
                             id_type=applicant.id_type, accepted=", ".join(id_types))
    if not valid_id_number(applicant.id_number):
        return RuleViolation(N_("ID number %(number)r is not valid: 5 to 20 letters or digits"), "CC-24",
                             number=applicant.id_number)
    if applicant.birth_date is None:
        return RuleViolation(N_("The date of birth is needed to check the minimum age of %(age)s"), "CC-23",
                             age=options.minimum_age)
    if applicant.birth_date > on:
        return RuleViolation(N_("The date of birth %(born)s is after the day of the event"), "CC-23",
                             born=applicant.birth_date.isoformat())
    if age_on(applicant.birth_date, on) < options.minimum_age:
        return RuleViolation(N_("Under %(age)s on %(on)s: may not play"), "CC-23",
                             age=options.minimum_age, on=on.isoformat())
    if applicant.excluded:
        return RuleViolation(N_("On the exclusion or self-exclusion register: may not play"), "CC-23")
    if applicant.staff:
        return RuleViolation(N_("Company staff and inspectors may not play"), "CC-23")
    if applicant.withdrew:
        # CC-34: "no podrá volver a ingresar": a withdrawal ends his event, re-entry or not.
        return RuleViolation(N_("This player withdrew from the event and may not enter it again"), "CC-34")
    if applicant.entries_in_event > 0 and not options.reentry_allowed:
        return RuleViolation(N_("Already entered in this event: one entry per player"), "CC-26")
    return None


def late_registration_refusal(*, levels_begun: int, until_level: int | None) -> RuleViolation | None:
    """The end of late registration (CC-32 "Ingresos tardíos", TDA-08-A): an entry is taken until the end of
    level ``until_level`` (its break after it included), then refused; None: still open, or the event has
    no end set. ``levels_begun`` is how many levels the clock has begun (0 before the start)."""
    if until_level is None or levels_begun <= until_level:
        return None
    return RuleViolation(N_("Late registration ended with level %(level)s: level %(now)s is in play"), "CC-32",
                         level=until_level, now=levels_begun)


#: the longest value a refusal quotes back (a 100 KiB "ID number" is not repeated to the user)
_QUOTED = 40


@dataclass(frozen=True, slots=True)
class ExclusionFile:
    """An exclusion CSV read: its good rows ``(id_type, normalised id_number, listed_on, kind)`` and the
    refusal of each bad row, naming its line."""

    rows: list[tuple[str, str, date, str]]
    refused: list[RuleViolation]


def read_exclusion_csv(text: str, *, id_types: tuple[str, ...] = ID_TYPES) -> ExclusionFile:
    """The exclusion register's CSV (CC-23), every row read before anything is kept.

    A file that cannot be read as a whole raises ``RuleViolation`` naming the line: no header or a header
    without the four columns, a carriage return inside a field, a field over 128 KiB, a NUL byte or any
    other CSV fault. Lines ended by CR alone (old spreadsheet exports) are read as line ends. A row with a
    bad value is refused on its own (``ExclusionFile.refused``) so the register's good rows still count.
    """
    if text.startswith("\ufeff"):
        text = text[1:]  # the byte-order mark spreadsheets put in front of a UTF-8 export
    text = _line_ends(text)
    if "\x00" in text:
        raise RuleViolation(N_("Line %(line)s: the file contains a NUL byte: it is not a text CSV file"), "CC-23",
                            line=text.count("\n", 0, text.index("\x00")) + 1)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
        names = [name.strip().lower() for name in header or []]
        missing = [column for column in EXCLUSION_COLUMNS if column not in names]
        if missing:
            raise RuleViolation(N_("Line 1: the header lacks the column(s) %(missing)s (expected %(expected)s)"),
                                "CC-23", missing=", ".join(missing), expected=",".join(EXCLUSION_COLUMNS))
        where = {column: names.index(column) for column in EXCLUSION_COLUMNS}
        rows: list[tuple[str, str, date, str]] = []
        refused: list[RuleViolation] = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            try:
                rows.append(_exclusion_row(row, reader.line_num, len(names), where, id_types))
            except RuleViolation as bad:
                refused.append(bad)
    except csv.Error as fault:
        line = reader.line_num + (0 if reader.line_num else 1)
        if "field limit" in str(fault):
            raise RuleViolation(N_("Line %(line)s: a field is longer than %(limit)s KiB"), "CC-23",
                                line=line, limit=csv.field_size_limit() // 1024) from None
        raise RuleViolation(N_("Line %(line)s is not valid CSV: %(fault)s"), "CC-23", line=line,
                            fault=str(fault)) from None
    return ExclusionFile(rows, refused)


def _line_ends(text: str) -> str:
    """The text with LF line ends: CRLF and a file ended by CR alone are read as lines; a CR anywhere
    else sits inside a field, where no register's value has one, and the file is refused at its line."""
    if "\r" not in text:
        return text
    if "\n" not in text:
        return text.replace("\r", "\n")
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        raise RuleViolation(N_("Line %(line)s: a carriage return (CR) inside a field; save the file again as CSV"),
                            "CC-23", line=text.count("\n", 0, text.index("\r")) + 1)
    return text


def _exclusion_row(row: list[str], line: int, columns: int, where: dict[str, int],
                   id_types: tuple[str, ...]) -> tuple[str, str, date, str]:
    if len(row) < columns:
        raise RuleViolation(N_("Line %(line)s: %(found)s columns, %(expected)s expected"), "CC-23",
                            line=line, found=len(row), expected=columns)
    id_type, number, listed_on, kind = (row[where[column]].strip() for column in EXCLUSION_COLUMNS)
    id_type, kind = id_type.lower(), kind.lower()
    if id_type not in id_types:
        raise RuleViolation(N_("Line %(line)s: %(id_type)r is not an accepted ID type"), "CC-24",
                            line=line, id_type=id_type[:_QUOTED])
    if not valid_id_number(number):
        raise RuleViolation(N_("Line %(line)s: ID number %(number)r is not 5 to 20 letters or digits"),
                            "CC-24", line=line, number=number[:_QUOTED])
    try:
        listed = date.fromisoformat(listed_on)
    except ValueError:
        raise RuleViolation(N_("Line %(line)s: %(value)r is not a date (write YYYY-MM-DD)"), "CC-23",
                            line=line, value=listed_on[:_QUOTED]) from None
    if kind not in EXCLUSION_KINDS:
        raise RuleViolation(N_("Line %(line)s: %(kind)r is neither exclusion nor self_exclusion"), "CC-23",
                            line=line, kind=kind[:_QUOTED])
    return id_type, normalise_id_number(number), listed, kind


def parse_exclusion_csv(text: str, *, id_types: tuple[str, ...] = ID_TYPES
                        ) -> list[tuple[str, str, date, str]]:
    """The exclusion register's CSV: ``(id_type, normalised id_number, listed_on, kind)`` per row.

    The first line is the header ``id_type,id_number,listed_on,kind`` (extra columns are ignored); blank
    lines are skipped; ``listed_on`` is YYYY-MM-DD; ``kind`` is ``exclusion`` or ``self_exclusion``. A bad
    row is refused with its line number (the first one; ``read_exclusion_csv`` gives them all).
    """
    read = read_exclusion_csv(text, id_types=id_types)
    if read.refused:
        raise read.refused[0]
    return read.rows


def on_exclusion_list(id_type: str, id_number: str, rows: list[tuple[str, str, date, str]]) -> bool:
    """Whether this ID is on the register (CC-23): same type, same number once normalised."""
    key = (id_type, normalise_id_number(id_number))
    return any((row[0], row[1]) == key for row in rows)
