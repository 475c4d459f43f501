// The house-rules form: every ruleset field (liverpool/engine/rules.py), filled from a preset.
// The server checks what is sent; the form only shapes the input.

import { el } from "./api.js";

const ENUMS = {
  joker_swap: ["never", "going_down", "after_down", "down_earlier", "down"],
  joker_swap_place: ["at_once", "before_turn_ends"],
  joker_swap_target: ["any", "own_melds"],
  joinable_runs: ["allowed", "touching", "could_join"],
  buying: ["none", "before_next_draw", "after_next_declines"],
  buy_precedence: ["turn_order", "first_call"],
  discard_call: ["none", "liverpool", "rummy"],
  empty_hand: ["must_discard", "floats", "goes_out"],
  final_deal: ["normal", "whole_hand", "contract_goes_out"],
  stock_out: ["reshuffle", "end_deal"],
  ties: ["share", "final_deal", "replay_final_deal"],
  first_dealer: ["first_seat", "low_card"],
};
const DEAL_OUTS = ["normal", "whole_hand", "goes_out"]; // a deal's out (rules.py DealOut)
const OPTIONAL_INTS = new Set(["set_max_length", "buy_limit", "final_deal_buy_limit", "max_reshuffles"]);
const RANK_KEYS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK"];

function fieldKind(name, value) {
  if (ENUMS[name]) return { kind: "enum", options: ENUMS[name] };
  if (OPTIONAL_INTS.has(name)) return { kind: "optional_int" };
  if (name === "notes") return { kind: "lines" };
  if (name === "deals" || name === "decks" || name === "card_values") return { kind: name };
  if (typeof value === "boolean") return { kind: "bool" };
  if (typeof value === "number") return { kind: "int" };
  return { kind: "text" };
}

const num = (attrs) => el("input", { type: "number", step: "1", ...attrs });

function rowTable(testid, columns, rows, makeRow, addRow) {
  const body = el("tbody");
  const table = el("table", { class: "rows", dataset: { testid } },
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", { text: c })), el("th"))),
    body);
  const redraw = () => {
    body.replaceChildren(...rows.map((row, i) =>
      el("tr", {}, makeRow(row, i), el("td", {}, el("button", {
        type: "button", class: "small", text: "✕", title: "remove",
        dataset: { testid: `${testid}-remove-${i}` },
        onclick: () => { rows.splice(i, 1); redraw(); },
      })))));
  };
  redraw();
  const add = el("button", {
    type: "button", class: "small", text: "+ add", dataset: { testid: `${testid}-add` },
    onclick: () => { rows.push(addRow(rows)); redraw(); },
  });
  return el("div", {}, table, add);
}

/**
 * A form over `rules` (a full ruleset dict). `fields` is the server's {name: doc}. Returns
 * {element, read()} where read() gives the edited ruleset dict.
 */
export function rulesForm(rules, fields = {}) {
  const readers = {};
  const rowsOut = [];
  const order = [...new Set([...Object.keys(fields), ...Object.keys(rules)])].filter((n) => n in rules);
  for (const name of order) {
    const value = rules[name];
    const { kind, options } = fieldKind(name, value);
    const testid = `rule-${name}`;
    let input;
    switch (kind) {
      case "enum":
        input = el("select", { dataset: { testid }, name },
          options.map((o) => el("option", { value: o, text: o.replaceAll("_", " "), selected: o === value })));
        readers[name] = () => input.value;
        break;
      case "bool":
        input = el("input", { type: "checkbox", dataset: { testid }, name, checked: value });
        readers[name] = () => input.checked;
        break;
      case "int":
        input = num({ dataset: { testid }, name, value });
        readers[name] = () => Number.parseInt(input.value, 10);
        break;
      case "optional_int":
        input = num({ dataset: { testid }, name, value: value ?? "", placeholder: "none", min: "0" });
        readers[name] = () => (input.value.trim() === "" ? null : Number.parseInt(input.value, 10));
        break;
      case "lines":
        input = el("textarea", { dataset: { testid }, name, rows: "3", text: (value ?? []).join("\n") });
        readers[name] = () => input.value.split("\n").map((s) => s.trim()).filter(Boolean);
        break;
      case "deals": {
        const rows = value.map((d) => ({ contract: d.contract.join(", "), hand_size: d.hand_size, out: d.out ?? "normal" }));
        input = rowTable(testid, ["contract", "hand size", "out"], rows, (row, i) => [
          el("td", {}, el("input", {
            type: "text", value: row.contract, dataset: { testid: `${testid}-contract-${i}` },
            oninput: (e) => { row.contract = e.target.value; },
          })),
          el("td", {}, num({
            value: row.hand_size, min: "1", dataset: { testid: `${testid}-hand-${i}` },
            oninput: (e) => { row.hand_size = Number.parseInt(e.target.value, 10); },
          })),
          el("td", {}, el("select", {
            dataset: { testid: `${testid}-out-${i}` },
            onchange: (e) => { row.out = e.target.value; },
          }, DEAL_OUTS.map((o) => el("option", { value: o, text: o.replaceAll("_", " "), selected: o === row.out })))),
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
          value: row[key], min: "0", dataset: { testid: `${testid}-${key}-${i}` },
          oninput: (e) => { row[key] = Number.parseInt(e.target.value, 10); },
        }));
        input = rowTable(testid, ["up to players", "decks", "jokers"], rows,
          (row, i) => [cell(row, "max_players", i), cell(row, "decks", i), cell(row, "jokers", i)],
          () => ({ max_players: 8, decks: 3, jokers: 6 }));
        readers[name] = () => rows.map((r) => ({ max_players: r.max_players, decks: r.decks, jokers: r.jokers }));
        break;
      }
      case "card_values": {
        const inputs = RANK_KEYS.map((key) => num({ value: value[key], min: "0", dataset: { testid: `${testid}-${key}` } }));
        input = el("div", { class: "card-values", dataset: { testid } },
          RANK_KEYS.map((key, i) => el("label", {}, el("span", { text: key }), inputs[i])));
        readers[name] = () => Object.fromEntries(RANK_KEYS.map((key, i) => [key, Number.parseInt(inputs[i].value, 10)]));
        break;
      }
      default:
        input = el("input", { type: "text", dataset: { testid }, name, value: value ?? "" });
        readers[name] = () => input.value;
    }
    rowsOut.push(el("div", { class: `rule rule-${kind}` },
      el("label", { class: "rule-name", text: name.replaceAll("_", " ") }),
      el("div", { class: "rule-input" }, input),
      el("p", { class: "rule-doc", text: fields[name] ?? "" })));
  }
  const element = el("div", { class: "rules-form", dataset: { testid: "rules-form" } }, rowsOut);
  const read = () => Object.fromEntries(Object.entries(readers).map(([name, reader]) => [name, reader()]));
  return { element, read };
}

/** The fields of `rules` that differ from `base` (what a table's house rules change). */
export function overrides(rules, base) {
  const out = {};
  for (const [name, value] of Object.entries(rules)) {
    if (JSON.stringify(value) !== JSON.stringify(base[name])) out[name] = value;
  }
  return out;
}
