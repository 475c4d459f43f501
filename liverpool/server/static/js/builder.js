// The going-down builder: the player assigns cards to each meld of the contract; for every meld it
// shows how the cards lie (and what each joker stands for) and what is still missing. The server
// checks the going-down; this only helps build one and explain it.

import { el } from "./api.js";
import { cardElement, parseCard, pretty, rankText, SUIT_SYMBOLS } from "./cards.js";

const DEFAULTS = {
  set_min_naturals: 2, run_min_naturals: 3, aces_low: true, aces_high: true, set_distinct_suits: false,
  set_max_length: null, run_joker_spacing: 0, longer_melds: true,
};

/** "set 3" -> {kind: "set", length: 3} */
export function parseMeldRule(text) {
  const [kind, length] = text.trim().split(/\s+/);
  return { kind, length: Number(length) };
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** A set from `ids`: {meld, problems, stands}. */
export function arrangeSet(ids, want, rules) {
  const cards = ids.map(parseCard);
  const naturals = cards.filter((c) => !c.joker);
  const problems = [];
  const ranks = new Set(naturals.map((c) => c.rank));
  if (ids.length < want) problems.push(`needs ${plural(want - ids.length, "more card")}`);
  if (ids.length > want && !rules.longer_melds) problems.push(`holds ${ids.length} cards; longer melds are not allowed`);
  if (ranks.size > 1) problems.push("mixes ranks: a set is of one rank");
  if (naturals.length < rules.set_min_naturals) problems.push(`needs ${plural(rules.set_min_naturals, "natural card")}`);
  if (rules.set_distinct_suits && new Set(naturals.map((c) => c.suit)).size < naturals.length) problems.push("two cards of one suit");
  if (rules.set_max_length !== null && ids.length > rules.set_max_length) problems.push(`at most ${rules.set_max_length} cards`);
  const rank = naturals[0]?.rank ?? 0;
  const ordered = [...naturals.map((c) => c.id), ...cards.filter((c) => c.joker).map((c) => c.id)];
  return {
    meld: ranks.size === 1 ? { kind: "set", cards: ordered, low: rank } : null,
    problems,
    stands: ordered.map((id) => (parseCard(id).joker ? `a ${rankText(rank)}` : null)),
    choices: [],
  };
}

/** Where a run of these cards could lie: [{low, cards (in order)}], ace low and ace high tried. */
export function runPlacements(ids, rules) {
  const cards = ids.map(parseCard);
  const naturals = cards.filter((c) => !c.joker);
  const jokers = cards.filter((c) => c.joker).map((c) => c.id);
  const n = ids.length;
  const out = [];
  const aceWays = naturals.some((c) => c.rank === 1) ? [1, 14] : [1];
  for (const ace of aceWays) {
    const placed = naturals.map((c) => ({ id: c.id, rank: c.rank === 1 ? ace : c.rank }));
    const ranks = placed.map((p) => p.rank);
    if (new Set(ranks).size !== ranks.length) continue;
    const lo = Math.min(...ranks), hi = Math.max(...ranks);
    for (let low = Math.max(1, hi - n + 1); low <= Math.min(lo, 15 - n); low++) {
      if (low === 1 && !rules.aces_low) continue;
      if (low + n - 1 === 14 && !rules.aces_high) continue;
      const slots = Array(n).fill(null);
      for (const p of placed) slots[p.rank - low] = p.id;
      const spare = [...jokers];
      const ordered = slots.map((id) => id ?? spare.shift());
      if (!out.some((o) => o.low === low && o.cards.join() === ordered.join())) out.push({ low, cards: ordered });
    }
  }
  return out;
}

/** A run from `ids`: {meld, problems, stands, choices}; `choice` picks among the placements. */
export function arrangeRun(ids, want, rules, choice = 0) {
  const cards = ids.map(parseCard);
  const naturals = cards.filter((c) => !c.joker);
  const problems = [];
  if (ids.length < want) problems.push(`needs ${plural(want - ids.length, "more card")}`);
  if (ids.length > want && !rules.longer_melds) problems.push(`holds ${ids.length} cards; longer melds are not allowed`);
  if (naturals.length < rules.run_min_naturals) problems.push(`needs ${plural(rules.run_min_naturals, "natural card")}`);
  const suits = new Set(naturals.map((c) => c.suit));
  if (suits.size > 1) problems.push("mixes suits: a run is of one suit");
  const suit = naturals[0]?.suit ?? "";
  const choices = suits.size <= 1 && naturals.length ? runPlacements(ids, rules) : [];
  if (suits.size <= 1 && naturals.length && !choices.length) {
    const ranks = naturals.map((c) => c.rank);
    problems.push(new Set(ranks).size < ranks.length ? "two cards of one rank" : "the cards are too far apart for one run");
  }
  const pick = choices[Math.min(choice, choices.length - 1)] ?? null;
  if (pick && rules.run_joker_spacing > 1) {
    let last = -rules.run_joker_spacing;
    pick.cards.forEach((id, i) => {
      if (!parseCard(id).joker) return;
      if (i - last < rules.run_joker_spacing) problems.push(`at most one joker in any ${rules.run_joker_spacing} cards`);
      last = i;
    });
  }
  const stand = (i) => rankText(pick.low + i) + (SUIT_SYMBOLS[suit] ?? "");
  return {
    meld: pick ? { kind: "run", cards: pick.cards, low: pick.low } : null,
    problems: [...new Set(problems)],
    stands: pick ? pick.cards.map((id, i) => (parseCard(id).joker ? stand(i) : null)) : [],
    choices: choices.map((c) => `${rankText(c.low)}${SUIT_SYMBOLS[suit]} to ${rankText(c.low + ids.length - 1)}${SUIT_SYMBOLS[suit]}`),
  };
}

/** The builder's memory: which cards go to which meld of the contract. */
export class Builder {
  constructor() {
    this.slots = [];
    this.choices = [];
    this.contractKey = "";
  }

  /** Fit the builder to this deal's contract and the cards still in hand. */
  sync(contract, hand) {
    const key = contract.join("|");
    if (key !== this.contractKey) {
      this.contractKey = key;
      this.slots = contract.map(() => []);
      this.choices = contract.map(() => 0);
    }
    const present = new Set(hand);
    this.slots = this.slots.map((slot) => slot.filter((c) => present.has(c)));
  }

  assigned() {
    const out = new Map();
    this.slots.forEach((slot, i) => slot.forEach((c) => out.set(c, i)));
    return out;
  }

  add(index, cards) {
    const taken = this.assigned();
    for (const card of cards) {
      if (taken.has(card)) this.slots[taken.get(card)] = this.slots[taken.get(card)].filter((c) => c !== card);
      this.slots[index].push(card);
    }
  }

  remove(card) {
    this.slots = this.slots.map((slot) => slot.filter((c) => c !== card));
  }

  clear() {
    this.slots = this.slots.map(() => []);
  }

  /** Fill from one of the server's going-down options (its melds in contract order where possible). */
  load(melds, contract) {
    const rules = contract.map(parseMeldRule);
    const left = [...melds];
    this.slots = rules.map((rule) => {
      const at = left.findIndex((m) => m.kind === rule.kind);
      return at < 0 ? [] : [...left.splice(at, 1)[0].cards];
    });
    this.choices = rules.map(() => 0);
  }

  /** Each slot's arrangement and the melds to send (null while something is missing). */
  evaluate(contract, rulesIn) {
    const rules = { ...DEFAULTS, ...(rulesIn ?? {}) };
    const parts = contract.map((text, i) => {
      const rule = parseMeldRule(text);
      const slot = this.slots[i] ?? [];
      return rule.kind === "set" ? arrangeSet(slot, rule.length, rules) : arrangeRun(slot, rule.length, rules, this.choices[i]);
    });
    const ready = parts.every((p) => p.meld && !p.problems.length);
    return { parts, melds: ready ? parts.map((p) => p.meld) : null };
  }
}

function meldTitle(text, index) {
  const rule = parseMeldRule(text);
  return `${rule.kind === "set" ? "Set" : "Run"} ${index + 1}: ${rule.length}+ cards`;
}

/**
 * Render the builder. ctx: {contract, rules, selected (Set), onAdd(index), onRemove(card), onChoice(i, v),
 * onClear(), onGoDown(melds), mustPlace}.
 */
export function renderBuilder(builder, ctx) {
  const { parts, melds } = builder.evaluate(ctx.contract, ctx.rules);
  const slots = parts.map((part, i) => {
    const slot = builder.slots[i];
    const shown = part.meld ? part.meld.cards : slot;
    const cards = shown.map((id, k) => {
      const node = cardElement(id, { small: true, stands: part.meld ? part.stands[k] : null, testid: "builder-card" });
      node.title = `${pretty(id)}: click to take it back`;
      node.addEventListener("click", () => ctx.onRemove(id));
      return node;
    });
    const missing = part.problems.length ? part.problems.join("; ") : "ready";
    return el("div", { class: "builder-slot" + (part.problems.length ? "" : " ready"), dataset: { testid: `builder-slot-${i}` } },
      el("div", { class: "builder-head" },
        el("strong", { text: meldTitle(ctx.contract[i], i) }),
        el("button", {
          type: "button", class: "small", dataset: { testid: `builder-add-${i}` },
          disabled: ctx.selected.size === 0,
          text: ctx.selected.size ? `add ${ctx.selected.size} selected` : "select cards, then add",
          onclick: () => ctx.onAdd(i),
        })),
      el("div", { class: "builder-cards" }, cards.length ? cards : el("span", { class: "muted", text: "no cards yet" })),
      part.choices.length > 1 && el("label", { class: "small" }, "lies from ",
        el("select", {
          dataset: { testid: `builder-run-choice-${i}` },
          onchange: (e) => ctx.onChoice(i, Number(e.target.value)),
        }, part.choices.map((c, k) => el("option", { value: String(k), text: c, selected: k === Math.min(builder.choices[i], part.choices.length - 1) })))),
      el("p", { class: "builder-missing" + (part.problems.length ? "" : " ok"), dataset: { testid: `builder-missing-${i}` }, text: missing }));
  });
  const summary = melds
    ? (ctx.mustPlace && !melds.some((m) => m.cards.includes(ctx.mustPlace))
      ? `${pretty(ctx.mustPlace)} must be in the melds`
      : "Everything is in place: you can go down.")
    : `Missing: ${parts.map((p, i) => (p.problems.length ? `${meldTitle(ctx.contract[i], i).split(":")[0]} ${p.problems.join(", ")}` : null)).filter(Boolean).join("; ")}`;
  return el("div", { class: "builder", dataset: { testid: "godown-builder" } },
    el("div", { class: "builder-slots" }, slots),
    el("p", { class: "builder-summary", dataset: { testid: "builder-missing" }, text: summary }),
    el("div", { class: "row" },
      el("button", {
        type: "button", class: "primary", dataset: { testid: "builder-go-down" }, disabled: !melds,
        text: "Go down", onclick: () => melds && ctx.onGoDown(melds),
      }),
      el("button", { type: "button", class: "quiet", text: "clear", dataset: { testid: "builder-clear" }, onclick: () => ctx.onClear() })));
}
