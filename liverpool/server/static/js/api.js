// HTTP helpers, the seat tokens this browser keeps, and the page links (docs/protocol.md).

import { has, t } from "./i18n.js";
import { faultText } from "./phrases.js";

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** A refusal's message as a sentence: a capital first letter and a full stop. */
export function sentence(text) {
  const trimmed = String(text).trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * A refusal ({reason, message}, docs/protocol.md) in the page's language: the server's own words when they
 * are in it (the catalogue's `server.words`), else the engine's fault in words, else the catalogue's
 * sentence for the reason code; `nameOf(seat)` names a seat a fault speaks of.
 */
export function refusalText(reason, message, details = {}, nameOf = undefined) {
  if (message && t("server.words") === "yes") return sentence(message);
  if (details.fault) return sentence(faultText(details.fault, nameOf));
  if (reason === "invalid" && details.errors?.length) return details.errors.map(problemText).join(" ");
  if (reason === "bad_rules" && details.rule) return houseRuleText(details);
  if (reason && has(`reason.${reason}`)) return t(`reason.${reason}`, details);
  return sentence(t("error.refused", { reason: reason ?? "" }));
}

/**
 * One problem of a 422 ({input, kind, limit}) in words: the form's field by its name (the request as a
 * whole when it is none of them), what is wrong with it (a kind of pydantic's error the forms cannot
 * cause is said as `invalid.other`) and the bound it broke.
 */
function problemText({ input, kind, limit }) {
  const field = has(`input.${input}`) ? t(`input.${input}`) : t("input.request");
  return has(`invalid.${kind}`) ? t(`invalid.${kind}`, { field, limit }) : t("invalid.other", { field });
}

/**
 * A refused house rule ({rule, problem, limit}: the server's `bad_rules` details) in words: the rule by its
 * field's name, what is wrong with it (a `RulesetProblem`, or `other`) and the bound it broke.
 */
function houseRuleText({ rule, problem, limit }) {
  const name = has(`field.${rule}`) ? t(`field.${rule}`) : rule;
  return has(`bad_rules.${problem}`) ? t(`bad_rules.${problem}`, { rule: name, limit }) : t("bad_rules.other", { rule: name });
}

function errorText(status, body) {
  return refusalText(body?.reason ?? `http_${status}`, body?.message, typeof body === "object" && body ? body : {});
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw new ApiError(response.status, errorText(response.status, data), data);
  return data;
}

export const getJSON = (path) => request("GET", path);
export const postJSON = (path, body = {}) => request("POST", path, body);

// -- the server's limits on what the forms send -----------------------------------------------------

let limitsAnswer = null;

/** The bounds of each form's fields (GET /api/limits: the server's request schemas), fetched once. */
export function formLimits() {
  limitsAnswer ??= getJSON("/api/limits");
  return limitsAnswer;
}

/**
 * Put the server's bounds on every input under `root` that names its field as data-limit="form.field"
 * (min, max, minlength, maxlength), so the page holds no copy of a limit.
 */
export async function applyLimits(root = document) {
  const limits = await formLimits();
  for (const input of root.querySelectorAll("[data-limit]")) {
    const [form, field] = input.dataset.limit.split(".");
    const bounds = limits[form]?.[field] ?? {};
    if ("minimum" in bounds) input.min = String(bounds.minimum);
    if ("maximum" in bounds) input.max = String(bounds.maximum);
    if ("exclusiveMaximum" in bounds) input.max = String(bounds.exclusiveMaximum - 1);
    if ("minLength" in bounds) input.minLength = bounds.minLength;
    if ("maxLength" in bounds) input.maxLength = bounds.maxLength;
  }
}

// -- seat tokens kept in localStorage -------------------------------------------------------------

const SEATS_KEY = "liverpool.seats";

/** Every seat this browser holds: [{token, table_id, seat, name, url, joined}] newest first. */
export function mySeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(SEATS_KEY) ?? "[]");
    return Array.isArray(seats) ? seats.filter((s) => s && typeof s.token === "string") : [];
  } catch {
    return [];
  }
}

export function rememberSeat(entry) {
  const others = mySeats().filter((s) => s.token !== entry.token);
  const previous = mySeats().find((s) => s.token === entry.token) ?? {};
  const merged = { ...previous, ...entry, joined: previous.joined ?? Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify([merged, ...others]));
}

export function seatEntry(token) {
  return mySeats().find((s) => s.token === token) ?? null;
}

export function forgetSeat(token) {
  localStorage.setItem(SEATS_KEY, JSON.stringify(mySeats().filter((s) => s.token !== token)));
}

// -- links ----------------------------------------------------------------------------------------

export const links = {
  lobby: () => "/",
  join: (invite) => `/join/${encodeURIComponent(invite)}`,
  play: (seatToken) => `/play/${encodeURIComponent(seatToken)}`,
  watch: (spectatorToken) => `/watch/${encodeURIComponent(spectatorToken)}`,
  replay: (tableId) => `/replay/${encodeURIComponent(tableId)}`,
  record: (tableId) => `/api/tables/${encodeURIComponent(tableId)}/record`,
  review: (tableId, seat) => `/review/${encodeURIComponent(tableId)}?seat=${seat ?? 0}`,
};

/** An absolute URL for a path on this server (for sharing). */
export function absolute(path) {
  return new URL(path, window.location.origin).href;
}

/**
 * The token a page was opened with: the path segment after `prefix` (`/play/TOKEN`), or the query
 * parameter `param` when the page is opened as a static file (`table.html?seat=TOKEN`).
 */
export function tokenFromLocation(prefix, param) {
  const parts = window.location.pathname.split("/").filter(Boolean);
  const at = parts.indexOf(prefix);
  if (at >= 0 && parts[at + 1]) return decodeURIComponent(parts[at + 1]);
  return new URLSearchParams(window.location.search).get(param);
}

/** The websocket URL for a path on this server. */
export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/** A short element builder: el("div", {class: "x", dataset: {testid: "y"}}, child, "text"). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}
