"""The coach in the terminal: a record's analysis (docs/coach.md) shown beside its replay.

:func:`decision_panel` words one decision's annotation (the action taken, the best one,
the points lost, every legal action's value as a bar, like the hint's);
:func:`hand_loss_row` the points lost so far in a hand; :func:`summary_body` the game's
summary up to a point of the replay (never beyond it: no spoilers).
:class:`AnalysingScreen` runs :func:`ohhell.coach.analyze_game` in a worker thread with
a progress bar, and :func:`analysis_path` says where an annotated record is saved.

What is shown is only what the analysis holds, which was worked out from each deciding
seat's own view; when the replay shows one seat's view, other seats' decisions are not
annotated (their values would tell that seat which cards they held).
"""

from __future__ import annotations

import json
import os
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, ProgressBar, Static

from ..actions import Play
from ..coach import DEFAULT_SAMPLES, GameAnalysis, analyze_game, annotate
from ..files import atomic_write_text
from ..i18n import N_, _, format_number, ngettext
from .render import PLAYER_COLORS, card_text
from .widgets import word_bindings

__all__ = ["flat_decisions", "decision_panel", "mistake_text", "hand_loss_row", "summary_body", "SummaryScreen",
           "AnalysingScreen", "analysis_path", "Z95"]

Z95 = 1.96


def analysis_path(path: str) -> str:
    """Where the annotated record of the game in ``path`` goes: ``game.json`` → ``game.analysis.json``
    (what ``ohhell analyze`` writes)."""
    base = os.path.basename(path)
    for ext in (".jsonl", ".json"):
        if base.endswith(ext):
            base = base[: -len(ext)]
            break
    return os.path.join(os.path.dirname(path), base + ".analysis.json")


def flat_decisions(analysis: GameAnalysis) -> list[tuple[dict, dict]]:
    """Every ``(hand, decision)`` in play order: entry ``i`` annotates the record's action ``i``."""
    return [(h, d) for h in analysis.hands for d in h["decisions"]]


def _num(x: float, digits: int, sign: bool = False) -> str:
    """A number as the current language writes it, with ``digits`` decimals (and its sign)."""
    if not sign:
        return format_number(x, digits)
    return ("-" if x < 0 else "+") + format_number(abs(x), digits)


def _action_text(label: "int | str", kind: str) -> Text:
    if kind == "bid":
        return Text(_("bid {n}").format(n=label))
    return card_text(Play(str(label)).card)


def _who(names: Sequence[str], seat: int) -> Text:
    return Text(names[seat], style=PLAYER_COLORS[seat % len(PLAYER_COLORS)])


