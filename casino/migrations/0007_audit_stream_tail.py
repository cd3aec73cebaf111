"""The audit stream's lock and its tail in one call, for a write's lock statement (``casino.audit.stream_lock``).

``casino_audit_stream_tail(key, stream)`` takes the stream's writer lock (the transaction's advisory lock on
``key``), then reads the stream's last event as "seq hash" (NULL for an empty stream). A volatile PL/pgSQL
function runs each of its queries in a snapshot of its own, taken when the query starts: this read comes after
the lock, so it sees every event of the stream that a writer committed before letting the lock go, even when
the statement that calls it began before (a subquery of that statement would not). A write then needs no read
of the tail of its own, under its aggregate's lock (issue #37).
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION casino_audit_stream_tail(lock_key bigint, stream_name text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    tail text;
BEGIN
    PERFORM pg_advisory_xact_lock(lock_key);
    SELECT seq || ' ' || hash INTO tail FROM casino_auditevent WHERE stream = stream_name ORDER BY seq DESC LIMIT 1;
    RETURN tail;
END
$$;
"""

DROP = "DROP FUNCTION IF EXISTS casino_audit_stream_tail(bigint, text);"


class Migration(migrations.Migration):
    dependencies = [("casino", "0006_bank_roles_capabilities")]
    operations = [migrations.RunSQL(CREATE, DROP)]
