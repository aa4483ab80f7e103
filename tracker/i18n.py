"""Translation of the rules' message templates (the rules mark them with ``N_``, we translate)."""

from __future__ import annotations

from typing import Any, Mapping

from flask_babel import gettext

from .rules.errors import RuleError


def tr(template: str, params: Mapping[str, Any] | None = None) -> str:
    """Translate a rules template and fill in its ``%(name)s`` parameters.

    Parameters may echo what a client sent (an unknown kind, a type); anything that is not
    valid UTF-8 (a lone surrogate) is replaced, so no page or JSON body fails to encode it.
    """
    text = gettext(template, **params) if params else gettext(template)
    return text.encode("utf-8", "replace").decode("utf-8")


def error_message(err: RuleError) -> str:
    """The translated sentence of a refused entry."""
    return tr(err.template, err.params)


def error_json(err: RuleError) -> dict[str, Any]:
    """GAME-LOG.md's error body ``{"error": {"code", "message", "rule"}}``, translated."""
    return {"error": {"code": err.code, "message": error_message(err), "rule": err.rule}}
