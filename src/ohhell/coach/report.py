"""An analysis for people: a table for the terminal and a standalone HTML page with charts.

:func:`text_report` is plain text (what ``ohhell analyze`` prints without rich);
:func:`rich_tables` the same as rich renderables; :func:`html_report` one page with
its SVG charts inline and no external asset, every name and string escaped.
"""

from __future__ import annotations

import html
from typing import Any

from ..i18n import N_, _, display_width, format_number, get_language, ngettext
from .analysis import GameAnalysis
from .evaluate import Z95

__all__ = ["text_report", "rich_tables", "html_report", "summary_rows", "mistake_words", "action_words", "COLORS"]

#: One colour per seat (charts and the HTML legend).
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b")


def _num(x: float, digits: int = 1) -> str:
    """A number as the current language writes it."""
    return format_number(x, digits)


def _signed(x: float, digits: int = 1) -> str:
    return ("-" if round(x, digits) < 0 else "+") + format_number(abs(x), digits)


def _pm(se: float) -> str:
    return "± " + _num(Z95 * se)


def action_words(action: "int | str", kind: str) -> str:
    """A decision's action as players read it: a bid's number, a card as ``Q♠``."""
    if kind == "bid":
        return format_number(int(action))
    from ..cards import parse_card
    from ..text import card_words
    return card_words(parse_card(str(action)))


def mistake_words(hand: dict, d: dict) -> str:
    """A mistake in words, in the current language, from the analysis's data: ``hand 4,
    trick 1: played 4♦, 8♦ was best; it cost 2.6 points (± 1.7)``.  (The annotated record
    keeps :func:`ohhell.coach.describe_mistake`'s English text for programs.)"""
    kind = d["kind"]
    where = (_("hand {hand}, trick {trick}").format(hand=hand["hand"] + 1, trick=d["trick"]) if kind == "play"
             else _("hand {hand}").format(hand=hand["hand"] + 1))
    action, best = action_words(d["action"], kind), action_words(d["best"], kind)
    what = (_("bid {bid}, {best} was best").format(bid=action, best=best) if kind == "bid" else
            _("played {card}, {best} was best").format(card=action, best=best))
    cost = _("it cost {loss} points (± {error})").format(loss=_num(float(d["loss"])),
                                                         error=_num(Z95 * float(d["loss_se"])))
    return f"{where}: {what}; {cost}"


def _top_words(a: GameAnalysis, m: dict) -> str:
    """One of a seat's largest mistakes (``seats[s]["top"]``: hand and decision index) in words."""
    hand = a.hands[m["hand"]]
    d = next((x for x in hand["decisions"] if x["index"] == m["index"]), None)
    return mistake_words(hand, d) if d is not None else str(m.get("text", ""))


def summary_rows(a: GameAnalysis) -> list[dict[str, Any]]:
    """One row per seat, as the table shows it (strings)."""
    rows = []
    for s in a.seats:
        seat = s["seat"]
        rows.append({
            "seat": f"{seat + 1} {a.players[seat]}",
            "score": format_number(s["score"]),
            "cards": f"{_num(s['cards'])} {_pm(s['cards_se'])}" if "cards" in s else "-",
            "fall": _with_se(_signed(s["fall"]), s.get("fall_se")) if "fall" in s else "-",
            "luck": (f"{_num(s['luck'])} {_pm(s['luck_se'])}" if s.get("luck_se") else _whole(s["luck"]))
            if "luck" in s else "-",
            "skill": (f"{_signed(s['skill'])} {_pm(s['skill_se'])}" if s.get("skill_se") else
                      _signed(s["skill"], 0 if float(s["skill"]).is_integer() else 1)) if "skill" in s else "-",
            "lost_bid": f"{_num(s['lost_bid'])} {_pm(s['lost_bid_se'])}",
            "lost_play": f"{_num(s['lost_play'])} {_pm(s['lost_play_se'])}",
            "lost": f"{_num(s['lost'])} {_pm(s['lost_se'])}",
            "mistakes": format_number(s["mistakes"]),
        })
    return rows


#: the summary's column headings (worded where shown: ``_(_HEAD[k])``)
_HEAD = {"seat": N_("seat"), "score": N_("score"), "cards": N_("cards"), "lost_bid": N_("lost bidding"),
         "lost_play": N_("lost playing"), "lost": N_("lost in all"), "fall": N_("fall"), "luck": N_("luck"),
         "skill": N_("skill"), "mistakes": N_("mistakes")}

