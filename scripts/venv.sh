# Sourced by serve.sh and test.sh: make the project's virtualenv in .venv if it is missing.
# Debian's python3 cannot make one until its python3-venv package is installed (no ensurepip):
# then that package is installed with apt-get (as root, or through sudo) and the venv made again.

make_venv() {
  local python=${PYTHON:-python3}
  if [ -x .venv/bin/python ]; then
    return 0
  fi
  if "$python" -m venv .venv 2>/dev/null; then
    return 0
  fi
  rm -rf .venv  # a half-made venv (no pip) would pass the check above next time
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "Could not create .venv with $python: install Python's venv module, then run this again." >&2
    return 1
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "Installing Debian's python3-venv (needed to create .venv)..." >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null
  "$python" -m venv .venv
}

# install_project SPEC: `pip install -e SPEC` ('.' or '.[test]'), skipped when this very
# pyproject.toml was installed with SPEC before (a stamp in .venv; any extras installed the app
# too): starting the app again needs no package index (a café whose internet is down still
# starts it), and code changes need no reinstall (an editable install). A changed
# pyproject.toml installs again.
install_project() {
  local spec=$1 sum stamp
  sum=$({ cat pyproject.toml; pwd -P; } | sha256sum | cut -c1-16)  # (an editable install points here)
  stamp=".venv/.installed-$(echo "$spec" | tr -c 'a-z\n' '_')"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
    return 0
  fi
  if [ "$spec" = "." ] && grep -qsx "$sum" .venv/.installed-*; then
    return 0
  fi
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
  echo "$sum" > "$stamp"
}
