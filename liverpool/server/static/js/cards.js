// Cards in the record notation ("7H", "10S", "QD#1", "JK#2") and their rendering.

import { t } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_BY_TEXT = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const RANK_NAMES = { 1: "A", 11: "J", 12: "Q", 13: "K", 14: "A" };

/** {id, rank (1..13, 0 for a joker), suit ("" for a joker), joker, copy} of a card's notation. */
export function parseCard(id) {
  const [body, copyText] = id.toUpperCase().split("#");
  const copy = copyText === undefined ? 0 : Number(copyText);
  if (body === "JK") return { id, rank: 0, suit: "", joker: true, copy };
  const suit = body.slice(-1);
  const rankText = body.slice(0, -1);
  const rank = RANK_BY_TEXT[rankText] ?? Number(rankText);
  if (!SUITS.includes(suit) || !(rank >= 1 && rank <= 13)) throw new Error(`${id} is not a card`);
  return { id, rank, suit, joker: false, copy };
}

/** A card's name in words, for screen readers: "seven of hearts", "joker". */
export function cardName(id) {
  const card = parseCard(id);
  return card.joker ? t("card.joker") : t("card.name", { rank: t(`card.rank.${card.rank}`), suit: t(`card.suit.${card.suit}`) });
}

export function rankText(rank) {
  return RANK_NAMES[rank] ?? String(rank);
}

/** "7♥", "Q♦", "Joker" (copies are not shown). */
export function pretty(id) {
  const card = parseCard(id);
  return card.joker ? t("card.joker_short") : rankText(card.rank) + SUIT_SYMBOLS[card.suit];
}

/** A meld named in the page's language from the engine's `words` ("set of 7s", "run 9♥–Q♥"). */
export function meldName(meld) {
  const words = meld.words;
  if (!words) return meld.label ?? "";
  if (words.kind === "set") return t("meld.set", { rank: rankText(words.rank) });
  const suit = SUIT_SYMBOLS[words.suit] ?? "";
  return t("meld.run", { low: rankText(words.low) + suit, high: rankText(words.high) + suit });
}

export function prettyList(ids) {
  return ids.map(pretty).join(" ");
}

const sameCopyOrder = (a, b) => a.copy - b.copy;

/** Sort by suit (♣ ♦ ♥ ♠), then rank, jokers last. */
export function bySuit(ids) {
  return [...ids].sort((x, y) => {
    const a = parseCard(x), b = parseCard(y);
    if (a.joker !== b.joker) return a.joker ? 1 : -1;
    return SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit) || a.rank - b.rank || sameCopyOrder(a, b);
  });
}

/** Sort by rank (A..K), then suit, jokers last. */
export function byRank(ids) {
  return [...ids].sort((x, y) => {
    const a = parseCard(x), b = parseCard(y);
    if (a.joker !== b.joker) return a.joker ? 1 : -1;
    return a.rank - b.rank || SUITS.indexOf(a.suit) - SUITS.indexOf(b.suit) || sameCopyOrder(a, b);
  });
}

/**
 * A card as an element: <div class="card suit-H" data-card="7H">.
 * options: testid, small, draggable, title, stands (what a joker stands for).
 */
export function cardElement(id, options = {}) {
  const card = parseCard(id);
  const el = document.createElement("div");
  el.className = "card" + (card.joker ? " joker" : ` suit-${card.suit}`) + (options.small ? " small" : "");
  el.dataset.card = id;
  if (options.testid) el.dataset.testid = options.testid;
  el.title = options.title ?? (card.joker ? t("card.joker_short") : t("card.title", { rank: rankText(card.rank), suit: t(`card.suit.${card.suit}`) }));
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", options.stands ? t("card.stands", { card: cardName(id), stands: options.stands }) : cardName(id));
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.textContent = card.joker ? "JK" : rankText(card.rank);
  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = card.joker ? "★" : SUIT_SYMBOLS[card.suit];
  el.append(corner, pip);
  if (options.stands) {
    const stands = document.createElement("span");
    stands.className = "stands";
    stands.textContent = options.stands;
    el.append(stands);
  }
  if (options.draggable) el.draggable = true;
  return el;
}

/** A face-down card, for the stock and for others' hands. */
export function cardBack(options = {}) {
  const el = document.createElement("div");
  el.className = "card back" + (options.small ? " small" : "");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", t("card.face_down"));
  if (options.testid) el.dataset.testid = options.testid;
  return el;
}
