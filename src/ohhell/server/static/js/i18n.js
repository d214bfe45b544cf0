// The page's language: every text a script shows goes through t(), tn() or tp().
//
// The server sends each page already worded in its reader's language (<html lang>), and
// this module loads that language's catalog (/i18n/{lang}.json, built from the gettext
// catalogs of the "web" domain) before any page script runs (top-level await), so t() is
// ready when they start. English needs no catalog. Messages keep {name} placeholders:
//   t("You must follow {suit}.", {suit: suitName("H")})
//   tn("{n} trick", "{n} tricks", n)              // params.n defaults to n
//   tp("verb", "Bid")                              // one English word, two meanings
// The websocket carries codes and data only; pages word them with these functions.

export const LANG_COOKIE = "ohhell_lang";
export const lang = document.documentElement.lang || "en";

// The languages offered, as the server lists them on the page (ohhell.i18n.LANGUAGES).
const LANGUAGES = (() => {
  try {
    const listed = JSON.parse(document.documentElement.dataset.i18nLanguages || "null");
    if (Array.isArray(listed) && listed.length) return listed;
  } catch { /* a page not served by ohhell: English only */ }
  return [["en", "English"]];
})();

let messages = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
// How the language writes numbers: the catalog's "number" (CLDR's symbols, through Babel, as
// the terminal writes them); the browser's Intl is not asked, since Chromium knows no Basque,
// Albanian or Cebuano, and would write Marathi in Devanagari digits (the app writes 0-9).
let numberSymbols = { decimal: ".", group: ",", minus: "-" };

// --- gettext plural expressions, parsed (the page's CSP allows no eval) -----------------
// Grammar: ternary over || && == != < <= > >= + - * / % ! ( ) n and integers.
function compilePlural(src) {
  const tokens = src.match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%<>!?:()]/g) || [];
  let i = 0;
  const peek = () => tokens[i];
  const next = () => tokens[i++];
  const binary = (ops, sub) => () => {
    let left = sub();
    while (ops.includes(peek())) {
      const op = next();
      const right = sub();
      const l = left;
      left = (n) => {
        const a = l(n), b = right(n);
        switch (op) {
          case "||": return a || b ? 1 : 0;
          case "&&": return a && b ? 1 : 0;
          case "==": return a === b ? 1 : 0;
          case "!=": return a !== b ? 1 : 0;
          case "<": return a < b ? 1 : 0;
          case "<=": return a <= b ? 1 : 0;
          case ">": return a > b ? 1 : 0;
          case ">=": return a >= b ? 1 : 0;
          case "+": return a + b;
          case "-": return a - b;
          case "*": return a * b;
          case "/": return b ? Math.trunc(a / b) : 0;
          default: return b ? a % b : 0;
        }
      };
    }
    return left;
  };
  const unary = () => {
    const tok = next();
    if (tok === "!") { const f = unary(); return (n) => (f(n) ? 0 : 1); }
    if (tok === "(") { const f = ternary(); next(); return f; }
    if (tok === "n") return (n) => n;
    if (/^\d+$/.test(tok || "")) { const v = Number(tok); return () => v; }
    throw new Error(`bad plural expression: ${src}`);
  };
  const mul = binary(["*", "/", "%"], unary);
  const add = binary(["+", "-"], mul);
  const rel = binary(["<", "<=", ">", ">="], add);
  const eq = binary(["==", "!="], rel);
  const and = binary(["&&"], eq);
  const or = binary(["||"], and);
  function ternary() {
    const cond = or();
    if (peek() !== "?") return cond;
    next();
    const yes = ternary();
    next(); // ':'
    const no = ternary();
    return (n) => (cond(n) ? yes(n) : no(n));
  }
  const f = ternary();
  return (n) => Number(f(Math.abs(Math.trunc(n))));
}

/** For the tests: the plural-expression compiler. */
export const __compilePlural = compilePlural;

