"""Layout checks run inside a page: horizontal overflow, elements drawn outside their box, controls over the
discard pile, and what must be on screen together while acting (issue 28 item 2)."""

from __future__ import annotations

from typing import Any

from browser_fixtures import Tab

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

# Whether an element is inside the window and on top at its middle (not under another, nor clipped away by
# a scrolling box): seen without scrolling anything.
ON_SCREEN = """(e) => {
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || r.top < 0 || r.bottom > vh || r.left < 0 || r.right > vw) return false;
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top === e || e.contains(top);
  }"""

# Returns the problems it finds, each a sentence naming the element (tag, test id or class).
LAYOUT_JS = """(mustSee) => {
  const problems = [];
  const doc = document.documentElement;
  const vw = doc.clientWidth, vh = window.innerHeight;
  const name = (e) => e.dataset?.testid ? `[${e.dataset.testid}]` : e.id ? `#${e.id}`
    : `${e.tagName.toLowerCase()}${typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : ''}`;
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) return false;
    return e.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  };
  const clips = (cs) => cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
  // a box that scrolls sideways (overflow-y: auto alone makes overflow-x auto too): up and down is allowed,
  // sideways is a scroll a phone's user must find and do
  const sideways = (cs) => cs.overflowX === 'auto' || cs.overflowX === 'scroll';
  if (doc.scrollWidth > vw + 1) {
    const wide = [...document.querySelectorAll('body *')].filter((e) => shown(e) && e.getBoundingClientRect().right > vw + 1);
    problems.push(`the page is ${doc.scrollWidth}px wide in a ${vw}px screen: ${wide.slice(0, 4).map(name).join(', ')}`);
  }
  for (const e of document.querySelectorAll('body *')) {
    if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) continue;
    if (!shown(e)) continue;
    const cs = getComputedStyle(e);
    if (!e.classList.contains('card') && e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && cs.display !== 'inline') {
      if (!clips(cs)) problems.push(`${name(e)}'s content is ${e.scrollWidth - e.clientWidth}px wider than its box`);
      else if (sideways(cs)) problems.push(`${name(e)} scrolls sideways: its content is ${e.scrollWidth - e.clientWidth}px wider than its box`);
    }
    const p = e.parentElement;
    if (!p || p === document.body || cs.position === 'absolute' || cs.position === 'fixed') continue;
    const ps = getComputedStyle(p);
    const r = e.getBoundingClientRect(), q = p.getBoundingClientRect();
    if (clips(ps)) {
      // inside a scrolling box (not scrolled sideways), a child may lie above or below the box, not beside it
      if (!sideways(ps) || p.scrollLeft !== 0) continue;
      const beside = Math.max(q.left - r.left, r.right - q.right);
      if (beside > 2) problems.push(`${name(e)} is drawn ${Math.round(beside)}px beside ${name(p)}, which scrolls sideways`);
      continue;
    }
    const out = Math.max(q.left - r.left, r.right - q.right, q.top - r.top, r.bottom - q.bottom);
    if (out > 2) problems.push(`${name(e)} is drawn ${Math.round(out)}px outside ${name(p)}`);
  }
  // the player's panel holds (and clips) the controls, the builder and the hand
  const pile = document.querySelector('[data-testid=discard-pile]');
  if (pile && shown(pile) && !document.body.classList.contains('summary-up')) {
    const r = pile.getBoundingClientRect();
    for (const c of document.querySelectorAll('#me, [data-testid=buy-window]')) {
      if (!shown(c)) continue;
      const q = c.getBoundingClientRect();
      if (r.left < q.right && q.left < r.right && r.top < q.bottom && q.top < r.bottom) {
        problems.push(`${name(c)} overlaps the discard pile`);
      }
    }
  }
  const onScreen = ON_SCREEN;
  for (const selector of mustSee) {
    const nodes = [...document.querySelectorAll(selector)];
    if (!nodes.length) problems.push(`nothing matches ${selector}`);
    const hidden = nodes.find((e) => !onScreen(e));
    if (hidden) {
      // where it is, and what is on top at its middle: enough to tell a scrolled box from a cover
      const r = hidden.getBoundingClientRect();
      const over = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      const box = [...document.querySelectorAll('*')].find((p) => p.contains(hidden) && p.scrollTop > 0);
      problems.push(`${selector} (${name(hidden)}) is not on screen without scrolling: at top ${Math.round(r.top)}, `
        + `bottom ${Math.round(r.bottom)} of ${vh}, under ${over ? name(over) : 'nothing'}`
        + (box ? `, inside ${name(box)} scrolled down ${Math.round(box.scrollTop)}px` : ''));
    }
  }
  return problems;
}""".replace("ON_SCREEN", ON_SCREEN)

