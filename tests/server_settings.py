"""The casino's settings for the daphne servers a test starts (tests/conftest.py's ``daphne_servers``).

Only the password hashers differ: the test's staff are hashed at one PBKDF2 iteration (tests/hashers.py), and
a server on the casino's own hashers spent a million iterations re-hashing each one's password at their
first login, 0.3 to 1.5 s of CPU per login in every browser test. Django's hashers, which the casino
uses, stay listed after it, so a password hashed at the full count is still checked.
"""

from django.conf.global_settings import PASSWORD_HASHERS as _DJANGOS_HASHERS  # the casino keeps Django's

from casino.settings import *  # noqa: F403

PASSWORD_HASHERS = ["tests.hashers.QuickPBKDF2PasswordHasher", *_DJANGOS_HASHERS]
