"""``python manage.py makemessages``, also extracting the rules engine's refusal templates.

The engine (``casino.rules``) cannot import Django, so it marks its refusal templates with its own
no-op ``N_`` (``casino.rules.errors``); this override tells xgettext that ``N_("...")`` is a message
too. Everything else is Django's command unchanged (docs/rules-engine.md, "Refusal messages and
translation").
"""

from django.core.management.commands.makemessages import Command as MakeMessagesCommand


class Command(MakeMessagesCommand):
    xgettext_options = MakeMessagesCommand.xgettext_options + ["--keyword=N_"]
