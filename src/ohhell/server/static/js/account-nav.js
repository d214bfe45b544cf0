// The lobby's header link to the account page: "Sign in", or the signed-in username.
import { t } from "./i18n.js";

const link = document.getElementById("account-link");
if (link) {
  fetch("/api/account", { credentials: "same-origin", headers: { accept: "application/json" } })
    .then((res) => (res.ok ? res.json() : null))
    .then((data) => {
      if (data && data.user) {
        link.textContent = data.user.username;
        link.title = t("Signed in as {user}: your account", { user: data.user.username });
        link.dataset.user = data.user.username;
      }
    })
    .catch(() => { /* offline: the link still leads to the page */ });
}