if (lang !== "en") {
  const version = document.documentElement.dataset.i18nVersion || "";
  try {
    const res = await fetch(`/i18n/${encodeURIComponent(lang)}.json?v=${encodeURIComponent(version)}`);
    if (res.ok) {
      const data = await res.json();
      messages = data.messages || {};
      pluralIndex = compilePlural(data.plural || "n != 1");
      if (data.number) numberSymbols = { ...numberSymbols, ...data.number };
    }
  } catch (err) {
    console.warn("ohhell: the catalog could not be loaded; showing English", err);
  }
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name) =>
    (name in params ? String(params[name]) : m));
}

/** `msg` in the page's language, with its {placeholders} filled from `params`. */
export function t(msg, params) {
  const said = messages[msg];
  return fill(typeof said === "string" ? said : msg, params);
}

/** The form of singular/plural for `n`; `{n}` is filled with n (as the language writes it). */
export function tn(singular, plural, n, params) {
  const forms = messages[singular];
  let text;
  if (Array.isArray(forms)) text = forms[Math.min(pluralIndex(n), forms.length - 1)];
  else text = n === 1 ? singular : plural;
  return fill(text, { n: number(n), ...(params || {}) });
}

/** `msg` told apart from the same English by `context`. */
export function tp(context, msg, params) {
  const said = messages[`${context}\u0004${msg}`];
  return fill(typeof said === "string" ? said : msg, params);
}

/** A number as the page's language writes it, with `digits` decimals (as the terminal does:
 * ohhell.i18n.format_number, groups of three digits). */
export function number(value, digits = 0) {
  const x = Number(value);
  if (!Number.isFinite(x)) return String(value);
  const fixed = Math.abs(x).toFixed(digits);
  const [whole, frac] = fixed.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, numberSymbols.group);
  const sign = x < 0 && Number(fixed) !== 0 ? numberSymbols.minus : "";
  return sign + grouped + (frac ? numberSymbols.decimal + frac : "");
}

/** A date and time (a Date, or seconds since 1970) as the page's language writes it, with
 * the digits 0-9; where the browser has no data for the language, as 2026-12-01 18:05. */
export function dateTime(value) {
  const date = value instanceof Date ? value : new Date(Number(value) * 1000);
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([lang]).length) {
      return date.toLocaleString(`${lang}-u-nu-latn`, { dateStyle: "medium", timeStyle: "short" });
    }
  } catch { /* an old browser: the numeric form */ }
  const two = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** A date without its time (a Date, or seconds since 1970), as dateTime writes it: 2026-12-01 where
 * the browser has no data for the language. */
export function date(value) {
  const d = value instanceof Date ? value : new Date(Number(value) * 1000);
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([lang]).length) {
      return d.toLocaleDateString(`${lang}-u-nu-latn`, { dateStyle: "medium" });
    }
  } catch { /* an old browser: the numeric form */ }
  const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** Choose a language: remembered in a cookie the server reads, then the page reloads. */
export function chooseLanguage(code) {
  document.cookie = `${LANG_COOKIE}=${encodeURIComponent(code)}; Path=/; Max-Age=31536000; SameSite=Lax`;
  try { localStorage.setItem(LANG_COOKIE, code); } catch { /* private mode */ }
  location.reload();
}

/** The language menu, added to the page's top bar (every page has one). */
function languageMenu() {
  const bar = document.querySelector(".topbar");
  if (!bar || bar.querySelector(".lang-menu")) return;
  const select = document.createElement("select");
  select.className = "lang-menu";
  select.setAttribute("aria-label", t("Language"));
  select.title = t("Language");
  for (const [code, name] of LANGUAGES) {
    const opt = document.createElement("option");
    opt.value = code;
    opt.lang = code;
    opt.textContent = name;
    if (code === lang) opt.selected = true;
    select.append(opt);
  }
  select.addEventListener("change", () => chooseLanguage(select.value));
  bar.append(select);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", languageMenu);
else languageMenu();
