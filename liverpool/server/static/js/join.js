// Join a table by its invite: pick a free seat and a display name, keep the seat token, go to the
// private seat link.

import { applyLimits, el, getJSON, links, mySeats, postJSON, rememberSeat, tokenFromLocation } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "liverpool.name";
const invite = tokenFromLocation("join", "invite");

function seatLabel(seat) {
  if (seat.bot) return seat.name ?? t("lobby.kind_bot", { bot: t(`bot.${seat.bot}`) });
  if (!seat.free) return seat.name ?? t("join.taken");
  return t("join.free");
}

async function load() {
  if (!invite) {
    $("join-error").textContent = t("join.no_invite");
    return null;
  }
  let info;
  try {
    info = await getJSON(`/api/invite/${encodeURIComponent(invite)}`);
  } catch (error) {
    $("join-error").textContent = error.status === 404 ? t("join.no_table") : error.message;
    return null;
  }
  $("join-rules").textContent = t("join.rules", { title: info.ruleset.title, count: info.seats.length });
  const mine = mySeats().filter((s) => s.table_id === info.table_id);
  if (mine.length) {
    $("mine").hidden = false;
    $("mine").replaceChildren(t("join.mine"), " ",
      ...mine.map((s) => el("a", { href: links.play(s.token), dataset: { testid: "my-seat-link" }, text: t("join.my_seat", { n: s.seat + 1, name: s.name }) })));
  }
  const free = info.seats.filter((s) => s.free);
  $("seat-choices").replaceChildren(...info.seats.map((seat) =>
    el("li", { class: seat.free ? "free" : "taken" },
      el("label", {},
        el("input", {
          type: "radio", name: "seat", value: String(seat.seat), disabled: !seat.free,
          checked: seat === free[0], dataset: { testid: `seat-option-${seat.seat}` },
        }),
        " ", t("join.seat_label", { n: seat.seat + 1 }), " ", el("span", { text: seatLabel(seat) })))));
  if (info.spectator_url) {
    $("watch").hidden = false;
    $("watch-link").href = new URL(info.spectator_url, location.origin).pathname;
  }
  if (!free.length) {
    $("join-error").textContent = t("join.full");
    document.querySelector("[data-testid=join-button]").disabled = true;
  }
  return { info };
}

async function join(event, table) {
  event.preventDefault();
  const chosen = document.querySelector("input[name=seat]:checked");
  const name = $("name").value.trim();
  if (!chosen || !name) {
    $("join-error").textContent = t("join.pick_and_name");
    return;
  }
  const seat = Number(chosen.value);
  try {
    const answer = await postJSON(`/api/invite/${encodeURIComponent(invite)}/join`, { seat, name });
    localStorage.setItem(NAME_KEY, name);
    rememberSeat({ token: answer.seat_token, table_id: table.info.table_id, seat, name, invite });
    window.location.href = answer.seat_url ? new URL(answer.seat_url, location.origin).pathname : links.play(answer.seat_token);
  } catch (error) {
    $("join-error").textContent = error.body?.reason === "seat_taken" ? t("join.seat_taken") : error.message;
    if (error.status === 409) await load();
  }
}

async function start() {
  $("name").value = localStorage.getItem(NAME_KEY) ?? "";
  await applyLimits();
  const table = await load();
  if (table) $("join-form").addEventListener("submit", (e) => join(e, table));
  document.body.dataset.ready = "1";
}

start();
