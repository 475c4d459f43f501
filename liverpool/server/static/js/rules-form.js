// The house-rules form: every ruleset field of the engine's field registry (GET /api/rules/fields: name,
// kind, choices, group, doc, row, minimum, maximum, part_minimums), filled from a preset. The form knows the kinds of input only;
// which fields there are and what each may hold come from the registry, and the server checks what is sent.

import { el, getJSON } from "./api.js";
import { listWords, t } from "./i18n.js";

/** An enum value of a field in words ("after next declines"), by the field and the value. */
const choiceText = (field, value) => t(`choice.${field}.${value}`);

const num = (attrs) => el("input", { type: "number", step: "1", ...attrs });

function rowTable(testid, columns, rows, makeRow, addRow) {
  const body = el("tbody");
  const table = el("table", { class: "rows", dataset: { testid } },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { text: c })), el("th"))),
    body);
  const redraw = () => {
    body.replaceChildren(...rows.map((row, i) =>
      el("tr", {}, makeRow(row, i), el("td", {}, el("button", {
        type: "button", class: "small", text: "✕", title: t("form.remove"),
        dataset: { testid: `${testid}-remove-${i}` },
        onclick: () => { rows.splice(i, 1); redraw(); },
      })))));
  };
  redraw();
  const add = el("button", {
    type: "button", class: "small", text: t("form.add"), dataset: { testid: `${testid}-add` },
    onclick: () => { rows.push(addRow(rows)); redraw(); },
  });
  return el("div", {}, table, add);
}

/** The field registry, as the server gives it (fetched once). */
let registry = null;
export async function loadFields() {
  registry ??= (await getJSON("/api/rules/fields")).fields;
  return registry;
}

/**
 * A form over `rules` (a full ruleset dict) with one input per field of `fields` (the registry from
 * loadFields()), grouped as the registry groups them. Returns {element, read()} where read() gives the
 * edited ruleset dict.
 */
export function rulesForm(rules, fields) {
  const readers = {};
  const groups = new Map();
  for (const field of fields.filter((f) => f.name in rules)) {
    const { name, kind, choices, minimum, maximum } = field;
    const value = rules[name];
    const min = { min: minimum ?? undefined, max: maximum ?? undefined };
    const least = (part) => String(field.part_minimums[part]);
    const testid = `rule-${name}`;
    let input;
    switch (kind) {
      case "choice":
        input = el("select", { dataset: { testid }, name },
          choices.map((o) => el("option", { value: o, text: choiceText(name, o), selected: o === value })));
        readers[name] = () => input.value;
        break;
      case "bool":
        input = el("input", { type: "checkbox", dataset: { testid }, name, checked: value });
        readers[name] = () => input.checked;
        break;
      case "int":
        input = num({ dataset: { testid }, name, value, ...min });
        readers[name] = () => Number.parseInt(input.value, 10);
        break;
      case "optional_int":
        input = num({ dataset: { testid }, name, value: value ?? "", placeholder: t("form.none"), ...min });
        readers[name] = () => (input.value.trim() === "" ? null : Number.parseInt(input.value, 10));
        break;
      case "lines":
        input = el("textarea", { dataset: { testid }, name, rows: "3", text: (value ?? []).join("\n") });
        readers[name] = () => input.value.split("\n").map((s) => s.trim()).filter(Boolean);
        break;
      case "deals": {
        const rows = value.map((d) => ({ contract: d.contract.join(", "), hand_size: d.hand_size, out: d.out ?? "normal" }));
        input = rowTable(testid, [t("form.contract"), t("form.hand_size"), t("form.out")], rows, (row, i) => [
          el("td", {}, el("input", {
            type: "text", value: row.contract, dataset: { testid: `${testid}-contract-${i}` },
            oninput: (e) => { row.contract = e.target.value; },
          })),
          el("td", {}, num({
            value: row.hand_size, min: least("hand_size"), dataset: { testid: `${testid}-hand-${i}` },
            oninput: (e) => { row.hand_size = Number.parseInt(e.target.value, 10); },
          })),
          el("td", {}, el("select", {
            dataset: { testid: `${testid}-out-${i}` },
            onchange: (e) => { row.out = e.target.value; },
          }, choices.map((o) => el("option", { value: o, text: choiceText(name, o), selected: o === row.out })))),
        ], (all) => ({ ...(all.at(-1) ?? { contract: "set 3, set 3", hand_size: 10, out: "normal" }) }));
        readers[name] = () => rows.map((r) => ({
          contract: r.contract.split(",").map((s) => s.trim()).filter(Boolean),
          hand_size: r.hand_size,
          ...(r.out === "normal" ? {} : { out: r.out }),
        }));
        break;
      }
      case "decks": {
        const rows = value.map((d) => ({ ...d }));
        const cell = (row, key, i) => el("td", {}, num({
          value: row[key], min: least(key), dataset: { testid: `${testid}-${key}-${i}` },
          oninput: (e) => { row[key] = Number.parseInt(e.target.value, 10); },
        }));
        input = rowTable(testid, [t("form.up_to_players"), t("form.decks"), t("form.jokers")], rows,
          (row, i) => [cell(row, "max_players", i), cell(row, "decks", i), cell(row, "jokers", i)],
          () => ({ max_players: 8, decks: 3, jokers: 6 }));
        readers[name] = () => rows.map((r) => ({ max_players: r.max_players, decks: r.decks, jokers: r.jokers }));
        break;
      }
      case "card_values": {
        const inputs = choices.map((key) => num({ value: value[key], min: least(key), dataset: { testid: `${testid}-${key}` } }));
        input = el("div", { class: "card-values", dataset: { testid } },
          choices.map((key, i) => el("label", {}, el("span", { text: key }), inputs[i])));
        readers[name] = () => Object.fromEntries(choices.map((key, i) => [key, Number.parseInt(inputs[i].value, 10)]));
        break;
      }
      default:
        input = el("input", { type: "text", dataset: { testid }, name, value: value ?? "" });
        readers[name] = () => input.value;
    }
    if (!groups.has(field.group_key)) groups.set(field.group_key, []);
    groups.get(field.group_key).push(el("div", { class: `rule rule-${kind}` },
      el("label", { class: "rule-name", text: t(`field.${name}`) }),
      el("div", { class: "rule-input" }, input),
      el("p", { class: "rule-doc", text: t("server.words") === "yes" ? field.doc : t(`doc.${name}`) })));
  }
  const element = el("div", { class: "rules-form", dataset: { testid: "rules-form" } },
    [...groups].map(([group, rows]) => el("fieldset", { class: "rule-group" }, el("legend", { text: t(`group.${group}`) }), rows)));
  const read = () => Object.fromEntries(Object.entries(readers).map(([name, reader]) => [name, reader()]));
  return { element, read };
}