_NOTE = N_("score = cards - lost + fall. cards: what the hands were worth when dealt (the expected score of "
         "the best bid, from the seat's own information). lost: expected points lost against the best "
         "action, from the seat's own information. fall: how the unseen cards and the others' play fell. "
         "luck: what the analysis bot would have scored with the same cards in the real deal (the game "
         "as it went up to the seat's first mistake of each hand, the best action there); "
         "skill = score - luck. ± is a 95% interval (sampling). A mistake is a loss of at least {min} "
         "point whose interval lies above zero.")


def _with_se(text: str, se: "float | None") -> str:
    """``text`` with its 95% interval, where the analysis gives the standard error (older
    analyses do not: the number alone)."""
    return text if se is None else f"{text} {_pm(se)}"


def _hand_lost_se(r: dict) -> float:
    """A hand's points lost by one seat: the standard error of their sum (``lost_se``, or from
    its parts in analyses made before it was written)."""
    if "lost_se" in r:
        return float(r["lost_se"])
    return (float(r["lost_bid_se"]) ** 2 + float(r["lost_play_se"]) ** 2) ** 0.5


def _hand_rows(a: GameAnalysis) -> list[list[str]]:
    rows = []
    for h in a.hands:
        row = [str(h["hand"] + 1), str(h["hand_size"])]
        for r in h["seats"]:
            if "score" in r:
                cell = f"{r['bid']}/{r['won']} {format_number(r['score']):>3}"
                if "luck" in r:
                    luck = _whole(r["luck"]) if not r.get("luck_se") else f"{_num(r['luck'])} {_pm(r['luck_se'])}"
                    cell += " (" + _("luck {n}").format(n=luck) + ")"
            else:
                cell = _("unfinished")
            lost = r["lost_bid"] + r["lost_play"]   # a cross-fitted play loss can be just below zero
            cell += " " + _signed(-lost)
            if lost or _hand_lost_se(r):
                cell += " " + _pm(_hand_lost_se(r))
            row.append(cell)
        rows.append(row)
    return rows


def text_report(a: GameAnalysis, *, hands: bool = True) -> str:
    """The analysis as plain text: the seats' summary, the hands, the top mistakes."""
    out = []
    rows = summary_rows(a)
    keys = list(_HEAD)
    heads = {k: _(_HEAD[k]) for k in keys}
    widths = {k: max(display_width(heads[k]), *(display_width(r[k]) for r in rows)) for k in keys}
    out.append("  ".join(_pad(heads[k], widths[k]) for k in keys))
    for r in rows:
        out.append("  ".join(_pad(r[k], widths[k]) for k in keys))
    out.append("")
    out.append(_(_NOTE).format(min=a.settings.get("min_loss", 0.5)))
    if hands:
        out.append("")
        head = [_("hand"), _("cards")] + [f"{s + 1} {p}" for s, p in enumerate(a.players)]
        body = _hand_rows(a)
        w = [max(display_width(head[i]), *(display_width(r[i]) for r in body)) for i in range(len(head))]
        out.append("  ".join(_pad(head[i], w[i]) for i in range(len(head))))
        for line in body:
            out.append("  ".join(_pad(line[i], w[i]) for i in range(len(head))))
        out.append(_("(each seat: bid/won score (luck) -points lost)"))
    for s in a.seats:
        out.append("")
        name = _("Seat {n}").format(n=s['seat'] + 1) + f" {a.players[s['seat']]}"
        if not s["top"]:
            out.append(_("{name}: no significant mistake.").format(name=name))
            continue
        out.append(_("{name}, largest mistakes:").format(name=name))
        out.extend(f"  {_top_words(a, m)}" for m in s["top"])
    return "\n".join(out) + "\n"


