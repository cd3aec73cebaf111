"""The suite's password hasher: Django's PBKDF2 at one iteration.

Django hashes a password with PBKDF2 at a million iterations, 0.3 to 1.5 s of CPU on this 2-core machine,
and the suite creates thousands of staff users (each test its own dana and pat) and logs them in: that
hashing was minutes of the run (docs/benchmarks.md, "The suite's time"). The hash it makes is an ordinary
``pbkdf2_sha256$1$...``, whose iterations are written in it, so Django's own hasher checks it too. The daphne
servers a test starts list it first (tests/server_settings.py), or each login there would re-hash the
password at the full count. Tests only: nothing in casino/ imports it.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
