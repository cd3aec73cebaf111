"""bench/fuzz_posts.py in brief: every POST of the tablet and the console, broken a few dozen ways each,
against a real daphne with DEBUG=0, and not one HTTP 500 or traceback (issue #12).

The bounded run (``python bench/fuzz_posts.py``, two processes, 200 cases per route) is the bench's;
this one keeps its seed, so that a failure here is the same request each time.
"""

import pytest

from bench.fuzz_posts import Fuzzer, log_problems, make_world, open_table, report, route_names

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
              "SECURE_COOKIES": "0"}


# Three rounds in the default run (every route broken three times, about 20 s); ten with `make test-slow`.
@pytest.mark.parametrize("rounds", [3, pytest.param(10, marks=pytest.mark.slow)])
def test_no_broken_post_of_the_tablet_or_the_console_gets_a_500_or_leaves_a_traceback(daphne_servers, rounds):
    world = make_world("fz_")
    open_table(world)
    (server,) = daphne_servers(1, **PRODUCTION)
    fuzzer = Fuzzer([server.url], world, seed=12)

    fuzzer.run(cases_per_route=rounds)

    problems = log_problems([server.log])
    assert not fuzzer.failures and not problems, report(fuzzer, problems, 0)
    assert sorted(fuzzer.by_route) == sorted(route_names())  # every route was tried
    # Broken requests met every kind of refusal (a stale version among them: seed 12's third round sends
    # one), and valid taps moved the table on between them.
    assert {200, 400, 403, 404, 409, 422} <= set(fuzzer.statuses), fuzzer.statuses
