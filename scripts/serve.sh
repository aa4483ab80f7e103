#!/usr/bin/env bash
# Install the app into a virtualenv, create or upgrade its SQLite database in instance/
# (or the database named by DATABASE_URL), and serve it on http://127.0.0.1:5000.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
make_venv
install_project .
.venv/bin/flask --app tracker db upgrade
exec .venv/bin/flask --app tracker run --host "${HOST:-127.0.0.1}" --port "${PORT:-5000}"
