"""The Korean catalogue: complete for the current extraction, placeholders intact, served by locale.

The extraction runs here through Babel's own Python API (the same options as ``scripts/i18n.sh
extract``), so a new ``_()`` or ``N_()`` string without a Korean translation fails this test:
run ``scripts/i18n.sh extract && scripts/i18n.sh update``, translate, ``scripts/i18n.sh compile``.
"""

from __future__ import annotations

import re
from pathlib import Path

import flask_babel
import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from html.parser import HTMLParser

from helpers import new_game, post

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "tracker" / "translations"
KO_PO = TRANSLATIONS / "ko" / "LC_MESSAGES" / "messages.po"
KO_MO = TRANSLATIONS / "ko" / "LC_MESSAGES" / "messages.mo"
#: The extraction keywords of ``scripts/i18n.sh`` (read from it: a helper whose strings it does
#: not extract, such as ``plain_gettext`` once, is English on a Korean screen with no test failing).
KEYWORDS = tuple(re.findall(r"-k (\S+?)[)\s]", re.search(r"^KEYWORDS=\((.*)\)$", (ROOT / "scripts" / "i18n.sh").read_text(),
                                                          re.M).group(1) + ")"))

#: A ``%(name)s`` placeholder with its conversion (``%(m)02d`` included).
PLACEHOLDER = re.compile(r"%\((\w+)\)[#0\- +]*\d*(?:\.\d+)?[diouxXeEfFgGcrs]")

KO = {"Accept-Language": "ko"}
EN = {"Accept-Language": "en"}


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory):
    """Every message the sources mark today, extracted into a temporary .pot."""
    pot = tmp_path_factory.mktemp("i18n") / "messages.pot"
    args = ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-o", str(pot), "--no-location"]
    for keyword in KEYWORDS:
        args += ["-k", keyword]
    CommandLineInterface().run([*args, str(ROOT)])
    with pot.open("rb") as f:
        return read_po(f)


@pytest.fixture(scope="module")
def korean():
    with KO_PO.open("rb") as f:
        return read_po(f, locale="ko")


def fetch(client, url: str, headers: dict[str, str]) -> str:
    """GET ``url`` in a language. The ``app`` fixture keeps one app context for the whole test, and
    Flask-Babel caches the locale on ``g``: forget it so this request chooses its own."""
    flask_babel.refresh()
    resp = client.get(url, headers=headers)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def _strings(value) -> list[str]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _placeholders(text: str) -> set[str]:
    return {m.group(0) for m in PLACEHOLDER.finditer(text)}


def test_extraction_finds_the_app_strings(template) -> None:
    ids = {_strings(m.id)[0] for m in template if m.id}
    # Python _(), lazy _l(), the rules' N_() and the Jinja templates are all scanned.
    assert {"New game", "prestige", "It is %(name)s's turn.", "20 prestige", "Undo"} <= ids
    assert len(ids) > 300


def test_korean_catalogue_translates_every_message(template, korean) -> None:
    problems = []
    for message in template:
        if not message.id:
            continue
        msgid = _strings(message.id)[0]
        found = korean.get(message.id, message.context)
        if found is None:
            problems.append(f"missing: {msgid!r}")
        elif found.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        elif not all(s.strip() for s in _strings(found.string)):
            problems.append(f"untranslated: {msgid!r}")
    assert not problems, "run scripts/i18n.sh update and translate:\n" + "\n".join(problems)


def test_korean_catalogue_keeps_every_placeholder(korean) -> None:
    problems = []
    for message in korean:
        if not message.id or not message.string:
            continue
        wanted = set().union(*(_placeholders(s) for s in _strings(message.id)))
        for text in _strings(message.string):
            if _placeholders(text) != wanted:
                problems.append(f"{_strings(message.id)[0]!r} → {text!r}")
    assert not problems, "placeholders differ:\n" + "\n".join(problems)


