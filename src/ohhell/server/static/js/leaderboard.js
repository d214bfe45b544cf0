// The leaderboard: rated players best first, overall or at tables of one size.
import { number, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function cell(value, href) {
  const td = document.createElement("td");
  if (href) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = value;
    td.append(a);
  } else td.textContent = value;
  return td;
}

async function load() {
  const params = new URLSearchParams({ min_games: $("min-games").value });
  if ($("players").value) params.set("players", $("players").value);
  const body = $("board").querySelector("tbody");
  try {
    const res = await fetch(`/api/leaderboard?${params}`);
    const data = await res.json();
    body.replaceChildren();
    if (!res.ok) throw Object.assign(new Error(t("the server answered {status}", { status: res.status })), { code: res.status });
    for (const r of data.rows) {
      const tr = document.createElement("tr");
      const who = cell(r.username, `/players/${encodeURIComponent(r.username)}`);
      if (r.bot) who.append(" ", Object.assign(document.createElement("span"), { className: "pill", textContent: t("bot") }));
      tr.append(cell(number(r.rank)), who,
        cell(number(r.ordinal, 1)), cell(`${number(r.mu, 1)} ± ${number(r.sigma, 1)}`), cell(number(r.games)));
      body.append(tr);
    }
    $("board-status").textContent = data.rows.length ? "" : tn("Nobody has {n} rated game yet.", "Nobody has {n} rated games yet.", data.min_games);
  } catch (e) {
    $("board-status").textContent = t("The leaderboard could not be loaded ({why}).", { why: e.code ? e.message : t("no connection") });
  }
}

// the sizes and counts of the menus, as the reader's language writes them (values stay digits)
for (const opt of $("players").options) if (opt.value) opt.textContent = tn("{n} player", "{n} players", Number(opt.value));
for (const opt of $("min-games").options) {
  opt.value = opt.value;
  opt.textContent = number(Number(opt.value));
}

const query = new URLSearchParams(location.search);
if (query.get("players")) $("players").value = query.get("players");
$("min-games").value = query.get("min_games") || "5";
$("players").addEventListener("change", load);
$("min-games").addEventListener("change", load);
load();
