"""bench/fuzz_tournament.py in brief: every POST and socket of a tournament, broken a few ways each,
against a real daphne with DEBUG=0: no HTTP 500, no socket closed by a server error, no traceback (#34).

The full run (``python bench/fuzz_tournament.py``, two processes, 200 cases per route) is the bench's;
this one keeps its seed, so that a failure here is the same request each time.
"""

import re

import pytest

from bench.fuzz_tournament import Fuzzer, make_world, report, report_tracebacks, route_names, tracebacks

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
              "SECURE_COOKIES": "0"}

#: The 500s of issue #34's list, fixed in parallel by the input branch (whole numbers that pass isdigit()
#: but not int(), 'inf' and 5,000-digit numbers in a structure or payouts, a level of 10^20 minutes, the
#: exclusion CSV's CR-only lines, bare CR and fields over 128 KiB, one new player ID at two events at once).
KNOWN = re.compile(r"-> (ValueError: (invalid literal for int|Exceeds the limit)|OverflowError|_csv\.Error"
                   r"|django\.db\.utils\.IntegrityError|psycopg\.errors\.UniqueViolation)")


def test_no_broken_tournament_post_or_socket_gets_a_500_or_leaves_a_traceback(daphne_servers):
    world = make_world("tfz_")
    (server,) = daphne_servers(1, **PRODUCTION)
    fuzzer = Fuzzer([server.url], world, seed=34)

    fuzzer.run(cases_per_route=8, frames_per_socket=6)

    found = tracebacks([server.log])
    unknown = [where for where in found if not KNOWN.search(where)]
    no_answer = [f for f in fuzzer.failures if f.startswith(("0 ", "socket"))]
    assert not unknown and not no_answer, report(fuzzer, unknown, 0) + "\n" + report_tracebacks([server.log])
    assert sorted(fuzzer.by_route) == sorted(route_names())  # every route was tried
    assert {"console", "clock", "phone", "tablet"} <= {what.split(":")[0] for what in fuzzer.sockets}
    # Broken requests met every kind of refusal, and valid taps dealt hands between them.
    assert {200, 302, 400, 403, 404, 409, 422} <= set(fuzzer.statuses), fuzzer.statuses
    assert fuzzer.by_route["tablet new-hand"][200] >= 1
    if fuzzer.failures or found:
        # Only 500s of the list above are left: the lead removes this once the input branch is merged.
        pytest.xfail("fixed by the #34 input branch:\n" + report_tracebacks([server.log]))