def test_korean_keeps_a_name_with_its_honorific_and_a_change_with_its_arrow(korean) -> None:
    """A Korean tester at 360 px read "민수" at a line's end and "님에게서" on the next, and
    "위신 9 →" above "10": a name and its 님, the two sides of an arrow, a measure and its number
    and "한 턴 더" are joined by non-breaking spaces in every Korean message."""
    breakable = re.compile(r"%\([a-z_]+\)s 님| → |(?:명성|위신|왕관) [+%\d]|한 턴 더")
    problems = [text for message in korean if message.id and message.string
                for text in _strings(message.string) if breakable.search(text)]
    assert not problems, "\n".join(problems)


def test_korean_plurals_use_one_form(korean) -> None:
    assert korean.num_plurals == 1
    for message in korean:
        if message.pluralizable and message.id:
            assert len(_strings(message.string)) == 1 and message.string[0], message.id


def test_compiled_catalogue_matches_the_po(korean) -> None:
    with KO_MO.open("rb") as f:
        compiled = read_mo(f)
    for message in korean:
        if message.id and message.string:
            found = compiled.get(message.id, context=message.context)  # "prestige" and ("splendor", "prestige")
            assert found is not None, f"messages.mo is stale: run scripts/i18n.sh compile ({message.id!r})"
            assert _strings(found.string) == _strings(message.string), (message.context, message.id)


def test_home_page_in_korean_and_english(client) -> None:
    ko = fetch(client, "/", KO)
    assert '<html lang="ko"' in ko
    assert "새 게임" in ko and "스플렌더 대결" in ko and "게임 시작" in ko
    assert "New game" not in ko and "Start the game" not in ko

    en = fetch(client, "/", EN)
    assert '<html lang="en"' in en
    assert "New game" in en and "Start the game" in en
    assert "새 게임" not in en


def test_unknown_language_falls_back_to_english(client) -> None:
    page = fetch(client, "/", {"Accept-Language": "fr"})
    assert "New game" in page and "새 게임" not in page


def test_duel_game_screen_in_korean(client) -> None:
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    page = fetch(client, f"/games/{game['id']}", KO)
    assert "위신" in page and "왕관" in page and "특권" in page
    assert "Ben 차례" in page and "2턴" in page and "되돌리기" in page
    # The log line and the alert the rules raised (Ben gains a privilege for Ana's three reds).
    assert "Ana: 토큰 집기 — 빨간색 3개." in page
    assert "Ben: Ana 님의 행동으로 특권 1개 획득." in page
    assert "Ben's turn" not in page and "Game log" not in page and "Undo the last entry" not in page


def test_duel_game_screen_in_english(client) -> None:
    game = new_game(client, ("Ana", "Ben"))
    post(client, game["id"], {"type": "take_tokens", "player": 0, "tokens": {"red": 3}})
    page = fetch(client, f"/games/{game['id']}", EN)
    assert "prestige" in page and "Ben's turn" in page and "Undo" in page
    assert "위신" not in page and "되돌리기" not in page


def test_rule_errors_in_korean(client) -> None:
    game = new_game(client, ("Ana", "Ben"))
    flask_babel.refresh()
    resp = post(client, game["id"], {"type": "take_tokens", "player": 1, "tokens": {"red": 1}})
    assert resp.status_code != 200
    en = resp.get_json()["error"]["message"]
    assert en == "It is Ana's turn."
    flask_babel.refresh()
    resp = client.post(f"/api/games/{game['id']}/events", json={"type": "take_tokens", "player": 1, "tokens": {"red": 1}},
                       headers=KO)
    assert resp.get_json()["error"]["message"] == "지금은 Ana 님의 차례입니다."


