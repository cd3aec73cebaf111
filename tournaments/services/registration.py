"""The registration desk (CC-20..34): registration opened and closed, each entry registered with its ID checked
against the casino's exclusion list and age rule (``casino.rules.tournament.eligibility``), accreditation, and
the exclusion list's import. A late entry is seated at once by the draw (CC-25)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date, datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from casino.audit import record_event
from casino.rules.errors import N_, RuleViolation
from casino.rules.shuffle import SYSTEM_RANDOM
from casino.rules.tournament import clock, eligibility, record, seating
from casino.writes import NotAllowed
from tournaments.digests import exclusion_list_digest, player_digest
from tournaments.models import (
    Entry,
    ExclusionListEntry,
    IdCheck,
    Player,
    Tournament,
    normalise_id_number,
)
from tournaments.services.seating import record_plan
from tournaments.services.setup import is_director
from tournaments.writing import (
    EventWrite,
    TournamentResult,
    entry_row,
    require,
    seated_fields,
    setup_of,
    structure_of,
    write_event,
)


def open_registration(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    def work(w: EventWrite) -> None:
        setup_of(w)
        if w.state.registration != "not_open":
            raise RuleViolation(N_("Registration is open or closed already"), "CC-14")
        w.record("registration_opened")
        w.row.status = Tournament.Status.REGISTERING
        w.audit("tournament.registration_opened")

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="registration_opened", work=work)


def register(*, tournament, by, key: str, expected_version: int, name: str, id_type: str, id_number: str,
             birth_date: date | None, image_consent: bool = False, staff: bool = False,
             late_override: bool = False, rng=SYSTEM_RANDOM) -> TournamentResult:
    """Register a player (CC-23..27): the ID seen at the desk is checked (the entry checkpoint), and a
    refusal is RECORDED with its reason and returned (``result.refusal``) for the desk to show. After the
    start (late registration, re-entry), the new entry is seated at once (TDA-08, CC-57), until the end of
    the setup's ``late_registration_level`` (CC-32); after it, only the director's ``late_override``
    registers, recorded and audited with the entry."""

    def work(w: EventWrite) -> None:
        setup = setup_of(w)
        if w.state.registration != "open":
            raise RuleViolation(N_("Registration is not open"), "CC-14")
        if late_override:
            require(w, "director")  # the floor registers; only the director registers past the end
        typed_wrong = eligibility.desk_refusal(name=name, id_number=id_number, birth_date=birth_date)
        if typed_wrong is not None:
            raise typed_wrong  # issue #34: never stored as what normalising leaves of it
        number_seen = normalise_id_number(id_number)
        player = Player.objects.filter(id_type=id_type, id_number=number_seen).first()
        earlier = list(Entry.objects.filter(tournament=w.row, player=player)) if player else []
        applicant = eligibility.Applicant(
            id_type=id_type, id_number=number_seen, birth_date=birth_date, staff=staff,
            excluded=ExclusionListEntry.objects.filter(id_type=id_type, id_number=number_seen).exists(),
            entries_in_event=len(earlier),
            withdrew=any(w.state.entry(e.number).status == "withdrawn" for e in earlier),
        )
        today = timezone.localdate(w.now)
        refused = eligibility.refusal(applicant, on=today, options=setup.options)
        if refused is None and earlier:
            still_in = [e for e in earlier if w.state.entry(e.number).status in record.IN_PLAY]
            if still_in:
                refused = RuleViolation(N_("This player is still in the event with entry %(entry)s"), "CC-26",
                                        entry=still_in[0].number)
        late = refused is None and late_registration_ended(w, setup)
        if late and not late_override:
            refused = late
        if refused is not None:
            w.record("refused", reason=refused.message, clause=refused.clause)
            w.audit("tournament.registration_refused", clause=refused.clause, reason=refused.message)
            w.refusal = refused
            w.alerts.append(refused.message)
            return
        if player is None:
            player = _new_player(name=name, id_type=id_type, id_number=number_seen, birth_date=birth_date)
        if image_consent and not player.image_consent:
            player.image_consent, player.image_consent_at = True, w.now
            player.save(update_fields=["image_consent", "image_consent_at"])
        # A registration corrected away keeps its number (its row and its receipt stay, CC-04: corrected, not
        # erased): the next entry takes the next number never given, not the one after the entries standing.
        number = (Entry.objects.filter(tournament=w.row).aggregate(last=Max("number"))["last"] or 0) + 1
        reentry_of = earlier[-1].number if earlier else None
        entry = Entry.objects.create(tournament=w.row, number=number, player=player, player_name=player.name)
        overridden = {"late_override": True} if late else {}  # the director's, past the end (CC-32)
        w.record("registered", entry=number, reentry_of=reentry_of, **overridden)
        IdCheck.objects.create(entry=entry, checkpoint=IdCheck.Checkpoint.ENTRY, id_type=id_type,
                               id_number=number_seen, by=w.by, at=w.now)
        w.record("id_checked", entry=number, checkpoint="entry")
        w.entry = number
        # The entry's player and his identity as registered: verify_audit finds either rewritten (issue #34).
        w.audit("tournament.registered", obj=entry, entry=number, reentry_of=reentry_of, player=player.pk,
                player_sha256=player_digest(player), **overridden)
        # an event with qualifying series seats a new entry by its series' draw or choice (services.flights)
        with_series = w.state.qualifying is not None and bool(w.state.qualifying.series)
        if w.row.status == Tournament.Status.RUNNING and not with_series:
            why = "reentry" if reentry_of else "late"
            move = seating.seat_late_entry(number, w.state.tables, w.rng, why=why)
            w.record("seated", **seated_fields(w.state, move, setup.starting_stack))
            w.audit("tournament.seated", entry=number, table=move.to_table, seat=move.to_seat, why=why)
            record_plan(w)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="register",
                  work=work, who="floor", rng=rng)


def late_registration_ended(w: EventWrite, setup) -> RuleViolation | None:
    """The refusal once late registration has ended (CC-32: the levels the clock has begun past the setup's
    ``late_registration_level``), or None."""
    if setup.late_registration_level is None:
        return None
    structure = structure_of(setup)
    reading = clock.clock_at(structure, list(w.state.clock_events), w.now,
                             hand_for_hand_seconds=setup.options.hand_for_hand_seconds)
    return eligibility.late_registration_refusal(levels_begun=clock.levels_begun(structure, reading),
                                                 until_level=setup.late_registration_level)


def _new_player(*, name: str, id_type: str, id_number: str, birth_date: date | None) -> Player:
    """The person a new ID belongs to. Two events lock only themselves, so the same new ID registered at two
    desks at once reaches this twice: the second insert waits for the first to commit, then takes that row
    (issue #34: an IntegrityError and a 500 before)."""
    try:
        with transaction.atomic():  # a savepoint: the refused insert leaves the registration's transaction usable
            return Player.objects.create(name=name, id_type=id_type, id_number=id_number, birth_date=birth_date)
    except IntegrityError:
        return Player.objects.get(id_type=id_type, id_number=id_number)


def accredit(*, tournament, by, key: str, expected_version: int, entry: int, id_type: str, id_number: str,
             checkpoint: str = "accreditation") -> TournamentResult:
    """An ID checkpoint (accreditation, seating each day): the document seen must be the entry's player's."""
    if checkpoint not in ("accreditation", "seating"):
        raise ValueError("checkpoint: accreditation or seating")

    def work(w: EventWrite) -> None:
        row = entry_row(w, entry)
        check_document(row, id_type, id_number)
        IdCheck.objects.create(entry=row, checkpoint=checkpoint, id_type=id_type,
                               id_number=normalise_id_number(id_number), by=w.by, at=w.now)
        w.record("id_checked", entry=entry, checkpoint=checkpoint)
        w.audit("tournament.id_checked", obj=row, entry=entry, checkpoint=checkpoint)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version, action="accredit",
                  work=work, who="floor")


