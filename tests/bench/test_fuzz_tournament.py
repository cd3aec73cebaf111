"""bench/fuzz_tournament.py in brief: every POST and socket of a tournament, broken a few ways each,
against a real daphne with DEBUG=0: no HTTP 500, no socket closed by a server error, no traceback (#34).

The full run (``python bench/fuzz_tournament.py``, two processes, 200 cases per route) is the bench's;
this one keeps its seed, so that a failure here is the same request each time.
"""

import pytest

from bench.fuzz_tournament import Fuzzer, make_world, report, report_tracebacks, route_names, tracebacks

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
              "SECURE_COOKIES": "0"}

# Two cases a route and two frames a socket in the default run; eight and six with `make test-slow`.
@pytest.mark.parametrize(("cases", "frames"), [(2, 2), pytest.param(8, 6, marks=pytest.mark.slow)])
def test_no_broken_tournament_post_or_socket_gets_a_500_or_leaves_a_traceback(daphne_servers, cases, frames):
    world = make_world("tfz_")
    (server,) = daphne_servers(1, **PRODUCTION)
    fuzzer = Fuzzer([server.url], world, seed=34)

    fuzzer.run(cases_per_route=cases, frames_per_socket=frames)

    found = tracebacks([server.log])
    assert not found and not fuzzer.failures, report(fuzzer, found, 0) + "\n" + report_tracebacks([server.log])
    assert sorted(fuzzer.by_route) == sorted(route_names())  # every route was tried
    assert {"console", "clock", "phone", "tablet"} <= {what.split(":")[0] for what in fuzzer.sockets}
    # Broken requests met every kind of refusal, and valid taps dealt hands between them.
    assert {200, 302, 400, 403, 404, 409, 422} <= set(fuzzer.statuses), fuzzer.statuses
    assert fuzzer.by_route["tablet new-hand"][200] >= 1
