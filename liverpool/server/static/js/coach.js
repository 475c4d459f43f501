// The coach at the table: the Hint and Undo buttons, and the hint's answer. The server measures the hint
// and decides whether an undo may be done (the engine's undo_point); this module only asks and shows.

import { el } from "./api.js";
import { t } from "./i18n.js";
import { phraseText } from "./phrases.js";

/** The Hint and Undo buttons for a seat (`view.assist` says whether the table allows each). */
export function renderCoachButtons(node, view, state, { onHint, onUndo }) {
  const assist = view.assist ?? { hints: false, undo: false };
  const playing = view.me !== null && view.obs.phase !== "game_over";
  const buttons = [];
  if (playing && assist.hints) {
    buttons.push(el("button", {
      type: "button", class: "small", dataset: { testid: "hint" }, text: t("coach.hint"), title: t("coach.hint_title"),
      disabled: !view.legal.length || state.pending, onclick: onHint,
    }));
  }
  if (playing && assist.undo) {
    buttons.push(el("button", {
      type: "button", class: "small", dataset: { testid: "undo" }, text: t("coach.undo"), title: t("coach.undo_title"),
      onclick: onUndo,
    }));
  }
  node.replaceChildren(...buttons);
}

/**
 * The hint panel: the best option, why, and by how much (or that the coach is thinking); the option and
 * the reason are said from the coach's phrases, `nameOf(seat)` naming seats as the page does.
 */
export function renderHint(node, state, seq, nameOf) {
  if (state.pending) {
    node.hidden = false;
    node.replaceChildren(el("p", { class: "muted", text: t("coach.thinking") }));
    return;
  }
  const hint = state.hint;
  if (!hint) {
    node.hidden = true;
    node.replaceChildren();
    return;
  }
  node.hidden = false;
  const margin = hint.margin === null ? t("coach.only") : t("coach.better", { count: hint.margin });
  node.replaceChildren(
    el("p", { class: "hint-best", dataset: { testid: "hint-text" } }, el("strong", { text: said(hint.words, hint.text, nameOf) }), t("coach.reason", { reason: said(hint.reason_words, hint.reason, nameOf) })),
    el("p", { class: "muted", dataset: { testid: "hint-margin" }, text: t("coach.margin", { margin, expected: t("coach.expected", { points: hint.expected, se: hint.se }) }) }),
    hint.seq !== seq && el("p", { class: "muted", text: t("coach.stale") }));
}

/** The coach's phrase in the page's language, or its English text from a server without phrases. */
export function said(words, text, nameOf) {
  return words ? phraseText(words, nameOf) : text;
}
