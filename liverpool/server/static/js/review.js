// The Review page (/review/{table_id}?seat=N): the coach's review of one seat of a finished table, as the
// server measured and stored it (GET /api/tables/{id}/review/{seat}). Each deal's graph is drawn here as
// inline SVG from the server's points; the judgements are the coach's.

import { el, getJSON } from "./api.js";
import { said } from "./coach.js";
import { listWords, t } from "./i18n.js";

/** "3 good, 1 mistake": each judgement with how many decisions got it. */
function countsText(counts) {
  return listWords(Object.entries(counts).map(([j, n]) => t("review.count", { count: n, judgement: t(`judgement.${j}`) })), "and");
}

const signed = (value) => `${value > 0 ? "+" : ""}${value.toFixed(1)}`;

const POLL_MS = 1000;
const SVG = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).at(-1) ?? "");
const params = new URLSearchParams(location.search);

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

/** One deal's graph: the expected points after each decision, a dot per decision coloured by judgement. */
function dealGraph({ deal, points }, nameOf, width = 640, height = 180) {
  const pad = 28;
  const values = points.map((p) => p.expected);
  const low = Math.min(0, ...values), high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => pad + (points.length <= 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => pad / 2 + ((v - low) * (height - pad)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.expected).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => svg("circle", {
    cx: x(i).toFixed(1), cy: y(p.expected).toFixed(1), r: 4, class: `dot ${p.judgement}`, "data-testid": "review-dot",
  }, svg("title", {}, t("review.dot", { index: p.index, played: said(p.played_words, p.played, nameOf), expected: p.expected.toFixed(1), judgement: t(`judgement.${p.judgement}`) }))));
  return el("figure", { class: "review-graph", dataset: { testid: "review-graph" } },
    el("figcaption", { text: t("review.deal", { n: deal }) }),
    svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": t("review.graph_label", { deal: t("review.deal", { n: deal }), axis: t("review.axis") }) },
      svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "zero" }),
      svg("text", { x: 2, y: y(high) + 4, class: "axis" }, high.toFixed(0)),
      svg("text", { x: 2, y: y(low) + 4, class: "axis" }, low.toFixed(0)),
      svg("polyline", { points: line, class: "expected" }),
      ...dots));
}

function show(answer) {
  $("review-progress").textContent = "";
  $("review-title").textContent = t("review.title_of", { name: answer.name });
  document.body.dataset.review = "done";
  const { review } = answer;
  $("review-summary").textContent = t("review.summary", { counts: countsText(review.counts), luck: signed(review.luck) });
  const nameOf = (seat) => answer.names[seat] ?? String(seat);
  $("review-graphs").replaceChildren(...answer.graph.map((g) => dealGraph(g, nameOf)), el("p", { class: "muted", text: t("review.axis") }));
  $("review-worse-title").textContent = t("review.worse", { threshold: answer.threshold });
  $("review-worse").replaceChildren(...(answer.worse.length
    ? answer.worse.map((w) => el("li", { dataset: { testid: "review-worse-item" }, text: t("review.line", { deal: w.deal, index: w.index, played: said(w.played_words, w.played, nameOf), lost: w.lost, se: w.se, judgement: t(`judgement.${w.judgement}`), better: said(w.better_words, w.better, nameOf), reason: said(w.reason_words, w.reason, nameOf) }) }))
    : [el("li", { class: "muted", text: t("review.none") })]));
}

/** The seat chooser, from the table's names (once). */
function seats(names, seat) {
  const select = $("review-seat");
  if (select.options.length) return;
  select.append(...names.map((name, s) => el("option", { value: String(s), text: name, selected: s === seat })));
  select.addEventListener("change", () => { location.search = `?seat=${select.value}`; });
}

async function load(seat) {
  try {
    const answer = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/review/${seat}`);
    seats(answer.names, seat);
    if (answer.status === "done") {
      show(answer);
      return;
    }
    $("review-progress").textContent = t("review.measuring", { done: answer.done, total: answer.total });
    document.body.dataset.review = "measuring";
    setTimeout(() => load(seat), POLL_MS);
  } catch (error) {
    $("error").hidden = false;
    $("error").textContent = t("review.failed", { error: error.message });
    document.body.dataset.review = "failed";
  }
}

load(Number(params.get("seat") ?? 0));
