// This browser's card colours, kept in localStorage: the usual two colours, a four-colour deck (clubs
// green, diamonds blue) or a colour-blind-safe palette (Okabe and Ito's colours for suits and seats).
// Suits are always shown by their symbol as well as by colour.

const KEY = "liverpool.cardColours";
export const CARD_COLOURS = { two: "two colours", four: "four colours", safe: "colour-blind safe" };

export function cardColours() {
  const saved = localStorage.getItem(KEY);
  return saved in CARD_COLOURS ? saved : "two";
}

function apply(choice) {
  for (const name of Object.keys(CARD_COLOURS)) document.body.classList.toggle(`cards-${name}`, name === choice);
}

/** Apply the saved choice, and make `select` (if there is one) change and remember it. */
export function setUpCardColours(select) {
  apply(cardColours());
  if (!select) return;
  select.replaceChildren(...Object.entries(CARD_COLOURS).map(([value, text]) => {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    return option;
  }));
  select.value = cardColours();
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    apply(select.value);
  });
}
