// What the viewer may do now, in words and buttons, all derived from the server's `legal` list.

import { el } from "./api.js";
import { cardElement, pretty } from "./cards.js";
import { seatName } from "./board.js";

const of = (legal, type) => legal.filter((a) => a.type === type);

function joinWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** A sentence for whose turn it is and what the viewer may do. */
export function statusText(view) {
  const { obs, legal, me } = view;
  const top = obs.discard_pile.at(-1);
  if (obs.phase === "game_over") return "The game is over.";
  if (obs.phase === "deal") return "Shuffling and dealing…";
  if (obs.phase === "reshuffle") return "The stock is empty: the discards are being washed into a new stock…";
  const words = [];
  if (of(legal, "draw_stock").length) words.push("draw from the stock");
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) === 1) && top) words.push(`take the ${pretty(top)}`);
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) > 1)) words.push("dig into the discard pile");
  if (of(legal, "buy").length && top) words.push(`buy the ${pretty(top)} (May I?)`);
  if (of(legal, "pass").length) words.push("pass");
  if (of(legal, "go_down").length) words.push("go down");
  if (of(legal, "lay_off").length) words.push("lay off");
  if (of(legal, "swap_joker").length) words.push("swap a joker");
  if (of(legal, "discard").length) words.push("discard");
  if (of(legal, "end_turn").length) words.push("end your turn");
  if (of(legal, "call").length) words.push(of(legal, "call").some((a) => a.card) ? "call Liverpool" : "call rummy");
  const mine = me !== null && obs.current === me;
  const waiting = (obs.reclaimed ?? []).filter((c) => c !== obs.must_place);
  const mustPlace = (mine && obs.must_place ? ` ${pretty(obs.must_place)} must be melded or laid off now.` : "")
    + (mine && waiting.length ? ` ${waiting.map(pretty).join(", ")} must be placed on the table before your turn ends.` : "");
  if (words.length) {
    const yourTurn = obs.current === me && (obs.phase === "draw" || obs.phase === "play");
    return `${yourTurn ? "Your turn: you" : "You"} may ${joinWords(words)}.${mustPlace}`;
  }
  const who = seatName(view, obs.current);
  if (obs.phase === "buy") {
    const answered = new Set(obs.window_answers.map(([s]) => s));
    const waiting = obs.window.filter((s) => !answered.has(s)).map((s) => seatName(view, s));
    return `May I? Waiting for ${joinWords(waiting)} to answer.`;
  }
  if (obs.phase === "draw") return `${who} is to draw.`;
  return `${who} is playing.`;
}

/**
 * The action buttons. ui: {selected card or null}; act(action) sends an action.
 */
export function renderControls(container, view, act) {
  const { obs, legal, hand } = view;
  const selected = hand.single();
  const top = obs.discard_pile.at(-1);
  const buttons = [];
  const button = (testid, text, action, opts = {}) => buttons.push(el("button", {
    type: "button", class: opts.primary ? "primary" : "", dataset: { testid }, disabled: opts.disabled ?? false,
    title: opts.title, text, onclick: () => action && act(action),
  }));
  if (of(legal, "draw_stock").length) button("draw-stock", "Draw from the stock", { type: "draw_stock" }, { primary: true });
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) === 1) && top) {
    button("take-discard", `Take the ${pretty(top)}`, { type: "draw_discard" });
  }
  for (const dig of of(legal, "draw_discard").filter((a) => (a.depth ?? 1) > 1)) {
    const card = obs.discard_pile.at(-dig.depth);
    button(`dig-${dig.depth}`, `Dig for the ${pretty(card)} (${dig.depth} cards)`, { type: "draw_discard", depth: dig.depth });
  }
  if (of(legal, "buy").length && top) button("buy", `May I? (buy the ${pretty(top)})`, { type: "buy" }, { primary: true });
  if (of(legal, "pass").length) button("pass", "Pass", { type: "pass" });
  const discards = of(legal, "discard");
  if (discards.length) {
    const ok = selected && discards.some((a) => a.card === selected);
    button("discard-button", selected ? `Discard the ${pretty(selected)}` : "Discard (select a card)",
      ok ? { type: "discard", card: selected } : null,
      { disabled: !ok, title: selected && !ok ? "this card may not be discarded now" : undefined });
  }
  const layOffs = of(legal, "lay_off");
  if (layOffs.length) {
    const fits = selected ? layOffs.filter((a) => a.card === selected) : [];
    buttons.push(el("span", {
      class: "hint", dataset: { testid: "layoff-hint" },
      text: selected
        ? (fits.length ? `${pretty(selected)} fits the highlighted meld${fits.length > 1 ? "s" : ""}: click or drop it there` : `${pretty(selected)} fits no meld`)
        : "Select a card marked ⊕ to lay it off",
    }));
  }
  const calls = of(legal, "call");
  if (calls.some((a) => !a.card)) button("call-rummy", "Call rummy!", { type: "call" }, { primary: true });
  if (calls.some((a) => a.card)) {
    const ok = selected && calls.some((a) => a.card === selected);
    button("call-liverpool", selected ? `Call Liverpool, shedding the ${pretty(selected)}` : "Call Liverpool (select a card to shed)",
      ok ? { type: "call", card: selected } : null, { disabled: !ok });
  }
  if (of(legal, "end_turn").length) button("end-turn", "End turn", { type: "end_turn" });
  const swaps = of(legal, "swap_joker");
  const swapRow = swaps.length
    ? el("div", { class: "swaps", dataset: { testid: "swaps" } }, el("span", { class: "muted", text: "Joker swaps:" }),
      swaps.map((a, k) => el("button", {
        type: "button", class: "small", dataset: { testid: `swap-option-${k}` },
        text: `${pretty(a.card)} for the joker in ${seatName(view, obs.melds[a.meld].owner)}'s ${obs.melds[a.meld].kind}`,
        onclick: () => act({ type: "swap_joker", card: a.card, meld: a.meld, joker: a.joker }),
      })))
    : null;
  container.replaceChildren(el("div", { class: "row wrap" }, buttons), swapRow ?? "");
}

/** The server's going-down options as one-click choices (and a way to edit one in the builder). */
export function renderGoDownOptions(options, act, onEdit) {
  return el("div", { class: "godown-options", dataset: { testid: "godown-options" } },
    options.map((action, k) => el("div", { class: "godown-option" },
      el("div", { class: "option-melds" }, action.melds.map((meld) =>
        el("div", { class: "meld small" }, meld.cards.map((c) => cardElement(c, { small: true }))))),
      el("div", { class: "row" },
        el("button", {
          type: "button", class: "primary small", dataset: { testid: `godown-option-${k}` }, text: "Go down like this",
          onclick: () => act({ type: "go_down", melds: action.melds }),
        }),
        el("button", { type: "button", class: "small quiet", text: "edit", dataset: { testid: `godown-edit-${k}` }, onclick: () => onEdit(action.melds) })))));
}
