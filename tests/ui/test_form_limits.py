"""Every limit a browser form enforces is the server's (issue 28 item 4: "every form limit the same as the
server's"), in Chromium against a real ``liverpool serve``.

The expected bounds are read here from the server's request schemas (pydantic's JSON schema of
``CreateTable``, ``Join``, ``SaveRuleset``, ``Chat``) and the engine's field registry, never written down
again: the lobby's numbers and the name to save rules as, each number of the house-rules form (a field's
minimum and maximum, the least number inside a deal, a deck rule and the card values), the join page's
name and the table talk's line. Each text or number input of a form must carry a bound, so a new input
without one fails too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import browser, create_table, join, open_tab
from server_fixtures import ServerProcess

from liverpool.engine import field_registry
from liverpool.engine.rules.fields import PART_MINIMUMS
from liverpool.server.schemas import Chat, CreateTable, Join, SaveRuleset

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

MODELS = {"create_table": CreateTable, "join": Join, "save_ruleset": SaveRuleset, "chat": Chat}

# Each input's bounds as the page set them, with what it says it is (data-limit, or its test id).
INPUT_BOUNDS = """(root) => [...document.querySelectorAll(`${root} input`)]
  .filter((i) => (i.type === 'number' || i.type === 'text') && !i.readOnly)
  .map((i) => ({ limit: i.dataset.limit ?? null, testid: i.dataset.testid ?? i.id, type: i.type,
    min: i.getAttribute('min'), max: i.getAttribute('max'),
    minLength: i.getAttribute('minlength'), maxLength: i.getAttribute('maxlength') }))"""


def schema_bounds(limit: str) -> dict[str, str | None]:
    """The bounds of ``form.field`` from the server's schema, as the input's attributes would hold them."""
    form, field = limit.split(".")
    schema: dict[str, Any] = MODELS[form].model_json_schema()["properties"][field]
    most = schema["exclusiveMaximum"] - 1 if "exclusiveMaximum" in schema else schema.get("maximum")
    found = {"min": schema.get("minimum"), "max": most, "minLength": schema.get("minLength")}
    found["maxLength"] = schema.get("maxLength")
    return {key: None if value is None else str(value) for key, value in found.items()}


def registry_bounds(testid: str) -> dict[str, str | None]:
    """The bounds of a house-rules input (``rule-<field>``, ``rule-<field>-<part>-<row>`` or
    ``rule-card_values-<rank>``) from the engine's field registry."""
    infos = {info.name: info for info in field_registry()}
    name, _, rest = testid.removeprefix("rule-").partition("-")
    info = infos[name]
    if not rest:
        low, high = info.minimum, info.maximum
    else:
        part = rest.split("-")[0]
        part = {"hand": "hand_size"}.get(part, part)  # a deal row's hand size is rule-deals-hand-<row>
        low, high = PART_MINIMUMS[info.kind][part], None
    return {"min": None if low is None else str(low), "max": None if high is None else str(high)}


def test_every_form_limit_is_the_servers(browser: Browser, lobby_server: ServerProcess) -> None:
    tab = open_tab(browser)
    page = tab.page
    tab.goto(lobby_server.http + "/")
    page.wait_for_selector("body[data-ready='1']")
    tab.by("mode-house").check()
    found = page.evaluate(INPUT_BOUNDS, "#create-form")
    checked = set()
    wrong = []
    for bounds in found:
        testid = bounds.pop("testid")
        limit = bounds.pop("limit")
        kind = bounds.pop("type")
        if limit is not None:
            want = schema_bounds(limit)
        elif testid.startswith("rule-") and kind == "number":
            want = registry_bounds(testid)
            bounds = {"min": bounds["min"], "max": bounds["max"]}
        elif testid.startswith("rule-"):
            continue  # a ruleset's text (its name, title, a deal's contract): the engine bounds no length
        else:
            wrong.append(f"{testid}: no data-limit naming the server's field it is sent as")
            continue
        checked.add(limit or testid)
        if bounds != want:
            wrong.append(f"{limit or testid}: the page has {bounds}, the server {want}")
    assert not wrong, "\n".join(wrong)
    assert {
        "create_table.seats",
        "create_table.bot_pace_ms",
        "create_table.turn_limit_s",
        "save_ruleset.name",
    } <= checked
    assert {
        "rule-buy_limit",
        "rule-max_players",
        "rule-deals-hand-0",
        "rule-decks-decks-0",
        "rule-card_values-K",
    } <= checked

    links = create_table(tab, lobby_server.http, ["human", "random", "random"])
    tab.goto(links["invite"])
    page.wait_for_selector("body[data-ready='1']")
    (name,) = page.evaluate(INPUT_BOUNDS, "#join-form")
    assert name["limit"] == "join.name"
    assert {k: name[k] for k in ("min", "max", "minLength", "maxLength")} == schema_bounds("join.name")
    longest = int(schema_bounds("join.name")["maxLength"] or 0)
    tab.by("name-input").press_sequentially("N" * (longest + 8))
    assert len(tab.by("name-input").input_value()) == longest, "the field takes no more than the server"
    join(tab, links["invite"], 0, "Ada")
    page.wait_for_selector("[data-testid=talk-input]")
    page.wait_for_function("() => document.querySelector('[data-testid=talk-input]').maxLength > 0")
    talk = page.evaluate("() => document.querySelector('[data-testid=talk-input]').getAttribute('maxlength')")
    assert talk == schema_bounds("chat.text")["maxLength"]
    assert tab.errors == []
