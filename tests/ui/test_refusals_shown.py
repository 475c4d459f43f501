"""Refusals are shown to the user in words (issue 26: "the lobby and the table show it to the user in
words"), in Chromium against a real ``liverpool serve`` with low limits.

- The lobby: a second table created within the minute when one a minute is allowed shows the server's
  sentence, with how long to wait.
- The table: a seat page opened while its address already holds every connection it may shows the
  server's sentence, and the page connects by itself once a connection is free.
- In Norwegian (issue 28 item 7: refusal reasons translated through their codes, not English text): too
  many tables, a name longer than the server takes, a seat taken meanwhile, a stale move and too many
  connections each show the Norwegian catalogue's sentence (with the server's numbers), never the reason
  code or the server's English.
- In English and in Norwegian, one by one: too many tables, an unknown invite, a blank name, too long a
  name, a stale move and a full table, each the catalogue's sentence with no code, key or JSON in it.
- The same for the rest: a saved ruleset's name taken and too many saved rulesets (the lobby), talk too
  fast, a message too large and too many messages (the table).
- The engine's refusals in Norwegian, from their faults (issue 28 items 4 and 7): a discard of the card just
  taken and a lay-off that does not fit, each naming the card (and the set's rank).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import Player, Tab, body, browser, create_table, join, open_tab, visible
from server_fixtures import ServerProcess

from liverpool.engine import Action, Card, Discard, GoDown, LayOff, Meld, action_to_dict

pytestmark = pytest.mark.slow  # `make test-quick` leaves these out; `make test` runs them

if TYPE_CHECKING:
    from playwright.sync_api import Browser, WebSocketRoute

__all__ = ["browser"]

Start = Callable[..., ServerProcess]
I18N = Path(__file__).resolve().parents[2] / "liverpool/server/static/i18n"
CATALOGUES = {lang: json.loads((I18N / f"{lang}.json").read_text()) for lang in ("en", "nb")}
NB = CATALOGUES["nb"]
ENGLISH = ("at most", "try again", "refused", "taken", "stale", "too_many", "invalid", "seat_taken")


def norwegian(text: str, key: str, **params: Any) -> None:
    """``text`` is the Norwegian catalogue's message ``key`` filled with ``params``, with no English in it."""
    want = NB[key]
    for name, value in params.items():
        want = want.replace(f"{{{name}}}", str(value))
    assert text == want, f"{text!r} is not nb.json {key}: {want!r}"
    assert not any(word in text.lower() for word in ENGLISH), text


def in_words(text: str, lang: str, key: str, **params: Any) -> None:
    """``text`` is the ``lang`` catalogue's message ``key`` filled with ``params``: a sentence, with no
    reason code, catalogue key or JSON in it."""
    want = CATALOGUES[lang][key]
    for name, value in params.items():
        want = want.replace(f"{{{name}}}", str(value))
    assert text == want, f"{text!r} is not {lang}.json {key}: {want!r}"
    assert not re.search(r"[{}\[\]\"]|\b\w+_\w+\b|\b(reason|invalid|join|table)\.\w", text), text
    assert text[:1].isupper() and text.endswith((".", "!", "?")), text


def refusal(tab: Tab, testid: str, act: Callable[[], object]) -> str:
    """The text ``testid`` shows after ``act`` (emptied first, so that an earlier refusal is not read)."""
    tab.by(testid).evaluate("(element) => { element.textContent = ''; }")
    act()
    return wait_for_text(tab, testid)


def wait_for_text(tab: Tab, testid: str) -> str:
    tab.page.wait_for_function(f"() => document.querySelector('[data-testid={testid}]').textContent.trim() !== ''")
    return tab.by(testid).text_content() or ""


def test_the_lobby_says_in_words_why_a_table_was_not_created(
    browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "1"})
    tab = open_tab(browser)
    create_table(tab, server.http, ["human", "random", "random"])
    tab.by("create-table").click()
    error = tab.by("create-error")
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=create-error]').textContent.includes('try again in')"
    )
    text = error.text_content() or ""
    assert text.startswith("At most 1 tables a minute from one address; try again in "), text
    assert text.endswith(" s."), text
    assert tab.errors == []