def rich_tables(a: GameAnalysis, *, hands: bool = True) -> list:
    """The analysis as rich renderables (needs rich)."""
    from rich.table import Table
    from rich.text import Text
    t = Table(title=_("Where the points went"), title_justify="left")
    for k in _HEAD:
        t.add_column(_(_HEAD[k]), justify="left" if k == "seat" else "right")
    for r in summary_rows(a):
        t.add_row(*[r[k] for k in _HEAD])
    out: list = [t, Text(_(_NOTE).format(min=a.settings.get("min_loss", 0.5)), style="dim")]
    if hands:
        ht = Table(title=_("Hand by hand (bid/won score (luck) -points lost)"), title_justify="left")
        ht.add_column(_("hand"), justify="right")
        ht.add_column(_("cards"), justify="right")
        for s, p in enumerate(a.players):
            ht.add_column(f"{s + 1} {p}", justify="right")
        for row in _hand_rows(a):
            ht.add_row(*row)
        out.append(ht)
    for seat in a.seats:
        name = _("Seat {n}").format(n=seat['seat'] + 1) + f" {a.players[seat['seat']]}"
        if not seat["top"]:
            out.append(Text(_("{name}: no significant mistake.").format(name=name)))
            continue
        out.append(Text(_("{name}, largest mistakes:").format(name=name), style="bold"))
        for m in seat["top"]:
            out.append(Text(f"  {_top_words(a, m)}"))
    return out


def _whole(x: float) -> str:
    """Points as a whole number where they are one (a score), else to a tenth (luck, skill)."""
    return format_number(x, 0 if float(x).is_integer() else 1)


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal cells (Devanagari's marks take none)."""
    return text + " " * max(0, width - display_width(text))


# --- HTML ----------------------------------------------------------------------------------------

def _e(x: object) -> str:
    return html.escape(str(x), quote=True)


def _ticks(lo: float, hi: float) -> list[float]:
    """Round tick values covering ``lo..hi`` (steps of 1, 2 or 5 times a power of ten)."""
    import math
    span = max(1e-9, hi - lo)
    raw = span / 4
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step) * step
    out = []
    v = start
    while v <= hi + step * 1e-9:
        out.append(v)
        v += step
    if out[-1] < hi:
        out.append(out[-1] + step)
    return out


def _chart_frame(title: str, width: int, height: int, pad_l: int, pad_r: int, ticks, Y) -> list[str]:
    """The start of an SVG chart: the box, its title and a grid line with its value per tick."""
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{_e(title)}" class="chart">',
             f'<text x="{pad_l}" y="16" class="ct">{_e(title)}</text>']
    for v in ticks:
        y = Y(v)
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{pad_l - 4}" y="{y + 4:.1f}" class="ax" text-anchor="end">{_e(format_number(v))}</text>')
    return parts


