"""Translation of the rules' message templates (the rules mark them with ``N_``, we translate)."""

from __future__ import annotations

from typing import Any, Mapping

from flask_babel import gettext

from .rules.errors import RuleError


def tr(template: str, params: Mapping[str, Any] | None = None) -> str:
    """Translate a rules template and fill in its ``%(name)s`` parameters."""
    if params:
        return gettext(template, **params)
    return gettext(template)


def error_message(err: RuleError) -> str:
    """The translated sentence of a refused entry."""
    return tr(err.template, err.params)


def error_json(err: RuleError) -> dict[str, Any]:
    """GAME-LOG.md's error body ``{"error": {"code", "message", "rule"}}``, translated."""
    return {"error": {"code": err.code, "message": error_message(err), "rule": err.rule}}
