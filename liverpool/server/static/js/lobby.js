// The lobby: create a table (preset, house rules or saved rules; seats and bots), share its links,
// and list this browser's own tables (from the seat tokens in localStorage) with rematch.

import { absolute, applyLimits, el, formLimits, getJSON, links, mySeats, postJSON, rememberSeat, forgetSeat } from "./api.js";
import { fieldLine, loadFields, overrides, rulesForm } from "./rules-form.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const lobby = {
  presets: [],
  fields: [],
  bots: [],
  botStyles: {},
  styles: [],
  defaultStyle: "balanced",
  summaryFields: [],
  saved: [],
  form: null,
  seats: {},
};

function currentPreset() {
  return lobby.presets.find((p) => p.name === $("preset").value) ?? lobby.presets[0];
}

function rulesMode() {
  return document.querySelector("input[name=rules-mode]:checked").value;
}

function savedRules() {
  return lobby.saved.find((s) => s.name === $("saved").value) ?? null;
}

/** The rules the table will play: {preset, rules (overrides)} and the full dict for the seat limits. */
function chosenRules() {
  const preset = currentPreset();
  const mode = rulesMode();
  if (mode === "house" && lobby.form) {
    const full = lobby.form.read();
    const changed = overrides(full, preset.rules);
    const house = Object.keys(changed).some((name) => name !== "name" && name !== "title");
    if (house && !("name" in changed)) changed.name = `${preset.name}-house`;
    if (house && !("title" in changed)) changed.title = t("lobby.house_title", { title: preset.title });
    return { preset: preset.name, rules: changed, full: { ...full, ...changed } };
  }
  if (mode === "saved" && savedRules()) {
    const { rules } = savedRules();
    return { preset: preset.name, rules, full: rules };
  }
  return { preset: preset.name, rules: {}, full: preset.rules };
}

function showPreset() {
  const preset = currentPreset();
  $("preset-title").textContent = preset.title ?? "";
  const summary = t("server.words") === "yes" ? preset.summary ?? []
    : lobby.summaryFields.map((name) => fieldLine(lobby.fields.find((f) => f.name === name), preset.rules, preset.note_keys));
  $("preset-summary").replaceChildren(...summary.map((text) => el("li", { text })));
  lobby.form = rulesForm(preset.rules, lobby.fields);
  $("rules-form-slot").replaceChildren(lobby.form.element);
  fitSeats();
}

function fitSeats() {
  const { full } = chosenRules();
  const input = $("seat-count");
  input.min = Math.max(full.min_players, lobby.seats.minimum);
  input.max = Math.min(full.max_players, lobby.seats.maximum);
  const count = Math.max(Number(input.min), Math.min(Number(input.max), Number(input.value) || 4));
  input.value = count;
  drawSeatKinds(count);
}

function drawSeatKinds(count) {
  const list = $("seat-kinds");
  const before = [...list.querySelectorAll("select.seat-kind")].map((s) => s.value);
  const styled = [...list.querySelectorAll("select.seat-style")].map((s) => s.value);
  list.replaceChildren(...Array.from({ length: count }, (_, seat) => {
    const value = before[seat] ?? "human";
    const kind = el("select", { class: "seat-kind", "aria-label": t("lobby.who_plays", { n: seat + 1 }), dataset: { testid: `seat-kind-${seat}` } },
      el("option", { value: "human", text: t("lobby.kind_human"), selected: value === "human" }),
      lobby.bots.map((bot) => el("option", { value: bot, text: t("lobby.kind_bot", { bot: t(`bot.${bot}`) }), selected: value === bot })));
    const style = el("select", { class: "seat-style", "aria-label": t("lobby.bot_style", { n: seat + 1 }), dataset: { testid: `seat-style-${seat}` } },
      lobby.styles.map((name) => el("option", { value: name, text: t(`style.${name}`), selected: name === (styled[seat] ?? lobby.defaultStyle) })));
    const showStyle = () => { style.hidden = (lobby.botStyles[kind.value] ?? []).length < 2; };
    kind.addEventListener("change", showStyle);
    showStyle();
    return el("li", {}, el("span", { class: "seat-label", text: t("common.seat_n", { n: seat + 1 }) }), kind, style);
  }));
}

