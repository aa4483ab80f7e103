"""Template URLs built once (``serving.TemplateUrls``): the same addresses as Flask's url_for,
per path prefix, and anything unusual built each time."""

from __future__ import annotations

import pytest
from flask import url_for

from tracker.serving import TemplateUrls


def test_kept_addresses_are_flasks_and_follow_the_path_prefix(app):
    urls = TemplateUrls(app)
    with app.test_request_context("/"):
        first = urls("pages.game", game_id="a" * 22, sheet="buy")
        assert first == url_for("pages.game", game_id="a" * 22, sheet="buy") == f"/games/{'a' * 22}?sheet=buy"
        assert urls("pages.game", sheet="buy", game_id="a" * 22) == first  # keyword order aside
        assert urls("static", filename="app.css") == url_for("static", filename="app.css")
        assert urls("pages.game", game_id="a" * 22, _anchor="log").endswith("#log")
        assert urls("pages.game", game_id="a" * 22, sheet=["buy"]) == url_for("pages.game", game_id="a" * 22, sheet=["buy"])
        assert urls("pages.game", game_id="a" * 22, d=1).endswith("?d=1")
        assert urls("pages.game", game_id="a" * 22, d=True).endswith("?d=True")  # not the address kept for 1
    with app.test_request_context("/", base_url="http://localhost/club/"):
        assert urls("pages.game", game_id="a" * 22, sheet="buy") == f"/club/games/{'a' * 22}?sheet=buy"
    with app.app_context():  # no request: Flask's answer (here: no SERVER_NAME to build with)
        with pytest.raises(RuntimeError, match="SERVER_NAME"):
            urls("pages.game", game_id="a" * 22)


def test_the_screen_uses_them(client, app):
    assert isinstance(app.jinja_env.globals["url_for"], TemplateUrls)
    resp = client.post("/games", data={"game": "duel", "player0": "Ana", "player1": "Ben", "first": "0"})
    page = client.get(resp.headers["Location"]).get_data(as_text=True)
    game_id = resp.headers["Location"].rsplit("/", 1)[-1]
    assert f'hx-get="/games/{game_id}/sheet/buy?v=0"' in page  # the version drawn: per request


def test_a_value_per_request_is_added_to_the_kept_address(app):
    """The kept address never carries one request's value into the next (the sheet links' ``v``)."""
    from flask import g

    urls = TemplateUrls(app)
    urls.per_request("pages.sheet", "v", lambda: g.get("sheet_version"))
    with app.test_request_context("/"):
        assert urls("pages.sheet", game_id="a" * 22, name="take") == f"/games/{'a' * 22}/sheet/take"
        g.sheet_version = 3
        assert urls("pages.sheet", game_id="a" * 22, name="take") == f"/games/{'a' * 22}/sheet/take?v=3"
        assert urls("pages.sheet", game_id="a" * 22, name="buy", src=2) == f"/games/{'a' * 22}/sheet/buy?src=2&v=3"
        assert urls("pages.sheet", game_id="a" * 22, name="take", v=1).endswith("/take?v=1")  # named: kept
    with app.test_request_context("/"):
        g.sheet_version = 4
        assert urls("pages.sheet", game_id="a" * 22, name="buy", src=2) == f"/games/{'a' * 22}/sheet/buy?src=2&v=4"
        assert urls("pages.game", game_id="a" * 22) == f"/games/{'a' * 22}"
