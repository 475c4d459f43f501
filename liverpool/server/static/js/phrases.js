// What the server says as codes rather than English (docs/protocol.md, "Phrases"): a catalogue key and
// the parameters its message is filled from, said here in the page's language. A parameter is a number,
// {seat} (said as the seat's name), {card}, {cards}, another phrase ({key, params}), or {list, join}:
// phrases joined by the message `join`.

import { pretty, prettyList } from "./cards.js";
import { t } from "./i18n.js";

function valueText(value, nameOf) {
  if (typeof value !== "object" || value === null) return value;
  if ("seat" in value) return nameOf(value.seat);
  if ("card" in value) return pretty(value.card);
  if ("cards" in value) return prettyList(value.cards);
  if ("list" in value) return value.list.map((phrase) => phraseText(phrase, nameOf)).join(t(value.join));
  return phraseText(value, nameOf);
}

/** One phrase in words; `nameOf(seat)` names a seat. */
export function phraseText(phrase, nameOf) {
  const params = Object.fromEntries(Object.entries(phrase.params ?? {}).map(([name, value]) => [name, valueText(value, nameOf)]));
  return t(phrase.key, params);
}

/** Phrases said one after the other (a table log line: what an action did, then what it led to). */
export function phrasesText(phrases, nameOf) {
  return phrases.map((phrase) => phraseText(phrase, nameOf)).join(" ");
}