def test_the_table_says_in_words_why_its_connection_was_refused(
    browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_CONNECTIONS_PER_CLIENT": "2"})
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    held = [server.spectator(created["spectator"]) for _ in range(2)]  # the address's two connections
    for client in held:
        client.state_where(lambda s: True)
    tab = open_tab(browser).goto(f"{server.http}/play/{token}")
    tab.page.wait_for_function(
        "() => document.querySelector('[data-testid=error]').textContent.includes('connections at once')"
    )
    text = tab.by("error").text_content() or ""
    assert text == "One address may hold at most 2 connections at once.", text
    assert tab.by("error").is_visible()
    for client in held:
        client.close()
    tab.page.wait_for_function("() => document.body.dataset.connection === 'open' && document.body.dataset.phase")
    assert tab.errors == []


def test_refusals_are_shown_in_norwegian(browser: Browser, start_server: Start, sqlite_url: str) -> None:
    server = start_server(sqlite_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "1"})
    lobby = open_tab(browser, locale="nb")
    links = create_table(lobby, server.http, ["human", "human", "random"])
    lobby.by("create-table").click()
    lobby.page.wait_for_function(
        "() => /\\d s\\.$/.test(document.querySelector('[data-testid=create-error]').textContent)"
    )
    text = lobby.by("create-error").text_content() or ""
    wait = text.removesuffix(" s.").rsplit(" ", 1)[-1]
    norwegian(text, "reason.too_many_tables", limit=1, wait_s=wait)

    late, early = open_tab(browser, locale="nb"), open_tab(browser, locale="nb")
    for tab in (late, early):
        tab.goto(links["invite"])
        tab.page.wait_for_selector("body[data-ready='1']")
    late.by("seat-option-0").check()
    late.by("name-input").evaluate("(input) => input.removeAttribute('maxlength')")  # a page with no limit on it
    late.by("name-input").fill("N" * 40)
    late.by("join-button").click()
    norwegian(wait_for_text(late, "join-error"), "invalid.string_too_long", field=NB["input.name"], limit=32)
    early.by("seat-option-0").check()
    early.by("name-input").fill("Ada")
    early.by("join-button").click()
    early.page.wait_for_url("**/play/**")
    late.by("name-input").fill("Bea")
    late.by("join-button").click()
    late.page.wait_for_function(
        "() => document.querySelector('[data-testid=join-error]').textContent.includes('plass')"
    )
    norwegian(late.by("join-error").text_content() or "", "join.seat_taken")

    second, bea = stale_move(browser, "nb", early, links["invite"])
    norwegian(wait_for_text(second, "error"), "table.stale")

    busy = start_server(sqlite_url, env={"LIVERPOOL_CONNECTIONS_PER_CLIENT": "1"})
    created = busy.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = busy.join(created["invite"], 0, "Ada")
    with busy.spectator(created["spectator"]) as client:
        client.state_where(lambda s: True)
        refused = open_tab(browser, locale="nb").goto(f"{busy.http}/play/{token}")
        refused.page.wait_for_function("() => document.querySelector('[data-testid=error]').textContent.includes('1')")
        norwegian(refused.by("error").text_content() or "", "reason.too_many_connections", limit=1)
    assert [t.errors for t in (lobby, late, early, second, bea, refused)] == [[]] * 6


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_every_refusal_a_player_can_reach_is_a_sentence_of_the_catalogue(
    lang: str, browser: Browser, start_server: Start, sqlite_url: str
) -> None:
    """One by one, in the lobby, the join page and the table: a table created too soon after the last, an
    invite that does not exist, a blank name, a name longer than the server takes, a stale move and a full
    table. Each is shown as the page language's catalogue sentence, never a code, a key or JSON."""
    server = start_server(sqlite_url, env={"LIVERPOOL_TABLES_PER_MINUTE": "1"})
    lobby = open_tab(browser, locale=lang)
    links = create_table(lobby, server.http, ["human", "human", "random"])
    text = refusal(lobby, "create-error", lobby.by("create-table").click)
    wait = text.removesuffix(" s.").rsplit(" ", 1)[-1]
    in_words(text, lang, "reason.too_many_tables", limit=1, wait_s=wait)

    guest = open_tab(browser, locale=lang).goto(f"{server.http}/join/no-such-invite")
    guest.page.wait_for_selector("body[data-ready='1']")
    in_words(guest.by("join-error").text_content() or "", lang, "join.no_table")
    guest.goto(links["invite"])
    guest.page.wait_for_selector("body[data-ready='1']")
    guest.by("seat-option-0").check()
    guest.by("name-input").fill("   ")
    in_words(refusal(guest, "join-error", guest.by("join-button").click), lang, "join.pick_and_name")
    guest.by("name-input").evaluate("(input) => input.removeAttribute('maxlength')")  # a page with no limit on it
    guest.by("name-input").fill("N" * 40)
    text = refusal(guest, "join-error", guest.by("join-button").click)
    in_words(text, lang, "invalid.string_too_long", field=CATALOGUES[lang]["input.name"], limit=32)

    ada = open_tab(browser, locale=lang)
    join(ada, links["invite"], 0, "Ada")
    second, bea = stale_move(browser, lang, ada, links["invite"])
    in_words(wait_for_text(second, "error"), lang, "table.stale")
    late = open_tab(browser, locale=lang).goto(links["invite"])
    late.page.wait_for_selector("body[data-ready='1']")
    in_words(late.by("join-error").text_content() or "", lang, "join.full")
    assert [t.errors for t in (lobby, guest, ada, second, bea, late)] == [[]] * 6


