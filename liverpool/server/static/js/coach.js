// The coach at the table: the Hint and Undo buttons, and the hint's answer. The server measures the hint
// and decides whether an undo may be done (the engine's undo_point); this module only asks and shows.

import { el } from "./api.js";

// Every word this module shows (kept together for the i18n catalogue).
export const COACH_TEXT = {
  hint: "Hint",
  hintTitle: "ask the coach for the best option now (everyone at the table sees that you took a hint)",
  thinking: "The coach is thinking…",
  undo: "Undo",
  undoTitle: "take back your last decision and the bots' moves after it",
  better: (points) => `${points} points better than the next option`,
  only: "the only option the coach measured",
  expected: (points, se) => `expected ${points} ± ${se} points at the end of the deal (lower is better)`,
  stale: "This hint was for an earlier moment of the game.",
  review: "Review with the coach",
};

/** The Hint and Undo buttons for a seat (`view.assist` says whether the table allows each). */
export function renderCoachButtons(node, view, state, { onHint, onUndo }) {
  const assist = view.assist ?? { hints: false, undo: false };
  const playing = view.me !== null && view.obs.phase !== "game_over";
  const buttons = [];
  if (playing && assist.hints) {
    buttons.push(el("button", {
      type: "button", class: "small", dataset: { testid: "hint" }, text: COACH_TEXT.hint, title: COACH_TEXT.hintTitle,
      disabled: !view.legal.length || state.pending, onclick: onHint,
    }));
  }
  if (playing && assist.undo) {
    buttons.push(el("button", {
      type: "button", class: "small", dataset: { testid: "undo" }, text: COACH_TEXT.undo, title: COACH_TEXT.undoTitle,
      onclick: onUndo,
    }));
  }
  node.replaceChildren(...buttons);
}

/** The hint panel: the best option, why, and by how much (or that the coach is thinking). */
export function renderHint(node, state, seq) {
  if (state.pending) {
    node.hidden = false;
    node.replaceChildren(el("p", { class: "muted", text: COACH_TEXT.thinking }));
    return;
  }
  const hint = state.hint;
  if (!hint) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  node.hidden = false;
  const margin = hint.margin === null ? COACH_TEXT.only : COACH_TEXT.better(hint.margin);
  node.replaceChildren(
    el("p", { class: "hint-best", dataset: { testid: "hint-text" } }, el("strong", { text: hint.text }), `: ${hint.reason}`),
    el("p", { class: "muted", dataset: { testid: "hint-margin" }, text: `${margin}; ${COACH_TEXT.expected(hint.expected, hint.se)}` }),
    hint.seq !== seq && el("p", { class: "muted", text: COACH_TEXT.stale }));
}
