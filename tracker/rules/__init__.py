"""The pure rules engine: standard library only, no Flask, no database, no I/O but packaged data.

``duel`` holds Splendor Duel (D-1 … D-12); ``tokens``, ``catalog`` and ``events`` are shared.
"""

from .errors import RuleError

__all__ = ["RuleError"]
