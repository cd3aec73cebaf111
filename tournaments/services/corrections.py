"""Corrections of the record (CC-04): a line voided or replaced with its reason, never rewritten; a reported
hand withdrawn when its table's hand is undone. A correction is checked by replaying the whole record, and one
that would leave it inconsistent (a seat taken twice, a plan's moves undone twice) is refused."""

from __future__ import annotations

from typing import Any

from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import random_draw as draw
from casino.rules.tournament import record
from casino.rules.tournament.record import TournamentState
from casino.writes import NotAllowed
from tournaments import access
from tournaments.services import links
from tournaments.services.play import finish_or_plan
from tournaments.services.setup import clock_still_replays
from tournaments.writing import EventWrite, TournamentResult, as_dealt, entry_row, hands_in_play, write_event

#: The record's events a floor person may correct (the director may correct any but the setup).
FLOOR_CORRECTABLE = frozenset({"bust", "seated", "hand", "chip_count", "button", "id_checked", "plan_confirmed"})


NOT_CORRECTABLE = frozenset({"setup", "correction"})


def withdraw_hand(*, tournament, by, key: str, expected_version: int | None, seq: int, reason: str) -> TournamentResult:
    """A dealt table's hand taken back out of the record before the next deal there (CC-43, C-15: a hand is
    corrected until the next deal starts): its dealer undid the award (``services.dealing.undo_last``). The ``hand``
    event at ``seq`` is voided by a correction with the reason (the record keeps both; the replay gives
    the players their stacks, and a penalty its hand, back). A hand with a bust is not: its bust ranked a
    player and may have moved others, which the director corrects in the record. Audited."""
    reason = (reason or "").strip()[:200]
    if not reason:
        raise RuleViolation(N_("Say why the action is undone."), "CC-43")

    def work(w: EventWrite) -> None:
        target = next((e for e in w.events if e["seq"] == int(seq)), None)
        if target is None or target["type"] != "hand" or int(seq) in w.state.voided:
            raise RuleViolation(N_("That hand is not in the tournament's record."), "CC-43")
        if any(e["type"] == "bust" and e.get("table") == target["table"] and e.get("hand") == target["hand"]
               and e["seq"] > int(seq) for e in w.events):
            raise RuleViolation(N_("A player busted in this hand: the director corrects it in the record."),
                                "TDA-01")
        if not _as_the_hand_left_it(w.state, target):
            raise RuleViolation(N_("Table %(table)s changed after hand %(hand)s ended: the hand stands (the "
                                   "director corrects it in the record)."), "TDA-11",
                                table=target["table"], hand=target["hand"])
        w.record("correction", voids=int(seq), reason=reason)
        w.audit("tournament.hand_withdrawn", voids=int(seq), table=target["table"], hand=target["hand"],
                reason=reason)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="correction",
                  work=work, who="table")


def _as_the_hand_left_it(state: TournamentState, hand: dict) -> bool:
    """Whether every player of the reported ``hand`` still sits at its seat with the stack it ended with.
    TDA-11: what the floor did at the table between hands (a disqualification, a recount, a colour-up...)
    would otherwise land inside the hand taken back, whose award then no longer finds its seats (issue #34)."""
    t = state.table_in_play(int(hand["table"]))
    seated = dict(t.players) if t else {}
    return all(seated.get(int(p["seat"])) == int(p["entry"])
               and (p.get("end") is None or state.entry(int(p["entry"])).stack == int(p["end"]))
               for p in hand.get("players") or ())


#: The events that rest on where a player sits or how many chips he has.
_SEAT_DEPENDENT = ("hand", "bust", "seated", "chip_count", "colour_up", "withdrawal", "disqualification",
                   "chips_removed", "button", "table_broken")


def _check_confirmation_undone(w: EventWrite, confirmation: dict) -> None:
    """A confirmation of a plan corrected takes back its moves (``record.confirmed_with``), which only stands
    while nothing since rests on them: a hand played at a table a move reached or left, a bust, a count or
    another seat of a player it moved. Then the floor corrects those first (or moves the player back)."""
    made = set(record.confirmed_with(w.events, confirmation["seq"]))
    moves = [e for e in w.events if e["seq"] in made and e["type"] == "seated"]
    entries = {int(e["entry"]) for e in moves}
    tables = ({int(e["table"]) for e in moves} | {int(e["from_table"]) for e in moves if e.get("from_table")}
              | {int(e["table"]) for e in w.events if e["seq"] in made and e["type"] == "table_broken"})
    last = max(made, default=confirmation["seq"])
    for event in w.events:
        if event["seq"] <= last or event["seq"] in w.state.voided or event["type"] not in _SEAT_DEPENDENT:
            continue
        named = {int(p["entry"]) for p in event.get("players") or ()}
        if event.get("entry") is not None:
            named.add(int(event["entry"]))
        if named & entries or (event.get("table") is not None and int(event["table"]) in tables):
            raise RuleViolation(N_("Event %(seq)s rests on the moves this confirmation made: correct it first."),
                                "CC-04", seq=event["seq"])


