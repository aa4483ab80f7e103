"""Translation of the rules' message templates (the rules mark them with ``N_``, we translate)."""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask
from flask_babel import get_translations, gettext
from jinja2 import pass_context
from markupsafe import Markup
from jinja2.runtime import Context

from .rules.errors import Phrase, Phrases, RuleError
from .rules.tokens import Tokens


def render_translations(context: Context) -> Any:
    """The render's translations: ``i18n`` when the view put them in the template context
    (looked up once per screen), else Flask-Babel's for this request."""
    found = context.get("i18n")
    return found if found is not None else get_translations()


def _formatted(context: Context, text: str, variables: Mapping[str, Any]) -> Any:
    """Jinja's "newstyle" gettext result: Markup when autoescaping (so the variables are escaped
    as they are put in), formatted with ``variables``; a text without variables and without
    ``%`` is the same either way and skips the formatting (most of a screen's labels)."""
    if context.eval_ctx.autoescape:
        return _markup(text, variables)
    return text % variables if variables or "%" in text else text


def _markup(text: str, variables: Mapping[str, Any]) -> Markup:
    """``text`` as Markup, formatted with ``variables`` escaped (``_formatted`` when autoescaping)."""
    out = Markup(text)
    return out % variables if variables or "%" in out else out


def plain_gettext(translations: Any, string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext`` on translations already looked up (``context["i18n"]``): the
    text in the reader's language, formatted with ``variables``; for helpers a screen calls
    dozens of times (Flask-Babel looks the locale and catalogue up again on every call)."""
    text = translations.ugettext(string)
    return text % variables if variables else text


def plain_ngettext(translations: Any, singular: str, plural: str, n: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext`` on translations already looked up (see ``plain_gettext``)."""
    variables.setdefault("num", n)
    return translations.ungettext(singular, plural, n) % variables


# What a template's ``_()``, ``ngettext`` and ``pgettext`` give (Markup, the variables escaped), for
# HTML built in Python (``widgets``) on translations already looked up. ``scripts/i18n.sh``
# extracts their strings (not inside an f-string: Babel does not look into one).
def markup_gettext(translations: Any, string: str, **variables: Any) -> Markup:
    """``_(string, **variables)`` of a template, on ``translations``."""
    return _markup(translations.ugettext(string), variables)


def markup_ngettext(translations: Any, singular: str, plural: str, n: int, **variables: Any) -> Markup:
    """``ngettext(singular, plural, n, **variables)`` of a template (``num`` is ``n``)."""
    variables.setdefault("num", n)
    return _markup(translations.ungettext(singular, plural, n), variables)


def markup_pgettext(translations: Any, context: str, string: str, **variables: Any) -> Markup:
    """``pgettext(context, string, **variables)`` of a template."""
    variables.setdefault("context", context)
    return _markup(translations.upgettext(context, string), variables)


# Each is a template's ``_``/``gettext`` etc. in one call (Jinja's own newstyle callables go
# through three: an alias, a wrapper, the translation): a game screen makes about sixty.
@pass_context
def _template_gettext(context: Context, string: str, **variables: Any) -> Any:
    return _formatted(context, render_translations(context).ugettext(string), variables)


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, n: int, **variables: Any) -> Any:
    variables.setdefault("num", n)
    return _formatted(context, render_translations(context).ungettext(singular, plural, n), variables)


@pass_context
def _template_pgettext(context: Context, ctx: str, string: str, **variables: Any) -> Any:
    variables.setdefault("context", ctx)
    return _formatted(context, render_translations(context).upgettext(ctx, string), variables)


@pass_context
def _template_npgettext(context: Context, ctx: str, singular: str, plural: str, n: int, **variables: Any) -> Any:
    variables.setdefault("context", ctx)
    variables.setdefault("num", n)
    return _formatted(context, render_translations(context).unpgettext(ctx, singular, plural, n), variables)