def test_colours_and_tokens_in_a_rule_error_are_said_in_the_readers_language(client) -> None:
    """A refusal naming a colour ("white") or a bag of tokens ("2 red") says them in Korean
    too (the rules give kinds and bags; the message is translated with them)."""
    splendor = client.post("/api/games", json={"game": "splendor", "players": ["Ana", "Ben"], "first_player": 0,
                                                 "nobles": ["N-01", "N-02", "N-03"]}).get_json()
    take = {"type": "take_tokens", "player": 0, "tokens": {"white": 1, "blue": 1, "green": 1}}
    for _ in range(2):  # two whites gone: 2 left, not 4 (S-2.2)
        take["player"] = client.get(f"/api/games/{splendor['id']}").get_json()["current_player"]
        assert post(client, splendor["id"], take).status_code == 200
    two = {"type": "take_tokens", "player": client.get(f"/api/games/{splendor['id']}").get_json()["current_player"],
           "tokens": {"white": 2}}
    flask_babel.refresh()
    en = post(client, splendor["id"], two).get_json()["error"]["message"]
    assert en == "Two white gems may be taken only with at least 4 in the supply (there are 2)."
    flask_babel.refresh()
    ko = client.post(f"/api/games/{splendor['id']}/events", json=two, headers=KO).get_json()["error"]["message"]
    assert "흰색 2개 남음" in ko and "white" not in ko
    duel = new_game(client, ("Ana", "Ben"))
    flask_babel.refresh()
    buy = {"type": "buy", "player": 0, "card": "D1-01", "payment": {"red": 2}}
    ko = client.post(f"/api/games/{duel['id']}/events", json=buy, headers=KO).get_json()["error"]["message"]
    assert "red" not in ko and HANGUL.search(ko), ko


# ---------------------------------------------------------------- every page in both languages

import re as _re

HANGUL = _re.compile(r"[\uac00-\ud7a3]")


def _every_page(client) -> list[str]:
    from helpers import load_fixture

    from tracker import service

    duel = client.post("/api/games/import", json=load_fixture("duel-1069.json")).get_json()
    log = load_fixture("splendor-133.json")
    splendor = client.post("/api/games/import", json={**log, "events": log["events"][:40], "result": None}).get_json()
    client.get("/history")  # attaches players to the imported games
    player = client.get("/players").get_data(as_text=True)
    player_url = _re.search(r'href="(/players/\d+)"', player).group(1)
    sid = service.spectator_id(duel["id"])
    return ["/", f"/games/{duel['id']}", f"/games/{splendor['id']}", f"/games/{splendor['id']}/sheet/buy",
            f"/games/{duel['id']}/review", f"/games/{duel['id']}/share", f"/watch/{sid}", "/history", "/players",
            player_url, "/offline", f"/history/{duel['id']}/delete"]


def test_every_page_renders_in_korean_and_in_english(client):
    import flask_babel

    for url in _every_page(client):
        flask_babel.refresh()
        korean = client.get(url, headers={"Accept-Language": "ko"})
        assert korean.status_code == 200, url
        text = korean.get_data(as_text=True)
        assert '<html lang="ko"' in text and HANGUL.search(text), url
        flask_babel.refresh()
        english = client.get(url, headers={"Accept-Language": "en"})
        assert english.status_code == 200 and '<html lang="en"' in english.get_data(as_text=True), url


def test_error_pages_are_pages_of_the_app_in_the_readers_language(client) -> None:
    """An unknown link, a wrong method or a stale form gets the app's page (title, sentence, the
    way home) with its status; the API keeps its JSON errors."""
    for url in ("/games/no-such-game-0000000000000", "/games/no-such-game-0000000000000/review",
                "/players/999999", "/watch/no-such-link-000000000000", "/nowhere"):
        resp = client.get(url, headers=KO)
        body = resp.get_data(as_text=True)
        assert resp.status_code == 404 and '<html lang="ko"' in body, url
        nothing = "볼 수 있는 게임이 없습니다" if url.startswith("/watch/") else "여기에는 아무것도 없습니다"  # a spectator link: its own
        assert nothing in body and 'href="/"' in body and "Not Found" not in body, url
    flask_babel.refresh()
    en = client.get("/nowhere", headers=EN)
    assert en.status_code == 404 and "Nothing here" in en.get_data(as_text=True)
    wrong = client.delete("/", headers=EN)
    assert wrong.status_code == 405 and "cannot be opened that way" in wrong.get_data(as_text=True)
    assert "GET" in wrong.headers["Allow"]
    api = client.get("/api/games/no-such-game-0000000000000", headers=KO)
    assert api.status_code == 404 and api.get_json()["error"]["code"] == "not_found"


