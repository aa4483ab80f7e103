#!/usr/bin/env bash
# Install everything the tests need (a virtualenv with the project and its test extras,
# Debian's chromium and chromium-headless-shell for the browser tests, Debian's PostgreSQL for the database tests), start
# a throwaway PostgreSQL on loopback, then run every test in two pytest-xdist workers (the CI
# machine has two cores; TEST_WORKERS=0 runs them in this process). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/venv.sh
. scripts/venv.sh
make_venv

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# What Debian must add: Chromium (the browser and its old headless build, which the browser tests
# drive: half the CPU of the full browser's headless mode; the browser brings the fonts), and (as root, for the throwaway server) PostgreSQL, in one
# update and one install (scripts/postgres.sh installs PostgreSQL itself when sourced alone).
MISSING=()
if ! command -v chromium >/dev/null 2>&1; then MISSING+=(chromium); fi
if ! command -v chromium-headless-shell >/dev/null 2>&1; then MISSING+=(chromium-headless-shell); fi
if [ "$(id -u)" -eq 0 ] && [ -z "${TEST_POSTGRES_URL:-}" ] && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  MISSING+=(postgresql)
fi
# As root, Debian's packages and the Python packages are fetched and installed at the same time
# (through sudo, apt-get goes first: it may ask for a password).
apt_install() {
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}
APT=""
if [ ${#MISSING[@]} -gt 0 ] && [ -z "$SUDO" ]; then
  apt_install "${MISSING[@]}" &
  APT=$!
elif [ ${#MISSING[@]} -gt 0 ]; then
  apt_install "${MISSING[@]}"
fi
install_project '.[test]'
if [ -n "$APT" ]; then wait "$APT"; fi

# shellcheck source=scripts/postgres.sh
. scripts/postgres.sh
trap stop_postgres EXIT
start_postgres

WORKERS=${TEST_WORKERS:-2}
if [ "$WORKERS" -gt 0 ]; then
  set -- -n "$WORKERS" --dist worksteal "$@"
fi
.venv/bin/python -m pytest "$@"
