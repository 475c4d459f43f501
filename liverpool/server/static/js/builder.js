// The going-down builder: the player puts cards to each meld of the contract; after each change it asks
// the engine (POST /api/seat/{token}/draft) how the cards lie, what each joker stands for, what is still
// missing and which going-down to send. It checks nothing itself.

import { el, postJSON, refusalText } from "./api.js";
import { cardElement, meldName, pretty } from "./cards.js";
import { t } from "./i18n.js";
import { faultText } from "./phrases.js";

/** The builder's memory: which cards go to which meld of the contract, and the engine's last answer. */
export class Builder {
  constructor() {
    this.slots = [];
    this.choices = [];
    this.contractKey = "";
    this.draft = null;
    this.asked = "";
    this.seq = 0;
  }

  /** Fit the builder to this deal's contract (the observation's `contract`) and the cards still in hand;
   * `seq` is the table's state the engine's answer must be about. */
  sync(contract, hand, seq = 0) {
    this.seq = seq;
    const key = contract.join("|");
    if (key !== this.contractKey) {
      this.contractKey = key;
      this.slots = contract.map(() => []);
      this.choices = contract.map(() => 0);
      this.draft = null;
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

  /** Fill from one of the server's going-down options; `kinds` are the contract's meld kinds in order. */
  load(melds, kinds) {
    const left = [...melds];
    this.slots = kinds.map((kind) => {
      const at = left.findIndex((m) => m.kind === kind);
      return at < 0 ? [] : [...left.splice(at, 1)[0].cards];
    });
    this.choices = kinds.map(() => 0);
  }

  key() {
    return JSON.stringify([this.seq, this.contractKey, this.slots, this.choices]);
  }

  /** Whether the engine's answer is for the cards as they are now. */
  current() {
    return this.draft !== null && this.asked === this.key();
  }

  /** Ask the engine about the cards as they are now; resolves true when a new answer arrived. */
  async check(seatToken) {
    const key = this.key();
    if (this.asked === key) return false; // (asked already: the answer is here or on its way)
    this.asked = key;
    const answer = await postJSON(`/api/seat/${encodeURIComponent(seatToken)}/draft`, { slots: this.slots, choices: this.choices });
    if (this.asked !== key) return false;
    this.draft = answer;
    return true;
  }
}

/** Why the engine would refuse the draft: its fault, else its refusal's reason (in the page's language). */
function draftProblem(draft) {
  if (draft.fault) return faultText(draft.fault);
  return refusalText(draft.reason, draft.problem);
}

/**
 * Render the builder from the engine's last answer. ctx: {selected (Set), onAdd(index), onRemove(card),
 * onChoice(i, v), onClear(), onGoDown(action)}.
 */
export function renderBuilder(builder, ctx) {
  const draft = builder.current() ? builder.draft : null;
  const slots = builder.slots.map((slot, i) => {
    const part = draft?.melds[i] ?? null;
    const shown = part?.label ? part.cards : slot;
    const cards = shown.map((id, k) => {
      const node = cardElement(id, { small: true, stands: part?.label ? part.stands[k] : null, testid: "builder-card" });
      node.title = t("builder.take_back", { card: pretty(id) });
      node.addEventListener("click", () => ctx.onRemove(id));
      return node;
    });
    const params = { n: i + 1, length: part?.length };
    const title = !part ? `${i + 1}` : part.at_least ? t(`builder.title_longer_${part.kind}`, params) : t(`builder.title_${part.kind}`, params);
    const problems = part ? part.faults : [];
    const missing = !part ? t("builder.checking") : problems.length ? problems.map((fault) => faultText(fault)).join(t("problem.join")) : t("builder.ready");
    return el("div", { class: "builder-slot" + (part && !problems.length ? " ready" : ""), dataset: { testid: `builder-slot-${i}` } },
      el("div", { class: "builder-head" },
        el("strong", { text: title }),
        el("button", {
          type: "button", class: "small", dataset: { testid: `builder-add-${i}` },
          disabled: ctx.selected.size === 0,
          text: ctx.selected.size ? t("builder.add", { count: ctx.selected.size }) : t("builder.select_first"),
          onclick: () => ctx.onAdd(i),
        })),
      el("div", { class: "builder-cards" }, cards.length ? cards : el("span", { class: "muted", text: t("builder.no_cards") })),
      part && part.placements.length > 1 && el("label", { class: "small" }, t("builder.lies_as"), " ",
        el("select", {
          dataset: { testid: `builder-run-choice-${i}` },
          onchange: (e) => ctx.onChoice(i, Number(e.target.value)),
        }, part.placement_words.map((words, k) => el("option", { value: String(k), text: meldName({ words }), selected: k === part.choice })))),
      el("p", { class: "builder-missing" + (part && !problems.length ? " ok" : ""), dataset: { testid: `builder-missing-${i}` }, text: missing }));
  });
  const summary = !draft ? t("builder.checking") : draft.go_down ? t("builder.all_set") : t("builder.missing", { problem: draftProblem(draft) });
  return el("div", { class: "builder", dataset: { testid: "godown-builder" } },
    el("div", { class: "builder-slots" }, slots),
    el("p", { class: "builder-summary", dataset: { testid: "builder-missing" }, text: summary }),
    el("div", { class: "row" },
      el("button", {
        type: "button", class: "primary", dataset: { testid: "builder-go-down" }, disabled: !draft?.go_down,
        text: t("builder.go_down"), onclick: () => draft?.go_down && ctx.onGoDown(draft.go_down),
      }),
      el("button", { type: "button", class: "quiet", text: t("builder.clear"), dataset: { testid: "builder-clear" }, onclick: () => ctx.onClear() })));
}
