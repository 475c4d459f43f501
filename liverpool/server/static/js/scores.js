// Scores: per deal and totals, a small line chart of the running totals (inline SVG), and the
// end-of-deal summary.

import { el } from "./api.js";
import { cardElement, meldName } from "./cards.js";
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** results: [{deal, went_out, scores}]; names: seat names. */
export function scoreTable(results, totals, names, { testid = "scores", winners = [] } = {}) {
  const head = el("tr", {}, el("th", { text: t("scores.deal") }),
    names.map((name, s) => el("th", { class: winners.includes(s) ? "winner" : "", title: name },
      el("span", { class: `swatch seat-${s % 8}` }), name.replace(/ \(.*\)$/, ""))));
  const rows = results.map((r) => el("tr", { dataset: { testid: "score-row" } },
    el("td", { text: String(r.deal + 1) }),
    r.scores.map((score, s) => el("td", {
      class: r.went_out === s ? "went-out" : "",
      title: r.went_out === s ? t("scores.went_out") : "",
      text: r.went_out === s ? `${score} ★` : String(score),
    }))));
  const total = el("tr", { class: "total" }, el("th", { text: t("scores.total") }),
    totals.map((t, s) => el("th", { class: winners.includes(s) ? "winner" : "", dataset: { testid: `total-${s}` }, text: String(t) })));
  return el("table", { class: "scores", dataset: { testid } }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, total));
}

/** Running totals after each deal, one line per seat. */
export function scoreChart(results, names, { width = 280, height = 150 } = {}) {
  const seats = names.length;
  const running = Array.from({ length: seats }, () => [0]);
  for (const r of results) r.scores.forEach((score, s) => running[s].push(running[s].at(-1) + score));
  const all = running.flat();
  const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const pad = { left: 34, right: 8, top: 8, bottom: 18 };
  const w = width - pad.left - pad.right, h = height - pad.top - pad.bottom;
  const steps = Math.max(1, results.length);
  const x = (i) => pad.left + (i / steps) * w;
  const y = (v) => pad.top + h - ((v - lo) / (hi - lo)) * h;
  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "score-chart",
    "data-testid": "score-chart", "aria-label": t("scores.chart"),
  });
  chart.append(
    svg("line", { x1: pad.left, y1: y(lo), x2: pad.left, y2: y(hi), class: "axis" }),
    svg("line", { x1: pad.left, y1: y(0), x2: pad.left + w, y2: y(0), class: "axis" }),
    svg("text", { x: pad.left - 4, y: y(hi) + 8, class: "tick", "text-anchor": "end" }, String(hi)),
    svg("text", { x: pad.left - 4, y: y(0) + 3, class: "tick", "text-anchor": "end" }, "0"),
  );
  for (let i = 1; i <= results.length; i++) {
    chart.append(svg("text", { x: x(i), y: height - 4, class: "tick", "text-anchor": "middle" }, String(i)));
  }
  running.forEach((points, s) => {
    const colour = `seat-${s % 8}`;  // the seat's swatch colour, from the stylesheet (which the palette switches)
    chart.append(svg("polyline", {
      points: points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "),
      class: colour, "stroke-width": 2, "data-seat": s,
    }, svg("title", {}, `${names[s]}: ${points.at(-1)}`)));
    points.forEach((v, i) => i && chart.append(svg("circle", { cx: x(i), cy: y(v), r: 2.5, class: colour })));
  });
  return chart;
}

/** Why a deal ended, from the engine's reason (`went_out`, `stock_out`, ...) and the times the stock was washed. */
function endReason(result, names) {
  if (result.went_out !== null && result.went_out !== undefined) return t("summary.went_out", { name: names[result.went_out] });
  return t(`dealend.${result.reason}.${result.reshuffles > 0 ? "washed" : "plain"}`, { count: result.reshuffles });
}

