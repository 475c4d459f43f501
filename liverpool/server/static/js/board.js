// The table in the middle: the seats, the stock and the discard pile, the buy window, and the melds
// (drop targets for lay-offs, jokers to swap). Everything a player may do comes from `legal`.

import { el } from "./api.js";
import { cardBack, cardElement, meldName, pretty } from "./cards.js";
import { drag } from "./hand.js";
import { t } from "./i18n.js";

/** The name the server narrates with: the player's, "bot 2 (medium)" for a bot, "seat 2" if free. */
export function seatName(view, s) {
  if (view.names?.[s]) return view.names[s];
  if (view.bots?.[s]) return t("board.bot_name", { n: s, bot: t(`bot.${view.bots[s]}`) });
  return t("board.seat_name", { n: s });
}

function isAway(view, s) {
  return view.away.includes(s);
}

/** The engine's count of a seat's buys this deal (`buys_allowed`, `buys_left` of the observation). */
function buysText(obs, s) {
  const used = obs.seats[s].buys;
  const left = obs.seats[s].buys_left;
  if (left === undefined) return t("board.bought", { count: used });
  if (left === null) return t("board.bought_no_limit", { count: used });
  return t("board.buys_left", { left, count: obs.buys_allowed });
}

export function renderSeats(container, view) {
  const { obs, me } = view;
  const seats = obs.seats.map((seat, s) => {
    const turn = obs.current === s && (obs.phase === "draw" || obs.phase === "play");
    const inWindow = obs.phase === "buy" && obs.window.includes(s);
    const bot = view.bots?.[s];
    return el("div", {
      class: ["seat", turn ? "turn" : "", inWindow ? "in-window" : "", s === me ? "mine" : "", seat.down ? "down" : ""].join(" "),
      dataset: { testid: `seat-${s}`, seat: String(s), count: String(seat.hand_count), down: seat.down ? "1" : "0" },
    },
      el("div", { class: "seat-head" },
        el("span", { class: `swatch seat-${s % 8}` }),
        el("strong", { text: seatName(view, s), title: seatName(view, s) }),
        s === me && el("span", { class: "badge", text: t("board.you") }),
        bot && el("span", { class: "badge bot", text: t("board.bot_badge", { bot: t(`bot.${bot}`) }) }),
        isAway(view, s) && el("span", { class: "badge away", dataset: { testid: `away-${s}` }, text: t("board.away") }),
        !bot && !view.connected.includes(s) && !isAway(view, s)
          && el("span", { class: "badge away", dataset: { testid: `offline-${s}` }, text: t("board.offline") }),
        obs.dealer === s && el("span", { class: "badge", title: t("board.dealer"), text: t("board.dealer_badge") })),
      el("div", { class: "seat-info" },
        el("span", { class: "count", dataset: { testid: `count-${s}` }, text: t("board.cards", { count: seat.hand_count }) }),
        el("span", { class: "mini-backs" }, Array.from({ length: Math.min(seat.hand_count, 12) }, () => el("i"))),
        seat.announced && el("span", {
          class: "badge announce", dataset: { testid: `announce-${s}` },
          text: t("board.announced", { count: seat.hand_count }), title: t("board.announced_title"),
        })),
      el("div", { class: "seat-info muted" },
        seat.down ? el("span", { class: "badge down", text: t("board.down") }) : el("span", { text: t("board.not_down") }),
        el("span", { text: buysText(obs, s) })),
      seat.known.length > 0 && el("div", { class: "known", title: t("board.known") },
        seat.known.map((c) => cardElement(c, { small: true }))),
      turn && el("div", { class: "turn-note", text: obs.phase === "draw" ? t("board.to_draw") : t("board.playing") }));
  });
  container.replaceChildren(...seats);
}

function actionsOf(legal, type) {
  return legal.filter((a) => a.type === type);
}

