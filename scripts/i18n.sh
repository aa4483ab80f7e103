#!/usr/bin/env bash
# Translations (Flask-Babel, domain "messages", catalogues in tracker/translations).
#
#   scripts/i18n.sh extract   collect every marked string into tracker/translations/messages.pot
#   scripts/i18n.sh update    merge the .pot into each catalogue (creates ko on first run)
#   scripts/i18n.sh compile   build the .mo files the app reads (commit them: no build step at run time)
#   scripts/i18n.sh check     extract into a temporary .pot and list the msgids that are missing,
#                             untranslated, fuzzy or with other placeholders in each catalogue
#                             (exit 1 if there are any)
#   scripts/i18n.sh all       extract + update + compile
#
# Usual round after changing strings: scripts/i18n.sh extract && scripts/i18n.sh update,
# translate the new entries in tracker/translations/ko/LC_MESSAGES/messages.po,
# then scripts/i18n.sh compile && scripts/i18n.sh check.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; fi

DIR=tracker/translations
POT=$DIR/messages.pot
LOCALES=(ko)
KEYWORDS=(-k N_ -k _l -k lazy_gettext -k _lp:1c,2 -k plain_gettext:2 -k plain_ngettext:2,3 -k markup_gettext:2 -k markup_ngettext:2,3 -k markup_pgettext:2c,3)

pybabel() { "$PYTHON" -m babel.messages.frontend "$@"; }

extract() {
  mkdir -p "$DIR"
  pybabel extract -F babel.cfg "${KEYWORDS[@]}" --no-wrap --sort-by-file \
    --project=tracker --copyright-holder="tracker" -o "${1:-$POT}" .
}

update() {
  [ -f "$POT" ] || extract
  for locale in "${LOCALES[@]}"; do
    if [ -f "$DIR/$locale/LC_MESSAGES/messages.po" ]; then
      pybabel update -i "$POT" -d "$DIR" -D messages -l "$locale" --no-wrap --ignore-obsolete
    else
      pybabel init -i "$POT" -d "$DIR" -D messages -l "$locale" --no-wrap
    fi
  done
}

compile() {
  pybabel compile -d "$DIR" -D messages --statistics
}

check() {
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  extract "$tmp/messages.pot" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; return 1; }
  "$PYTHON" - "$tmp/messages.pot" "$DIR" "${LOCALES[@]}" <<'PY'
import re
import sys
from babel.messages.pofile import read_po

PLACEHOLDER = re.compile(r"%\((\w+)\)[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]")


def placeholders(*texts):
    return {m.group(0) for t in texts for m in PLACEHOLDER.finditer(t)}


pot_path, directory, *locales = sys.argv[1:]
with open(pot_path, "rb") as f:
    template = read_po(f)
bad = 0
for locale in locales:
    path = f"{directory}/{locale}/LC_MESSAGES/messages.po"
    try:
        with open(path, "rb") as f:
            catalog = read_po(f, locale=locale)
    except FileNotFoundError:
        print(f"{locale}: no catalogue at {path}")
        bad += 1
        continue
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        strings = (found.string if isinstance(found.string, (list, tuple)) else [found.string]) if found else []
        if found is None:
            why = "missing"
        elif found.fuzzy:
            why = "fuzzy"
        elif not all(strings):
            why = "untranslated"
        elif any(placeholders(s) != placeholders(*ids) for s in strings):
            why = "placeholders differ"
        else:
            continue
        bad += 1
        where = ", ".join(f"{p}:{n}" for p, n in message.locations[:2])
        msgid = message.id[0] if isinstance(message.id, (list, tuple)) else message.id
        print(f"{locale}\t{why}\t{msgid!r}\t({where})")
print(f"{bad} message(s) to translate or fix" if bad else "all messages translated", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

case "${1:-}" in
  extract) extract ;;
  update) update ;;
  compile) compile ;;
  check) check ;;
  all) extract && update && compile ;;
  *) echo "usage: $0 extract|update|compile|check|all" >&2; exit 2 ;;
esac