/** A meld of a contract ("set 3", the ruleset's notation) in words. */
function meldText(text) {
  const [kind, length] = text.split(" ");
  return t(`rules.meld_${kind}`, { length });
}

/** A deal's contract in words, from the observation's `contract_melds` ([{kind, length}]). */
export function contractText(melds) {
  return listWords(melds.map(({ kind, length }) => t(`rules.meld_${kind}`, { length })));
}

/**
 * A field's value in words, by the registry's kind: what a page whose language is not the engine's shows
 * for the rules (the lobby's summary, the Rules panel; docs/i18n.md). `noteKeys` are the API's `note_keys`:
 * a shipped preset's note is said from its key, a note of the players' own as they wrote it.
 */
export function valueText(field, value, noteKeys = []) {
  const { name, kind } = field;
  switch (kind) {
    case "bool":
      return value ? t("rules.yes") : t("rules.no");
    case "choice":
      return choiceText(name, value);
    case "optional_int":
      return value === null ? t("rules.no_limit") : String(value);
    case "lines":
      return value.map((line, i) => (noteKeys[i] ? t(`note.${noteKeys[i]}`) : line)).join(" ");
    case "deals":
      return value.map((deal, i) => t("rules.deal", {
        n: i + 1, contract: listWords(deal.contract.map(meldText)), count: deal.hand_size,
        out: deal.out && deal.out !== "normal" ? ` (${choiceText(name, deal.out)})` : "",
      })).join("; ");
    case "decks":
      return value.map((row) => t("rules.decks_row", { players: row.max_players, count: row.decks, jokers: row.jokers })).join("; ");
    case "card_values":
      return Object.entries(value).map(([rank, points]) => `${rank} ${points}`).join(", ");
    default:
      return String(value ?? "");
  }
}

/** A field of `rules` as a line: its name and its value in words (`noteKeys`: see valueText). */
export function fieldLine(field, rules, noteKeys = []) {
  return t("rules.line", { field: t(`field.${field.name}`), value: valueText(field, rules[field.name], noteKeys) });
}

/** The fields of `rules` that differ from `base` (what a table's house rules change). */
export function overrides(rules, base) {
  const out = {};
  for (const [name, value] of Object.entries(rules)) {
    if (JSON.stringify(value) !== JSON.stringify(base[name])) out[name] = value;
  }
  return out;
}
