// The replay viewer: a finished game's record, step by step (/replay/{table_id}, or a record file). The
// engine replays the record on the server (GET /api/tables/{id}/replay, POST /api/replay): each step is
// the table after one action, every hand shown; this page only draws it.

import { el, getJSON, links, tokenFromLocation } from "./api.js";
import { bySuit, cardBack, cardElement, meldName } from "./cards.js";
import { scoreChart, scoreTable } from "./scores.js";
import { setUpCardColours } from "./prefs.js";
import { listWords, t } from "./i18n.js";
import { phraseText, phrasesText } from "./phrases.js";

setUpCardColours(null);

const $ = (id) => document.getElementById(id);
const PLAY_MS = 350;

const viewer = { names: [], steps: [], at: 0, timer: null, downloadUrl: null };

function showError(text) {
  $("error").textContent = text;
}

/** A step's action in words, from the server's phrases. */
function stepText(step) {
  return phrasesText(step.words, (s) => viewer.names[s]);
}

function render() {
  const { steps, at, names } = viewer;
  if (!steps.length) return;
  const step = steps[at];
  const state = step.table;
  $("slider").value = String(at);
  $("step").textContent = t("replay.step", { at, count: steps.length - 1 });
  $("action").textContent = stepText(step);
  const acting = step.action?.seat;
  const showHands = $("show-hands").checked;

  $("stock").replaceChildren(state.stock_size ? cardBack() : el("div", { class: "card empty" }),
    el("span", { class: "pile-label", text: t("board.stock", { count: state.stock_size }) }));
  const top = state.discard_pile.at(-1);
  $("discard").replaceChildren(top ? cardElement(top) : el("div", { class: "card empty" }),
    el("span", { class: "pile-label", text: t("board.discards", { count: state.discard_pile.length }) }));
  const answers = Object.fromEntries(state.window_answers);
  const windowBox = $("window");
  windowBox.hidden = !state.window.length;
  if (state.window.length) {
    windowBox.replaceChildren(el("h4", { text: t("common.may_i") }), el("ol", {}, state.window.map((s) =>
      el("li", {}, el("strong", { text: names[s] }),
        `: ${s in answers ? (answers[s] ? t("board.wants_it") : t("board.passes")) : t("board.deciding")}`))));
  }

  const groups = new Map();
  state.melds.forEach((meld) => {
    if (!groups.has(meld.owner)) groups.set(meld.owner, []);
    groups.get(meld.owner).push(meld);
  });
  $("melds").replaceChildren(...[...groups.entries()].sort(([a], [b]) => a - b).map(([owner, melds]) =>
    el("div", { class: "meld-group" },
      el("h4", {}, el("span", { class: `swatch seat-${owner % 8}` }), names[owner]),
      el("div", { class: "meld-row" }, melds.map((meld) =>
        el("div", { class: "meld", dataset: { testid: "replay-meld" } },
          el("div", { class: "meld-label", text: meldName(meld) }),
          el("div", { class: "meld-cards" }, meld.cards.map((c, k) =>
            cardElement(c, { small: true, stands: meld.stands[k] })))))))));

  $("hands").replaceChildren(...state.hands.map((hand, s) =>
    el("div", { class: "replay-hand" + (s === acting ? " acting" : ""), dataset: { testid: `replay-hand-${s}`, count: String(hand.length) } },
      el("span", { class: "who" },
        el("span", { class: `swatch seat-${s % 8}` }),
        el("strong", { text: names[s] }),
        state.dealer === s ? el("span", { class: "badge", title: t("board.dealer"), text: t("board.dealer_badge") }) : "",
        state.seats[s]?.down ? el("span", { class: "badge down", text: t("board.down") }) : "",
        el("span", { class: "muted", text: ` ${t("board.cards", { count: hand.length })}` })),
      showHands ? bySuit(hand).map((c) => cardElement(c, { small: true })) : hand.map(() => cardBack({ small: true })))));

  $("scores").replaceChildren(
    scoreTable(state.results, state.totals, names, { testid: "replay-score-table", winners: state.winners }),
    scoreChart(state.results, names));
  if (state.phase === "game_over") {
    $("action").textContent = t("replay.over", { text: stepText(step), names: listWords(state.winners.map((s) => names[s])), count: state.winners.length });
  }
  document.querySelectorAll("#actions li").forEach((li) => li.classList.toggle("current", Number(li.dataset.step) === at));
  document.querySelector("#actions li.current")?.scrollIntoView({ block: "nearest" });
  document.body.dataset.step = String(at);
  document.body.dataset.phase = state.phase;
  document.body.dataset.totals = state.totals.join(",");
}

