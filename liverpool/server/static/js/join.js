// Join a table by its invite: pick a free seat and a display name, keep the seat token, go to the
// private seat link.

import { el, getJSON, links, mySeats, postJSON, rememberSeat, tokenFromLocation } from "./api.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "liverpool.name";
const invite = tokenFromLocation("join", "invite");

function seatLabel(seat) {
  if (seat.bot) return seat.name ?? `bot: ${seat.bot}`;
  if (!seat.free) return seat.name ?? "taken";
  return "free";
}

async function load() {
  if (!invite) {
    $("join-error").textContent = "This link has no invite in it.";
    return null;
  }
  let info;
  try {
    info = await getJSON(`/api/invite/${encodeURIComponent(invite)}`);
  } catch (error) {
    $("join-error").textContent = error.status === 404 ? "There is no table for this invite." : error.message;
    return null;
  }
  $("join-rules").textContent = `${info.ruleset.title} · ${info.seats.length} seats`;
  const mine = mySeats().filter((s) => s.table_id === info.table_id);
  if (mine.length) {
    $("mine").hidden = false;
    $("mine").replaceChildren("You already sit at this table: ",
      ...mine.map((s) => el("a", { href: links.play(s.token), dataset: { testid: "my-seat-link" }, text: `seat ${s.seat + 1} (${s.name})` })));
  }
  const free = info.seats.filter((s) => s.free);
  $("seat-choices").replaceChildren(...info.seats.map((seat) =>
    el("li", { class: seat.free ? "free" : "taken" },
      el("label", {},
        el("input", {
          type: "radio", name: "seat", value: String(seat.seat), disabled: !seat.free,
          checked: seat === free[0], dataset: { testid: `seat-option-${seat.seat}` },
        }),
        ` Seat ${seat.seat + 1}: `, el("span", { text: seatLabel(seat) })))));
  if (info.spectator_url) {
    $("watch").hidden = false;
    $("watch-link").href = new URL(info.spectator_url, location.origin).pathname;
  }
  if (!free.length) {
    $("join-error").textContent = "Every seat is taken. You can still watch with the spectator link.";
    document.querySelector("[data-testid=join-button]").disabled = true;
  }
  return { info };
}

async function join(event, table) {
  event.preventDefault();
  const chosen = document.querySelector("input[name=seat]:checked");
  const name = $("name").value.trim();
  if (!chosen || !name) {
    $("join-error").textContent = "Pick a free seat and give your name.";
    return;
  }
  const seat = Number(chosen.value);
  try {
    const answer = await postJSON(`/api/invite/${encodeURIComponent(invite)}/join`, { seat, name });
    localStorage.setItem(NAME_KEY, name);
    rememberSeat({ token: answer.seat_token, table_id: table.info.table_id, seat, name, invite });
    window.location.href = answer.seat_url ? new URL(answer.seat_url, location.origin).pathname : links.play(answer.seat_token);
  } catch (error) {
    $("join-error").textContent = error.body?.reason === "seat_taken" ? "Someone just took that seat; pick another." : error.message;
    if (error.status === 409) await load();
  }
}

async function start() {
  $("name").value = localStorage.getItem(NAME_KEY) ?? "";
  const table = await load();
  if (table) $("join-form").addEventListener("submit", (e) => join(e, table));
  document.body.dataset.ready = "1";
}

start();