def check_document(row: Entry, id_type: str, id_number: str) -> None:
    player = row.player
    if player is None or player.id_type != id_type or player.id_number != normalise_id_number(id_number):
        raise RuleViolation(N_("The document shown is not entry %(entry)s's"), "CC-24", entry=row.number)


@dataclass(frozen=True)
class ExclusionImport:
    """What an exclusion list import did: people added, entries whose date changed, rows already on the
    list as they are, and the refusal of each bad row (naming its line)."""

    added: int
    updated: int
    unchanged: int
    refused: list[RuleViolation]


#: rows an INSERT of the exclusion import carries (a few MB of parameters at most)
EXCLUSION_BATCH = 5000


def import_exclusion_csv(*, by, text: str, source: str = "") -> ExclusionImport:
    """Bring the casino's exclusion and self-exclusion list up to a CSV file's (CC-23), in one transaction.

    The whole file is read first (``eligibility.read_exclusion_csv``): a file that cannot be read changes
    nothing and its refusal names the line. Each good row adds the person to the list, or updates the date
    of their entry of that kind; a bad row is refused on its own and reported with its line, so a typo in
    one row does not keep the register's other people off the list. Nothing is deleted: someone missing
    from the file stays listed. Written in bulk (a few statements per 5,000 rows), audited as one event
    with the counts and a digest of the rows kept."""
    if not is_director(by):
        raise NotAllowed(N_("Only the tournament director can do this."))
    read = eligibility.read_exclusion_csv(text)
    wanted = {(id_type, number, kind): listed_on for id_type, number, listed_on, kind in read.rows}
    digest = hashlib.sha256("".join(f"{t},{n},{d.isoformat()},{k}\n" for (t, n, k), d in wanted.items())
                            .encode()).hexdigest()
    now = timezone.now()
    with transaction.atomic():
        # One import at a time (two would both add the same people); the desks' reads go on.
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {connection.ops.quote_name(ExclusionListEntry._meta.db_table)} "
                           "IN SHARE ROW EXCLUSIVE MODE")
        existing = {}
        for pk, id_type, number, kind, listed_on in ExclusionListEntry.objects.values_list(
                "pk", "id_type", "id_number", "kind", "listed_on").iterator(chunk_size=EXCLUSION_BATCH):
            existing.setdefault((id_type, number, kind), (pk, listed_on))
        added, updated, unchanged = [], [], 0
        for (id_type, number, kind), listed_on in wanted.items():
            found = existing.get((id_type, number, kind))
            if found is None:
                added.append(ExclusionListEntry(id_type=id_type, id_number=number, kind=kind, listed_on=listed_on,
                                                imported_at=now, source=source))
            elif found[1] != listed_on:
                updated.append(ExclusionListEntry(pk=found[0], listed_on=listed_on, imported_at=now, source=source))
            else:
                unchanged += 1
        ExclusionListEntry.objects.bulk_create(added, batch_size=EXCLUSION_BATCH)
        _update_exclusion_dates(updated, now, source)
        # The list as it now stands, digested: verify_audit finds a person later deleted from it (#34).
        entries, list_sha256 = exclusion_list_digest()
        record_event(action="tournament.exclusion_list_imported", actor=by, details={
            "source": source, "added": len(added), "updated": len(updated), "unchanged": unchanged,
            "refused": len(read.refused), "rows_sha256": digest, "entries": entries, "sha256": list_sha256})
    return ExclusionImport(len(added), len(updated), unchanged, read.refused)