def _check_confirmation_restored(w: EventWrite, correction: dict) -> None:
    """A correction of a confirmation's correction brings the confirmation and its moves back: not while the
    same plan stands confirmed again since (its moves would be made twice)."""
    undone = next((e for e in w.events if e["seq"] == int(correction["voids"])), None)
    if undone is None or undone["type"] != "plan_confirmed":
        return
    again = next((e for e in w.events if e["type"] == "plan_confirmed" and e["seq"] > undone["seq"]
                  and e.get("proposed") == undone.get("proposed") and e["seq"] not in w.state.voided), None)
    if again is not None:
        raise RuleViolation(N_("The plan was confirmed again at event %(seq)s: correct that confirmation instead."),
                            "CC-04", seq=again["seq"])


def correct(*, tournament, by, key: str, expected_version: int, seq: int, reason: str,
            replacement: dict | None = None, rng=SYSTEM_RANDOM) -> TournamentResult:
    """Void the record's event ``seq`` with a reason, and replace it with the corrected event where given
    (``{"type": "bust", "entry": ..., ...}``): the replay recomputes everything after it (ranking, prizes,
    seats); the record keeps both. The floor corrects the floor's events; the director, any but the setup."""
    if not (reason or "").strip():
        raise RuleViolation(N_("Say why the record is corrected"), "CC-04")

    def work(w: EventWrite) -> None:
        target = next((e for e in w.events if e["seq"] == int(seq)), None)
        if target is None:
            raise RuleViolation(N_("There is no event %(seq)s in the record"), "CC-04", seq=seq)
        if target["type"] in NOT_CORRECTABLE and not (target["type"] == "correction" and access.directs(w.by, w.row)):
            raise RuleViolation(N_("Event %(seq)s (%(type)s) cannot be corrected: change the setup instead"),
                                "CC-04", seq=seq, type=target["type"])
        if not access.directs(w.by, w.row) and target["type"] not in FLOOR_CORRECTABLE:
            raise NotAllowed(N_("Only the tournament director can correct this."))
        if int(seq) in w.state.voided:
            raise RuleViolation(N_("Event %(seq)s is corrected already"), "CC-04", seq=seq)
        if target["type"] == "plan_confirmed":
            _check_confirmation_undone(w, target)
        if target["type"] == "correction":
            _check_confirmation_restored(w, target)
        busy = hands_in_play(w)
        dealt_from = as_dealt(w.state, busy)
        fields: dict[str, Any] = {"voids": int(seq), "reason": reason}
        if replacement:
            if replacement.get("type") not in record.EVENT_TYPES or replacement.get("type") in NOT_CORRECTABLE:
                raise RuleViolation(N_("The corrected event has no known type"), "CC-04")
            fields["replaces"] = {k: v for k, v in replacement.items() if k not in ("seq", "at")}
        w.record("correction", **fields)
        changed = [t for t, dealt in dealt_from.items() if as_dealt(w.state, {t})[t] != dealt]
        if changed:
            # TDA-11: the hand in play keeps the seats and stacks it was dealt from; corrected when it ends
            raise RuleViolation(N_("Table %(table)s has a hand in play: do this when it ends."), "TDA-11",
                                table=min(changed))
        if target["type"] == "clock":
            clock_still_replays(w)  # RP-08-B: two hand-for-hand "on"s once the "off" between them is voided
        w.audit("tournament.correction", voids=int(seq), type=target["type"], reason=reason,
                replaced=bool(replacement))
        if target["type"] == "registered" and target["entry"] not in {e.entry for e in w.state.entries}:
            # A registration corrected away: its player's phone must not follow the event any more
            # (its links end in this transaction; after commit the phones say goodbye and close).
            links.revoke_entry_links(entry_row(w, target["entry"]), by=w.by, now=w.now)
        if w.state.pending_plan is None:
            finish_or_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="correction",
                  work=work, who="floor", rng=rng)


def random_draw(*, tournament, by, key: str, expected_version: int, reason: str, choices: list[str],
                rng=SYSTEM_RANDOM) -> TournamentResult:
    """The director's random draw (RP-14) for an error the rules do not cover: his reason, the choices as he
    typed them, a fresh 64-bit seed and the choice it draws, all in the record (``random_draw``) and the
    audit log, so anyone re-draws it from the seed. The console shows the choice drawn from the record."""
    reason = (reason or "").strip()
    if not reason:
        raise RuleViolation(N_("Say which error the draw settles: the record keeps it."), "RP-14")
    kept = list(draw.check_choices(choices))

    def work(w: EventWrite) -> None:
        seed = draw.new_seed(w.rng)
        index = draw.drawn(kept, seed)
        w.record("random_draw", reason=reason, choices=kept, seed=str(seed), drawn=index)
        w.audit("tournament.random_draw", reason=reason, choices=kept, seed=str(seed), drawn=index)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                       action="random_draw", work=work, rng=rng)
