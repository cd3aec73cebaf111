"""The commands of a poker tournament (issue #14): one module per part of the event, all named here.

Every command is ``fn(*, tournament, by, key, expected_version, ...) -> TournamentResult`` and runs
through the casino's one write path (``casino.writes.write``, through ``tournaments.writing.write_event``):
lock, idempotency key, version, then the command's own part:

- who may act: the event's own director (``tournaments.access.directs``; the games director and the
  administrators direct any event: setup, registration, the clock, withdrawals, disqualifications,
  overrides, payouts, results) or the floor (``access.works_floor``: registration desk, busts, hands,
  seat corrections, chip counts, buttons, confirming moves); a director of another event is refused;
- the rules engine (``casino.rules.tournament``): eligibility, the draw, the plan, the race, the prizes;
- the record: each command appends its events (``TournamentEvent``, seq increasing, ``at`` the write's
  time) and its audit events; each event appended is applied at once to the record's replay, so an event
  the record cannot take (a seat taken twice, a bust of someone already out) is refused and, the
  transaction rolling back, nothing is half-recorded;
- the version is bumped and the tournament's group hears of it after commit.

What was drawn at random is recorded (the draw's seats, the plan's moves, the race's cards), so the
record is replayed without drawing. No name or ID number goes into the record: they stay in the
``Player`` and ``IdCheck`` rows.

The modules: ``setup`` (the event, its structure, its director), ``registration`` (the desk, the ID checks,
the exclusion list), ``seating`` (the draw, the moves, the plans, the button), ``play`` (the clock, busts,
hands reported, penalties, chip counts, the colour-up, results and prizes), ``corrections`` (the record
corrected), ``links`` (the players' phone links) and ``dealing`` (the hands dealt at a tablet, each
table an aggregate of its own). A module here imports its siblings, never this package.
"""

from casino.writes import NotAllowed, StaleVersion
from tournaments.services.corrections import correct, random_draw, withdraw_hand
from tournaments.services.links import LINK_GRACE, issue_entry_link, revoke_entry_links, revoke_player_links
from tournaments.services.play import (
    clock_command,
    colour_up,
    disqualify,
    end_penalty,
    enter_chip_count,
    give_penalty,
    hold_stack,
    pay_prize,
    race_odd_chips,
    record_bust,
    record_results,
    remove_absent_stacks,
    report_hand,
    withdraw,
)
from tournaments.services.registration import (
    ExclusionImport,
    accredit,
    close_registration,
    import_exclusion_csv,
    open_registration,
    register,
)
from tournaments.services.seating import (
    confirm_plan,
    correct_seat,
    override_seat,
    propose_plan,
    set_button,
    start_tournament,
)
from tournaments.services.setup import (
    assign_director,
    change_setup,
    copy_structure_template,
    create_tournament,
    save_structure_template,
)
from tournaments.writing import TournamentResult

__all__ = [
    "LINK_GRACE", "ExclusionImport", "NotAllowed", "StaleVersion", "TournamentResult", "accredit", "assign_director",
    "change_setup", "clock_command", "close_registration", "colour_up", "confirm_plan", "copy_structure_template",
    "correct", "correct_seat", "create_tournament", "disqualify", "end_penalty", "enter_chip_count", "give_penalty",
    "hold_stack", "import_exclusion_csv", "issue_entry_link", "open_registration", "override_seat", "pay_prize",
    "propose_plan", "race_odd_chips", "random_draw", "record_bust", "record_results", "register",
    "remove_absent_stacks", "report_hand", "revoke_entry_links", "revoke_player_links", "save_structure_template",
    "set_button", "start_tournament", "withdraw", "withdraw_hand",
]