/**
 * The end of a deal as everyone sees it once the hands are laid open (the engine's deal result):
 * why it ended, what each seat was caught with and its points, and the melds left on the table.
 * pause (the server's `next_deal`, or null): {deadline, waiting, reason}; onNext() presses Next deal.
 */
export function dealSummary(result, names, totals, { pause = null, me = null, onNext = null, onClose = null } = {}) {
  const reason = t("server.words") === "yes" && pause?.reason ? pause.reason : endReason(result, names);
  const order = result.scores.map((score, s) => ({ s, score })).sort((a, b) => a.score - b.score);
  const waiting = pause?.waiting ?? [];
  const mine = pause && me !== null && waiting.includes(me);
  const others = waiting.filter((s) => s !== me).map((s) => names[s]);
  const footer = pause
    ? el("div", { class: "row summary-next" },
      mine && el("button", { type: "button", class: "primary", dataset: { testid: "next-deal" }, text: t("summary.next_deal"), onclick: onNext }),
      el("span", { class: "muted", dataset: { testid: "next-deal-wait" } },
        others.length ? `${t("summary.waiting_for", { names: others.join(", ") })} ` : "", t("summary.starts_in"), " ",
        el("span", { class: "next-deal-left", dataset: { testid: "next-deal-left" } }, `${Math.ceil(pause.deadline)}`), " ", t("summary.seconds")))
    : null;
  const byOwner = new Map();
  for (const meld of result.melds ?? []) {
    if (!byOwner.has(meld.owner)) byOwner.set(meld.owner, []);
    byOwner.get(meld.owner).push(meld);
  }
  return el("section", {
    class: "deal-summary" + (pause ? " paused" : ""), role: "dialog", "aria-label": t("summary.title", { n: result.deal + 1 }),
    dataset: { testid: "deal-summary", deal: String(result.deal + 1) },
  },
  el("div", { class: "row spread" },
    el("h3", { text: t("summary.heading", { n: result.deal + 1, reason }) }),
    onClose && el("button", { type: "button", class: "small", text: "✕", title: t("common.close"), "aria-label": t("summary.close"), dataset: { testid: "deal-summary-close" }, onclick: onClose })),
  el("ol", { class: "summary-hands", dataset: { testid: "summary-hands" } }, order.map(({ s, score }) => el("li", { dataset: { testid: `summary-seat-${s}` } },
    el("div", { class: "summary-who" },
      el("span", { class: `swatch seat-${s % 8}` }),
      el("strong", { class: "name", text: names[s] }),
      el("span", { text: ` ${t("summary.points", { count: result.points?.[s] ?? score, total: totals[s] })}` }),
      result.went_out === s && el("span", { class: "badge down", text: t("scores.went_out") }),
      result.cut_bonus_seat === s && el("span", { class: "badge", dataset: { testid: "summary-cut-bonus" }, text: t("summary.cut_bonus", { bonus: score - (result.points?.[s] ?? score) }) })),
    el("div", { class: "summary-cards" }, (result.hands?.[s] ?? []).length
      ? result.hands[s].map((c) => cardElement(c, { small: true, testid: "summary-card" }))
      : el("span", { class: "muted", text: t("summary.no_cards") }))))),
  byOwner.size > 0 && el("details", { class: "summary-melds", open: true, dataset: { testid: "summary-melds" } },
    el("summary", { text: t("summary.melds", { count: result.melds.length }) }),
    [...byOwner.entries()].map(([owner, melds]) => el("div", { class: "summary-meld-group" },
      el("span", { class: `swatch seat-${owner % 8}` }), el("strong", { class: "name", text: names[owner] }),
      melds.map((meld) => el("div", {
        class: "meld small", title: meldName(meld), role: "group", "aria-label": meldName(meld),
        dataset: { testid: "summary-meld", owner: String(owner) },
      },
        meld.cards.map((c) => cardElement(c, { small: true }))))))),
  footer);
}