def numbers(text: str, lang: str, key: str) -> dict[str, int]:
    """The numbers in ``text`` where the ``lang`` catalogue's message ``key`` has its placeholders."""
    pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>\\d+)", re.escape(CATALOGUES[lang][key]))
    found = re.fullmatch(pattern, text)
    assert found is not None, f"{text!r} is not {lang}.json {key}: {CATALOGUES[lang][key]!r}"
    return {name: int(value) for name, value in found.groupdict().items()}


def talk_until_refused(tab: Tab, line: str, tries: int = 8) -> str:
    """Say ``line`` at the table, again and again, each time once the last was shown, until the table shows
    a refusal; that refusal's text."""
    tab.by("error").evaluate("(element) => { element.textContent = ''; }")
    for _ in range(tries):
        shown = tab.page.locator("[data-testid=talk-line]").count()
        tab.by("talk-input").fill(line)
        tab.by("talk-send").click()
        tab.page.wait_for_function(
            "(shown) => document.querySelectorAll('[data-testid=talk-line]').length > shown"
            " || document.querySelector('[data-testid=error]').textContent.trim() !== ''",
            arg=shown,
        )
        text = tab.by("error").text_content() or ""
        if text.strip():
            return text
    raise AssertionError(f"no refusal after {tries} lines")


def seat_page(browser: Browser, lang: str, server: ServerProcess) -> Tab:
    """Ada's seat page at a new table of her and two slow bots, connected."""
    created = server.create(seats=3, bots={"1": "random", "2": "random"}, bot_pace_ms=60_000, away_timeout_s=0)
    token = server.join(created["invite"], 0, "Ada")
    tab = open_tab(browser, locale=lang).goto(f"{server.http}/play/{token}")
    tab.page.wait_for_selector("body[data-connection='open']")
    return tab


@pytest.mark.parametrize("lang", ["en", "nb"])
def test_ruleset_and_websocket_refusals_are_sentences_of_the_catalogue(
    lang: str, browser: Browser, start_server: Start, sqlite_url: str, tmp_path: Path
) -> None:
    """One by one, in the lobby: a saved ruleset's name already taken and one ruleset too many in the minute;
    at the table: talk too fast, a message too large (a chat line of 150 two-byte letters, over a limit of
    256 bytes) and too many messages. Each is shown as the page language's catalogue sentence, filled with
    the server's numbers, never a code, a key or JSON; the table connects again by itself after the two
    refusals that close its connection."""
    server = start_server(
        sqlite_url,
        env={"LIVERPOOL_RULESETS_PER_MINUTE": "2", "LIVERPOOL_CHAT_PER_10S": "2", "LIVERPOOL_WS_MAX_BYTES": "256"},
    )
    assert server.post("/api/rulesets", {"name": "Family", "rules": {"base": "liverpool"}}).status_code == 201
    lobby = open_tab(browser, locale=lang).goto(f"{server.http}/")
    lobby.page.wait_for_selector("body[data-ready='1']")
    lobby.by("mode-house").check()
    lobby.by("save-rules-name").fill("Family")
    taken = refusal(lobby, "save-rules-status", lobby.by("save-rules").click)
    in_words(taken, lang, "lobby.ruleset_taken", name="Family")
    lobby.by("save-rules-name").fill("Picnic")
    saved = refusal(lobby, "save-rules-status", lobby.by("save-rules").click)
    assert saved == CATALOGUES[lang]["lobby.saved_as"].replace("{name}", "Picnic")
    lobby.by("save-rules-name").fill("Outing")
    text = refusal(lobby, "save-rules-status", lobby.by("save-rules").click)
    wait = numbers(text, lang, "reason.too_many_rulesets")["wait_s"]
    assert 0 < wait <= 60
    in_words(text, lang, "reason.too_many_rulesets", limit=2, wait_s=wait)
    assert [r["name"] for r in server.get("/api/rulesets").json()["rulesets"]] == ["Family", "Picnic"]

    ada = seat_page(browser, lang, server)
    text = talk_until_refused(ada, "hello")
    assert ada.page.locator("[data-testid=talk-line]").count() == 2, "two lines were said, the third refused"
    wait = numbers(text, lang, "reason.too_much_talk")["wait_s"]
    assert 0 < wait <= 10
    in_words(text, lang, "reason.too_much_talk", limit=2, wait_s=wait)
    assert ada.page.evaluate("document.body.dataset.connection") == "open", "talk too fast keeps the connection"
    text = talk_until_refused(ada, "æ" * 150)
    in_words(text, lang, "reason.too_large", limit=256)
    ada.page.wait_for_selector("body[data-connection='open']")  # connected again by itself

    busy = start_server(
        f"sqlite:///{tmp_path / 'busy.db'}", env={"LIVERPOOL_WS_MESSAGES_PER_10S": "3", "LIVERPOOL_CHAT_PER_10S": "0"}
    )
    bea = seat_page(browser, lang, busy)
    text = talk_until_refused(bea, "hello")
    assert bea.page.locator("[data-testid=talk-line]").count() <= 3
    in_words(text, lang, "reason.too_many_messages", limit=3)
    bea.page.wait_for_selector("body[data-connection='open']")
    assert [t.errors for t in (lobby, ada, bea)] == [[]] * 3