def test_a_refused_import_quotes_the_refusal_in_the_readers_language(client) -> None:
    """"Event 2 of the log is refused: …": the quoted refusal is translated with the sentence."""
    log = {"format": "splendor-tracker/1", "game": "duel", "players": ["Ana", "Ben"], "first_player": 0,
           "events": [{"type": "take_tokens", "player": 0, "tokens": {"red": 1}},
                      {"type": "take_tokens", "player": 0, "tokens": {"red": 1}}], "result": None}
    flask_babel.refresh()
    resp = client.post("/api/games/import", json=log, headers=KO)
    message = resp.get_json()["error"]["message"]
    assert resp.status_code == 422 and "지금은 Ben 님의 차례입니다." in message and "turn" not in message


def test_a_first_korean_game_reads_points_and_colours_as_a_table_says_them(client) -> None:
    """A Korean first-game tester: a reserved card's points read as a count beside its ability
    ("초 2 특권 획득": 2 privileges?), the victory table said "8 검은색", and the royal card prompt
    drew ♛, which counts crowns everywhere else. Points say 점, the colour comes first, no ♛."""
    from helpers import load_fixture

    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    ko = {"Accept-Language": "ko"}
    finished = client.post("/api/games/import", json=log).get_json()["id"]
    assert "<td role=\"cell\">검은색 8점</td>" in fetch(client, f"/games/{finished}", ko)
    royal_due = client.post("/api/games/import", json={**log, "id": None, "events": log["events"][:45],
                                                       "result": None}).get_json()["id"]
    sheet = fetch(client, f"/games/{royal_due}/sheet/royal", {**ko, "HX-Request": "true"})
    assert ">위신 3점</b>" in sheet and "♛ 위신" not in sheet
    gid = new_game(client)["id"]
    assert post(client, gid, {"type": "reserve", "player": 0, "card": "D1-10"}).status_code == 200
    assert re.search(r'data-card="D1-10"[^>]*>.*?</b> 1점', fetch(client, f"/games/{gid}", ko), re.S)


def test_a_card_s_spoken_label_is_said_in_the_readers_language(client) -> None:
    """A Korean tester's screen reader said "빨간색 card, 한 턴 더, costs 흰색 2, 0 after bonuses":
    the label's phrases (drawn by ``plain_gettext``) were not extracted, so never translated."""
    assert {"plain_gettext:2", "plain_ngettext:2,3", "N_"} <= set(KEYWORDS)
    gid = new_game(client)["id"]
    sheet = fetch(client, f"/games/{gid}/sheet/buy?level=1", {**KO, "HX-Request": "true"})
    labels = re.findall(r'<a [^>]*data-card="D1-[^"]*"[^>]*aria-label="([^"]*)"', sheet)
    assert len(labels) >= 10, sheet[:500]
    for label in labels:
        assert not re.search(r"[A-Za-z]{3,}", label), label
        assert "카드" in label and "비용" in label


