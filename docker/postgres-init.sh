#!/bin/sh
# The application's own PostgreSQL role (docs/audit.md), created once, when the db service's volume is
# first initialised (the postgres image runs /docker-entrypoint-initdb.d/*). The owner is
# POSTGRES_USER: the migrate service migrates as it and grants casino_app its rights; the app services
# connect as casino_app, which owns nothing and may only read and append the audit log and the hands'
# actions. A volume made before this script existed: run this script's psql once by hand
# (docker compose exec db sh /docker-entrypoint-initdb.d/10-casino-app-role.sh).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v app_password="$CASINO_APP_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE casino_app LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'casino_app')
\gexec
ALTER ROLE casino_app PASSWORD :'app_password';
SQL
