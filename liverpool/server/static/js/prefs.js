// This browser's card colours, kept in localStorage: the usual two colours, a four-colour deck (clubs
// green, diamonds blue) or a colour-blind-safe palette (Okabe and Ito's colours for suits and seats).
// Suits are always shown by their symbol as well as by colour.

import { t } from "./i18n.js";

const KEY = "liverpool.cardColours";
const CHOICES = ["two", "four", "safe"];

export function cardColours() {
  const saved = localStorage.getItem(KEY);
  return CHOICES.includes(saved) ? saved : "two";
}

function apply(choice) {
  for (const name of CHOICES) document.body.classList.toggle(`cards-${name}`, name === choice);
}

/** Apply the saved choice, and make `select` (if there is one) change and remember it. */
export function setUpCardColours(select) {
  apply(cardColours());
  if (!select) return;
  select.replaceChildren(...CHOICES.map((value) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = t(`colours.${value}`);
    return option;
  }));
  select.value = cardColours();
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    apply(select.value);
  });
}
