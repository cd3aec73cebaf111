"""bench/fault_drill_tournament.py's pieces, fast: a tournament dealer's tap sent again under the same key
until it is answered, what it reads off the answer, and the faults it knows (issue #34). The drill itself
kills servers for minutes: it is a command (docs/reliability.md)."""

import random

import pytest

from bench.fault_drill_tournament import TournamentDealer, parse_faults
from bench.tournament_script import TabletScript

EVENT, TABLE = 3, 2


def _fragment(version: int, step: str = "betting") -> str:
    return (f'<section id="deal-table" data-version="{version + 40}"><form><input name="version" value="{version}">'
            f'<div data-step="{step}"><input name="seat" value="4"><button data-action="check"></button></div>'
            f"</form></section>")


class Tablet:
    """The servers as the dealer met them: each call answers the next of ``answers`` (an exception is
    raised: no answer)."""

    def __init__(self, answers):
        self.answers, self.sent = list(answers), []

    def request(self, base, path, data=None, headers=None):
        self.sent.append((base, path, dict(data or {})))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def _dealer(answers) -> tuple[TournamentDealer, Tablet]:
    script = TabletScript(EVENT, random.Random(1))
    script.pages[TABLE], script.csrf[TABLE] = _fragment(7), "token"
    dealer = TournamentDealer(TABLE, "dana", ["http://a", "http://b"], None, 1000.0, script)
    dealer.http = Tablet(answers)
    return dealer, dealer.http


def test_a_tap_without_an_answer_is_sent_again_under_the_same_key_until_it_is_answered():
    dealer, tablet = _dealer([ConnectionRefusedError(), (500, "oops"), (503, "down"), (200, _fragment(8))])

    tap = dealer.tap()

    assert [a.status for a in tap.attempts] == [None, 500, 503, 200]
    assert {sent[2]["key"] for sent in tablet.sent} == {tap.key}  # one key for every attempt
    assert all(sent[2] == tablet.sent[0][2] for sent in tablet.sent)  # the same tap each time
    assert {sent[0] for sent in tablet.sent} == {"http://a", "http://b"}  # over both processes
    assert tablet.sent[0][1] == f"/tournaments/{EVENT}/tables/{TABLE}/deal/check/"
    assert tablet.sent[0][2]["version"] == "7" and tablet.sent[0][2]["seat"] == "4"
    # The table's own version (the record's), not the screen's (the table's and the event's summed).
    assert tap.applied_version == 8 and tap.refused is None


def test_a_tap_refused_because_the_table_moved_is_settled_and_the_next_reads_the_table_as_it_stands():
    dealer, tablet = _dealer([(409, _fragment(9, step="board").replace("<form>", '<form action="/deal/flop/">'))])

    tap = dealer.tap()

    assert (tap.refused, tap.applied_version) == (409, None)
    assert dealer.script.next_tap(dealer.script.pages[TABLE])[0] == "flop"
    assert len(tablet.sent) == 1


def test_the_drill_knows_the_four_faults_redis_down_ten_seconds_and_the_connections_ended_at_once():
    assert parse_faults("daphne,redis,postgres,pgconns", 5, 10) == [
        ("daphne", 5), ("redis", 10), ("postgres", 5), ("pgconns", 0)]
    assert parse_faults("redis:3, postgres:0", 5, 10) == [("redis", 3), ("postgres", 0)]
    with pytest.raises(ValueError, match="unknown fault"):
        parse_faults("dns", 5, 10)