class _Readable(HTMLParser):
    """What a Korean reader meets: the text outside scripts and styles, and the attributes a
    screen reader or a long press says (aria-label, title, placeholder, alt)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs) -> None:
        self._hidden += tag in ("script", "style")
        self.said += [v for k, v in attrs if k in ("aria-label", "title", "placeholder", "alt") and v]

    def handle_endtag(self, tag) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.said.append(data.strip())


def test_no_english_word_is_left_on_a_korean_screen(client) -> None:
    """Every page, Duel's and classic Splendor's sheets and a royal card prompt, read in Korean
    (text and spoken labels): no English word but the players' names, the file formats' and
    the language picker's "English" (a tester's screen reader said "card", "costs", "after
    bonuses" between Korean words)."""
    from helpers import load_fixture

    pages = _every_page(client)
    duel_log = load_fixture("duel-1012.json")
    setup = {k: duel_log[k] for k in ("format", "game", "players", "first_player", "nobles")}
    duel = client.post("/api/games/import", json={**setup, "events": duel_log["events"][:30]}).get_json()["id"]
    royal = client.post("/api/games/import", json={**setup, "events": duel_log["events"][:45]}).get_json()["id"]
    classic_log = load_fixture("splendor-153.json")
    classic = client.post("/api/games/import", json={**{k: classic_log[k] for k in setup}, "events": classic_log["events"][:20],
                                                     "game": "splendor"}).get_json()["id"]
    pages += [f"/games/{gid}/sheet/{name}" for gid in (duel, classic) for name in ("take", "buy", "reserve", "correction")]
    pages += [f"/games/{duel}/sheet/privileges", f"/games/{royal}", f"/games/{royal}/sheet/royal", f"/games/{duel}/log"]
    allowed = {"CSV", "JSON", "English", "Player"}  # (the fixtures' players are "Player A" and "Player B")
    for url in pages:
        flask_babel.refresh()
        resp = client.get(url, headers={**KO, "HX-Request": "true"} if "/sheet/" in url else KO)
        assert resp.status_code == 200, url
        reader = _Readable()
        reader.feed(resp.get_data(as_text=True))
        # the share page's join code is six random letters and digits ("YVNYRS" once read as a word)
        code = set(re.findall(r'id="join-code">([A-Z0-9]+)<', resp.get_data(as_text=True)))
        words = {w for said in reader.said if not said.startswith("http")
                 for w in re.findall(r"\b[A-Za-z][A-Za-z']{2,}\b", said)} - allowed - code
        assert not words, (url, words)


def test_korean_sentences_have_no_semicolons(client):
    """A Korean tester: "지불: 빨간색 3개; 왕관 0 → 1." (a semicolon is no Korean punctuation)."""
    import flask_babel

    from helpers import fixture_log, import_log

    game = import_log(client, fixture_log("duel-1012.json"))
    flask_babel.refresh()
    log = client.get(f"/games/{game['id']}/log", headers={"Accept-Language": "ko"}).get_data(as_text=True)
    sentences = re.findall(r"<li(?:\s[^>]*)?>(.*?)</li>", log, re.S)
    assert len(sentences) > 50
    semicolons = [s for s in sentences if ";" in re.sub(r"&[a-z#0-9]+;", "", s)]
    assert not semicolons, semicolons[:3]
    assert any(" · 왕관" in s for s in sentences)
    flask_babel.refresh()
    english = client.get(f"/games/{game['id']}/log").get_data(as_text=True)
    assert "; crowns" in english


def test_an_entry_after_the_win_in_a_log_says_so_without_undo(client) -> None:
    """A tester: a finished log with one more event was refused with "…no more entries (undo is
    still possible)": nothing is undone in a file. It says the entry comes after the win."""
    from helpers import load_fixture

    log = {k: v for k, v in load_fixture("duel-1012.json").items() if k not in ("expected", "checkpoints", "source")}
    log["events"] = [*log["events"], {"type": "take_tokens", "player": 1, "tokens": {"red": 1}}]
    flask_babel.refresh()
    resp = client.post("/api/games/import", json=log, headers=EN)
    error = resp.get_json()["error"]
    assert resp.status_code == 422 and error["code"] == "import_mismatch"
    assert error["message"].startswith("Event 86 of the log comes after the game was won") and "undo" not in error["message"]
    flask_babel.refresh()
    message = client.post("/api/games/import", json=log, headers=KO).get_json()["error"]["message"]
    assert "86" in message and "되돌리기" not in message and "after" not in message
