"""Settings shared by every test app (a module of its own: test files import it by name)."""

from __future__ import annotations


def app_config(uri: str) -> dict:
    """Test settings for an app on ``uri`` (CSRF off; tests that check it turn it on). Shared
    screens are kept in the app's own memory; tests of the file cache workers share set theirs."""
    return {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": uri, "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False, "CACHE_TYPE": "SimpleCache"}
