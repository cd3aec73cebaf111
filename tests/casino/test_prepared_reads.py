"""Reads compiled once per process (casino.prepared): the same rows as the ORM's own query, values put
where they belong, columns converted as Django converts them (on PostgreSQL and the laptop's SQLite alike)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test.utils import CaptureQueriesContext

from casino.backends import StaffBackend
from casino.prepared import PreparedRead
from casino.roles import ACCESS_FIELDS, roles_of

pytestmark = pytest.mark.django_db


def by_name_and_first_name(model):
    return PreparedRead(lambda name, first: model.objects.filter(username=name, first_name=first)
                        .values_list("pk", "username", "date_joined", "is_staff"), name="\x01name", first="\x01first")


def test_a_prepared_read_gives_each_calls_rows_as_the_orm_does(django_user_model):
    dana = django_user_model.objects.create_user("dana", first_name="Dana", is_staff=True)
    django_user_model.objects.create_user("diego", first_name="Diego")
    read = by_name_and_first_name(django_user_model)
    for name, first in (("dana", "Dana"), ("diego", "Diego"), ("diego", "Dana"), ("nobody", "")):
        orm = list(django_user_model.objects.filter(username=name, first_name=first)
                   .values_list("pk", "username", "date_joined", "is_staff"))
        assert read.rows(name=name, first=first) == orm
    assert read.rows(name="dana", first="Dana")[0][1:] == ("dana", dana.date_joined, True)
    (row,) = read.rows(name="dana", first="Dana")
    assert row[2] == dana.date_joined and row[2].tzinfo is not None  # SQLite's text converted, as the ORM does


def test_a_prepared_read_is_compiled_once_and_then_only_runs_its_statement(django_user_model):
    django_user_model.objects.create_user("dana", first_name="Dana")
    read = by_name_and_first_name(django_user_model)
    read.rows(name="dana", first="Dana")
    with CaptureQueriesContext(connection) as ran:
        assert read.first(name="dana", first="Dana")[1] == "dana"
        assert read.first(name="dana", first="Diego") is None
    assert len(ran.captured_queries) == 2
    assert len(read._compiled) == 1


def test_a_stand_in_the_statement_does_not_carry_exactly_once_is_refused_before_anything_runs(django_user_model):
    twice = PreparedRead(lambda name: django_user_model.objects.filter(username=name, first_name=name)
                         .values_list("pk"), name="\x01name")
    with pytest.raises(ImproperlyConfigured, match="not one"):
        twice.rows(name="dana")
    with pytest.raises(ImproperlyConfigured, match="differ"):
        PreparedRead(lambda a, b: django_user_model.objects.filter(pk__in=[a, b]).values_list("pk"), a=1, b=1)


def test_the_staff_members_roles_are_read_as_the_orm_reads_them_in_one_query(django_user_model):
    dana = django_user_model.objects.create_user("dana")
    dana.groups.add(Group.objects.get(name="dealer"))
    orm = sorted(django_user_model.objects.filter(pk=dana.pk).values_list(
        *[f.attname for f in django_user_model._meta.concrete_fields], *ACCESS_FIELDS))
    with CaptureQueriesContext(connection) as ran:
        user = StaffBackend().get_user(dana.pk)
    assert len(ran.captured_queries) == 1
    assert (user.pk, user.username, user.date_joined) == (dana.pk, "dana", dana.date_joined)
    assert roles_of(user) == {"dealer"}
    from casino.backends import _user_with_access

    assert sorted(_user_with_access().rows(pk=dana.pk)) == orm
    assert StaffBackend().get_user(dana.pk + 1000) is None