def _line_chart(series: list[tuple[str, str, list[float], bool]], xlabels: list[str], title: str,
                width: int = 640, height: int = 260) -> str:
    """An SVG line chart: ``series`` are (name, colour, values, dashed)."""
    pad_l, pad_r, pad_t, pad_b = 44, 12, 28, 30
    vals = [v for _, _, vs, _ in series for v in vs] or [0.0]
    ticks = _ticks(min(0.0, min(vals)), max(1.0, max(vals)))
    lo, hi = ticks[0], ticks[-1]
    n = max(1, len(xlabels) - 1)
    W, H = width - pad_l - pad_r, height - pad_t - pad_b

    def X(i: int) -> float:
        return pad_l + W * i / n

    def Y(v: float) -> float:
        return pad_t + H * (1 - (v - lo) / (hi - lo))

    parts = _chart_frame(title, width, height, pad_l, pad_r, ticks, Y)
    step = max(1, len(xlabels) // 13)
    for i, lab in enumerate(xlabels):
        if i % step == 0:
            parts.append(f'<text x="{X(i):.1f}" y="{height - 10}" class="ax" text-anchor="middle">{_e(lab)}</text>')
    for name, colour, vs, dashed in series:
        pts = " ".join(f"{X(i):.1f},{Y(v):.1f}" for i, v in enumerate(vs))
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"{dash}>'
                     f'<title>{_e(name)}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)


def _bar_chart(groups: list[str], series: list[tuple[str, str, list[float]]], title: str,
               width: int = 640, height: int = 240) -> str:
    """An SVG grouped bar chart: one group per label, one bar per series."""
    pad_l, pad_r, pad_t, pad_b = 44, 12, 28, 40
    vals = [v for _, _, vs in series for v in vs] or [0.0]
    ticks = _ticks(min(0.0, min(vals)), max(1.0, max(vals)))
    lo, hi = ticks[0], ticks[-1]
    W, H = width - pad_l - pad_r, height - pad_t - pad_b
    gw = W / max(1, len(groups))
    bw = gw * 0.8 / max(1, len(series))

    def Y(v: float) -> float:
        return pad_t + H * (1 - (v - lo) / (hi - lo))

    parts = _chart_frame(title, width, height, pad_l, pad_r, ticks, Y)
    zero = Y(0.0)
    for g, lab in enumerate(groups):
        x0 = pad_l + g * gw + gw * 0.1
        for j, (name, colour, vs) in enumerate(series):
            v = vs[g]
            y = min(Y(v), zero)
            h = abs(Y(v) - zero)
            parts.append(f'<rect x="{x0 + j * bw:.1f}" y="{y:.1f}" width="{bw * 0.92:.1f}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{_e(lab)}: {_e(name)} {_e(_num(v))}</title></rect>')
        parts.append(f'<text x="{x0 + gw * 0.4:.1f}" y="{height - 22}" class="ax" text-anchor="middle">'
                     f'{_e(lab)}</text>')
    lx = pad_l
    for name, colour, _ in series:
        parts.append(f'<rect x="{lx}" y="{height - 12}" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{lx + 14}" y="{height - 3}" class="ax">{_e(name)}</text>')
        lx += 14 + 8 * len(name) + 16
    parts.append("</svg>")
    return "".join(parts)


_CSS = """
body{font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:980px;
padding:0 1em;color:#222;background:#fff}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.25em .6em;border-bottom:1px solid #eee;
text-align:right}th{background:#f6f6f6}td:first-child,th:first-child{text-align:left}
.note{color:#555;font-size:.9em}.chart{width:100%;max-width:680px;height:auto;display:block;margin:.8em 0}
.ct{font-weight:600;font-size:13px}.ax{font-size:11px;fill:#555}.grid{stroke:#e6e6e6}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;vertical-align:middle}
.mistake td{background:#fff2f0}details{margin:.3em 0}summary{cursor:pointer}
.vals{font-size:.85em;color:#444;text-align:left}
@media (prefers-color-scheme: dark){body{background:#16181b;color:#ddd}th{background:#24272b}
td,th{border-color:#2c2f33}.ax{fill:#aaa}.grid{stroke:#2c2f33}.mistake td{background:#3a2420}
.note,.vals{color:#aaa}}
"""


def _values_text(d: dict) -> str:
    if d.get("forced"):
        return _("the only legal action")
    vals = sorted(d["values"], key=lambda v: -v["mean"])
    text = ", ".join(f"{action_words(v['action'], d['kind'])}: {_num(v['mean'])} {_pm(v['se'])}" for v in vals)
    probs = (d.get("tricks") or {}).get(str(d["action"]))
    if probs:
        text += "; " + _("after bidding {bid}, tricks taken:").format(bid=d['action']) + " " + ", ".join(
            f"{t}: " + _("{percent}%").format(percent=format_number(100 * p)) for t, p in enumerate(probs) if p >= 0.005)
    return text


def html_report(a: GameAnalysis, *, title: "str | None" = None) -> str:
    """The analysis as one standalone HTML page (inline SVG charts, no external asset), in the
    current language."""
    title = _("Game analysis") if title is None else title
    n = len(a.players)
    colours = [COLORS[s % len(COLORS)] for s in range(n)]
    names = [f"{s + 1} {p}" for s, p in enumerate(a.players)]
    done = [h for h in a.hands if h["finished"]]
    xl = ["0"] + [str(h["hand"] + 1) for h in done]
    series = []
    for s in range(n):
        tot, luck = [0.0], [0.0]
        for h in done:
            r = h["seats"][s]
            tot.append(tot[-1] + r["score"])
            luck.append(luck[-1] + r.get("luck", 0))
        series.append((f"{names[s]}: " + _("score"), colours[s], tot, False))
        if all("luck" in h["seats"][s] for h in done):
            series.append((f"{names[s]}: " + _("luck"), colours[s], luck, True))
    parts = ["<!DOCTYPE html>", f'<html lang="{_e(get_language())}"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{_e(title)}</h1>",
             '<p class="note">' + " · ".join(
                 f'<span class="swatch" style="background:{colours[s]}"></span>{_e(names[s])}' for s in range(n))
             + "</p>"]
    st = a.settings
    parts.append(f'<p class="note">{_e(_(_NOTE).format(min=st.get("min_loss", 0.5)))}</p>')
    parts.append('<p class="note">' + _e(_("Method: {method}; {samples} sampled deals per decision, seed {seed}.").format(
        method=st.get("method", ""), samples=st.get("samples"), seed=st.get("seed"))) + "</p>")

    parts.append("<h2>" + _e(_("Where the points went")) + "</h2><table><tr>" +
                 "".join("<th>" + _e(_(_HEAD[k])) + "</th>" for k in _HEAD) + "</tr>")
    for r in summary_rows(a):
        parts.append("<tr>" + "".join(f"<td>{_e(r[k])}</td>" for k in _HEAD) + "</tr>")
    parts.append("</table>")
    parts.append(_bar_chart(names, [(_("cards"), "#b7d7a8", [float(s.get("cards", 0)) for s in a.seats]),
                                    (_("luck"), "#8fb8de", [float(s.get("luck", 0)) for s in a.seats]),
                                    (_("score"), "#2b6cb0", [float(s["score"]) for s in a.seats]),
                                    (_("lost bidding"), "#f4a261", [s["lost_bid"] for s in a.seats]),
                                    (_("lost playing"), "#e76f51", [s["lost_play"] for s in a.seats])],
                            _("Cards, luck, score and points lost, by seat")))
    if done:
        parts.append(_line_chart(series, xl, _("Running total: score (solid) and luck (dashed)")))
    parts.append(_bar_chart([str(h["hand"] + 1) for h in a.hands],
                            [(names[s], colours[s], [h["seats"][s]["lost_bid"] + h["seats"][s]["lost_play"]
                                                     for h in a.hands]) for s in range(n)],
                            _("Points lost, hand by hand"), height=260))

    parts.append("<h2>" + _e(_("Largest mistakes")) + "</h2>")
    for seat in a.seats:
        parts.append(f"<h3>{_e(names[seat['seat']])}</h3>")
        if not seat["top"]:
            parts.append('<p class="note">' + _e(_("No significant mistake.")) + "</p>")
        else:
            parts.append("<ol>" + "".join(f"<li>{_e(_top_words(a, m))}</li>" for m in seat["top"]) + "</ol>")

    parts.append("<h2>" + _e(_("Every decision")) + "</h2>")
    for h in a.hands:
        lost = sum(r["lost_bid"] + r["lost_play"] for r in h["seats"])
        lost_se = sum(_hand_lost_se(r) ** 2 for r in h["seats"]) ** 0.5
        flagged = sum(1 for d in h["decisions"] if d["mistake"])
        summary = (_("Hand {n}").format(n=h['hand'] + 1) + " ("
                   + ngettext("{n} card", "{n} cards", h['hand_size']).format(n=h['hand_size']) + "): "
                   + _("{lost} points lost").format(lost=f"{_num(lost)} {_pm(lost_se)}") + ", "
                   + ngettext("{n} mistake", "{n} mistakes", flagged).format(n=flagged))
        parts.append(f"<details><summary>{_e(summary)}</summary>")
        parts.append("<table><tr>" + "".join(f"<th>{_e(x)}</th>" for x in (
            _("seat"), _("what"), _("taken"), _("best"), _("lost"))) +
            "<th class=vals>" + _e(_("every legal action (expected points)")) + "</th></tr>")
        for d in h["decisions"]:
            what = _("bid") if d["kind"] == "bid" else _("trick {n}").format(n=d['trick'])
            cls = ' class="mistake"' if d["mistake"] else ""
            loss = "-" if d.get("forced") else f"{_num(d['loss'])} {_pm(d['loss_se'])}"
            parts.append(f"<tr{cls}><td>{_e(names[d['seat']])}</td><td>{_e(what)}</td>"
                         f"<td>{_e(action_words(d['action'], d['kind']))}</td>"
                         f"<td>{_e(action_words(d['best'], d['kind']))}</td><td>{_e(loss)}</td>"
                         f"<td class=vals>{_e(_values_text(d))}</td></tr>")
        parts.append("</table></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