def stale_move(browser: Browser, locale: str, ada: Tab, invite: str) -> tuple[Tab, Tab]:
    """Provoke a stale move: Ada's seat (open in ``ada``) is opened again in a second page whose socket's
    messages can be held; Bea takes seat 1 through ``invite`` in a third page (the game starts, and the
    table is full); when Ada may move, ``ada`` moves and the second page, which has not heard of it, makes
    the same move, chosen in the table as it was. Returns the second page (whose error then says why) and
    Bea's."""
    held: list[str | bytes] = []
    sockets: list[WebSocketRoute] = []

    def hold(socket: WebSocketRoute) -> None:
        real = socket.connect_to_server()
        socket.on_message(real.send)
        real.on_message(lambda message: held.append(message) if held else socket.send(message))
        sockets.append(socket)

    second = open_tab(browser, locale=locale)
    second.page.route_web_socket("**/ws/**", hold)
    second.goto(ada.page.url)
    bea = open_tab(browser, locale=locale)
    join(bea, invite, 1, "Bea")
    control = _first_move(ada, second, Player(bea))
    seq = body(ada, "seq")
    held.append("")  # from now on the server's messages to the second page wait
    ada.by(control).click()
    ada.page.wait_for_function(f"() => document.body.dataset.seq !== {seq!r}")
    second.by(control).click()
    second.page.wait_for_timeout(1_000)
    waiting = held[1:]
    held.clear()
    for message in waiting:
        sockets[-1].send(message)
    return second, bea