async function loadSaved() {
  try {
    const data = await getJSON("/api/rulesets");
    lobby.saved = data.rulesets;
  } catch {
    lobby.saved = [];
  }
  const select = $("saved");
  const keep = select.value;
  select.replaceChildren(...lobby.saved.map((s) =>
    el("option", { value: s.name, text: s.rules.title ? `${s.name} — ${s.rules.title}` : s.name, selected: s.name === keep })));
  document.querySelector("[data-testid=mode-saved]").disabled = lobby.saved.length === 0;
  select.disabled = lobby.saved.length === 0;
}

async function saveRules() {
  const name = $("save-name").value.trim();
  const status = $("save-status");
  if (!name) {
    status.textContent = t("lobby.save_no_name");
    return;
  }
  const preset = currentPreset();
  const rules = { base: preset.name, ...overrides(lobby.form.read(), preset.rules), name };
  try {
    await postJSON("/api/rulesets", { name, rules });
    status.textContent = t("lobby.saved_as", { name });
    await loadSaved();
  } catch (error) {
    status.textContent = error.body?.reason === "name_taken" ? t("lobby.ruleset_taken", { name }) : error.message;
  }
}

async function createTable(event) {
  event.preventDefault();
  const error = $("create-error");
  error.textContent = "";
  const { preset, rules } = chosenRules();
  const bots = {};
  const styles = {};
  document.querySelectorAll("#seat-kinds li").forEach((row, seat) => {
    const kind = row.querySelector("select.seat-kind").value;
    const style = row.querySelector("select.seat-style");
    if (kind !== "human") bots[String(seat)] = kind;
    if (kind !== "human" && !style.hidden && style.value !== lobby.defaultStyle) styles[String(seat)] = style.value;
  });
  const body = {
    preset,
    rules,
    seats: Number($("seat-count").value),
    bots,
    styles,
    away_timeout_s: Number($("away-timeout").value),
    bot_pace_ms: Number($("bot-pace").value),
    buy_timeout_s: Number($("buy-timeout").value),
    next_deal_timeout_s: Number($("next-deal-timeout").value),
    turn_limit_s: Number($("turn-limit").value),
    hints: $("hints").checked,
    spectators_talk: $("spectators-talk").checked,
  };
  try {
    const table = await postJSON("/api/tables", body);
    showCreated(table);
  } catch (err) {
    error.textContent = err.message;
  }
}

