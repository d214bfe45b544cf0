"""The table screen of ``ohhell play``: hand, trump, trick, bid table, score table, whose turn.

The screen is drawn only from the person's :class:`~ohhell.view.View`.  Who
acts, the bots' turns (each thinking in a worker thread, with a short visible
delay) and saving after every action are the table session's
(:class:`ohhell.bots.TableSession`); this screen renders and feeds it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, RichLog, Static

from .. import bots as botlib
from ..actions import Bid, Play
from ..bots.session import Applied, TableSession
from ..cards import RANKS, SUIT_SYMBOLS, parse_card
from ..errors import CardError, IllegalActionError
from ..game import Game
from ..i18n import N_, _, ngettext
from ..text import bids_range, describe_rules
from ..view import View
from .botnames import hint_bot_name
from .gameover import GameOverScreen
from .modals import HELP_TEXT, HintScreen, MessageScreen, hint_body
from .paths import history_path, shown_path
from .render import (PLAYER_COLORS, bid_table, card_text, explain_illegal, format_number, live_bid_rows,
                     rank_text, score_rows_from_view, score_table, signed, suit_text, trick_table, trump_text)
from .saves import Help, add_to_history, no_help, save_game
from .widgets import BidBar, CardWidget, HandPanel, word_bindings

__all__ = ["PlayScreen", "PlayOptions"]


@dataclass
class PlayOptions:
    """How the game runs: the bots' visible ``delay`` (seconds), where it is
    saved, whether to stop after each hand to show its result, and the seed."""

    delay: float = 0.6
    save_path: "str | None" = None
    pause_after_hand: bool = True
    seed: "int | str | None" = None
    hint_bot: "str | None" = None


class PlayScreen(Screen):
    """The table: hand, trump, trick, bid table, score table, whose turn."""

    BINDINGS = [
        Binding("h", "hint", N_("Hint")),
        Binding("l", "last_trick", N_("Last trick")),
        Binding("u", "undo", N_("Take back")),
        Binding("ctrl+s", "save", N_("Save"), priority=True),
        Binding("question_mark", "help", N_("Help")),
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(self, game: Game, human: int, seats: Sequence["str | None"], options: PlayOptions,
                 help: "Help | None" = None) -> None:
        super().__init__()
        word_bindings(self)
        self.game = game
        self.human = human
        self.seat_bots = list(seats)
        self.options = options
        #: the hints and undos each seat used in this game (the record's ``help``, as the server
        #: writes it; kept in the save file, so a resumed game goes on counting)
        self.help_used: Help = [dict(h) for h in help] if help is not None else no_help(game.players)
        seed = options.seed if options.seed is not None else time.time_ns()
        # Who acts, the bots' turns and saving after every action: the table session's.
        self.session = TableSession(game, seats, seed=seed, delay=options.delay, on_action=self._on_action)
        self.bots = {s: self.session.bot(s) for s, name in enumerate(seats) if name is not None}
        self._hint_bot: "botlib.Bot | None" = None
        self._typed = ""        # digits or a rank typed so far
        self._hold = False      # waiting for the player to close a hand's result
        self._show_last = False
        self._message: Text = Text("")
        self.saved_to: "str | None" = None
        self.save_error: "str | None" = None
        self._archived = game.is_over  # a game loaded finished is in the history already

    # --- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static("", id="info")
                yield Static("", id="trick")
                yield Static("", id="last-trick")
                yield Static("", id="status")
                yield BidBar(id="bidbar")
                yield HandPanel(id="hand")
                yield RichLog(id="log", max_lines=500, markup=False, wrap=True, min_width=20)
            with Vertical(id="right"):
                yield Static("", id="bids")
                with VerticalScroll(id="scores-box"):
                    yield Static("", id="scores")
        yield Footer()

    async def on_mount(self) -> None:
        self.sub_title = describe_rules(self.game.rules)
        self.query_one("#last-trick").display = False
        log = self.query_one("#log", RichLog)
        log.write(Text(_("New game: {rules}.").format(rules=describe_rules(self.game.rules)), style="dim"))
        log.write(Text(_("Press ? for the keys, h for a hint."), style="dim"))
        await self.refresh_table()
        self._focus_default()
        self.drive()

    # --- who acts ------------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """What the person may see (everything on screen comes from this)."""
        return self.game.view(self.human)

    def _bot_to_act(self) -> "int | None":
        return next(iter(self.session.bots_to_act()), None)

    @property
    def human_may_act(self) -> bool:
        """Whether the person may act now."""
        return not self._hold and bool(self.game.legal_actions(seat=self.human))

    @property
    def busy(self) -> bool:
        """Whether a bot is to act (the screen is waiting for it)."""
        return not self._hold and self._bot_to_act() is not None

    @work(exclusive=True, group="drive")
    async def drive(self) -> None:
        """Let the bots act, each after a short visible delay, until it is the person's turn."""
        while not self._hold:
            turns = self.session.due()
            if not turns:
                break
            turn = turns[0]
            await self.refresh_table()
            started = time.perf_counter()
            action = await asyncio.to_thread(turn.decide)
            left = turn.delay - (time.perf_counter() - started)
            if left > 0:
                await asyncio.sleep(left)
            applied = self.session.complete(turn, action)
            if applied is None:  # pragma: no cover - the game moved on meanwhile
                continue
            await self._show(applied)
        await self.refresh_table()
        if self.game.is_over and not self._hold:
            self._game_over()

    def _on_action(self, game: Game, seat: int, action) -> None:
        """The session's save hook: runs after every applied action."""
        self._save()

    async def _show(self, applied: Applied) -> None:
        """Log what an applied action did (and stop for a finished hand's result)."""
        g = self.game
        seat, action = applied.seat, applied.action
        you = seat == self.human
        log = self.query_one("#log", RichLog)
        if isinstance(action, Bid):
            hidden = applied.hidden and seat != self.human
            if hidden:
                log.write(Text(_("{name} bids (hidden until all are in)").format(name=g.names[seat])))
            elif you:
                log.write(Text(_("You bid {bid}").format(bid=action.tricks)))
            else:
                log.write(Text(_("{name} bids {bid}").format(name=g.names[seat], bid=action.tricks)))
            if applied.revealed:
                log.write(Text(_("Bids revealed: {bids}").format(
                    bids=", ".join(f"{g.names[s]} {b}" for s, b in enumerate(g.bids))), style="bold"))
        elif isinstance(action, Play):
            line = Text(_("You play") + " " if you else _("{name} plays").format(name=g.names[seat]) + " ")
            line.append_text(card_text(action.card))
            log.write(line)
        last = applied.trick
        if last is not None and last.winner is not None:
            log.write(Text(_("You win the trick.") if last.winner == self.human else
                           _("{name} wins the trick.").format(name=g.names[last.winner]), style="bold"))
        hr = applied.hand
        if hr is not None:
            parts = [f"{g.names[s]} {hr.bids[s]}/{hr.tricks_won[s]} {signed(hr.scores[s])}" for s in range(g.players)]
            log.write(Text(_("Hand {n} over: {results}").format(n=hr.index + 1, results=", ".join(parts)),
                           style="bold cyan"))
            if self.options.pause_after_hand:
                self._hold = True
                await self.refresh_table()
                self.app.push_screen(MessageScreen(self._hand_result(hr), box_id="result-box"),
                                     self._after_result)
                return
        await self.refresh_table()

    def _after_result(self, _: object) -> None:
        self._hold = False
        if self.game.is_over:
            self._game_over()
        else:
            self.call_later(self._resume)

    async def _resume(self) -> None:
        await self.refresh_table()
        self._focus_default()
        self.drive()

    def _hand_result(self, hr) -> Group:
        g = self.game
        t = Table(title=_("Hand {n} of {count}").format(n=hr.index + 1, count=g.hand_count) + " — "
                  + ngettext("{n} card", "{n} cards", hr.hand_size).format(n=hr.hand_size),
                  title_style="bold", pad_edge=False)
        t.add_column(_("player"))
        t.add_column(_("bid"), justify="right")
        t.add_column(_("won"), justify="right")
        t.add_column(_("score"), justify="right")
        t.add_column(_("total"), justify="right")
        totals = g.totals
        for s in range(g.players):
            ok = hr.bids[s] == hr.tricks_won[s]
            t.add_row(Text(g.names[s], style=PLAYER_COLORS[s % len(PLAYER_COLORS)]), str(hr.bids[s]),
                      str(hr.tricks_won[s]), Text(signed(hr.scores[s]), style="green" if ok else "red"),
                      format_number(totals[s]))
        last = hr.tricks[-1]
        lt = Text(_("Last trick:") + " ")
        lt.append_text(self._trick_cards(last.leader, last.cards))
        lt.append(" — " + _("won by {name}").format(name=g.names[last.winner]))
        return Group(t, Text(""), lt)

    def _trick_cards(self, leader: int, cards) -> Text:
        n = self.game.players
        t = Text()
        for i, c in enumerate(cards):
            if i:
                t.append(", ")
            t.append(self.game.names[(leader + i) % n] + " ")
            t.append_text(card_text(c))
        return t

    def _game_over(self) -> None:
        if isinstance(self.app.screen, GameOverScreen):
            return
        self._archive_finished()
        self.app.push_screen(GameOverScreen(self.game.names, self.view, self.saved_to,
                                            record=self.record()), self._after_over)

    def record(self) -> dict:
        """The game's record with the help each seat used (docs/interfaces.md, ``help``)."""
        rec = self.game.record()
        rec["help"] = [dict(h) for h in self.help_used]
        return rec

    def _after_over(self, result: object) -> None:
        new_game = getattr(self.app, "new_game", None)   # PlayApp's (imported here it would be circular)
        if result == "new" and new_game is not None:
            self.app.call_later(new_game)

    # --- saving --------------------------------------------------------------------------------

    def _archive_finished(self) -> None:
        """Append the finished game to ``history.jsonl`` beside the save file (once)."""
        path = self.options.save_path
        if not path or not self.game.is_over or self._archived:
            return
        self._archived = True
        try:
            add_to_history(path, self.game, self.seat_bots, self.help_used)
        except OSError as e:
            self.save_error = _("could not add the game to {path}: {reason}").format(
                path=history_path(path), reason=e.strerror or e)

    def _save(self) -> None:
        path = self.options.save_path
        if not path:
            return
        try:
            save_game(path, self.game, self.seat_bots, self.help_used)
            self.saved_to = path
            self.save_error = None
        except OSError as e:
            self.save_error = _("could not save to {path}: {reason}").format(path=path, reason=e.strerror or e)

    # --- drawing -------------------------------------------------------------------------------

    async def refresh_table(self) -> None:
        """Redraw everything from the person's view."""
        v = self.view
        g = self.game
        n = v.players
        # info line
        info = Text(_("Hand {n} of {count}").format(n=v.hand_index + 1, count=v.hand_count), style="bold")
        info.append(" · " + ngettext("{n} card each", "{n} cards each", v.hand_size).format(n=v.hand_size)
                    + " · " + _("dealer") + " ")
        info.append(v.names[v.dealer], style=PLAYER_COLORS[v.dealer % len(PLAYER_COLORS)])
        info.append(" · ")
        reason = ""
        if v.trump_card is None:
            reason = (_("the deal uses the whole deck") if v.hand_size * n >= 52 else
                      _("last hand") if v.rules.no_trump == "last" else _("largest hands"))
        info.append_text(trump_text(None if v.trump_card is None else int(v.trump_card), reason))
        self.query_one("#info", Static).update(info)
        self.query_one("#trick", Static).update(trick_table(v, you=self.human))
        if self._show_last:
            self.query_one("#last-trick", Static).update(self._last_trick_panel(v))
        # whose turn
        status = self._status(v)
        self.query_one("#status", Static).update(Group(status, self._message) if self._message.plain else status)
        # bids and cards
        bidbar = self.query_one(BidBar)
        hand = self.query_one(HandPanel)
        mine = self.human_may_act
        if v.phase == "bid" and mine:
            allowed = [a.tricks for a in v.legal_actions()]
            note = ""
            if len(allowed) == v.hand_size:
                x = next(b for b in range(v.hand_size + 1) if b not in allowed)
                note = _("not {bid}: the hook (the bids may not total {n})").format(bid=x, n=v.hand_size)
            await bidbar.show(v.hand_size, allowed, note)
            bidbar.display = True
        else:
            bidbar.display = False
        legal = [int(a.card) for a in v.legal_actions() if isinstance(a, Play)] if mine else []
        await hand.show(v.hand_mask, v.trump, legal)
        # tables
        to_act = g.seats_to_act
        rows = live_bid_rows(v)
        narrow = self.query_one("#right").size.width < 14 + 9 * n
        self.query_one("#bids", Static).update(bid_table(rows, to_act=to_act, hand_size=v.hand_size,
                                                         title=_("Bids — hand {n}").format(n=v.hand_index + 1),
                                                         compact=self.query_one("#right").size.width < 44))
        self.query_one("#scores", Static).update(score_table(v.names, score_rows_from_view(v), compact=narrow,
                                                             highlight=v.hand_index + 1 if not v.is_over else None))
        self.sub_title = (f"{v.names[self.human]} · "
                          f"{', '.join(f'{v.names[s]} {format_number(t)}' for s, t in enumerate(v.totals))}")

    def on_resize(self) -> None:
        self.call_later(self.refresh_table)

    def _status(self, v: View) -> Text:
        if v.is_over:
            return Text(_("The game is over."), style="bold")
        if self._hold:
            return Text(_("Hand over — press Enter to continue."), style="bold")
        if self.human_may_act:
            if v.phase == "bid":
                t = Text(_("Your bid:") + " ", style="bold bright_green")
                t.append(_("0 to {n}").format(n=v.hand_size)
                         + (" — " + _("typed {keys}").format(keys=self._typed + "_") if self._typed else ""))
                if v.rules.simultaneous_bidding:
                    t.append(" " + _("(bids stay hidden until everyone has bid)"), style="dim")
                return t
            t = Text(_("Your turn: play a card"), style="bold bright_green")
            if v.trick.cards:
                led = v.trick.cards[0] // 13
                t.append(" — ")
                t.append_text(suit_text(led, name=True))
                t.append(" " + _("led"))
                if any(c // 13 == led for c in v.hand):
                    t.append(_(", you must follow"))
            else:
                t.append(" — " + _("you lead"))
            if self._typed:
                t.append("  (" + _("typed {keys}").format(keys=rank_text(RANKS.index(self._typed)) + "_") + ")",
                         style="dim")
            return t
        seat = self._bot_to_act()
        if seat is None:
            return Text(_("Waiting…"), style="dim")
        return Text(_("{name} is thinking…").format(name=v.names[seat]), style="italic")

    def _last_trick_panel(self, v: View) -> Text:
        # the trick before the one on the table (or the previous hand's last, early in a hand)
        trick = None
        if v.trick.cards and v.tricks:
            trick = v.tricks[-1]
        elif not v.trick.cards and len(v.tricks) >= 2:
            trick = v.tricks[-2]
        elif not v.tricks and v.past_hands:
            trick = v.past_hands[-1].tricks[-1]
        if trick is None:
            return Text(_("Last trick: none yet this hand."), style="dim")
        t = Text(_("Last trick:") + " ", style="bold")
        t.append_text(self._trick_cards(trick.leader, trick.cards))
        if trick.winner is not None:
            t.append(" — " + _("won by {name}").format(name=v.names[trick.winner]))
        return t

    def _focus_default(self) -> None:
        if not self.human_may_act:
            return
        if self.view.phase == "bid":
            buttons = [b for b in self.query(".bid-button") if not b.disabled]
            if buttons:
                buttons[0].focus()
        else:
            self.query_one(HandPanel).focus_first_legal()

    def say(self, text: str, style: str = "bold red") -> None:
        """Show a message under the status line (errors, explanations)."""
        self._message = Text(text, style=style)
        self.call_later(self.refresh_table)

    # --- the person's choices ------------------------------------------------------------------

    async def choose(self, action) -> bool:
        """The person chose ``action``: apply it if legal, else explain why not."""
        self._typed = ""
        g = self.game
        if g.is_over:
            self.say(_("The game is over."))
            return False
        if self._hold:
            self.say(_("Press Enter to close the hand's result first."))
            return False
        v = self.view
        if not self.human_may_act:
            who = self._bot_to_act()
            self.say(_("Wait: it is {name}'s turn.").format(name=v.names[who]) if who is not None
                     else _("It is not your turn."))
            return False
        try:
            applied = self.session.act(self.human, action)
        except IllegalActionError:
            self.say(explain_illegal(v, action))
            return False
        self._message = Text("")
        await self._show(applied)
        self._focus_default()
        if not self._hold:
            self.drive()
        return True

    async def on_card_widget_chosen(self, event: CardWidget.Chosen) -> None:
        await self.choose(Play(event.card))

    async def on_bid_bar_chosen(self, event: BidBar.Chosen) -> None:
        await self.choose(Bid(event.bid))

    async def on_key(self, event: events.Key) -> None:
        ch = event.character
        if not ch or not ch.isprintable() or len(ch) != 1:
            if event.key == "enter" and self._typed and self.view.phase == "bid":
                event.stop()
                await self.choose(Bid(int(self._typed)))
            elif event.key == "backspace" and self._typed:
                event.stop()
                self._typed = self._typed[:-1]
                await self.refresh_table()
            return
        v = self.view
        low = ch.lower()
        if v.phase == "bid" and not v.is_over:
            if ch.isdigit():
                event.stop()
                if not self.human_may_act:
                    self.say(_("Wait for your turn to bid."))
                    return
                self._typed += ch
                b = int(self._typed)
                if b > v.hand_size:
                    self._typed = ""
                    self.say(bids_range(v.hand_size))
                elif b == 0 or b * 10 > v.hand_size:      # no further digit could follow
                    await self.choose(Bid(b))
                else:
                    self._message = Text("")
                    await self.refresh_table()
                return
            if low in "hlu?":
                return
            event.stop()
            self.say(_("{key!r} is not a bid: type a whole number from 0 to {n} "
                       "(or click a bid). Press ? for help.").format(key=ch, n=v.hand_size))
            return
        if v.phase != "play":
            return
        # playing: a rank, then a suit
        if self._typed:
            if low in "cdhs" or ch in SUIT_SYMBOLS:
                event.stop()
                rank = self._typed
                self._typed = ""
                try:
                    card = parse_card(rank + ch)
                except CardError:          # "1" then a suit: no such rank
                    self.say(_("{keys} is not a card: type 1 0 or t for a ten.").format(keys=rank + ch))
                    return
                await self.choose(Play(card))
                return
            if self._typed == "1" and ch == "0":
                event.stop()
                self._typed = "T"
                await self.refresh_table()
                return
            event.stop()
            self._typed = ""
            self.say(_("After the rank, type the suit: c, d, h or s."))
            return
        if low in "23456789tjqka1":
            event.stop()
            if not self.human_may_act:
                self.say(_("Wait for your turn to play."))
                return
            self._typed = "1" if ch == "1" else low.upper()
            self._message = Text("")
            await self.refresh_table()
            return
        if low in "hlu?":
            return
        event.stop()
        self.say(_("{key!r}: type a card as its rank then its suit (q s for Q♠), or click it. "
                   "Press ? for help.").format(key=ch))

    # --- commands ------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the expert what it would do here, and why."""
        if not self.human_may_act:
            self.say(_("A hint is for your turn."), style="yellow")
            return
        self.say(_("Asking the {bot} bot…").format(bot=self.options.hint_bot or hint_bot_name()), style="italic")
        self._hint()

    @work(exclusive=True, group="hint")
    async def _hint(self) -> None:
        name = self.options.hint_bot or hint_bot_name()
        if self._hint_bot is None:
            self._hint_bot = botlib.make(name, seed=0)
        bot = self._hint_bot
        view = self.view
        count = self.game.action_count
        decision = await asyncio.to_thread(bot.decide, view)
        if self.game.action_count != count:  # pragma: no cover - the game moved on meanwhile
            return
        self._message = Text("")
        self.help_used[self.human]["hints"] += 1     # shown: used (the record says so)
        self._save()
        await self.refresh_table()
        self.app.push_screen(HintScreen(hint_body(name, view, decision), decision.action), self._after_hint)

    def _after_hint(self, action: object) -> None:
        if action is not None:
            self.call_later(self.choose, action)

    def action_last_trick(self) -> None:
        self._show_last = not self._show_last
        self.query_one("#last-trick").display = self._show_last
        self.call_later(self.refresh_table)

    def action_save(self) -> None:
        self._save()
        if self.save_error:
            self.say(self.save_error)
        elif self.saved_to:
            self.say(_("Saved to {path}.").format(path=shown_path(self.saved_to)), style="green")
        else:
            self.say(_("This game is not being saved (no save file)."), style="yellow")

    async def action_undo(self) -> None:
        """Take back the person's last action and every bot action after it."""
        if not any(s == self.human for s, _ in self.game.actions()):
            self.say(_("You have nothing to take back yet."), style="yellow")
            return
        self.workers.cancel_group(self, "drive")
        self._hold = False
        if self.session.take_back(self.human):    # a bot still thinking then answers a stale turn
            self.help_used[self.human]["undos"] += 1
        self._typed = ""
        self.query_one("#log", RichLog).write(Text(_("You took back your last move."), style="yellow"))
        self._save()
        self._message = Text("")
        await self.refresh_table()
        self._focus_default()
        self.drive()

    def action_help(self) -> None:
        self.app.push_screen(MessageScreen(Text.from_markup(_(HELP_TEXT)), button=_("Close (Enter)"),
                                           box_id="help-box"))

    def action_quit(self) -> None:
        self._save()
        self.app.exit()