export function renderPiles(stockEl, discardEl, view, act) {
  const { obs, legal, hand } = view;
  const canDraw = actionsOf(legal, "draw_stock").length > 0;
  stockEl.replaceChildren(
    obs.stock_size ? cardBack() : el("div", { class: "card empty" }),
    el("span", { class: "pile-label", text: t("board.stock", { count: obs.stock_size }) }));
  stockEl.dataset.size = String(obs.stock_size);
  stockEl.classList.toggle("active", canDraw);
  stockEl.onclick = () => canDraw && act({ type: "draw_stock" });

  const top = obs.discard_pile.at(-1) ?? null;
  const take = actionsOf(legal, "draw_discard").find((a) => (a.depth ?? 1) === 1);
  const selected = hand.single();
  const canDiscard = (card) => legal.some((a) => a.type === "discard" && a.card === card);
  discardEl.replaceChildren(
    top ? cardElement(top, { testid: "discard-top" }) : el("div", { class: "card empty", dataset: { testid: "discard-top" } }),
    el("span", { class: "pile-label", text: t("board.discards", { count: obs.discard_pile.length }) }));
  discardEl.dataset.size = String(obs.discard_pile.length);
  discardEl.dataset.top = top ?? "";
  discardEl.classList.toggle("active", Boolean(take) || (selected && canDiscard(selected)));
  discardEl.onclick = () => {
    if (take) act({ type: "draw_discard" });
    else if (selected && canDiscard(selected)) act({ type: "discard", card: selected });
  };
  discardEl.ondragover = (event) => {
    if (drag.card && canDiscard(drag.card)) {
      event.preventDefault();
      discardEl.classList.add("drop-hover");
    }
  };
  discardEl.ondragleave = () => discardEl.classList.remove("drop-hover");
  discardEl.ondrop = (event) => {
    event.preventDefault();
    discardEl.classList.remove("drop-hover");
    if (drag.card && canDiscard(drag.card)) act({ type: "discard", card: drag.card });
  };
}

export function renderBuyWindow(container, view) {
  const { obs } = view;
  const top = obs.discard_pile.at(-1);
  const open = obs.phase === "buy" && obs.window.length > 0;
  const calls = obs.may_i_calls ?? [];
  if (!open && !calls.length) {
    container.hidden = true;
    container.replaceChildren();
    return;
  }
  container.hidden = false;
  const answers = new Map(obs.window_answers.map(([s, wants]) => [s, wants]));
  const from = obs.discarder === null || obs.discarder === undefined ? "" : t("board.discarded_by", { name: seatName(view, obs.discarder) });
  const rows = open
    ? obs.window.map((s) => {
      const answer = answers.has(s) ? (answers.get(s) ? t("board.wants_it") : t("board.passes")) : t("board.deciding");
      return el("li", { dataset: { testid: `window-seat-${s}`, answer: answers.has(s) ? String(answers.get(s)) : "" } },
        el("strong", { text: seatName(view, s) }), t("board.window_answer", { answer, buys: buysText(obs, s) }));
    })
    : calls.map((s) => el("li", {}, el("strong", { text: seatName(view, s) }), " ", t("board.calls_may_i")));
  container.replaceChildren(
    el("h4", { text: t("common.may_i") }),
    el("p", { class: "muted", text: top ? t("board.window_card", { card: pretty(top), from, count: obs.buy_penalty_cards }) : "" }),
    el("ol", {}, rows));
}

/**
 * The melds, grouped by the seat that laid them. ui.pendingEnds = {card, meld} asks which end.
 * onLayOff(card, meld, end), onSwap(card, meld, joker), onPick(meld) for a click on a meld.
 */
