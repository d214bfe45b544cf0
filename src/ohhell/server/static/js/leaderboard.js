// The leaderboard: rated players best first, overall or at tables of one size.

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
    if (!res.ok) throw new Error(data.message);
    for (const r of data.rows) {
      const tr = document.createElement("tr");
      const who = cell(r.username, `/players/${encodeURIComponent(r.username)}`);
      if (r.bot) who.append(" ", Object.assign(document.createElement("span"), { className: "pill", textContent: "bot" }));
      tr.append(cell(r.rank), who,
        cell(r.ordinal.toFixed(1)), cell(`${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)}`), cell(r.games));
      body.append(tr);
    }
    $("board-status").textContent = data.rows.length ? "" : `Nobody has ${data.min_games} rated game${data.min_games === 1 ? "" : "s"} yet.`;
  } catch (e) {
    $("board-status").textContent = `The leaderboard could not be loaded (${e.message || "no connection"}).`;
  }
}

const query = new URLSearchParams(location.search);
if (query.get("players")) $("players").value = query.get("players");
$("min-games").value = query.get("min_games") || "5";
$("players").addEventListener("change", load);
$("min-games").addEventListener("change", load);
load();