function showCreated(table) {
  const invite = table.invite_url ? absolute(table.invite_url) : absolute(links.join(table.invite));
  const spectator = table.spectator_url ? absolute(table.spectator_url) : absolute(links.watch(table.spectator));
  $("invite-link").value = invite;
  $("spectator-link").value = spectator;
  $("take-seat").href = new URL(invite).pathname;
  $("created").hidden = false;
  $("created").dataset.tableId = table.table_id;
  $("created").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

// -- my tables ------------------------------------------------------------------------------------

/** A guided first game (POST /api/tutorial): the server sets the table up and gives this seat's link. */
async function startTutorial(event) {
  event.currentTarget.disabled = true;
  try {
    const seat = await postJSON("/api/tutorial");
    rememberSeat({ token: seat.seat_token, table_id: seat.table_id, seat: seat.seat, name: "newcomer" });
    window.location.href = links.play(seat.seat_token);
  } catch (err) {
    $("tutorial-error").textContent = err.message;
    event.currentTarget.disabled = false;
  }
}

async function rematch(entry, button) {
  button.disabled = true;
  try {
    const answer = await postJSON(`/api/seat/${encodeURIComponent(entry.token)}/rematch`);
    rememberSeat({ token: answer.seat_token, table_id: answer.table_id, seat: entry.seat, name: entry.name });
    window.location.href = answer.seat_url ? new URL(answer.seat_url, location.origin).pathname : links.play(answer.seat_token);
  } catch (error) {
    button.disabled = false;
    button.title = error.message;
    button.textContent = t("lobby.rematch_failed");
  }
}

async function loadMyTables() {
  const seats = mySeats();
  const list = $("my-tables");
  $("my-tables-empty").hidden = seats.length > 0;
  if (!seats.length) {
    list.replaceChildren();
    return;
  }
  let rows;
  try {
    rows = (await getJSON(`/api/my-tables?tokens=${seats.map((s) => encodeURIComponent(s.token)).join(",")}`)).tables;
  } catch (error) {
    list.replaceChildren(el("li", { class: "error", text: t("lobby.tables_failed", { error: error.message }) }));
    return;
  }
  list.replaceChildren(...seats.map((entry) => {
    const row = rows.find((r) => r.seat_token === entry.token);
    if (!row) {
      return el("li", { class: "my-table", dataset: { testid: "my-table", token: entry.token, status: "gone" } },
        el("span", { class: "muted", text: t("lobby.table_gone", { name: entry.name ?? t("lobby.a_seat") }) }),
        el("button", { type: "button", class: "small quiet", text: t("lobby.forget"), onclick: () => { forgetSeat(entry.token); loadMyTables(); } }));
    }
    const over = row.status === "over";
    return el("li", { class: "my-table", dataset: { testid: "my-table", token: entry.token, status: row.status } },
      el("div", { class: "my-table-main" },
        el("a", { href: links.play(entry.token), dataset: { testid: "my-table-open" } },
          `${row.names[row.seat] ?? entry.name} · ${row.title ?? row.ruleset}`),
        el("span", { class: "badge", text: t(`table_status.${row.status}`) }),
        el("span", { class: "muted", text: row.names.map((n, s) => n ?? t("common.seat_n", { n: s + 1 })).join(", ") })),
      el("div", { class: "my-table-actions" },
        over && el("a", { class: "button small", href: links.replay(row.table_id), text: t("lobby.replay") }),
        el("button", {
          type: "button", class: "small", text: row.rematch ? t("lobby.join_rematch") : t("lobby.rematch"), dataset: { testid: "rematch" },
          disabled: !over,
          title: over ? t("lobby.rematch_title") : t("lobby.rematch_later"),
          onclick: (e) => rematch({ ...entry, table_id: row.table_id }, e.currentTarget),
        }),
        el("button", {
          type: "button", class: "small quiet", text: t("lobby.forget"),
          onclick: () => { forgetSeat(entry.token); loadMyTables(); },
        })));
  }));
}

async function start() {
  try {
    const data = await getJSON("/api/presets");
    lobby.presets = data.presets;
    lobby.fields = await loadFields();
    lobby.bots = data.bots;
    lobby.botStyles = data.bot_styles;
    lobby.styles = data.styles;
    lobby.defaultStyle = data.default_style;
    lobby.summaryFields = data.summary_fields;
    lobby.seats = (await formLimits()).create_table.seats;
    await applyLimits();
  } catch (error) {
    $("create-error").textContent = t("lobby.presets_failed", { error: error.message });
    return;
  }
  const select = $("preset");
  select.replaceChildren(...lobby.presets.map((p) =>
    el("option", { value: p.name, text: `${p.name} — ${p.title}`, selected: p.name === "liverpool" })));
  select.addEventListener("change", showPreset);
  document.querySelectorAll("input[name=rules-mode]").forEach((radio) =>
    radio.addEventListener("change", () => {
      $("house").hidden = rulesMode() !== "house";
      fitSeats();
    }));
  $("saved").addEventListener("change", fitSeats);
  $("seat-count").addEventListener("change", fitSeats);
  $("save-rules").addEventListener("click", saveRules);
  $("create-form").addEventListener("submit", createTable);
  $("tutorial").addEventListener("click", startTutorial);
  document.querySelectorAll("button.copy").forEach((button) =>
    button.addEventListener("click", () => {
      const input = $(button.dataset.copy);
      input.select();
      navigator.clipboard?.writeText(input.value).catch(() => {});
      button.textContent = t("lobby.copied");
    }));
  showPreset();
  await loadSaved();
  await loadMyTables();
  document.body.dataset.ready = "1";
}

start();
