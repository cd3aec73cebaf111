"""The suite's password hasher: Django's PBKDF2 at one iteration.

Django hashes a password with PBKDF2 at a million iterations, 0.3 to 1.5 s of CPU on this 2-core machine,
and the suite creates thousands of staff users (each test its own dana and pat) and logs them in: that
hashing was minutes of the run (docs/benchmarks.md, "The suite's time"). The hash it makes is an ordinary
``pbkdf2_sha256$1$...``, whose iterations are written in it, so a daphne server started by a test (on the
casino's own hashers) still checks a test user's password; it then re-hashes it at the full count on
login, as it would any password from an older Django. Tests only: nothing in casino/ imports it.
"""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1
