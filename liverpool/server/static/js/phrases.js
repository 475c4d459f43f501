// What the server says as codes rather than English (docs/protocol.md, "Phrases"): a catalogue key and
// the parameters its message is filled from, said here in the page's language. A parameter is a number,
// {seat} (said as the seat's name), {card}, {cards}, another phrase ({key, params}), or {list, join}:
// phrases joined by the message `join`.

import { meldName, pretty, prettyList, rankText, SUIT_SYMBOLS } from "./cards.js";
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

// -- the engine's faults: why cards make no meld, an action is refused, a draft is not ready ----------

/** A seat in a fault when the page cannot name it: its number as people count, from 1. */
const seatNumber = (seat) => t("problem.seat", { n: seat + 1 });

function faultValue(value, nameOf) {
  if (typeof value !== "object" || value === null) return value;
  if ("code" in value) return faultText(value, nameOf);
  if ("faults" in value) return value.faults.map((fault) => faultText(fault, nameOf)).join(t("problem.join"));
  if ("meld" in value) return meldName({ words: value.meld });
  if ("card" in value) return pretty(value.card);
  if ("cards" in value) return prettyList(value.cards);
  if ("rank" in value) return rankText(value.rank);
  if ("suit" in value) return SUIT_SYMBOLS[value.suit] ?? value.suit;
  if ("seat" in value) return nameOf(value.seat);
  if ("phase" in value) return t(`phase.${value.phase}`);
  return String(value);
}

/**
 * A fault ({code, params}: the engine's `Fault`, docs/protocol.md) in the page's language; `nameOf(seat)`
 * names a seat (by its number when the page has no names).
 */
export function faultText(fault, nameOf = seatNumber) {
  const params = Object.fromEntries(Object.entries(fault.params ?? {}).map(([name, value]) => [name, faultValue(value, nameOf)]));
  return t(`problem.${fault.code}`, params);
}
