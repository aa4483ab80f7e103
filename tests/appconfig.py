"""Settings shared by every test app (a module of its own: test files import it by name)."""

from __future__ import annotations


def app_config(uri: str) -> dict:
    """Test settings for an app on ``uri`` (CSRF off; tests that check it turn it on)."""
    return {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri, "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False}