def decision_panel(hand: dict, d: dict, names: Sequence[str]) -> Group:
    """One decision's annotation: what was done, what was best, what it cost, every action's value."""
    kind = d["kind"]
    head = Text(_("Coach:") + " ", style="bold")
    head.append_text(_who(names, d["seat"]))
    where = (_("hand {hand}, trick {trick}").format(hand=hand['hand'] + 1, trick=d['trick']) if kind == "play"
             else _("hand {hand}").format(hand=hand['hand'] + 1))
    head.append(f" ({where}) ")
    head.append(_("bid") + " " if kind == "bid" else _("played") + " ")
    head.append_text(_action_text(d["action"], kind) if kind == "play" else Text(str(d["action"])))
    parts: list[Any] = [head]
    if d.get("forced"):
        parts.append(Text(_("The only legal bid: it costs nothing.") if kind == "bid" else
                          _("The only legal card: it costs nothing."), style="dim"))
        return Group(*parts)
    line = Text(_("Best:") + " ")
    line.append_text(_action_text(d["best"], kind))
    loss, se = float(d["loss"]), float(d["loss_se"])
    if d["action"] == d["best"]:
        line.append(" — " + _("the best choice"), style="green")
    elif loss <= 0:    # a card's loss is measured on held-out deals: a close call can dip below zero
        line.append(" · " + _("no measurable loss ({loss} ± {error} points)").format(
            loss=_num(loss, 2, True), error=_num(Z95 * se, 2)))
    else:
        line.append(" · " + _("lost {loss} ± {error} points").format(loss=_num(loss, 2), error=_num(Z95 * se, 2)))
    if d["mistake"]:
        line.append("  ✗ " + _("MISTAKE"), style="bold red")
    elif loss > 0:
        line.append("  " + (_("(within the noise)") if loss - Z95 * se <= 0 else _("(small)")), style="dim")

    parts.append(line)
    values = d.get("values") or []
    if values:
        t = Table(pad_edge=False, box=None, title=Text(
            _("Expected score of each bid") if kind == "bid" else _("Expected score of each card"), style="bold"),
            title_justify="left")
        t.add_column(_("choice"), no_wrap=True)
        t.add_column(_("value"), justify="right")
        t.add_column("±", justify="right", style="dim")
        t.add_column("")
        means = [float(v["mean"]) for v in values]
        best, worst = max(means), min(means)
        span = (best - worst) or 1.0
        for v in sorted(values, key=lambda v: -float(v["mean"])):
            bar = "█" * max(1, round(12 * (float(v["mean"]) - worst) / span)) if best != worst else "█"
            taken = v["action"] == d["action"]
            style = ("red" if d["mistake"] else "green") if taken else ("cyan" if v["action"] == d["best"] else "dim")
            label = _action_text(v["action"], kind)
            if taken:
                label.append(" ◀", style="bold")
            t.add_row(label, _num(float(v['mean']), 2), _num(Z95 * float(v['se']), 2), Text(bar, style=style))
        parts.append(t)
        deals = int(d.get('deals', 0))
        parts.append(Text(ngettext("{n} sampled deal, from {name}'s view only",
                                   "{n} sampled deals, from {name}'s view only", deals).format(
            n=deals, name=names[d['seat']]), style="dim"))
    return Group(*parts)


def hand_loss_row(hand: dict, upto: int, names: Sequence[str], seat: "int | None" = None) -> Text:
    """Points lost in ``hand`` by each seat in its first ``upto`` decisions (all of them for a
    hand already past), with the mistakes counted; only ``seat``'s when one view is shown."""
    ds = hand["decisions"][:upto]
    t = Text((_("Hand {n} points lost so far:") if upto < len(hand["decisions"]) else
              _("Hand {n} points lost:")).format(n=hand['hand'] + 1) + " ", style="bold")
    seats = range(len(names)) if seat is None else [seat]
    for i, s in enumerate(seats):
        mine = [d for d in ds if d["seat"] == s]
        lost = sum(float(d["loss"]) for d in mine)
        se = sum(_lost_se(d) ** 2 for d in mine) ** 0.5
        bad = sum(1 for d in mine if d["mistake"])
        if i:
            t.append(" · ")
        t.append_text(_who(names, s))
        t.append(" " + _num(lost, 1))
        if se:
            t.append(" ± " + _num(Z95 * se, 1), style="dim")
        if bad:
            t.append(f" ({bad}✗)", style="red")
    return t


def mistake_text(hand: dict, d: dict) -> Text:
    """A mistake in words, cards as symbols: ``hand 4, trick 1: played 4♦, 8♦ was best; it cost
    2.6 points (± 1.7)`` (:func:`ohhell.coach.describe_mistake`'s wording)."""
    kind = d["kind"]
    t = Text((_("hand {hand}, trick {trick}").format(hand=hand['hand'] + 1, trick=d['trick']) if kind == "play"
              else _("hand {hand}").format(hand=hand['hand'] + 1)) + ": ")
    if kind == "bid":
        t.append(_("bid {bid}, {best} was best").format(bid=d['action'], best=d['best']))
    else:
        played, best = _action_text(d["action"], kind).plain, _action_text(d["best"], kind).plain
        t.append(_("played {card}, {best} was best").format(card=played, best=best))
    t.append("; " + _("it cost {loss} points (± {error})").format(loss=_num(float(d['loss']), 1),
                                                                   error=_num(Z95 * float(d['loss_se']), 1)))
    return t


def _sum_rows(rows: list[dict], key: str) -> "float | None":
    if not rows or not all(key in r for r in rows):
        return None
    return sum(float(r[key]) for r in rows)


