// The table page: a player's seat (/play/{seat_token}) or the public view (/watch/{spectator_token}).
// It shows the latest state (a `state` message, or the one a `delta` makes of the state held) and sends
// actions built from the `legal` list.

import { el, getJSON, links, postJSON, refusalText, rememberSeat, seatEntry, socketUrl, tokenFromLocation } from "./api.js";
import { cardName, pretty } from "./cards.js";
import { Hand } from "./hand.js";
import { Builder, renderBuilder } from "./builder.js";
import { renderBuyWindow, renderMelds, renderPiles, renderSeats, seatName } from "./board.js";
import { renderControls, renderGoDownOptions, renderLayOffTargets, statusText } from "./controls.js";
import { dealSummary, scoreChart, scoreTable } from "./scores.js";
import { TableSocket } from "./socket.js";
import { applyPatch, PatchError } from "./patch.js";
import { setUpCardColours } from "./prefs.js";
import { renderCoachButtons, renderHint } from "./coach.js";
import { listWords, t } from "./i18n.js";
import { phrasesText } from "./phrases.js";
import { contractText, fieldLine, loadFields } from "./rules-form.js";
import { TableTalk } from "./talk.js";

const $ = (id) => document.getElementById(id);
const seatToken = tokenFromLocation("play", "seat");
const watchToken = seatToken ? null : tokenFromLocation("watch", "watch");
const entry = seatToken ? seatEntry(seatToken) : null;
const LOG_LINES = 150;
const FIRST_ONLY = ["rules", "resumed", "talk"]; // what only the first state after connecting carries
const HINT_REFUSALS = new Set(["hints_off", "not_your_move", "hint_pending", "hint_failed", "no_coach"]);

