// The Review page (/review/{table_id}?seat=N): the coach's review of one seat of a finished table, as the
// server measured and stored it (GET /api/tables/{id}/review/{seat}). Each deal's graph is drawn here as
// inline SVG from the server's points; the judgements are the coach's.

import { el, getJSON } from "./api.js";

// Every word this page shows (kept together for the i18n catalogue).
export const REVIEW_TEXT = {
  title: (name) => `Review of ${name}`,
  measuring: (done, total) => `The coach is measuring every decision: ${done} of ${total} deals done…`,
  summary: (counts, luck) => `${Object.entries(counts).map(([j, n]) => `${n} ${j}`).join(", ")}; luck of the stock draws ${luck > 0 ? "+" : ""}${luck.toFixed(1)} points.`,
  deal: (deal) => `Deal ${deal}`,
  axis: "expected points at the end of the deal after each decision (lower is better, so higher on the graph)",
  worse: (threshold) => `Decisions where the best option was better by more than ${threshold} points`,
  none: "None: every decision was within the threshold.",
  line: (w) => `Deal ${w.deal}, #${w.index}: ${w.played} lost ${w.lost} ±${w.se} points (${w.judgement}); better: ${w.better}: ${w.reason}`,
  failed: (message) => `The review could not be loaded: ${message}`,
};

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
function dealGraph({ deal, points }, width = 640, height = 180) {
  const pad = 28;
  const values = points.map((p) => p.expected);
  const low = Math.min(0, ...values), high = Math.max(0, ...values);
  const span = high - low || 1;
  const x = (i) => pad + (points.length <= 1 ? 0 : (i * (width - 2 * pad)) / (points.length - 1));
  const y = (v) => pad / 2 + ((v - low) * (height - pad)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.expected).toFixed(1)}`).join(" ");
  const dots = points.map((p, i) => svg("circle", {
    cx: x(i).toFixed(1), cy: y(p.expected).toFixed(1), r: 4, class: `dot ${p.judgement}`, "data-testid": "review-dot",
  }, svg("title", {}, `#${p.index} ${p.played}: ${p.expected.toFixed(1)} (${p.judgement})`)));
  return el("figure", { class: "review-graph", dataset: { testid: "review-graph" } },
    el("figcaption", { text: REVIEW_TEXT.deal(deal) }),
    svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": `${REVIEW_TEXT.deal(deal)}: ${REVIEW_TEXT.axis}` },
      svg("line", { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: "zero" }),
      svg("text", { x: 2, y: y(high) + 4, class: "axis" }, high.toFixed(0)),
      svg("text", { x: 2, y: y(low) + 4, class: "axis" }, low.toFixed(0)),
      svg("polyline", { points: line, class: "expected" }),
      ...dots));
}

function show(answer) {
  $("review-progress").textContent = "";
  $("review-title").textContent = REVIEW_TEXT.title(answer.name);
  document.body.dataset.review = "done";
  const { review } = answer;
  $("review-summary").textContent = REVIEW_TEXT.summary(review.counts, review.luck);
  $("review-graphs").replaceChildren(...answer.graph.map((g) => dealGraph(g)), el("p", { class: "muted", text: REVIEW_TEXT.axis }));
  $("review-worse-title").textContent = REVIEW_TEXT.worse(answer.threshold);
  $("review-worse").replaceChildren(...(answer.worse.length
    ? answer.worse.map((w) => el("li", { dataset: { testid: "review-worse-item" }, text: REVIEW_TEXT.line(w) }))
    : [el("li", { class: "muted", text: REVIEW_TEXT.none })]));
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
    $("review-progress").textContent = REVIEW_TEXT.measuring(answer.done, answer.total);
    document.body.dataset.review = "measuring";
    setTimeout(() => load(seat), POLL_MS);
  } catch (error) {
    $("error").hidden = false;
    $("error").textContent = REVIEW_TEXT.failed(error.message);
    document.body.dataset.review = "failed";
  }
}

load(Number(params.get("seat") ?? 0));