def _sum_se(rows: list[dict], key: str) -> "float | None":
    """The standard error of the sum of ``key`` over ``rows`` (independent estimates), or
    ``None`` where an older analysis does not give it."""
    if not rows or not all(key in r for r in rows):
        return None
    return sum(float(r[key]) ** 2 for r in rows) ** 0.5


def _lost_se(d: dict) -> float:
    return float(d.get("loss_se", 0.0))


def summary_body(analysis: GameAnalysis, names: Sequence[str], hands_done: int, upto: int,
                 seat: "int | None" = None, top: int = 5) -> Group:
    """The game's summary per seat from the hands the replay has finished (``hands_done`` of
    them) and the decisions it has reached (``upto``, counted over the whole game): score,
    cards, points lost, fall, luck, skill and mistakes, then the largest mistakes in words.
    With ``seat``, only that seat's mistakes are worded (the others' would tell its cards)."""
    n = len(names)
    total_hands = len(analysis.hands)
    parts: list[Any] = []
    whole = hands_done >= total_hands
    if whole:
        title = _("Game analysis")
    elif hands_done == 0:
        title = _("Game analysis — the decisions replayed so far (no hand finished yet, of {count})").format(
            count=total_hands)
    else:
        title = ngettext("Game analysis — the {n} hand replayed so far (of {count})",
                         "Game analysis — the {n} hands replayed so far (of {count})", hands_done).format(
            n=hands_done, count=total_hands)
    parts.append(Text(title, style="bold"))
    t = Table(pad_edge=False, box=None)
    columns = (("seat", _("seat")), ("score", _("score")), ("cards", _("cards")), ("lost bidding", _("lost bidding")),
               ("lost playing", _("lost playing")), ("fall", _("fall")), ("luck", _("luck")),
               ("skill", _("skill")), ("mistakes", _("mistakes")))
    for col, heading in columns:
        # a narrow screen wraps a number's interval onto the next line rather than cut it
        t.add_column(heading, justify="left" if col == "seat" else "right", no_wrap=col in ("seat", "score"))
    reached = flat_decisions(analysis)[:upto]
    for s in range(n):
        rows = [h["seats"][s] for h in analysis.hands[:hands_done] if "score" in h["seats"][s]]
        score = sum(int(r["score"]) for r in rows)
        cards, fall, luck = _sum_rows(rows, "cards"), _sum_rows(rows, "fall"), _sum_rows(rows, "luck")
        lost_bid, lost_play = _sum_rows(rows, "lost_bid"), _sum_rows(rows, "lost_play")
        luck_se = _sum_se(rows, "luck_se")
        mistakes = sum(int(r["mistakes"]) for r in rows)

        def f(x: "float | None", se: "float | None" = None, sign: bool = False) -> str:
            # every estimate with its 95% interval (none for an exact number, or an older analysis)
            if x is None:
                return "–"
            text = _num(round(x, 1), 1, sign)
            return f"{text} ± {_num(Z95 * se, 1)}" if se else text
        t.add_row(_who(names, s), format_number(score) if rows else "–", f(cards, _sum_se(rows, "cards_se")),
                  f(lost_bid, _sum_se(rows, "lost_bid_se")), f(lost_play, _sum_se(rows, "lost_play_se")),
                  f(fall, _sum_se(rows, "fall_se"), True), f(luck, luck_se),
                  "–" if luck is None else f(score - luck, luck_se, True),
                  str(mistakes) if rows else "–")
    parts.append(t)
    parts.append(Text(_("score = cards − lost + fall; skill = score − luck (what the analysis bot "
                        "scored with the same cards).") + " " + _("± is a 95% interval (sampling).")
                      + ("" if whole else " " + _("Finished hands only: the hand "
                                                  "in progress is in the coach panel.")),
                      style="dim"))
    ms = [(h, d) for h, d in reached if d["mistake"] and (seat is None or d["seat"] == seat)]
    ms.sort(key=lambda hd: (-float(hd[1]["loss"]), hd[0]["hand"], hd[1]["index"]))
    parts.append(Text("\n" + (_("Largest mistakes") if seat is None else
                              _("Largest mistakes of {name}").format(name=names[seat])), style="bold"))
    if not ms:
        parts.append(Text(_("None so far.") if not whole else _("None: no decision clearly lost points."),
                          style="dim"))
    for h, d in ms[:top]:
        line = _who(names, d["seat"])
        line.append(": ")
        line.append_text(mistake_text(h, d))
        parts.append(line)
    return Group(*parts)