const app = {
  view: null,
  rules: null,
  tableId: null,
  hand: new Hand(`liverpool.hand.${seatToken ?? "watch"}`),
  builder: new Builder(),
  ui: { pendingEnds: null, summary: null, builderOpen: false, mustAct: false },
  coach: { pending: false, hint: null },
  seq: -1,
  eventSeq: -1,
  people: null,
  unnamed: [],
  resultsSeen: null,
  announced: null,
  deadlineAt: null,
  nextDealAt: null,
  clock: null,
  held: null, // the last state as the server sent it (deltas apply to it), without FIRST_ONLY
  resyncing: false,
  resyncs: 0,
  socket: null,
  session: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`,
  sent: 0,
};

// -- sending --------------------------------------------------------------------------------------

/** A new id for an action: the server applies an id once, however often it is sent. */
function actionId() {
  app.sent += 1;
  return `${app.session}-${app.sent}`;
}

/** Send an action bound to the state it was chosen in (a table that moved on answers `stale`). */
function act(action) {
  if (!app.socket?.send({ type: "action", action, seq: app.seq, id: actionId() })) {
    showError(t("table.not_connected"));
    return;
  }
  app.ui.pendingEnds = null;
  document.body.dataset.pending = String(app.seq);
}

/** The Rules panel: the table's ruleset in words, as the engine writes it (GET /api/tables/{id}/rules). */
async function showRules() {
  const panel = $("rules-panel");
  if (!panel.open || panel.dataset.loaded === app.tableId || !app.tableId) return;
  try {
    const rules = await getJSON(`/api/tables/${encodeURIComponent(app.tableId)}/rules`);
    const registry = await loadFields();
    // The engine's sentences in its own language; in another, each field the group speaks of by its value.
    const lines = ({ sentences, fields }) => (t("server.words") === "yes" ? sentences
      : fields.map((name) => fieldLine(registry.find((f) => f.name === name), rules.rules, rules.note_keys)));
    $("rules-text").replaceChildren(
      el("p", { class: "rules-title", text: rules.title }),
      ...rules.groups.map((group) => el("div", { class: "rules-group", dataset: { testid: "rules-group" } },
        el("h4", { text: t(`group.${group.key}`) }),
        el("ul", {}, lines(group).map((text) => el("li", { text }))))));
    panel.dataset.loaded = app.tableId;
  } catch (error) {
    $("rules-text").replaceChildren(el("p", { class: "error", text: t("table.rules_failed", { error: error.message }) }));
  }
}

function showError(text) {
  const box = $("error");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 8000);
}

function logLine(text, kind = "event") {
  const log = $("log");
  log.append(el("li", { class: kind, text }));
  while (log.children.length > LOG_LINES) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

/**
 * A log line the server sent (an event or a note), said from its phrases (`words`) in the page's language
 * (a note stored before notes had phrases has only its English `text`). The lines sent on connect come
 * before the first state: they wait for the seats' names.
 */
function logMessage(message, kind) {
  if (!app.people) {
    app.unnamed.push([message, kind]);
    return;
  }
  logLine(message.words ? phrasesText(message.words, (s) => seatName(app.people, s)) : message.text ?? "", kind);
}

// -- incoming messages ----------------------------------------------------------------------------

function onState(message) {
  const obs = message.observation;
  if (message.rules) app.rules = message.rules;
  if (message.table_id) app.tableId = message.table_id;
  if (message.talk) app.talk.onTalk(message.talk);
  app.people = { names: message.names ?? [], bots: message.bots ?? [] };
  for (const [waiting, kind] of app.unnamed.splice(0)) logMessage(waiting, kind);
  app.talk.setPeople(message.names ?? [], message.seat ?? null);
  if (!obs) {
    onWaiting(message);
    return;
  }
  const first = app.view === null;
  if (typeof message.seq === "number") app.seq = message.seq;
  if (seatToken && first) {
    rememberSeat({ token: seatToken, table_id: app.tableId, seat: message.seat, name: message.names?.[message.seat] ?? entry?.name });
  }
  app.view = {
    obs,
    legal: message.legal,
    names: message.names,
    bots: message.bots,
    away: message.away,
    connected: message.connected,
    me: message.seat ?? null,
    rules: app.rules,
    hand: app.hand,
    rematch: Boolean(message.rematch),
    nextDeal: message.next_deal ?? null,
    assist: message.assist ?? null,
    tutorial: message.tutorial ?? null,
  };
  app.hand.update(obs.hand ?? [], first);
  app.builder.sync(obs.contract ?? [], obs.hand ?? [], app.seq);
  app.deadlineAt = typeof message.deadline === "number" ? Date.now() + message.deadline * 1000 : null;
  app.nextDealAt = message.next_deal ? Date.now() + message.next_deal.deadline * 1000 : null;
  app.clock = message.clock ? { ...message.clock, at: Date.now() } : null;
  noticeResults(obs, first);
  noticeAnnouncements(obs);
  const pending = app.ui.pendingEnds;
  if (pending && !app.view.legal.some((a) => a.type === "lay_off" && a.card === pending.card && a.meld === pending.meld)) {
    app.ui.pendingEnds = null;
  }
  const pendingSince = document.body.dataset.pending;
  if (pendingSince !== undefined && app.seq > Number(pendingSince)) delete document.body.dataset.pending;
  render();
}

/** Before the game starts (seats still free) there is no observation: show who is here. */
function onWaiting(message) {
  if (typeof message.seq === "number") app.seq = message.seq;
  const view = { names: message.names ?? [], bots: message.bots ?? [] };
  const seats = view.names.length;
  const taken = view.names.filter((n, s) => n || view.bots[s]).length;
  $("status").textContent = t("table.waiting_status", { taken, count: seats });
  $("contract").textContent = t("table.waiting_title");
  $("seats").replaceChildren(...view.names.map((_, s) => el("div", {
    class: "seat" + (s === message.seat ? " mine" : ""), dataset: { testid: `seat-${s}`, seat: String(s) },
  }, el("strong", { text: view.names[s] || view.bots[s] ? seatName(view, s) : t("table.free_seat") }),
  s === message.seat && el("span", { class: "badge", text: t("board.you") }),
  view.bots[s] && el("span", { class: "badge bot", text: t("board.bot_badge", { bot: t(`bot.${view.bots[s]}`) }) }))));
  $("me").hidden = true;
  const invite = entry?.invite ? new URL(`/join/${encodeURIComponent(entry.invite)}`, location.origin).href : null;
  $("melds").replaceChildren(el("div", { class: "waiting", dataset: { testid: "waiting" } },
    el("p", { text: t("table.seats_free", { count: seats - taken }) }),
    invite && el("p", {}, t("table.send_invite"), " ",
      el("input", {
        type: "text", readonly: true, value: invite, "aria-label": t("table.invite_link"), dataset: { testid: "waiting-invite" },
        onclick: (e) => e.target.select(),
      }))));
  const body = document.body.dataset;
  body.seq = String(app.seq);
  body.phase = "waiting";
  body.myTurn = "0";
  body.mustAct = "0";
  delete body.pending;
}

function noticeResults(obs, first) {
  const count = obs.results.length;
  if (obs.phase === "game_over") app.ui.summary = null;
  else if (!first && app.resultsSeen !== null && count > app.resultsSeen) app.ui.summary = obs.results[count - 1];
  app.resultsSeen = count;
}

function noticeAnnouncements(obs) {
  const now = new Set(obs.seats.filter((s) => s.announced).map((s) => s.seat));
  if (app.announced) {
    for (const s of now) {
      if (!app.announced.has(s)) {
        const count = obs.seats[s].hand_count;
        logLine(t("table.announces", { name: seatName(app.view, s), count }), "announce");
      }
    }
  }
  app.announced = now;
}

/** Apply a `delta` on the state held; one on another base, or one that does not apply, asks for the whole
 * state once (the deltas until it comes are dropped). */
function onDelta(message) {
  if (app.resyncing) return;
  let next = null;
  if (app.held && message.base === app.held.seq) {
    try {
      next = applyPatch(app.held, message.patch);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
    }
  }
  if (next === null || next.seq !== message.seq) {
    app.resyncs += 1;
    document.body.dataset.resyncs = String(app.resyncs);
    app.resyncing = Boolean(app.socket?.send({ type: "resync" }));
    return;
  }
  app.held = next;
  onState(next);
}

function onMessage(message) {
  switch (message.type) {
    case "state":
      app.held = Object.fromEntries(Object.entries(message).filter(([key]) => !FIRST_ONLY.includes(key)));
      app.resyncing = false;
      onState(message);
      break;
    case "delta":
      onDelta(message);
      break;
    case "event":
      if (typeof message.seq === "number") {
        if (message.seq <= app.eventSeq) break;
        app.eventSeq = message.seq;
      }
      logMessage(message, "event");
      break;
    case "hint":
      app.coach = { pending: false, hint: message };
      render();
      break;
    case "note":
      // An undo takes the game back to `at`: the moves played again carry those seqs anew.
      if (message.kind === "undo" && typeof message.at === "number") {
        app.eventSeq = Math.min(app.eventSeq, message.at - 1);
        app.coach = { pending: false, hint: null };
      }
      logMessage(message, `note ${message.kind ?? ""}`);
      break;
    case "error":
      if (HINT_REFUSALS.has(message.reason)) app.coach = { pending: false, hint: null };
      delete document.body.dataset.pending;
      showError(message.reason === "stale" ? t("table.stale") : refusalText(message.reason, message.message, message, app.people ? (s) => seatName(app.people, s) : undefined));
      break;
    case "chat":
      app.talk.onChat(message);
      break;
    case "ack":
      break;
    default:
      break;
  }
}

function onStatus(status, reason) {
  const node = $("connection");
  node.dataset.status = status;
  node.textContent = status === "gone" && reason ? t("connection.gone_why", { reason: refusalText(reason, null) })
    : t(`connection.${status}`);
  document.body.dataset.connection = status;
  if (status === "open") {
    app.held = null; // a new connection starts with the whole state
    app.resyncing = false;
  }
}

// -- rendering ------------------------------------------------------------------------------------

function handMarks(view) {
  const { obs, legal } = view;
  const assigned = app.builder.assigned();
  const layOff = new Set(legal.filter((a) => a.type === "lay_off").map((a) => a.card));
  const swap = new Set(legal.filter((a) => a.type === "swap_joker").map((a) => a.card));
  return (card) => {
    const classes = [];
    let tag = null, title = null, onClick = null;
    if (layOff.has(card)) { classes.push("can-lay-off"); tag = "⊕"; }
    if (swap.has(card)) classes.push("can-swap");
    if (card === obs.taken) { classes.push("taken"); title = t("hand.just_taken", { card: pretty(card) }); }
    if (card === obs.must_place) { classes.push("must-place"); title = t("hand.must_place_now", { card: pretty(card) }); }
    else if ((obs.reclaimed ?? []).includes(card)) { classes.push("must-place"); title = t("hand.must_place_later", { card: pretty(card) }); }
    if (assigned.has(card)) {
      const slot = assigned.get(card);
      classes.push("assigned");
      tag = t(`hand.tag_${obs.contract_melds[slot]?.kind === "run" ? "run" : "set"}`, { n: slot + 1 });
      title = t("hand.in_builder", { card: pretty(card), n: slot + 1 });
      onClick = () => { app.builder.remove(card); render(); };
    }
    return { classes, tag, title, onClick };
  };
}

function renderGoDown(view) {
  const slot = $("godown-slot");
  const { obs, legal, me } = view;
  const options = legal.filter((a) => a.type === "go_down");
  const myPlay = me !== null && obs.phase === "play" && obs.current === me && !obs.seats[me].down;
  if (!myPlay) {
    slot.replaceChildren();
    return;
  }
  const builder = renderBuilder(app.builder, {
    selected: app.hand.selected,
    onAdd: (i) => { app.builder.add(i, [...app.hand.selected]); app.hand.selected.clear(); render(); },
    onRemove: (card) => { app.builder.remove(card); render(); },
    onChoice: (i, value) => { app.builder.choices[i] = value; render(); },
    onClear: () => { app.builder.clear(); render(); },
    onGoDown: (action) => act(action),
  });
  if (seatToken && !app.builder.current()) {
    app.builder.check(seatToken)
      .then((changed) => { if (changed) render(); })
      .catch((error) => showError(t("builder.ask_failed", { error: error.message })));
  }
  const details = el("details", { class: "builder-details", open: app.ui.builderOpen, dataset: { testid: "builder-toggle" } },
    el("summary", { text: t("builder.toggle"), dataset: { testid: "builder-summary" } }), builder);
  details.addEventListener("toggle", () => { app.ui.builderOpen = details.open; });
  slot.replaceChildren(el("section", { class: "panel godown" },
    el("h3", { text: t("table.go_down_title", { contract: contractText(obs.contract_melds) }) }),
    options.length
      ? renderGoDownOptions(options, act, (melds) => {
        app.builder.load(melds, obs.contract_melds.map((m) => m.kind));
        app.ui.builderOpen = true;
        render();
      })
      : el("p", { class: "muted", dataset: { testid: "no-godown" }, text: t("table.no_godown") }),
    details));
}

function renderHeader(view) {
  const { obs } = view;
  const total = app.rules?.deals?.length;
  const ended = view.nextDeal ? obs.results.at(-1) : null;
  const dealNo = (n) => (total ? t("header.deal_of", { n, total }) : t("header.deal", { n }));
  const dealText = obs.phase === "game_over" ? t("header.game_over")
    : ended ? t("header.deal_over", { deal: dealNo(ended.deal + 1) }) : dealNo(obs.deal + 1);
  const contract = $("contract");
  const words = contractText(obs.contract_melds);
  const next = obs.contract_melds.length ? ` · ${ended ? t("header.next_contract", { contract: words }) : words}` : "";
  contract.textContent = `${dealText}${next} · ${app.rules?.title ?? obs.ruleset}`;
  contract.dataset.deal = String(obs.deal + 1);
  const mine = view.legal.length > 0;
  document.title = `${mine ? "● " : ""}${t("header.page_title", { deal: dealText })}`;
}

function renderResults(view) {
  const { obs, names } = view;
  const section = $("results");
  const over = obs.phase === "game_over";
  section.hidden = !over;
  $("table-grid").hidden = over;
  $("me").hidden = over || view.me === null;
  if (!over) return;
  const seatNames = obs.seats.map((_, s) => seatName(view, s));
  const winners = obs.winners ?? [];
  const order = obs.totals.map((t, s) => ({ s, t })).sort((a, b) => a.t - b.t);
  const rematch = seatToken && el("button", {
    type: "button", class: "primary", dataset: { testid: "results-rematch" },
    text: view.rematch ? t("results.join_rematch") : t("results.rematch"),
    title: view.rematch ? t("results.join_rematch_title") : t("results.rematch_title"),
    onclick: async (event) => {
      event.currentTarget.disabled = true;
      try {
        const answer = await postJSON(`/api/seat/${encodeURIComponent(seatToken)}/rematch`);
        rememberSeat({ token: answer.seat_token, table_id: answer.table_id, seat: view.me, name: names[view.me] });
        window.location.href = answer.seat_url ? new URL(answer.seat_url, location.origin).pathname : links.play(answer.seat_token);
      } catch (error) {
        showError(t("results.rematch_failed", { error: error.message }));
      }
    },
  });
  section.replaceChildren(
    el("h2", { dataset: { testid: "results-winners" },
      text: winners.length ? t("results.winners", { names: listWords(winners.map((s) => seatNames[s])), count: winners.length }) : t("results.over") }),
    el("ol", { class: "standings", dataset: { testid: "standings" } }, order.map(({ s, t: total }) =>
      el("li", { class: winners.includes(s) ? "winner" : "" },
        el("span", { class: `swatch seat-${s % 8}` }),
        el("strong", { text: seatNames[s] }), ` ${t("results.points", { count: total })}`))),
    el("div", { class: "results-body" },
      scoreTable(obs.results, obs.totals, seatNames, { testid: "final-scores", winners }),
      scoreChart(obs.results, seatNames, { width: 420, height: 220 })),
    el("div", { class: "row" },
      app.tableId && el("a", { class: "button", href: links.replay(app.tableId), dataset: { testid: "results-replay" }, text: t("results.replay") }),
      app.tableId && el("a", { class: "button", href: links.review(app.tableId, view.me), dataset: { testid: "results-review" }, text: t("coach.review") }),
      app.tableId && el("a", {
        class: "button", href: links.record(app.tableId), download: `liverpool-${app.tableId}.json`,
        dataset: { testid: "results-record" }, text: t("common.download_record"),
      }),
      rematch,
      el("a", { class: "button quiet", href: links.lobby(), text: t("results.lobby") })));
}

/** The summary of the deal that just ended: held up by the server until everyone pressed Next deal
 * (`next_deal`), or, at a table that does not pause, shown until closed. */
function renderSummary(view) {
  const slot = $("summary-slot");
  const pause = view.nextDeal;
  if (!pause) app.ui.nextPressed = false;
  // A summary everyone has seen under the pause goes with it (it would hide the next deal's table on a phone).
  if (pause) app.ui.summary = null;
  const result = pause ? view.obs.results.at(-1) : app.ui.summary;
  document.body.classList.toggle("summary-up", Boolean(pause));
  if (!result) {
    slot.replaceChildren();
    return;
  }
  const names = view.obs.seats.map((_, s) => seatName(view, s));
  const totals = view.obs.results.slice(0, result.deal + 1).reduce(
    (acc, r) => acc.map((t, s) => t + r.scores[s]), names.map(() => 0));
  slot.replaceChildren(dealSummary(result, names, totals, {
    pause,
    me: app.ui.nextPressed ? null : view.me,
    onNext: (event) => {
      if (!app.socket?.send({ type: "next_deal" })) {
        showError(t("table.not_connected"));
        return;
      }
      app.ui.nextPressed = true;
      render();
    },
    onClose: pause ? null : () => { app.ui.summary = null; render(); },
  }));
}

/** Bring the piles into sight as the viewer's turn starts or a May I? offer opens for them: the table's grid
 * may have been scrolled away from them (on a phone to the seats below the piles, or to the log). */
function showPiles() {
  const piles = document.querySelector(".piles");
  const scroller = piles?.closest(".table-grid");
  if (!scroller) return;
  const box = piles.getBoundingClientRect();
  const room = scroller.getBoundingClientRect();
  // From the table's top when the piles are in sight there: on a wide screen the seats stand beside them.
  if (scroller.scrollTop > 0 && box.bottom + scroller.scrollTop <= room.bottom) {
    scroller.scrollTop = 0;
    return;
  }
  if (box.top >= room.top && box.bottom <= room.bottom) return;
  scroller.scrollBy({ top: box.top - room.top, behavior: "instant" });
}

/** Bring the melds the selected card can go on into sight (on a phone they may be scrolled away, or lie
 * under the piles, which stay at the top of the scrolling area there). */
function showTargets() {
  const targets = [...document.querySelectorAll("[data-testid=meld].target, [data-testid=meld].swap-target")];
  const piles = document.querySelector(".piles");
  const top = piles && getComputedStyle(piles).position === "sticky" ? piles.getBoundingClientRect().bottom : 0;
  const bottom = $("me").hidden ? window.innerHeight : $("me").getBoundingClientRect().top;
  if (!targets.length) return;
  // Bring every target between the sticky piles and the hand when they fit there together, else the first.
  const boxes = targets.map((node) => node.getBoundingClientRect());
  const first = Math.min(...boxes.map((b) => b.top));
  const last = Math.max(...boxes.map((b) => b.bottom));
  if (first >= top && last <= bottom) return;
  const span = last - first <= bottom - top ? { top: first, bottom: last } : boxes[0];
  const by = span.top < top ? span.top - top : span.bottom - bottom;
  // The table's grid scrolls, not the window (the page itself never does: body.table-page hides overflow).
  const scroller = targets[0].closest(".table-grid") || document.scrollingElement;
  scroller.scrollBy({ top: by, behavior: "instant" });
}

/** Whether the viewer must act now (their turn, an open May I? offer, or Next deal under a deal's
 * summary), not merely may (a call). */
function mustAct(view) {
  const { obs, legal, me } = view;
  if (view.nextDeal) return me !== null && view.nextDeal.waiting.includes(me) && !app.ui.nextPressed;
  if (me === null || !legal.length) return false;
  if (obs.phase === "buy") return obs.window.includes(me) && !obs.window_answers.some(([s]) => s === me);
  return obs.current === me && (obs.phase === "draw" || obs.phase === "play");
}

function renderDeadline() {
  const node = $("deadline");
  if (app.deadlineAt === null) {
    node.hidden = true;
    return;
  }
  const left = Math.max(0, Math.round((app.deadlineAt - Date.now()) / 1000));
  node.hidden = false;
  node.textContent = t("table.deadline", { left });
}

/** Whose turn it is and for how long, from the server's clock (and the time left under a turn limit). */
function renderClock() {
  const node = $("clock");
  const clock = app.clock;
  if (!clock || !app.view) {
    node.hidden = true;
    return;
  }
  const passed = (Date.now() - clock.at) / 1000;
  const elapsed = Math.floor(clock.elapsed + passed);
  const who = clock.seat === app.view.me ? t("clock.yours") : t("clock.theirs", { name: seatName(app.view, clock.seat) });
  const left = clock.left === null ? "" : ` · ${t("clock.left", { left: Math.max(0, Math.ceil(clock.left - passed)) })}`;
  node.hidden = false;
  node.textContent = clock.expired
    ? t("clock.expired", { who })
    : `${who} · ${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, "0")}${left}`;
}

function renderNextDealLeft() {
  const node = document.querySelector("[data-testid=next-deal-left]");
  if (node && app.nextDealAt !== null) node.textContent = String(Math.max(0, Math.ceil((app.nextDealAt - Date.now()) / 1000)));
}

/** Where the keyboard focus is, as a control's test id and its place among those of that id: a render
 * draws the table anew, and the focus must not fall back to the page under a keyboard player. */
function focusPlace() {
  const testid = document.activeElement?.dataset?.testid;
  if (!testid) return null;
  const index = [...document.querySelectorAll(`[data-testid="${testid}"]`)].indexOf(document.activeElement);
  return { testid, index };
}

/** Focus the control at that place again when the render replaced it (and nothing else took the focus). */
function restoreFocus(place) {
  if (!place || document.activeElement?.dataset?.testid) return;
  const again = document.querySelectorAll(`[data-testid="${place.testid}"]`)[place.index];
  again?.focus({ preventScroll: true });
}

function render() {
  const place = focusPlace();
  draw();
  restoreFocus(place);
}

function draw() {
  const view = app.view;
  if (!view) return;
  view.rules = app.rules;
  const { obs } = view;
  renderHeader(view);
  $("status").textContent = statusText(view);
  renderDeadline();
  renderClock();
  renderSummary(view);
  renderResults(view);
  renderSeats($("seats"), view);
  renderPiles($("stock"), $("discard"), view, act);
  renderBuyWindow($("buy-window"), view);
  renderMelds($("melds"), view, app.ui, {
    onLayOff: (card, meld, end) => act(end ? { type: "lay_off", card, meld, end } : { type: "lay_off", card, meld }),
    onSwap: (swap) => act({ type: "swap_joker", card: swap.card, meld: swap.meld, joker: swap.joker }),
    onPick: (meld) => {
      const card = app.hand.single();
      const fits = card ? view.legal.filter((a) => a.type === "lay_off" && a.card === card && a.meld === meld) : [];
      if (fits.length === 1) act(fits[0].end ? { type: "lay_off", card, meld, end: fits[0].end } : { type: "lay_off", card, meld });
      else if (fits.length > 1) {
        app.ui.pendingEnds = { card, meld };
        render();
        document.querySelector("[data-testid=layoff-end-low]")?.focus();
      }
    },
  });
  const must = mustAct(view);
  if (must && !app.ui.mustAct && !view.nextDeal) showPiles();
  app.ui.mustAct = must;
  showTargets();
  const scores = $("scores");
  const names = obs.seats.map((_, s) => seatName(view, s));
  scores.replaceChildren(scoreTable(obs.results, obs.totals, names), scoreChart(obs.results, names));
  if (view.me !== null) {
    renderControls($("controls"), view, act);
    if (app.coach.hint && app.coach.hint.seq !== app.seq && !app.coach.pending) app.coach.hint = null;
    renderCoachButtons($("coach-buttons"), view, app.coach, { onHint: askHint, onUndo: askUndo });
    renderHint($("hint"), app.coach, app.seq, (s) => seatName(app.people, s));
    renderGoDown(view);
    renderLayOffTargets($("layoff-strip"), view, act);
    $("hand-title").textContent = t("table.hand_title", { count: obs.hand.length });
    app.hand.render($("hand"), {
      marks: handMarks(view),
      onSelect: () => { app.ui.pendingEnds = null; render(); },
      onChange: render,
      onDouble: (card) => {
        if (view.legal.some((a) => a.type === "discard" && a.card === card)) act({ type: "discard", card });
      },
    });
  }
  const body = document.body.dataset;
  body.seq = String(app.seq);
  body.phase = obs.phase;
  body.myTurn = view.legal.length ? "1" : "0";
  body.mustAct = must ? "1" : "0";
  announce(view);
  renderTutorial(view.tutorial);
  body.seat = view.me === null ? "" : String(view.me);
  body.deal = String(obs.deal);
}

/** A tutorial table's explanation of this moment (the server's step code, tutorial.<key>), and its next control highlighted. */
function renderTutorial(step) {
  const box = $("tutorial");
  box.hidden = !step;
  document.querySelectorAll(".tutorial-next").forEach((node) => node.classList.remove("tutorial-next"));
  if (!step) return;
  // The step's code and the words it names (the server's `text` is its English fallback).
  const { card = null, penalty = 0, contract = [] } = step.params ?? {};
  box.textContent = t(`tutorial.${step.key}`, {
    card: card ? pretty(card) : t("tutorial.top_card"), count: penalty, grows: penalty + 1, contract: listWords(contract, "and"),
  });
  box.dataset.step = step.key;
  if (step.highlight) document.querySelector(`[data-testid="${step.highlight}"]`)?.classList.add("tutorial-next");
}

/** Ask the coach (the answer comes as a `hint` message). */
function askHint() {
  if (!app.socket?.send({ type: "hint" })) {
    showError(t("table.not_connected"));
    return;
  }
  app.coach = { pending: true, hint: null };
  render();
}

/** Ask to take back the last decision (the server answers with an `undo` note and the state, or why not). */
function askUndo() {
  if (!app.socket?.send({ type: "undo" })) showError(t("table.not_connected"));
}

// -- keyboard and screen readers ------------------------------------------------------------------

// A key presses the control of the same action, when it is there and enabled (see the help dialog).
const KEYS = {
  s: ["draw-stock"], t: ["take-discard"], b: ["buy"], p: ["pass"], d: ["discard-button"], e: ["end-turn"],
  c: ["call-rummy", "call-liverpool"], n: ["next-deal"], h: ["hint"], u: ["undo"],
};

/** The control with this test id, if it is drawn and enabled. */
function usable(testid) {
  const control = document.querySelector(`[data-testid=${testid}]`);
  return control && !control.disabled && control.offsetParent !== null ? control : null;
}

/** Press the one choice there is, or, with several, move the focus to the first (Tab goes through them). */
function chooseOrFocus(choices) {
  if (choices.length === 1) choices[0].click();
  else choices[0]?.focus();
  return choices.length > 0;
}

/** The keys of the lay-off, the joker swap and the going-down builder: true when one was used. */
function boardKey(key) {
  if (key === "l") return chooseOrFocus([...document.querySelectorAll("[data-testid=meld].target")]);
  if (key === "j") return chooseOrFocus([...document.querySelectorAll("[data-testid^=swap-option-]")]);
  const builder = document.querySelector("[data-testid=builder-toggle]");
  if (key === "m" && builder) {
    app.ui.builderOpen = !builder.open;
    render();
    if (app.ui.builderOpen) document.querySelector("[data-testid=builder-summary]")?.focus();
    return true;
  }
  if (key === "g") {
    const open = builder?.open;
    const control = open ? usable("builder-go-down") : usable("godown-option-0");
    control?.click();
    return Boolean(control) || Boolean(open);
  }
  if (/^[1-9]$/.test(key) && builder?.open) {
    const add = usable(`builder-add-${Number(key) - 1}`);
    add?.click();
    return Boolean(add);
  }
  return false;
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  if (event.key === "?") {
    const help = $("keys-help");
    if (help.open) help.close();
    else help.showModal();
    event.preventDefault();
    return;
  }
  const key = event.key.toLowerCase();
  if (boardKey(key)) {
    event.preventDefault();
    return;
  }
  for (const testid of KEYS[key] ?? []) {
    const control = usable(testid);
    if (control) {
      event.preventDefault();
      control.click();
      return;
    }
  }
}

/**
 * Say through the live region, once per change: whose turn it is now (by name, to seats and spectators
 * alike), a May I? window opening (with what this seat may do in it), a deal's end.
 */
function announce(view) {
  const { obs } = view;
  const top = obs.discard_pile.at(-1);
  const card = top ? cardName(top) : t("announce.the_discard");
  let key = null, text = "";
  if (view.nextDeal) {
    key = `end:${obs.deal}`;
    const n = obs.results.at(-1).deal + 1;
    text = mustAct(view) ? t("announce.deal_over", { n }) : t("summary.title", { n });
  } else if (obs.phase === "buy") {
    key = `buy:${obs.deal}:${obs.turn}`;
    text = mustAct(view) ? t("announce.buy", { card }) : t("announce.buy_open", { card });
  } else if (obs.phase === "draw" || obs.phase === "play") {
    key = `turn:${obs.deal}:${obs.turn}:${obs.current}`;
    text = obs.current === view.me ? statusText(view) : t("announce.turn", { name: seatName(view, obs.current) });
  }
  if (key === null || key === app.announcedTurn) return;
  app.announcedTurn = key;
  $("announce").textContent = text;
}

// -- start ----------------------------------------------------------------------------------------

function start() {
  const path = seatToken ? `/ws/play/${encodeURIComponent(seatToken)}` : watchToken ? `/ws/watch/${encodeURIComponent(watchToken)}` : null;
  if (!path) {
    showError(t("table.no_token"));
    return;
  }
  setUpCardColours($("card-colours"));
  document.addEventListener("keydown", onKey);
  $("keys-button").addEventListener("click", () => $("keys-help").showModal());
  document.body.classList.toggle("spectator", !seatToken);
  $("watching").hidden = Boolean(seatToken);
  if (!seatToken) $("watching").title = t("table.watching_title");
  $("me").hidden = true;
  $("sort-suit").addEventListener("click", () => { app.hand.sort("suit"); render(); });
  $("sort-rank").addEventListener("click", () => { app.hand.sort("rank"); render(); });
  $("rules-panel").addEventListener("toggle", showRules);
  app.talk = new TableTalk($("talk"), {
    send: (message) => app.socket?.send(message) ?? false, table: () => app.tableId ?? "", showError,
  });
  app.socket = new TableSocket(socketUrl(path), { onMessage, onStatus, since: () => (app.seq >= 0 ? app.seq : null) });
  app.socket.connect();
  setInterval(() => { renderDeadline(); renderNextDealLeft(); renderClock(); }, 1000);
}

start();
