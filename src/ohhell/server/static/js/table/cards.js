// Card faces and backs, drawn in HTML and CSS (no images): corner indices, a large pip or a
// framed court letter, the suit symbol always shown so no colour has to be told apart.
import { cardWords, el, rankLabel, SUIT_NAME, SUIT_SYMBOL } from "../common.js";
import { t } from "../i18n.js";

const COURT = { J: "J", Q: "Q", K: "K", A: "A" };
export const SUIT_ORDER = ["S", "H", "C", "D"];

/** A face-up card.  opts: {button, playable, trump, why, extra (class), label}. */
export function face(card, opts = {}) {
  const suit = card[1];
  const rank = card[0];
  const classes = ["card", "face", `suit-${suit}`];
  if (opts.extra) classes.push(opts.extra);
  if (opts.trump) classes.push("trump");
  const words = cardWords(card);
  const attrs = { class: classes.join(" "), "data-card": card };
  let tag = "div";
  if (opts.button) {
    tag = "button";
    attrs.type = "button";
    attrs.onclick = opts.onclick;
    if (opts.playable) classes.push("legal");
    else { attrs["aria-disabled"] = "true"; classes.push("blocked"); }
    attrs.class = classes.join(" ");
    const parts = [opts.trump ? t("{card}, trump", { card: words }) : words];
    if (!opts.playable && opts.why) parts.push(t("cannot be played: {why}", { why: opts.why }));
    attrs["aria-label"] = parts.join(". ");
    attrs.title = opts.playable ? t("Play the {card}", { card: words }) : (opts.why || words);
  } else {
    attrs.role = "img";
    attrs["aria-label"] = opts.label || words;
  }
  const centre = COURT[rank] && rank !== "A"
    ? el("span", { class: "court", "aria-hidden": "true" }, el("span", { class: "court-letter" }, rank),
      el("span", { class: "court-suit" }, SUIT_SYMBOL[suit]))
    : el("span", { class: rank === "A" ? "pip ace" : "pip", "aria-hidden": "true" }, SUIT_SYMBOL[suit]);
  return el(tag, attrs,
    el("span", { class: "index tl", "aria-hidden": "true" }, el("b", {}, rankLabel(card)), el("i", {}, SUIT_SYMBOL[suit])),
    centre,
    el("span", { class: "index br", "aria-hidden": "true" }, el("b", {}, rankLabel(card)), el("i", {}, SUIT_SYMBOL[suit])),
    opts.trump ? el("span", { class: "trump-tag", "aria-hidden": "true" }, t("trump")) : null);
}

/** A card's back. */
export function back(extra = "") {
  return el("div", { class: `card back ${extra}`.trim(), "aria-hidden": "true" });
}

/** The deck by the felt: a pile of backs and the trump card face up (or "No trump"). */
export function deckParts(trump) {
  return [el("span", { class: "deck-pile", "aria-hidden": "true" }, back("pile"), back("pile")),
    trump ? face(trump, { extra: "trump-card", label: t("Trump card: {card}", { card: cardWords(trump) }) })
      : el("span", { class: "no-trump" }, t("No trump"))];
}

/** The trump in the bar above the felt: "Trump ♥" (the suit in words for a screen reader). */
export function trumpItem(trump) {
  return el("span", { class: "item", id: "trump" }, t("Trump"), " ",
    trump ? el("strong", { class: `suit-${trump[1]}`, title: t("Trumps are {suit}", { suit: SUIT_NAME[trump[1]] }) },
      SUIT_SYMBOL[trump[1]], el("span", { class: "sr-only" }, ` ${SUIT_NAME[trump[1]]}`)) : el("strong", {}, t("none")));
}

export function suitWords(suit) {
  return `${SUIT_NAME[suit]} ${SUIT_SYMBOL[suit]}`;
}

/** A hand sorted for display: trumps first, then alternating colours; high to low. */
export function sortHand(cards, trumpSuit) {
  const RANKS = "23456789TJQKA";
  let order = [...SUIT_ORDER];
  if (trumpSuit) {
    // trumps first, then keep colours alternating where the suits allow
    const rest = order.filter((s) => s !== trumpSuit);
    const red = (s) => s === "H" || s === "D";
    const alt = red(trumpSuit) ? [...rest.filter((s) => !red(s)), ...rest.filter(red)] : [...rest.filter(red), ...rest.filter((s) => !red(s))];
    const mixed = [];
    while (alt.length) { mixed.push(alt.shift()); if (alt.length) mixed.push(alt.pop()); }
    order = [trumpSuit, ...mixed];
  }
  const present = new Set(cards.map((c) => c[1]));
  order = order.filter((s) => present.has(s));
  return [...cards].sort((a, b) => order.indexOf(a[1]) - order.indexOf(b[1]) || RANKS.indexOf(b[0]) - RANKS.indexOf(a[0]));
}
