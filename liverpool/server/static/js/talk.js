// Table talk (docs/protocol.md#table-talk): a few lines of chat and a row of quick reactions, for the seats
// and (if the table lets them) its spectators. The server sends the last lines in the first state after
// connecting (its `talk`) and then each new one (`chat`); the reactions' list comes from it too. Everything is shown as text, never markup.
// Whom this browser has muted is kept in localStorage, per table.

import { el } from "./api.js";
import { t } from "./i18n.js";

// Every string this module shows, from the message catalogue (docs/i18n.md).
const STRINGS = {
  get title() { return t("talk.title"); },
  get input() { return t("talk.input"); },
  get send() { return t("talk.send"); },
  get reactions() { return t("talk.reactions"); },
  get mute() { return t("talk.mute"); },
  muteWho: (name) => t("talk.mute_who", { name }),
  get spectators() { return t("talk.spectators"); },
  get silent() { return t("talk.silent"); },
  get empty() { return t("talk.empty"); },
  get offline() { return t("table.not_connected"); },
};
/** A reaction's words in this page's language, by its id (the server's English words if there is none). */
const reactionWords = (r) => t(`reaction.${r.id}`);
const KEPT = 100;
const MUTED_KEY = "liverpool.muted";

/** The key a sender is muted by: its seat, or every spectator at once (spectators have no names). */
const senderKey = (seat) => (seat === null || seat === undefined ? "spectators" : `seat-${seat}`);

export class TableTalk {
  /** panel: the element to fill; send(message) sends to the server (false when offline); table(): the
   * table's id; showError(text) shows a refusal. */
  constructor(panel, { send, table, showError }) {
    this.panel = panel;
    this.send = send;
    this.table = table;
    this.showError = showError;
    this.lines = [];
    this.reactions = [];
    this.mayTalk = false;
    this.people = [];
    this.list = el("ol", {
      class: "talk-lines", "aria-live": "polite", "aria-label": STRINGS.title, tabindex: "0", dataset: { testid: "talk-lines" },
    });
    this.input = el("input", {
      type: "text", autocomplete: "off", "aria-label": STRINGS.input, placeholder: STRINGS.input, dataset: { testid: "talk-input" },
    });
    this.form = el("form", { class: "talk-form", dataset: { testid: "talk-form" }, onsubmit: (event) => this.submit(event) },
      this.input, el("button", { type: "submit", class: "small", dataset: { testid: "talk-send" }, text: STRINGS.send }));
    this.buttons = el("div", { class: "talk-reactions", role: "group", "aria-label": STRINGS.reactions, dataset: { testid: "talk-reactions" } });
    this.silent = el("p", { class: "muted", dataset: { testid: "talk-silent" }, text: STRINGS.silent, hidden: true });
    this.mutes = el("div", { class: "talk-mutes" });
    panel.replaceChildren(el("h3", { text: STRINGS.title }), this.list, this.buttons, this.form, this.silent,
      el("details", { class: "talk-mute", dataset: { testid: "talk-mute" } }, el("summary", { text: STRINGS.mute }), this.mutes));
    this.render();
  }

  /** The `talk` of the first state after a (re)connection: the last lines, the reactions, whether this viewer may talk. */
  onTalk(message) {
    this.lines = (message.lines ?? []).slice(-KEPT);
    this.reactions = message.reactions ?? [];
    this.mayTalk = Boolean(message.may_talk);
    if (message.max_chars) this.input.maxLength = message.max_chars;
    this.buttons.replaceChildren(...this.reactions.map((r) => el("button", {
      type: "button", class: "small talk-react", dataset: { testid: `talk-react-${r.id}` },
      "aria-label": reactionWords(r), title: reactionWords(r), text: r.symbol, onclick: () => this.say({ type: "react", reaction: r.id }),
    })));
    this.render();
  }

  /** One new `chat` message. */
  onChat(message) {
    if (this.lines.some((line) => line.id === message.id)) return;
    this.lines.push(message);
    if (this.lines.length > KEPT) this.lines.shift();
    this.render();
  }

  /** Who may be muted: the other people seated (`names[s]`, null for bots and free seats) and the spectators. */
  setPeople(names, me) {
    const people = names.map((name, seat) => ({ key: senderKey(seat), name })).filter((p, seat) => p.name && seat !== me);
    people.push({ key: senderKey(null), name: STRINGS.spectators });
    if (JSON.stringify(people) === JSON.stringify(this.people)) return;
    this.people = people;
    this.renderMutes();
  }

  muted() {
    try {
      const all = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "{}");
      const mine = all?.[this.table()];
      return new Set(Array.isArray(mine) ? mine : []);
    } catch {
      return new Set();
    }
  }

  setMuted(key, on) {
    let all;
    try {
      all = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "{}") ?? {};
    } catch {
      all = {};
    }
    const muted = this.muted();
    if (on) muted.add(key);
    else muted.delete(key);
    all[this.table()] = [...muted];
    localStorage.setItem(MUTED_KEY, JSON.stringify(all));
    this.render();
  }

  say(message) {
    if (!this.send(message)) {
      this.showError(STRINGS.offline);
      return false;
    }
    return true;
  }

  submit(event) {
    event.preventDefault();
    const text = this.input.value.trim();
    if (text && this.say({ type: "chat", text })) this.input.value = "";
  }

  renderMutes() {
    const muted = this.muted();
    this.mutes.replaceChildren(...this.people.map((p) => el("label", { class: "talk-mute-option" },
      el("input", {
        type: "checkbox", checked: muted.has(p.key), dataset: { testid: `talk-mute-${p.key}` },
        onchange: (event) => this.setMuted(p.key, event.target.checked),
      }),
      ` ${STRINGS.muteWho(p.name)}`)));
  }

  render() {
    const muted = this.muted();
    const words = new Map(this.reactions.map((r) => [r.id, r]));
    const shown = this.lines.filter((line) => !muted.has(senderKey(line.seat)));
    this.list.replaceChildren(...(shown.length ? shown.map((line) => {
      const reaction = line.reaction ? words.get(line.reaction) : null;
      return el("li", { dataset: { testid: "talk-line", sender: senderKey(line.seat) } },
        el("strong", { text: line.name }), ": ",
        reaction ? el("span", { class: "talk-reaction", text: `${reaction.symbol} ${reactionWords(reaction)}` }) : el("span", { text: line.text ?? "" }));
    }) : [el("li", { class: "muted", text: STRINGS.empty })]));
    this.list.scrollTop = this.list.scrollHeight;
    this.form.hidden = !this.mayTalk;
    this.buttons.hidden = !this.mayTalk;
    this.silent.hidden = this.mayTalk || !this.reactions.length;
    if (this.people.length) this.renderMutes();
  }
}