def _first_move(ada: Tab, twin: Tab, bea: Player) -> str:
    """Play Bea's moves until Ada (whose seat ``twin`` shows too, at the same seq) may pass or draw; returns
    that control's test id."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if body(ada, "mustAct") == "1" and not body(ada, "pending") and body(twin, "seq") == body(ada, "seq"):
            control = next((c for c in ("pass", "draw-stock") if visible(ada, c)), None)
            if control and visible(twin, control):
                return control
        if body(bea.tab, "mustAct") == "1" and not body(bea.tab, "pending") and body(bea.tab, "connection") == "open":
            bea.move(body(bea.tab, "seq"))
        ada.page.wait_for_timeout(100)
    raise AssertionError("Ada never came to pass or draw")


def test_a_refused_form_is_said_field_by_field_in_norwegian(browser: Browser, lobby_server: ServerProcess) -> None:
    """A 422's problems are said by the form's field (``input.<field>``) and pydantic's kind of error
    (``invalid.<kind>``), whatever the kind: a number, a yes-or-no and a list of the wrong type and a
    style that is no text, each a bokmål sentence of its own (docs/i18n.md), never the catch-all ``reason.invalid``."""
    tab = open_tab(browser, locale="nb").goto(lobby_server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    text = tab.page.evaluate(
        """async () => {
          const api = await import("/static/js/api.js");
          try { await api.postJSON("/api/tables", { seats: "many", hints: "maybe", bots: ["x"], styles: { 1: 5 } }); }
          catch (error) { return error.message; }
        }"""
    )
    for key, field in (
        ("invalid.int_parsing", "seats"),
        ("invalid.bool_parsing", "hints"),
        ("invalid.dict_type", "bots"),
    ):
        sentence = NB[key].replace("{field}", NB[f"input.{field}"])
        assert sentence in text, (sentence, text)
    assert NB["reason.invalid"] not in text
    assert tab.errors == []


def test_engine_refusals_are_said_in_norwegian_from_their_faults(browser: Browser, lobby_server: ServerProcess) -> None:
    """Issue 28 items 4 and 7: an engine refusal is said from its fault's code and parameters (the card, the
    rank), not from the English message nor as the bare ``reason.<code>``. The guided game's table in bokmål
    (liverpool's second deal: a set of kings is meld 0, the newcomer to draw with 9♣ 9♦ 9♠ 3♥ 4♥ 5♥ and 2♣):
    the newcomer takes 6♥ from the pile; then actions the page would not offer are sent on its socket: a
    discard of 6♥, just taken (RULES.md §3.10 discard after drawing from discard), and, once down, a lay-off of
    2♣ onto the kings (RULES.md §3.4 set constraints). Each shows the bokmål sentence of its problem, filled with
    the card and the rank."""
    to_server: list[WebSocketRoute] = []

    def hold(socket: WebSocketRoute) -> None:
        to_server.append(socket.connect_to_server())  # (messages pass both ways; the test may add its own)

    tab = open_tab(browser, locale="nb-NO")
    tab.page.route_web_socket("**/ws/**", hold)
    tab.goto(lobby_server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    tab.by("tutorial").click()
    tab.page.wait_for_selector("[data-testid=tutorial-step][data-step='draw']")
    tab.by("take-discard").click()
    tab.page.wait_for_function("() => document.body.dataset.phase === 'play' && !document.body.dataset.pending")

    def sent(action: Action) -> str:
        """What the page shows once the server refused ``action``, sent as the page sends its own."""
        return refusal(
            tab, "error", lambda: to_server[-1].send(json.dumps({"type": "action", "action": action_to_dict(action)}))
        )

    said(sent(Discard(0, Card.parse("6H"))), "problem.taken_not_discarded", card="6♥")
    seq = body(tab, "seq")
    to_server[-1].send(json.dumps({"type": "action", "action": action_to_dict(GoDown(0, (
        Meld.parse("set: 9C 9D 9S"), Meld.parse("run: 3H 4H 5H 6H"))))}))  # fmt: skip
    tab.page.wait_for_function("(seq) => document.body.dataset.seq !== seq", arg=seq)
    said(sent(LayOff(0, Card.parse("2C"), 0, None)), "problem.set_wrong_rank", card="2♣", rank="K")
    assert tab.errors == []


def said(text: str, key: str, **params: str) -> None:
    """``text`` is the bokmål catalogue's ``key`` filled with ``params``, said as a sentence (a capital and a
    full stop), with no English, reason code or key in it."""
    want = NB[key]
    for name, value in params.items():
        want = want.replace(f"{{{name}}}", value)
    assert text == want[0].upper() + want[1:] + ".", f"{text!r} is not nb.json {key}: {want!r}"
    assert not re.search(r"[{}\[\]\"]|\b\w+_\w+\b|\b(reason|problem)\.\w|\billegal\b|\bis\b|\bthe\b", text), text


def test_a_refused_house_rule_and_bot_are_said_with_their_details_in_norwegian(
    browser: Browser, lobby_server: ServerProcess
) -> None:
    """Issue 28 item 7: the server's refusals with details are said with them in bokmål, from the values the
    refusal carries: the house rule by its field's bokmål name and its bound (``bad_rules.<problem>``), a rule
    that does not exist by the name sent, and a bot that does not exist by its name (``reason.unknown_bot``)."""
    tab = open_tab(browser, locale="nb").goto(lobby_server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    texts = tab.page.evaluate(
        """async (bodies) => {
          const api = await import("/static/js/api.js");
          const out = [];
          for (const body of bodies) {
            try { await api.postJSON("/api/tables", body); out.push(null); } catch (error) { out.push(error.message); }
          }
          return out;
        }""",
        [{"rules": {"buy_limit": -1}}, {"rules": {"buy_limt": 2}}, {"seats": 4, "bots": {"1": "grandmaster"}}],
    )
    assert texts == [
        NB["bad_rules.minimum"].replace("{rule}", NB["field.buy_limit"]).replace("{limit}", "0"),
        NB["bad_rules.unknown_field"].replace("{rule}", "buy_limt"),
        NB["reason.unknown_bot"].replace("{bot}", "grandmaster"),
    ]
    assert NB["reason.bad_rules"] not in texts and tab.errors == []