def _update_exclusion_dates(updated: list[ExclusionListEntry], now: datetime, source: str) -> None:
    """The new dates in one statement (two arrays joined by id): Django's bulk_update builds a CASE per
    row, several times slower for a list of thousands (docs/decisions/2026-11-27-exclusion-import-in-bulk.md)."""
    if updated:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {connection.ops.quote_name(ExclusionListEntry._meta.db_table)} AS e "  # noqa: S608
                "SET listed_on = v.listed_on, imported_at = %s, source = %s "
                "FROM unnest(%s::bigint[], %s::date[]) AS v(id, listed_on) WHERE e.id = v.id",
                [now, source, [row.pk for row in updated], [row.listed_on for row in updated]])


def close_registration(*, tournament, by, key: str, expected_version: int) -> TournamentResult:
    """Registration closes and the prize pool is fixed (CC-14): every entry's buy-in, fees excluded."""

    def work(w: EventWrite) -> None:
        setup = setup_of(w)
        if w.state.registration != "open":
            raise RuleViolation(N_("Registration is not open"), "CC-14")
        entries = len(w.state.entries)
        w.record("registration_closed", entries=entries, prize_pool=entries * setup.buy_in)
        w.audit("tournament.registration_closed", entries=entries, prize_pool=entries * setup.buy_in)

    return write_event(tournament=tournament, by=by, key=key, expected_version=expected_version,
                  action="registration_closed", work=work)