def install_template_gettext(app: Flask) -> None:
    """Templates' ``_()``/``gettext`` as Flask-Babel's ("newstyle": formatted with their keyword
    arguments, escaped), taking the translations from the template context when a view
    supplies them (Flask-Babel looks the locale up again on every call) and each in one call
    (``_`` is ``gettext`` itself, not Jinja's alias of it). Call after ``Babel.init_app``."""
    env = app.jinja_env
    env.install_gettext_callables(  # newstyle for ``{% trans %}``; replaced by ours just below
        gettext=_template_gettext, ngettext=_template_ngettext, newstyle=True,
        pgettext=_template_pgettext, npgettext=_template_npgettext,
    )
    env.globals.update(_=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext,
                       pgettext=_template_pgettext, npgettext=_template_npgettext)


#: Parameters of the rules' messages that name a token kind ("red", "pearl").
KIND_PARAMS = frozenset(("color", "kind", "kind2", "kind3"))


def _param(name: str, value: Any) -> Any:
    """A parameter as the reader's language says it: a bag of tokens (``Tokens``) as its list
    ("빨간색 2, 진주 1"), a token kind by its name, a card by its words (not its catalogue id), a quoted refusal (``RuleError``) or phrase (``Phrase``) translated;
    anything else as it is."""
    from .narrate import TOKEN_NAMES, token_list  # narrate builds its sentences with ``tr``

    if isinstance(value, Tokens):
        return token_list(value)
    if isinstance(value, RuleError):  # a refusal quoted in another ("event 12 is refused: …")
        return error_message(value)
    if isinstance(value, Phrase):  # a phrase quoted in a message ("it records Ana won after 31 turns")
        return tr(value.template, value.params)
    if isinstance(value, Phrases):  # several ("white 5, not 4; blue 3, not 4")
        return gettext("; ").join(tr(p.template, p.params) for p in value)
    if name in KIND_PARAMS and isinstance(value, str) and value in TOKEN_NAMES:
        return TOKEN_NAMES[value]
    if name == "routes" and isinstance(value, tuple):  # D-11 route ids ("crowns") by their names
        from .narrate import ROUTE_NAMES

        return ", ".join(str(ROUTE_NAMES[r]) if r in ROUTE_NAMES else r for r in value)
    if name == "card" and isinstance(value, str):  # a catalogue id means nothing at the table
        from .narrate import card_words

        return card_words(value)
    if name in NOBLE_PARAMS and isinstance(value, str):
        return ", ".join(noble_name(part) for part in value.split(", "))
    return value


#: Parameters of the rules' messages that name a noble ("N-06") or several ("N-06, N-08").
NOBLE_PARAMS = frozenset(("noble", "choices"))


def noble_name(noble_id: str) -> str:
    """A noble as the table sees the tile: its requirement in the reader's gem letters
    (``W4 U4`` / ``흰4 파4``); an id that names no noble is left as it is."""
    from .rules import catalog

    noble = catalog.nobles().get(noble_id)
    return noble_id if noble is None else letter_list(noble.requires)


def letter_list(bag: Tokens) -> str:
    """A bag of tokens (a noble's requirement, a card's printed cost) in the reader's chip letters,
    the kinds it has none of left out: ``W2 G2 K1 P1`` / ``흰2 초2 검1 진1``."""
    from .screen import LETTERS  # (the screen's letters; screen imports this module)

    letters = LETTERS.table()
    return " ".join(f"{letters[k]}{n}" for k, n in bag.items() if n)


def tr(template: str, params: Mapping[str, Any] | None = None) -> str:
    """Translate a rules template and fill in its ``%(name)s`` parameters (token kinds and bags
    of tokens in the reader's language, see ``_param``).

    Parameters may echo what a client sent (an unknown kind, a type); anything that is not
    valid UTF-8 (a lone surrogate) is replaced, so no page or JSON body fails to encode it.
    """
    if params:
        params = {name: _param(name, value) for name, value in params.items()}
    text = gettext(template, **params) if params else gettext(template)
    return text.encode("utf-8", "replace").decode("utf-8")


def error_message(err: RuleError) -> str:
    """The translated sentence of a refused entry."""
    return tr(err.template, err.params)


def error_json(err: RuleError) -> dict[str, Any]:
    """GAME-LOG.md's error body ``{"error": {"code", "message", "rule"}}``, translated."""
    return {"error": {"code": err.code, "message": error_message(err), "rule": err.rule}}
