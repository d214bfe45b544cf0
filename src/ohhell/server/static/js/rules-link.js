// The links to the Rules page (/rules) that the lobby's top bar and the table's key help
// carry, worded in the page's language from the "pages" catalog (the Rules page's words
// live there, apart from the lobby's and the table's own catalog).
import { t } from "./i18n.js";

for (const link of document.querySelectorAll("a.rules-link")) {
  link.textContent = link.hasAttribute("data-long") ? t("The rules of Oh Hell") : t("Rules");
}
