"""axe-core (from the npm registry, `scripts/ensure_axe.sh`) run in every page (issue 28 item 5): no
serious or critical accessibility violation on the lobby, the join page, a table (waiting, playing, as a
spectator) and the replay."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_fixtures import Tab, browser, create_table, join, open_tab, wait_for_move
from server_fixtures import ServerProcess

pytestmark = pytest.mark.slow

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}"""


def violations(tab: Tab) -> list[str]:
    tab.page.evaluate(AXE.read_text() + "\n;true")  # through the debugger: the pages' CSP forbids inline scripts
    found: list[Any] = tab.page.evaluate(RUN_AXE)
    return [str(v) for v in found]


def test_no_serious_accessibility_violation_on_any_page(browser: Browser, lobby_server: ServerProcess) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run scripts/ensure_axe.sh (make test does)")
    found: dict[str, list[str]] = {}
    tab = open_tab(browser)
    links = create_table(tab, lobby_server.http, ["human", "random", "random"])
    tab.goto(lobby_server.http + "/")
    tab.page.wait_for_selector("body[data-ready='1']")
    found["lobby"] = violations(tab)
    tab.goto(links["invite"])
    tab.page.wait_for_selector("body[data-ready='1']")
    found["join"] = violations(tab)
    join(tab, links["invite"], 0, "Ada")
    wait_for_move(tab)
    found["table"] = violations(tab)
    watcher = open_tab(browser).goto(links["spectator"])
    watcher.page.wait_for_selector("body[data-phase]")
    found["spectator"] = violations(watcher)
    table_id = lobby_server.get(f"/api/invite/{links['invite'].rsplit('/', 1)[-1]}").json()["table_id"]
    tab.goto(f"{lobby_server.http}/replay/{table_id}")
    tab.page.wait_for_load_state("networkidle")
    found["replay"] = violations(tab)
    problems = {page: v for page, v in found.items() if v}
    assert not problems, "\n".join(f"{page}: {v}" for page, vs in problems.items() for v in vs)
