"""A first-time player tapped the reserved card in their own panel (it shows a tick when
affordable) and nothing happened: the player to act's reserved cards now open the Buy sheet on
that card (a secret one on its level's grid), a joker's colour or a token to steal still to
choose is asked, not shown as a refusal."""

from __future__ import annotations

import re

from helpers import import_log, load_fixture, new_game, post

from tracker import service

HX = {"HX-Request": "true"}


def _reserved_links(page: str) -> list[str]:
    return re.findall(r'<a class="mini-card[^"]*" data-buy-reserved="1" id="reserved-\d+"\s+aria-label="[^"]*"\s+href="([^"]+)"', page)


def test_only_the_current_player_s_reserved_cards_are_links(client):
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "reserve", "player": 0, "card": "D1-04"}).status_code == 200
    assert post(client, gid, {"type": "reserve", "player": 1, "level": 2}).status_code == 200
    page = client.get(f"/games/{gid}").get_data(as_text=True)  # Ana to act
    assert _reserved_links(page) == [f"/games/{gid}?sheet=buy&amp;src=reserve&amp;card=D1-04"]
    assert 'aria-label="Buy: white card, 1 crown, costs blue 3"' in page  # said in words
    sheet = client.get(f"/games/{gid}/sheet/buy?src=reserve&card=D1-04", headers=HX).get_data(as_text=True)
    assert 'class="selected-card' in sheet and 'data-card="D1-04"' in sheet
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    page = client.get(f"/games/{gid}").get_data(as_text=True)  # Ben to act: his secret card opens its level's grid
    assert _reserved_links(page) == [f"/games/{gid}?sheet=buy&amp;src=reserve&amp;reveal=2"]
    assert 'aria-label="Buy the secret level-2 card"' in page


def test_a_spectator_and_a_finished_game_get_no_links(client):
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "reserve", "player": 0, "card": "D1-04"}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}).status_code == 200
    assert _reserved_links(client.get(f"/games/{gid}").get_data(as_text=True))  # Ana to act: a link
    page = client.get(f"/watch/{service.spectator_id(gid)}").get_data(as_text=True)
    assert 'data-card="D1-04"' in page and _reserved_links(page) == []
    log = load_fixture("duel-1069.json")
    finished = import_log(client, {k: v for k, v in log.items() if k not in ("expected", "checkpoints", "source", "id")})
    assert finished["status"] == "finished"
    page = client.get(f"/games/{finished['id']}").get_data(as_text=True)
    assert page.count('<span class="mini-card color-') >= 3 and _reserved_links(page) == []


def test_my_reserve_opens_on_the_secret_card_s_level_grid(client):
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "reserve", "player": 0, "level": 2}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=reserve", headers=HX).get_data(as_text=True)
    assert "A secret card: which one is it?" in sheet
    assert 'data-card="D2-01"' in sheet  # the level-2 grid, without a further tap
    # read out after a tap: the candidates listed, not the empty grid of face-up reserves above them
    said = re.search(r'id="grid-said">([^<]+)<', sheet)[1]
    assert said == f"{sheet.count('data-card=')} cards listed." and said != "0 cards listed."


def _give(client, gid: str, seat: int, **tokens: int) -> None:
    """A correction handing ``seat`` these tokens from the board (the table's Fix sheet)."""
    state = client.get(f"/api/games/{gid}").get_json()
    held = {k: v for k, v in state["players"][seat]["tokens"].items()}
    board = dict(state["board"])
    for kind, n in tokens.items():
        held[kind] += n
        board[kind] -= n
    assert post(client, gid, {"type": "correction", "player": seat, "set": {"tokens": held, "board": board}}).status_code == 200


def test_a_joker_s_colour_still_to_choose_is_asked_not_refused(client):
    """D-7: Ana owns a white and a blue card; her joker's sheet asks which colour it joins in a
    neutral line (it was the red refusal box before she had done anything wrong)."""
    gid = new_game(client)["id"]
    _give(client, gid, 0, blue=3)
    assert post(client, gid, {"type": "purchase", "player": 0, "card": "D1-04", "payment": {"blue": 3}}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}).status_code == 200
    _give(client, gid, 0, green=3)
    assert post(client, gid, {"type": "purchase", "player": 0, "card": "D1-09", "payment": {"green": 3}}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"black": 1}}).status_code == 200
    _give(client, gid, 0, white=3, pearl=1)
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-26", headers=HX).get_data(as_text=True)
    assert '<p class="preview preview-hint">Choose the colour the joker joins.</p>' in _no_ids(sheet)
    assert "preview-error" not in sheet and 'aria-disabled="true"' in sheet
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-26&wild=blue", headers=HX).get_data(as_text=True)
    assert "Saving will record: Ana bought a level-1 joker card (1 crown) joined to blue" in sheet
    # a joker Ana cannot pay for is still refused with what is missing
    sheet = client.get(f"/games/{gid}/sheet/buy?src=1&card=D1-27", headers=HX).get_data(as_text=True)
    assert "preview-error" in sheet and "cannot pay for this card" in sheet


def test_a_secret_card_recorded_elsewhere_by_mistake_is_not_listed_and_the_sheet_says_why(client):
    """A tester: Ana was recorded reserving D2-01 by a wrong tap; Ben's secret level-2 card is
    D2-01: the list left it out, unsaid. The sheet says a card not listed is recorded elsewhere
    and how to free it (cards are never fixed: undo back to that entry)."""
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}).status_code == 200
    assert post(client, gid, {"type": "reserve", "player": 1, "level": 2}).status_code == 200
    assert post(client, gid, {"type": "reserve", "player": 0, "card": "D2-01"}).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=reserve&reveal=2", headers=HX).get_data(as_text=True)
    assert 'data-card="D2-02"' in sheet and 'data-card="D2-01"' not in sheet
    assert 'id="reveal-not-listed"' in sheet and "Not listed? The app has it bought or in a reserve" in sheet


def _no_ids(body: str) -> str:
    """A sheet without the ids a refused save's reason carries (``aria-describedby``)."""
    return re.sub(r' id="why-[^"]*"', "", body)


def test_the_skip_link_counts_a_secret_card_s_candidates_too(client):
    """Buy → the reserve, a named card and a secret level-2 card whose candidates are listed: the
    screen reader's "Skip to the cards" said "(1)" over 1 + 24 cards (a tester)."""
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "reserve", "player": 0, "level": 2}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}).status_code == 200
    assert post(client, gid, {"type": "reserve", "player": 0, "card": "D1-01"}).status_code == 200
    assert post(client, gid, {"type": "take_tokens", "player": 1, "tokens": {"blue": 1}}).status_code == 200
    sheet = client.get(f"/games/{gid}/sheet/buy?src=reserve&reveal=2", headers=HX).get_data(as_text=True)
    candidates = len(re.findall(r'<a class="card [^"]*" data-card="D2-', sheet))
    assert candidates == 24  # every level-2 card: none is bought or named, the secret one is among them
    assert f"Skip to the cards ({1 + candidates})" in sheet
