// What the viewer may do now, in words and buttons, all derived from the server's `legal` list.

import { el } from "./api.js";
import { cardElement, meldName, pretty } from "./cards.js";
import { seatName } from "./board.js";
import { listWords, t } from "./i18n.js";

const of = (legal, type) => legal.filter((a) => a.type === type);


/** A sentence for whose turn it is and what the viewer may do. */
export function statusText(view) {
  const { obs, legal, me } = view;
  const top = obs.discard_pile.at(-1);
  if (obs.phase === "game_over") return t("status.game_over");
  if (obs.phase === "deal") return t("status.dealing");
  if (obs.phase === "reshuffle") return t("status.reshuffle");
  const words = [];
  if (of(legal, "draw_stock").length) words.push(t("status.draw_stock"));
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) === 1) && top) words.push(t("status.take", { card: pretty(top) }));
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) > 1)) words.push(t("status.dig"));
  if (of(legal, "buy").length && top) words.push(t("status.buy", { card: pretty(top) }));
  if (of(legal, "pass").length) words.push(t("status.pass"));
  if (of(legal, "go_down").length) words.push(t("status.go_down"));
  if (of(legal, "lay_off").length) words.push(t("status.lay_off"));
  if (of(legal, "swap_joker").length) words.push(t("status.swap"));
  if (of(legal, "discard").length) words.push(t("status.discard"));
  if (of(legal, "end_turn").length) words.push(t("status.end_turn"));
  if (of(legal, "call").length) words.push(of(legal, "call").some((a) => a.card) ? t("status.call_liverpool") : t("status.call_rummy"));
  const mine = me !== null && obs.current === me;
  const waiting = (obs.reclaimed ?? []).filter((c) => c !== obs.must_place);
  const mustPlace = (mine && obs.must_place ? ` ${t("status.must_place_now", { card: pretty(obs.must_place) })}` : "")
    + (mine && waiting.length ? ` ${t("status.must_place_later", { cards: waiting.map(pretty).join(", ") })}` : "");
  if (words.length) {
    const yourTurn = obs.current === me && (obs.phase === "draw" || obs.phase === "play");
    const what = listWords(words, "or");
    return `${yourTurn ? t("status.your_turn_may", { what }) : t("status.you_may", { what })}${mustPlace}`;
  }
  const who = seatName(view, obs.current);
  if (obs.phase === "buy") {
    const answered = new Set(obs.window_answers.map(([s]) => s));
    const waiting = obs.window.filter((s) => !answered.has(s)).map((s) => seatName(view, s));
    return t("status.buy_waiting", { names: listWords(waiting, "or") });
  }
  if (obs.phase === "draw") return t("status.to_draw", { name: who });
  return t("status.playing", { name: who });
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
  if (of(legal, "draw_stock").length) button("draw-stock", t("controls.draw_stock"), { type: "draw_stock" }, { primary: true });
  if (of(legal, "draw_discard").some((a) => (a.depth ?? 1) === 1) && top) {
    button("take-discard", t("controls.take", { card: pretty(top) }), { type: "draw_discard" });
  }
  for (const dig of of(legal, "draw_discard").filter((a) => (a.depth ?? 1) > 1)) {
    const card = obs.discard_pile.at(-dig.depth);
    button(`dig-${dig.depth}`, t("controls.dig", { card: pretty(card), count: dig.depth }), { type: "draw_discard", depth: dig.depth });
  }
  if (of(legal, "buy").length && top) button("buy", t("controls.buy", { card: pretty(top) }), { type: "buy" }, { primary: true });
  if (of(legal, "pass").length) button("pass", t("controls.pass"), { type: "pass" });
  const discards = of(legal, "discard");
  if (discards.length) {
    const ok = selected && discards.some((a) => a.card === selected);
    button("discard-button", selected ? t("controls.discard", { card: pretty(selected) }) : t("controls.discard_select"),
      ok ? { type: "discard", card: selected } : null,
      { disabled: !ok, title: selected && !ok ? t("controls.discard_not_now") : undefined });
  }
  const layOffs = of(legal, "lay_off");
  if (layOffs.length) {
    const fits = selected ? layOffs.filter((a) => a.card === selected) : [];
    buttons.push(el("span", {
      class: "hint", dataset: { testid: "layoff-hint" },
      text: selected
        ? (fits.length ? t("controls.fits", { card: pretty(selected), count: fits.length }) : t("controls.fits_none", { card: pretty(selected) }))
        : t("controls.layoff_hint"),
    }));
  }
  const calls = of(legal, "call");
  if (calls.some((a) => !a.card)) button("call-rummy", t("controls.call_rummy"), { type: "call" }, { primary: true });
  if (calls.some((a) => a.card)) {
    const ok = selected && calls.some((a) => a.card === selected);
    button("call-liverpool", selected ? t("controls.call_liverpool", { card: pretty(selected) }) : t("controls.call_liverpool_select"),
      ok ? { type: "call", card: selected } : null, { disabled: !ok });
  }
  if (of(legal, "end_turn").length) button("end-turn", t("controls.end_turn"), { type: "end_turn" });
  const swaps = of(legal, "swap_joker");
  const swapRow = swaps.length
    ? el("div", { class: "swaps", dataset: { testid: "swaps" } }, el("span", { class: "muted", text: t("controls.swaps") }),
      swaps.map((a, k) => el("button", {
        type: "button", class: "small", dataset: { testid: `swap-option-${k}` },
        text: t(`controls.swap_${obs.melds[a.meld].kind}`, { card: pretty(a.card), name: seatName(view, obs.melds[a.meld].owner) }),
        onclick: () => act({ type: "swap_joker", card: a.card, meld: a.meld, joker: a.joker }),
      })))
    : null;
  container.replaceChildren(el("div", { class: "row wrap" }, buttons), swapRow ?? "");
}

