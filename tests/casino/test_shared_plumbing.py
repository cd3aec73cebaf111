"""Issue #35 item 4: the plumbing both games share lives once, in casino/; the games keep no copy of it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("tables", "tournaments")


def _definitions(game: str) -> dict[str, list[str]]:
    """Every class and module-level function a game's modules define, by name, with where."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / game).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["BadInput", "whole", "_int", "_guard", "_user"])
def test_no_game_defines_its_own_copy_of_the_shared_input_parsing(game, name):
    assert name not in _definitions(game), _definitions(game).get(name)


def test_both_games_refuse_bad_input_with_the_one_bad_input_of_the_core():
    from casino.form_input import BadInput
    from tables import views as pit_views
    from tournaments import forms
    from tournaments.views import console as tournament_views
    from tournaments.views import tablet as tablet_views

    assert pit_views.BadInput is forms.BadInput is tablet_views.BadInput is tournament_views.BadInput is BadInput


@pytest.mark.parametrize("game", GAMES)
def test_no_game_maps_refusals_to_responses_itself(game):
    """casino.refusals alone sets the refusal header and catches the write path's refusals."""
    setting_the_header = [str(path.relative_to(ROOT)) for path in sorted((ROOT / game).rglob("*.py"))
                          if '["X-Rule-Refusal"] =' in path.read_text(encoding="utf-8")]
    assert setting_the_header == []
    catching = [str(path.relative_to(ROOT)) for path in sorted((ROOT / game).rglob("*.py"))
                if "except KeyUsedElsewhere" in path.read_text(encoding="utf-8")]
    assert catching == []


@pytest.mark.parametrize("game", GAMES)
def test_no_game_reads_the_watching_links_in_sql_of_its_own(game):
    """casino.player_links.usable_links is the one read, its SQL from the models' metadata."""
    naming_the_table = [str(path.relative_to(ROOT)) for path in sorted((ROOT / game).rglob("*.py"))
                        if "casino_playerlink" in path.read_text(encoding="utf-8")]
    assert naming_the_table == []
    assert "_watching_sql" not in _definitions(game)


def test_the_usable_links_sql_names_come_from_the_models_and_every_value_is_a_parameter():
    from casino.player_links import _usable_links_sql
    from tables.models import Seating
    from tournaments.models import Entry

    by_box = _usable_links_sql(Seating, "box", "ended_at")
    by_id = _usable_links_sql(Entry, "id", None)
    assert '"tables_seating"' in by_box and '"box_id" = ANY(%s)' in by_box and '"ended_at" IS NULL' in by_box
    assert "JOIN" not in by_id and '"seat_id" = ANY(%s)' in by_id
    assert all(sql.count("%s") == 3 for sql in (by_box, by_id))


def test_each_games_command_answers_the_cores_result_extended():
    from casino.writes import Written
    from tables.writing import ActionResult
    from tournaments.writing import TableResult, TournamentResult

    assert all(issubclass(result, Written) for result in (ActionResult, TableResult, TournamentResult))
    pit = ActionResult(7, {"hand": 3})
    assert (pit.table_version, pit.hand_id, TableResult(7, {"hand": 3}).hand) == (7, 3, 3)


def test_both_tablets_name_their_action_urls_through_the_one_remembered_reverse(settings):
    from django.urls import reverse

    from tables.templatetags import table_screens
    from tournaments.templatetags import tournament_console

    assert table_screens.act_url(3, "bet") == reverse("tables:dealer_act", args=[3, "bet"])
    assert tournament_console.tablet_act_url(2, 5, "fold") == reverse("tournaments:tablet_act", args=[2, 5, "fold"])
    for game in GAMES:  # no cache of their own beside it
        sources = [path.read_text(encoding="utf-8") for path in (ROOT / game / "templatetags").glob("*.py")]
        assert not any("BoundedCache" in text or "lru_cache" in text for text in sources), game


def _aggregates():
    from casino.decks import DECKS
    from tables.bank import SLIPS
    from tables.writing import TABLES as PIT_TABLES
    from tournaments.writing import TABLES as DEALT_TABLES
    from tournaments.writing import TOURNAMENTS

    return [DECKS, SLIPS, PIT_TABLES, DEALT_TABLES, TOURNAMENTS]


def test_every_request_record_of_casino_writes_is_a_write_request_keyed_once_per_aggregate():
    """One shape for the idempotency keys' records: the key, the action, who, when and the alerts come from
    casino.models.WriteRequest; each keeps its foreign key to the aggregate and its unique (owner, key)."""
    from django.db import models

    from casino.models import WriteRequest

    for kind in _aggregates():
        requests = kind.requests
        assert issubclass(requests, WriteRequest), requests
        assert requests.owner_field == kind.owner, requests
        assert requests._meta.get_field(kind.owner).related_model is kind.model
        for name in ("key", "action", "by", "at", "alerts"):
            assert requests._meta.get_field(name).model is requests  # the base's fields, copied (abstract)
        unique = [c for c in requests._meta.constraints if isinstance(c, models.UniqueConstraint)]
        assert [tuple(c.fields) for c in unique] == [(kind.owner, "key")], requests


def test_no_model_of_the_shape_of_a_write_request_is_left_outside_it():
    """A model with a request key and an action, who and alerts is a write's request record: it inherits
    WriteRequest (rows of history that carry the key of the write that made them, a hand's action, are not)."""
    from django.apps import apps

    from casino.models import WriteRequest

    shaped = [m for m in apps.get_models()
              if all(any(f.name == n for f in m._meta.get_fields()) for n in ("key", "action", "by", "alerts"))]
    assert shaped and all(issubclass(m, WriteRequest) for m in shaped), shaped


def test_a_write_requests_name_says_its_aggregate_key_and_action():
    from casino.models import DeckRequest

    assert str(DeckRequest(deck_id=7, key="k-1", action="issue")) == "7:k-1 issue"