function go(at) {
  viewer.at = Math.max(0, Math.min(viewer.steps.length - 1, at));
  render();
}

function dealStarts() {
  return viewer.steps.map((s, i) => (s.action?.type === "shuffle" ? i : -1)).filter((i) => i >= 0);
}

function togglePlay() {
  if (viewer.timer) {
    clearInterval(viewer.timer);
    viewer.timer = null;
    $("play").textContent = t("replay.play");
    return;
  }
  $("play").textContent = t("replay.pause");
  viewer.timer = setInterval(() => {
    if (viewer.at >= viewer.steps.length - 1) togglePlay();
    else go(viewer.at + 1);
  }, PLAY_MS);
}

/** Show a replay as the server gives it: {ruleset, names, meta, steps: [{action, text, words, table}], undone}. */
function load(replay, downloadHref) {
  viewer.steps = replay.steps;
  viewer.names = replay.names;
  showError("");
  const names = replay.names;
  $("replay-title").textContent = `${replay.ruleset.title ?? replay.ruleset.name} · ${names.join(", ")}`;
  $("slider").max = String(viewer.steps.length - 1);
  // Moves taken back by undo (the server's `undone`) are listed where they were played, before the step
  // that was played instead (action `at` is step `at + 1`).
  const undone = replay.undone ?? [];
  $("actions").replaceChildren(...viewer.steps.flatMap((step, i) => [
    ...undone.filter((u) => u.at + 1 === i).map((u) => el("li", {
      class: "undone", dataset: { testid: "replay-undone" }, text: t("replay.taken_back", { moves: u.words.map((w) => phraseText(w, (s) => names[s])).join(t("list.semicolon")) }),
    })),
    el("li", { class: step.action?.type === "shuffle" ? "deal-start" : "", dataset: { step: String(i) }, text: `${i}. ${stepText(step)}`, onclick: () => go(i) })]));
  const download = $("download");
  download.href = downloadHref;
  download.download = `liverpool-${replay.meta?.table_id ?? "game"}.json`;
  download.hidden = false;
  document.body.dataset.ready = "1";
  go(0);
}

async function start() {
  $("first").addEventListener("click", () => go(0));
  $("last").addEventListener("click", () => go(viewer.steps.length - 1));
  $("prev").addEventListener("click", () => go(viewer.at - 1));
  $("next").addEventListener("click", () => go(viewer.at + 1));
  $("prev-deal").addEventListener("click", () => go(dealStarts().filter((i) => i < viewer.at).at(-1) ?? 0));
  $("next-deal").addEventListener("click", () => go(dealStarts().find((i) => i > viewer.at) ?? viewer.steps.length - 1));
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("show-hands").addEventListener("change", render);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    if (event.key === "ArrowRight") go(viewer.at + 1);
    if (event.key === "ArrowLeft") go(viewer.at - 1);
  });
  $("file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const text = await file.text();
      if (viewer.downloadUrl) URL.revokeObjectURL(viewer.downloadUrl);
      viewer.downloadUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      const answer = await fetch("/api/replay", { method: "POST", body: text, headers: { "Content-Type": "application/json" } });
      const data = await answer.json();
      if (!answer.ok) throw new Error(data.message ?? answer.statusText);
      load(data, viewer.downloadUrl);
    } catch (error) {
      showError(t("replay.read_failed", { file: file.name, error: error.message }));
    }
  });
  const tableId = tokenFromLocation("replay", "table");
  if (!tableId) {
    showError(t("replay.no_table"));
    return;
  }
  try {
    load(await getJSON(`/api/tables/${encodeURIComponent(tableId)}/replay`), links.record(tableId));
  } catch (error) {
    showError(error.status === 409 ? t("replay.not_over") : t("replay.load_failed", { error: error.message }));
  }
}

start();