class SummaryScreen(ModalScreen):
    """The game's analysis summary (up to where the replay is)."""

    BINDINGS = [Binding("escape,enter,a,q", "dismiss(None)", N_("Close"))]
    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    #summary-box { width: 124; max-width: 95%; height: auto; max-height: 90%; border: thick $accent;
                   background: $surface; padding: 1 2; }
    #summary-scroll { height: auto; max-height: 30; }
    """

    def __init__(self, body: Any) -> None:
        super().__init__()
        word_bindings(self)
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-box"):
            with VerticalScroll(id="summary-scroll"):
                yield Static(self.body, id="summary-body")
            with Horizontal(classes="modal-buttons"):
                yield Button(_("Close (Esc)"), id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)


class AnalysingScreen(ModalScreen):
    """Runs the analysis of ``record`` in a worker thread, with a progress bar; the UI stays
    responsive.  Dismissed with the annotated record, or ``None`` when cancelled (Esc) or
    failed (the reason is shown as a notification).  With ``save_to`` the annotated record is
    written there (atomically) before it is returned."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]
    DEFAULT_CSS = """
    AnalysingScreen { align: center middle; }
    #analysing-box { width: 70; height: auto; border: thick $accent; background: $surface; padding: 1 2; }
    #analysing-bar { margin: 1 0; }
    """

    def __init__(self, record: dict, *, samples: int = DEFAULT_SAMPLES, save_to: "str | None" = None,
                 seed: "int | str" = 0) -> None:
        super().__init__()
        word_bindings(self)
        self.record = record
        self.samples = samples
        self.save_to = save_to
        self.seed = seed
        self.cancelled = False
        self.error: "str | None" = None

    def compose(self) -> ComposeResult:
        with Vertical(id="analysing-box"):
            yield Static(Text(_("Analysing the game"), style="bold"), id="analysing-title")
            yield Static(Text(_("Every bid and card is evaluated from its player's own view "
                                "({n} sampled deals each).").format(n=self.samples), style="dim"))
            yield ProgressBar(total=None, show_eta=True, id="analysing-bar")
            yield Static("", id="analysing-note")
            with Horizontal(classes="modal-buttons"):
                yield Button(_("Cancel (Esc)"), id="cancel")

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True, name="analysis")

    def _progress(self, done: int, total: int) -> None:
        if self.cancelled:
            raise _Cancelled()
        self.app.call_from_thread(self._show, done, total)

    def _show(self, done: int, total: int) -> None:
        self.query_one("#analysing-bar", ProgressBar).update(total=max(1, total), progress=done)
        self.query_one("#analysing-note", Static).update(_("{done} of {total} decisions").format(done=done, total=total))

    def _work(self) -> None:
        try:
            a = analyze_game(self.record, samples=self.samples, seed=self.seed, progress=self._progress)
            rec = annotate(self.record, a)
            if self.save_to:
                atomic_write_text(self.save_to, json.dumps(rec, ensure_ascii=False) + "\n")
        except _Cancelled:
            return
        except OSError as e:
            # worded on the app's thread, in its language (this worker thread has none of its own)
            self.app.call_from_thread(self._fail, N_("Could not save the analysis to {path}: {reason}"),
                                      path=self.save_to, reason=e.strerror or e)
            return
        except Exception as e:   # a record that does not replay, a bad setting: said, not a traceback
            self.app.call_from_thread(self._fail, N_("The analysis failed: {reason}"), reason=e)
            return
        self.app.call_from_thread(self._done, rec)

    def _done(self, rec: dict) -> None:
        if not self.cancelled:
            self.dismiss(rec)

    def _fail(self, message: str, **facts: object) -> None:
        message = _(message).format(**facts)
        self.error = message
        self.app.notify(message, severity="error", markup=False, timeout=10)
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.cancelled = True
        self.dismiss(None)

    def on_unmount(self) -> None:
        self.cancelled = True      # the app is closing (or the box was closed): the worker stops

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_cancel()


class _Cancelled(Exception):
    """Raised from the progress callback to stop a cancelled analysis."""
