// The page's language: every text a page shows is a message of a catalogue (static/i18n/<code>.json,
// imported below), looked up by its key with t("key", {name: value}). The language is the one chosen with the header's
// switch (kept in localStorage, like the card colours), else the browser's first language we have,
// else English. docs/i18n.md says how to add a string or a language.

import index from "../i18n/languages.json" with { type: "json" };
import en from "../i18n/en.json" with { type: "json" };
import nb from "../i18n/nb.json" with { type: "json" };

const KEY = "liverpool.language";
/** Every catalogue, by its language's code (a new language adds its import here and in languages.json). */
const CATALOGUES = { en, nb };

/** The languages there are, each named in its own words: {en: "English", nb: "Norsk bokmål"}. */
export const LANGUAGES = index.languages;

function fromBrowser() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    const code = index.aliases[primary] ?? primary;
    if (code in LANGUAGES) return code;
  }
  return "en";
}

function chosen() {
  const saved = localStorage.getItem(KEY);
  return saved in LANGUAGES ? saved : fromBrowser();
}

/** The language of this page ("en", "nb"). */
export const language = chosen();
const messages = CATALOGUES[language];
const plurals = new Intl.PluralRules(language);

/** Whether the catalogue has `key` (for texts keyed by what the server sends: a reason, a field). */
export function has(key) {
  return Object.hasOwn(messages, key);
}

/**
 * The message `key` with its {placeholders} filled from `params`. A message may have plural forms
 * ({one, other}), chosen by `params.count`. A missing key is an error of the page (the tests find them).
 */
export function t(key, params = {}) {
  let text = messages[key];
  if (text === undefined) {
    console.error(`no message ${key} in ${language}.json`);
    return key;
  }
  if (typeof text === "object") text = text[plurals.select(Number(params.count))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Words joined as a list in this language: "a, b or c" (`kind` "or") or "a, b and c" ("and"). */
export function listWords(words, kind = "and") {
  if (words.length <= 1) return words.join("");
  return t(`list.${kind}`, { first: words.slice(0, -1).join(t("list.comma")), last: words.at(-1) });
}

const ATTRIBUTES = ["title", "aria-label", "placeholder"];

/** Fill the page's own texts: data-i18n="key" sets the text, data-i18n-title="key" the title, ... */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const name of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${name}]`)) node.setAttribute(name, t(node.getAttribute(`data-i18n-${name}`)));
  }
}

/** The header's language switch: the choice is remembered by this browser and the page is drawn again. */
function setUpSwitch(select) {
  if (!select) return;
  select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    return option;
  }));
  select.value = language;
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    window.location.reload();
  });
}

document.documentElement.lang = language;
translatePage();
setUpSwitch(document.getElementById("language"));