export function renderMelds(container, view, ui, handlers) {
  const { obs, legal, hand } = view;
  const selected = hand.single();
  const layOffs = actionsOf(legal, "lay_off");
  const swaps = actionsOf(legal, "swap_joker");
  const byOwner = new Map();
  obs.melds.forEach((meld, index) => {
    if (!byOwner.has(meld.owner)) byOwner.set(meld.owner, []);
    byOwner.get(meld.owner).push({ meld, index });
  });
  const groups = [...byOwner.entries()].sort(([a], [b]) => a - b).map(([owner, melds]) =>
    el("div", { class: "meld-group", dataset: { testid: `melds-of-${owner}` } },
      el("h4", {}, el("span", { class: `swatch seat-${owner % 8}` }), `${seatName(view, owner)}`),
      el("div", { class: "meld-row" }, melds.map(({ meld, index }) => {
        const targets = selected ? layOffs.filter((a) => a.card === selected && a.meld === index) : [];
        const swapHere = selected ? swaps.filter((a) => a.card === selected && a.meld === index) : [];
        const node = el("div", {
          class: "meld" + (targets.length ? " target" : "") + (swapHere.length ? " swap-target" : ""),
          dataset: { testid: "meld", meld: String(index), owner: String(meld.owner), kind: meld.kind, size: String(meld.cards.length) },
          tabindex: targets.length ? "0" : undefined,
          role: targets.length ? "button" : undefined,
          onkeydown: (event) => {
            if (targets.length && (event.key === "Enter" || event.key === " ") && event.target === node) {
              event.preventDefault();
              handlers.onPick(index);
            }
          },
        },
          targets.length > 0 && el("span", { class: "sr-only", text: t("board.lay_off_here", { card: pretty(selected), name: seatName(view, meld.owner) }) }),
          el("div", { class: "meld-label", text: meldName(meld) }),
          el("div", { class: "meld-cards" }, meld.cards.map((card, k) => {
            const swap = swapHere.find((a) => a.joker === card);
            const cardNode = cardElement(card, { small: true, stands: meld.stands[k], testid: "meld-card" });
            if (swap) {
              cardNode.classList.add("swappable");
              cardNode.title = t("board.swap_title", { card: pretty(selected) });
              cardNode.dataset.testid = "swap-joker";
              cardNode.addEventListener("click", (event) => {
                event.stopPropagation();
                handlers.onSwap(swap);
              });
            }
            return cardNode;
          })));
        if (ui.pendingEnds && ui.pendingEnds.meld === index) {
          node.append(el("div", { class: "ends" },
            el("button", { type: "button", class: "small", dataset: { testid: "layoff-end-low" }, text: t("board.low_end"),
              onclick: (e) => { e.stopPropagation(); handlers.onLayOff(ui.pendingEnds.card, index, "low"); } }),
            el("button", { type: "button", class: "small", dataset: { testid: "layoff-end-high" }, text: t("board.high_end"),
              onclick: (e) => { e.stopPropagation(); handlers.onLayOff(ui.pendingEnds.card, index, "high"); } })));
        }
        node.addEventListener("click", () => handlers.onPick(index));
        node.addEventListener("dragover", (event) => {
          const card = drag.card;
          if (card && (layOffs.some((a) => a.card === card && a.meld === index) || swaps.some((a) => a.card === card && a.meld === index))) {
            event.preventDefault();
            node.classList.add("drop-hover");
          }
        });
        node.addEventListener("dragleave", () => node.classList.remove("drop-hover"));
        node.addEventListener("drop", (event) => {
          event.preventDefault();
          node.classList.remove("drop-hover");
          const card = drag.card;
          if (!card) return;
          const fits = layOffs.filter((a) => a.card === card && a.meld === index);
          if (fits.length === 1) return handlers.onLayOff(card, index, fits[0].end ?? null);
          if (fits.length > 1) {
            const box = node.getBoundingClientRect();
            return handlers.onLayOff(card, index, event.clientX < box.left + box.width / 2 ? "low" : "high");
          }
          const swap = swaps.filter((a) => a.card === card && a.meld === index);
          if (swap.length) handlers.onSwap(swap[0]);
        });
        return node;
      }))));
  container.replaceChildren(...(groups.length ? groups : [el("p", { class: "muted empty-melds", text: t("board.no_melds") })]));
}
