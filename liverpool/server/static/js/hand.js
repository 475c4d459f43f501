// The player's own hand: the order they keep it in (sort by suit or rank, or drag to reorder),
// the cards they have selected, and the drag that carries a card to a meld or the discard pile.

import { byRank, bySuit, cardElement } from "./cards.js";

/** The card being dragged from the hand (dataTransfer cannot be read during dragover). */
export const drag = { card: null };

export class Hand {
  constructor(storageKey) {
    this.storageKey = storageKey;
    this.order = this.load();
    this.cards = [];
    this.fresh = new Set();
    this.selected = new Set();
  }

  load() {
    try {
      const order = JSON.parse(sessionStorage.getItem(this.storageKey) ?? "[]");
      return Array.isArray(order) ? order : [];
    } catch {
      return [];
    }
  }

  save() {
    sessionStorage.setItem(this.storageKey, JSON.stringify(this.order));
  }

  /** Take the hand of a new observation: keep the player's order, add new cards at the right. */
  update(cards, firstState) {
    const present = new Set(cards);
    const before = new Set(this.cards);
    const kept = this.order.filter((c) => present.has(c));
    const added = cards.filter((c) => !kept.includes(c));
    this.order = [...kept, ...added];
    this.fresh = firstState ? new Set() : new Set(cards.filter((c) => !before.has(c)));
    this.cards = cards;
    for (const card of [...this.selected]) if (!present.has(card)) this.selected.delete(card);
    this.save();
  }

  sort(how) {
    this.order = how === "rank" ? byRank(this.order) : bySuit(this.order);
    this.save();
  }

  /** Move `card` to just before `before` (or to the end when `before` is null). */
  move(card, before) {
    if (card === before) return;
    const order = this.order.filter((c) => c !== card);
    const at = before === null ? order.length : order.indexOf(before);
    order.splice(at < 0 ? order.length : at, 0, card);
    this.order = order;
    this.save();
  }

  toggle(card) {
    if (this.selected.has(card)) this.selected.delete(card);
    else this.selected.add(card);
  }

  /** The one selected card, when exactly one is selected. */
  single() {
    return this.selected.size === 1 ? [...this.selected][0] : null;
  }

  /**
   * Render into `container`. marks(card) gives extra classes/labels: {classes: [], tag: text, title,
   * onClick (instead of selecting)};
   * onSelect(card) is called after a click changes the selection; onChange() after a reorder.
   */
  render(container, { marks = () => ({}), onSelect = () => {}, onChange = () => {}, onDouble = () => {} } = {}) {
    const cards = this.order.map((id) => {
      const mark = marks(id);
      const node = cardElement(id, { testid: "hand-card", draggable: true });
      node.classList.toggle("selected", this.selected.has(id));
      node.classList.toggle("new", this.fresh.has(id));
      for (const cls of mark.classes ?? []) node.classList.add(cls);
      if (mark.title) node.title = mark.title;
      if (mark.tag) {
        const tag = document.createElement("span");
        tag.className = "tag";
        tag.textContent = mark.tag;
        node.append(tag);
      }
      node.setAttribute("role", "button");
      // a button named by its content, which starts with its visible text: "7♥: seven of hearts", "7♥S1: ..."
      const said = document.createElement("span");
      said.className = "sr-only";
      said.textContent = `: ${node.getAttribute("aria-label")}`;
      node.append(said);
      node.removeAttribute("aria-label");
      node.tabIndex = 0;
      node.addEventListener("click", () => {
        if (mark.onClick) return mark.onClick();
        this.toggle(id);
        onSelect(id);
      });
      // A double click discards; two taps on a touch screen (take back, then select) must not.
      node.addEventListener("pointerdown", (event) => { node.dataset.pointer = event.pointerType; });
      node.addEventListener("dblclick", () => node.dataset.pointer !== "touch" && onDouble(id));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          node.click();
        }
      });
      node.addEventListener("dragstart", (event) => {
        drag.card = id;
        event.dataTransfer.setData("text/plain", id);
        event.dataTransfer.effectAllowed = "move";
        document.body.classList.add("dragging");
      });
      node.addEventListener("dragend", () => {
        drag.card = null;
        document.body.classList.remove("dragging");
        document.querySelectorAll(".drop-hover").forEach((n) => n.classList.remove("drop-hover"));
      });
      node.addEventListener("dragover", (event) => {
        if (drag.card && drag.card !== id) {
          event.preventDefault();
          node.classList.add("drop-hover");
        }
      });
      node.addEventListener("dragleave", () => node.classList.remove("drop-hover"));
      node.addEventListener("drop", (event) => {
        event.preventDefault();
        event.stopPropagation();
        if (!drag.card || !this.order.includes(drag.card)) return;
        const box = node.getBoundingClientRect();
        const after = event.clientX > box.left + box.width / 2;
        const index = this.order.indexOf(id);
        this.move(drag.card, after ? this.order[index + 1] ?? null : id);
        onChange();
      });
      return node;
    });
    container.replaceChildren(...cards);
    container.ondragover = (event) => {
      if (drag.card && this.order.includes(drag.card)) event.preventDefault();
    };
    container.ondrop = (event) => {
      event.preventDefault();
      if (!drag.card || !this.order.includes(drag.card)) return;
      this.move(drag.card, null);
      onChange();
    };
  }
}
