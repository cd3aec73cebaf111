"""A deck's data keys in the reader's language, for every screen that shows a deck (``casino.deck_labels``):
``{{ deck.back|deck_back }}``, ``{{ step.action|deck_step }}``, ``{{ deck.defect|deck_defect }}``."""

from __future__ import annotations

from django import template

from casino.deck_labels import back_label, defect_label, step_label

register = template.Library()
register.filter("deck_back", back_label)
register.filter("deck_step", step_label)
register.filter("deck_defect", defect_label)