/**
 * The melds the selected card can be laid off on, as a strip of buttons right above the hand, so that on a
 * phone every one of them is in sight with the hand and the piles whatever the table's scroll. The buttons
 * come in a row per owner (the name once, then each meld as the table names it: "run 5♥–8♥"; a button's
 * accessible name is whole: "Bob's run 5♥–8♥"). One button per `lay_off` action of the server's `legal`
 * list for that card: a run it fits at both ends gets a button per end.
 */
export function renderLayOffTargets(container, view, act) {
  const { obs, legal, hand, me } = view;
  const selected = hand.single();
  const fits = me !== null && selected ? of(legal, "lay_off").filter((a) => a.card === selected) : [];
  container.hidden = fits.length === 0;
  if (!fits.length) {
    container.replaceChildren();
    return;
  }
  const byOwner = new Map();
  for (const a of fits) {
    const owner = obs.melds[a.meld].owner;
    if (!byOwner.has(owner)) byOwner.set(owner, []);
    byOwner.get(owner).push(a);
  }
  const label = t("board.layoff_strip", { card: pretty(selected) });
  container.setAttribute("role", "group");
  container.setAttribute("aria-label", label);
  container.replaceChildren(el("span", { class: "layoff-strip-label", "aria-hidden": "true", text: label }),
    ...[...byOwner.entries()].sort(([x], [y]) => x - y).map(([owner, actions]) => {
      const name = seatName(view, owner);
      return el("span", { class: "layoff-group", dataset: { testid: `layoff-group-${owner}` } },
        el("span", { class: "layoff-owner", title: name, "aria-hidden": "true", text: name }),
        actions.map((a) => {
          const meld = meldName(obs.melds[a.meld]);
          const end = a.end ? ` ${t(a.end === "low" ? "board.low_end" : "board.high_end")}` : "";
          return el("button", {
            type: "button", class: "layoff-target", text: `${meld}${end}`,
            "aria-label": `${t("board.layoff_target", { name, meld })}${end}`,
            dataset: { testid: "layoff-target", meld: String(a.meld), end: a.end ?? "" },
            onclick: () => act(a.end ? { type: "lay_off", card: a.card, meld: a.meld, end: a.end } : { type: "lay_off", card: a.card, meld: a.meld }),
          });
        }));
    }));
}

/** The server's going-down options as one-click choices (and a way to edit one in the builder). */
export function renderGoDownOptions(options, act, onEdit) {
  return el("div", { class: "godown-options", dataset: { testid: "godown-options" } },
    options.map((action, k) => el("div", { class: "godown-option" },
      el("div", { class: "option-melds" }, action.melds.map((meld) =>
        el("div", { class: "meld small" }, meld.cards.map((c) => cardElement(c, { small: true }))))),
      el("div", { class: "row" },
        el("button", {
          type: "button", class: "primary small", dataset: { testid: `godown-option-${k}` }, text: t("controls.go_down_like_this"),
          onclick: () => act({ type: "go_down", melds: action.melds }),
        }),
        el("button", { type: "button", class: "small quiet", text: t("controls.edit"), dataset: { testid: `godown-edit-${k}` }, onclick: () => onEdit(action.melds) })))));
}
