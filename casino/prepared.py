"""Reads compiled to SQL once per process: the hot reads of every request, run again with other values.

Django compiles a queryset into SQL each time it runs: the joins, the columns, the lookups, the WHERE
clause, then the statement's text. For the few reads that every dealer's tap makes (the staff member
with his roles, the tournament table he taps at), compiling cost more than the round trip to PostgreSQL:
py-spy at a hundred tournament tables found two thirds of the table's read in the compiler, and query
compilation a tenth of the daphnes' time in all (docs/benchmarks.md, twentieth session).

A ``PreparedRead`` is one such read written as the queryset it always was (a ``values_list``), compiled
by Django the first time with stand-in values, and then run with each call's values: the same statement,
its rows converted by Django's own converters (a datetime from SQLite's text, a JSON column), one
compile per process and database. Only the values in the WHERE clause change; anything else that would
change the statement (another column, another lookup) is another ``PreparedRead``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet


class PreparedRead:
    """``build(**values)`` gives the read's queryset (a ``values_list``) for those values; ``stand_ins`` gives
    each value a stand-in of its type, distinct from each other, with which Django compiles the statement
    once: each stand-in must come out as exactly one of the statement's parameters (else the read refuses
    to be prepared, rather than put a value in the wrong place)."""

    def __init__(self, build: Callable[..., QuerySet], **stand_ins: Any) -> None:
        if len({repr(v) for v in stand_ins.values()}) != len(stand_ins):
            raise ImproperlyConfigured("each stand-in of a prepared read must differ from the others")
        self.build = build
        self.stand_ins = stand_ins
        self._compiled: dict[str, tuple] = {}
        self._lock = threading.Lock()

    def _compile(self, using: str) -> tuple:
        compiler = self.build(**self.stand_ins).query.get_compiler(using=using)
        sql, params = compiler.as_sql()
        positions = {}
        for name, stand_in in self.stand_ins.items():
            found = [i for i, p in enumerate(params) if isinstance(p, type(stand_in)) and p == stand_in]
            if len(found) != 1:
                raise ImproperlyConfigured(f"the stand-in for {name!r} is {len(found)} of the statement's parameters, "
                                           "not one: this read cannot be prepared")
            # the type Django gave the value, if its own (psycopg's Int2 for a small integer column)
            kind = type(params[found[0]])
            positions[name] = (found[0], None if kind is type(stand_in) else kind)
        converters = compiler.get_converters([s[0] for s in compiler.select[: compiler.col_count]])
        return sql, tuple(params), positions, compiler, converters

    def rows(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> list[tuple]:
        """The read's rows for ``values`` (one for each stand-in, of its type)."""
        compiled = self._compiled.get(using)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(using) or self._compile(using)
                self._compiled[using] = compiled
        sql, params, positions, compiler, converters = compiled
        params = list(params)
        for name, (position, kind) in positions.items():
            params[position] = values[name] if kind is None else kind(values[name])
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if converters:
            return [tuple(row) for row in compiler.apply_converters(rows, converters)]
        return [tuple(row) for row in rows]

    def first(self, using: str = DEFAULT_DB_ALIAS, **values: Any) -> tuple | None:
        rows = self.rows(using, **values)
        return rows[0] if rows else None