# With a card selected: every meld the table marks as one it fits (the server's lay_off actions) is on screen,
# itself or as a button of the lay-off strip above the hand; every button of the strip is on screen and names
# a marked meld. Returns the problems, and how many melds the card fits.
TARGETS_JS = """() => {
  const onScreen = ON_SCREEN;
  const problems = [];
  const melds = [...document.querySelectorAll('[data-testid=meld].target')];
  const buttons = [...document.querySelectorAll('[data-testid=layoff-target]')];
  if (!melds.length) problems.push('no meld is marked as one the selected card fits');
  for (const meld of melds) {
    const own = buttons.filter((b) => b.dataset.meld === meld.dataset.meld);
    if (!onScreen(meld) && !own.some(onScreen)) {
      const label = meld.querySelector('.meld-label')?.textContent ?? '';
      problems.push(`the meld ${meld.dataset.meld} (${label}) the card fits is not on screen, nor a button for it`);
    }
  }
  for (const b of buttons) {
    if (!onScreen(b)) problems.push(`the lay-off button ${JSON.stringify(b.textContent)} is not on screen`);
    if (!melds.some((m) => m.dataset.meld === b.dataset.meld)) problems.push(`the lay-off button for meld ${b.dataset.meld} names an unmarked meld`);
  }
  return { problems, count: melds.length };
}""".replace("ON_SCREEN", ON_SCREEN)

# While acting: the discard pile's top card and the whole hand on screen.
ACTING = ["[data-testid=discard-top]", "[data-testid=hand-card]"]
# The cards one taps, each at least a 44 px touch target on a phone: the hand's, the discard pile's top, the
# builder's (a tap takes one back out) and the melds' (a joker to swap, a meld to lay off on).
TAPPED = ["hand-card", "discard-top", "builder-card", "meld-card", "swap-joker"]
SMALL_JS = """(ids) => [...document.querySelectorAll(ids.map((id) => `[data-testid=${id}]`).join(', '))]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width && (r.width < 44 || r.height < 44); })
  .map((e) => `${e.dataset.testid} ${e.dataset.card ?? ''} is ${Math.round(e.getBoundingClientRect().width)}x${Math.round(e.getBoundingClientRect().height)}px`)"""


def layout_problems(tab: Tab, must_see: list[str] | None = None) -> list[str]:
    problems: list[Any] = tab.page.evaluate(LAYOUT_JS, must_see or [])
    return [str(p) for p in problems]


def lay_off_problems(tab: Tab) -> tuple[list[str], int]:
    """What keeps a lay-off target of the selected card out of sight (``TARGETS_JS``), and how many there are."""
    found: dict[str, Any] = tab.page.evaluate(TARGETS_JS)
    return [str(p) for p in found["problems"]], int(found["count"])


def check_layout(
    tab: Tab, where: str, seen: dict[str, list[str]], must_see: list[str] | None = None, targets: bool = False
) -> None:
    """Record the layout problems of ``tab`` in state ``where`` (once per state), with a screenshot;
    with ``targets``, also every lay-off target of the selected card out of sight."""
    if where in seen:
        return
    width = tab.page.viewport_size["width"] if tab.page.viewport_size else 0
    tab.screenshot(f"layout-{width}-{where}")
    problems = layout_problems(tab, must_see)
    if must_see and width <= PHONE["width"]:
        small: list[str] = tab.page.evaluate(SMALL_JS, TAPPED)
        problems += [f"{card}, smaller than a 44 px touch target" for card in small[:4]]
    if targets:
        problems += lay_off_problems(tab)[0]
    seen[where] = problems
