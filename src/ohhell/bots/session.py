"""One table session under every front end: who acts, bot turns, simultaneous bids, away seats, saving.

A :class:`TableSession` wraps a :class:`~ohhell.Game` and says who plays each
seat: a bot (by name or as a :class:`~ohhell.bots.Bot`) or ``None``, an
*outside* player (a person at a terminal, a learning agent, a PettingZoo
agent, a chat user) whose actions the front end passes in with :meth:`act`.
The session decides, once for every front end:

* whose turn it is (from :attr:`Game.seats_to_act <ohhell.Game.seats_to_act>`):
  :meth:`bots_to_act`, :meth:`outside_to_act`, :meth:`next_seat`;
* which bot turns are due (:meth:`due`), each a :class:`Turn` holding the
  seat's view, the bot, its budget and how long the turn should appear to take;
  during simultaneous bidding every bot of the round gets its view before any
  bot's bid is applied, and bids stay hidden until all are in (the core's views);
* applying a bot's answer (:meth:`complete`), which refuses a turn the game has
  moved past (a stale answer is dropped, not applied);
* away players: a seat marked away (:meth:`set_away`) whose turn has waited
  ``away_after`` seconds is played by a stand-in bot (:meth:`tick`) until its
  player takes the seat back (:meth:`reclaim`);
* the save hook: ``on_action(game, seat, action)`` runs once after every
  applied action, a bot's or an outside player's.

Synchronous front ends call :meth:`run_bots` (it decides and applies every due
bot turn, sleeping out each turn's delay); an asyncio front end calls
:meth:`due`, runs :meth:`Turn.decide` in a thread or process of its own, waits
out :attr:`Turn.delay` and hands the answer to :meth:`complete`.

>>> import ohhell
>>> from ohhell.bots import TableSession
>>> s = TableSession(ohhell.Game(ohhell.Rules(3, hand_sizes=[2]), seed=3), [None, "random", "random"], seed=1)
>>> applied = s.run_bots()          # the bots act until seat 0 (outside) is to act
>>> s.outside_to_act(), s.bots_to_act()
([0], [])
>>> s.act(0, s.game.legal_actions(0)[0]).seat
0
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ..actions import Action, parse_action
from ..errors import IllegalActionError
from ..game import BID, Game, HandRecord, Trick
from ..view import View
from .base import Bot, Budget

__all__ = ["TableSession", "Turn", "Applied", "DEFAULT_BOT", "default_bot"]

#: The bot a seat gets when nobody names one (terminal seats, away stand-ins, the server).
DEFAULT_BOT = "intermediate"


def default_bot() -> str:
    """The bot a seat gets when none is named: :data:`DEFAULT_BOT` when it is registered,
    else ``heuristic``, else the first registered name (the one place this is chosen)."""
    from . import names
    known = names()
    for name in (DEFAULT_BOT, "heuristic"):
        if name in known:
            return name
    return known[0]


#: What a seat is given as: ``None`` (an outside player), a bot name, or a bot.
SeatSpec = "str | Bot | None"


class Turn(NamedTuple):
    """A bot turn that is due: ``bot`` is to act for ``seat`` from ``view`` within ``budget``.

    ``name`` is the bot's name (a registry name where the seat was given one),
    ``standin`` whether it plays for an away player, ``delay`` the seconds the
    turn should appear to take at the table (the caller waits out what the bot's
    thinking did not use).  :meth:`decide` may run in another thread; hand its
    answer to :meth:`TableSession.complete`.
    """

    seat: int
    view: View
    bot: Bot
    name: str
    budget: "Budget | None"
    delay: float
    standin: bool
    key: tuple

    def decide(self) -> Action:
        """The bot's action (its thinking; touches nothing but the bot)."""
        return self.bot.act(self.view, self.budget)


class Applied(NamedTuple):
    """What one applied action did: who did what, and what it completed.

    ``trick`` is the trick the action completed (else ``None``), ``hand`` the
    hand it completed (its :class:`~ohhell.game.HandRecord`, else ``None``),
    ``revealed`` whether it was the last bid of a simultaneous round (the bids
    are shown now), ``hidden`` whether it is a bid the other seats may not see
    yet (a simultaneous round still open: show only that the seat has bid),
    ``standin`` whether a bot played it for an away player.
    """

    seat: int
    action: Action
    by_bot: bool
    standin: bool = False
    trick: "Trick | None" = None
    hand: "HandRecord | None" = None
    revealed: bool = False
    hidden: bool = False


class TableSession:
    """One game and who plays each seat; see the module's description.

    :param game: the game (the session applies actions to it in place).
    :param seats: one entry per seat: ``None`` for an outside player, a bot
        name (made with :func:`ohhell.bots.make`, seeded ``f"{seed}:{seat}"``)
        or a :class:`~ohhell.bots.Bot`.
    :param budget: every bot's budget, or a mapping seat -> budget.
    :param delay: the seconds a bot turn should appear to take (0: none).
    :param trick_pause: ``delay`` is multiplied by this for the first action
        after a finished trick (so the table can show the trick).
    :param seed: seeds the bots made from names (``None``: unseeded).
    :param away_after: seconds an away seat's turn waits before a stand-in
        plays for it (``None``: never).
    :param standin: the stand-in bot's name (default: :func:`default_bot`).
    :param on_action: called as ``on_action(game, seat, action)`` after every
        applied action (a save hook).
    :param clock: the time source for the away timer (seconds).
    :raises ValueError: for a seat list of the wrong length or an unknown bot name.
    """

    def __init__(self, game: Game, seats: Sequence[Any], *, budget: "Budget | Mapping[int, Budget] | None" = None,
                 delay: float = 0.0, trick_pause: float = 1.0, seed: "int | str | None" = None,
                 away_after: "float | None" = None, standin: "str | None" = None,
                 on_action: "Callable[[Game, int, Action], None] | None" = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        n = game.players
        seats = list(seats)
        if len(seats) != n:
            raise ValueError(f"{len(seats)} seats given; the game has {n} players")
        if delay < 0 or trick_pause < 0:
            raise ValueError("delay and trick_pause cannot be negative")
        if away_after is not None and away_after < 0:
            raise ValueError("away_after cannot be negative")
        from . import make, names
        known = names()
        for spec in list(seats) + ([standin] if standin is not None else []):
            if isinstance(spec, str) and spec not in known:
                raise ValueError(f"unknown bot {spec!r}; choose one of {', '.join(known)}")
            if spec is not None and not isinstance(spec, str) and not callable(getattr(spec, "act", None)):
                raise ValueError(f"a seat is None (an outside player), a bot name or a Bot, not {spec!r}")
        self.game = game
        self.seat_specs: list[Any] = seats
        self.seed = seed
        self.delay = float(delay)
        self.trick_pause = float(trick_pause)
        self.away_after = away_after
        self.standin_name = standin or default_bot()
        self.on_action = on_action
        self.clock = clock
        self._budget = budget
        self._make = make
        self._bots: dict[int, tuple[Bot, str]] = {}
        for s, spec in enumerate(seats):
            if isinstance(spec, str):
                self._bots[s] = (make(spec, seed=self._seed(s)), spec)
            elif spec is not None:
                self._bots[s] = (spec, getattr(spec, "name", type(spec).__name__))
        self._standins: dict[int, tuple[Bot, str]] = {}
        self._away: dict[int, float] = {}          # seat -> when it was marked away
        self._since: dict[int, float] = {}         # seat -> when the table began waiting for it
        self._turns: dict[int, Turn] = {}          # the due turns handed out, by seat
        self.epoch = 0                             # counts take-backs
        self._gen: dict[int, int] = {}             # seat -> how often who plays it changed
        self._track()

    # --- who plays, who acts ---------------------------------------------------------------

    def _seed(self, seat: int, tag: str = "") -> "str | None":
        return None if self.seed is None else f"{self.seed}:{tag}{seat}"

    def bot(self, seat: int) -> "Bot | None":
        """The bot that plays ``seat`` now (its own or a stand-in), else ``None``."""
        entry = self._standins.get(seat) or self._bots.get(seat)
        return entry[0] if entry else None

    def bot_name(self, seat: int) -> "str | None":
        """The name of the bot that plays ``seat`` now (its own or a stand-in), else ``None``
        (what a front end that makes its own bot per decision, as the server does, needs)."""
        entry = self._standins.get(seat) or self._bots.get(seat)
        return entry[1] if entry else None

    def is_outside(self, seat: int) -> bool:
        """Whether ``seat`` is played from outside now (no bot, no stand-in)."""
        return seat not in self._bots and seat not in self._standins

    def bots_to_act(self) -> list[int]:
        """The seats a bot is to act for now (stand-ins included), in seat order."""
        return [s for s in self.game.seats_to_act if not self.is_outside(s)]

    def outside_to_act(self) -> list[int]:
        """The outside seats that may act now (no stand-in playing for them)."""
        return [s for s in self.game.seats_to_act if self.is_outside(s)]

    def next_seat(self) -> "int | None":
        """One seat to act, for front ends that take one seat at a time (PettingZoo's AEC):
        :attr:`Game.to_act` (every seat still to bid takes its turn in the core's order
        during simultaneous bidding); ``None`` once the game is over."""
        to_act = self.game.seats_to_act
        if not to_act:
            return None
        return self.game.to_act if self.game.to_act in to_act else to_act[0]

    # --- bot turns -------------------------------------------------------------------------

    def _key(self, seat: int) -> tuple:
        g = self.game
        if g.phase == BID and g.rules.simultaneous_bidding:
            # Any bid of the round leaves a round's turn valid: each bot bids from a view
            # taken before the round's bids are revealed.
            return (self.epoch, seat, "bid", g.hand_index, self._gen.get(seat, 0))
        return (self.epoch, seat, g.action_count, self._gen.get(seat, 0))

    def is_current(self, turn: Turn) -> bool:
        """Whether ``turn`` may still be completed (the game has not moved past it, it was not
        taken back, and the same bot still plays the seat); what a front end that logs an
        action before applying it checks first."""
        return turn.key == self._key(turn.seat) and turn.seat in self.game.seats_to_act

    def _budget_for(self, seat: int) -> "Budget | None":
        b = self._budget
        if isinstance(b, Mapping):
            return b.get(seat)
        return b

    def turn_delay(self) -> float:
        """The delay of a bot turn now (longer right after a trick is completed)."""
        g = self.game
        if not self.delay:
            return 0.0
        trick_done = g.phase != BID and not g.current_trick.cards and g.action_count > 0
        return self.delay * (self.trick_pause if trick_done else 1.0)

    def due(self) -> list[Turn]:
        """The bot turns that may be computed now, in seat order.

        A turn is handed out once and returned again until it is completed or
        the game moves past it, so during simultaneous bidding every bot of the
        round gets a view from before any bot's bid of the round was applied.
        """
        out = []
        for s in self.bots_to_act():
            turn = self._turns.get(s)
            if turn is None or not self.is_current(turn):
                entry = self._standins.get(s) or self._bots[s]
                turn = Turn(s, self.game.view(s), entry[0], entry[1], self._budget_for(s), self.turn_delay(),
                            s in self._standins, self._key(s))
                self._turns[s] = turn
            out.append(turn)
        return out

    def complete(self, turn: Turn, action: Action) -> "Applied | None":
        """Apply a bot's answer to ``turn``; ``None`` (nothing applied) when the turn is stale
        (the game moved on, was taken back, or another bot plays the seat now).

        :raises IllegalActionError: for an action the rules do not allow; nothing changes.
        """
        if not self.is_current(turn):
            return None
        applied = self._apply(turn.seat, action, by_bot=True, standin=turn.standin)
        return applied

    def run_bots(self, *, sleep: "Callable[[float], None] | None" = time.sleep,
                 limit: "int | None" = None) -> list[Applied]:
        """Decide and apply due bot turns (synchronously) until none is due; returns what
        was applied.  Each turn's delay is slept out with ``sleep`` (``None``: no waiting).
        Away seats whose time is up get their stand-in first (:meth:`tick`).

        :param limit: stop after this many actions.
        """
        done: list[Applied] = []
        while limit is None or len(done) < limit:
            if self._away:
                self.tick()
            turns = self.due()
            if not turns:
                break
            turn = turns[0]
            if sleep is None or not turn.delay:
                action = turn.decide()
            else:
                started = time.perf_counter()
                action = turn.decide()
                left = turn.delay - (time.perf_counter() - started)
                if left > 0:
                    sleep(left)
            applied = self.complete(turn, action)
            if applied is not None:
                done.append(applied)
        return done

    # --- outside players -------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> Applied:
        """Apply an outside player's action for ``seat``.

        :raises IllegalActionError: when the rules do not allow it, or a bot plays
            ``seat`` now; nothing changes.
        """
        if not self.is_outside(seat):
            who = "a stand-in bot" if seat in self._standins else "a bot"
            raise IllegalActionError(f"seat {seat} is played by {who}", seat=seat, action=action,
                                     reason=f"{who} plays this seat")
        return self._apply(seat, action, by_bot=False, standin=False)

    def apply(self, seat: int, action: Action) -> Applied:
        """Apply an action for any seat, whoever plays it: a logged action replayed, or a bot's
        answer the caller checked (:meth:`is_current`) and logged before applying it.

        :raises IllegalActionError: when the rules do not allow it; nothing changes.
        """
        standin = seat in self._standins
        return self._apply(seat, action, by_bot=not self.is_outside(seat), standin=standin)

    def _apply(self, seat: int, action: Action, *, by_bot: bool, standin: bool) -> Applied:
        g = self.game
        hand_before = g.hand_index
        was_bid = g.phase == BID
        g.apply(action, seat=seat)          # raises with the game unchanged
        if not isinstance(action, Action):  # it was given as text or a number: it parsed
            action = parse_action(action)
        self._turns.pop(seat, None)
        self._since.pop(seat, None)         # a seat that acts again starts a new turn
        hand = trick = None
        revealed = hidden = False
        if g.is_over or g.hand_index != hand_before:
            hand = g.past_hands[-1]
            trick = hand.tricks[-1]
        elif was_bid:
            if g.rules.simultaneous_bidding:
                revealed = g.phase != BID
                hidden = not revealed
        elif g.trick_winner_so_far is None:   # no card on the table now: the action completed a trick
            trick = g.tricks[-1]
        self._track()
        if self.on_action is not None:
            self.on_action(g, seat, action)
        return Applied(seat, action, by_bot, standin, trick, hand, revealed, hidden)

    def take_back(self, seat: int) -> int:
        """Take back ``seat``'s last action and every action after it; returns how many
        actions were taken back (0, changing nothing, when ``seat`` has not acted).

        Turns handed out before are stale afterwards.
        """
        actions = list(self.game.actions())
        if not any(s == seat for s, _ in actions):
            return 0
        count = 0
        while True:
            s, _ = actions.pop()
            self.game.undo()
            count += 1
            if s == seat:
                break
        self._changed()
        return count

    # --- away players and stand-ins --------------------------------------------------------

    def _track(self) -> None:
        """Note when the table began waiting for each seat to act (the away timer counts from it)."""
        if self.away_after is None:
            return
        now = self.clock()
        since = self._since
        self._since = {s: since.get(s, now) for s in self.game.seats_to_act}

    def _changed(self) -> None:
        self.epoch += 1
        self._turns.clear()
        self._since = {}
        self._track()

    def set_away(self, seat: int, away: bool = True, *, since: "float | None" = None) -> None:
        """Mark a seat's player away (a turn of theirs gets a stand-in once it has waited
        ``away_after`` seconds, counted from the later of the turn's start and this call) or
        back (the timer stops; a stand-in already playing stays until :meth:`reclaim`).

        :param since: when (by ``clock``) the player went away, for a front end that knows it
            (the server: when the seat's last connection closed); it replaces an earlier mark.
            Without it, now, or the time of the mark already there.
        :raises ValueError: for a seat that does not exist.
        """
        if not 0 <= seat < self.game.players:
            raise ValueError(f"no seat {seat}")
        if away and since is not None:
            self._away[seat] = since
        elif away:
            self._away.setdefault(seat, self.clock())
        else:
            self._away.pop(seat, None)

    @property
    def away(self) -> list[int]:
        """The seats marked away."""
        return sorted(self._away)

    @property
    def standins(self) -> dict[int, str]:
        """seat -> the name of the stand-in bot playing for it."""
        return {s: name for s, (_, name) in sorted(self._standins.items())}

    def takeovers(self) -> dict[int, float]:
        """seat -> when (by ``clock``) a stand-in takes over, for every away outside seat the
        table is waiting for (empty without ``away_after``)."""
        if self.away_after is None:
            return {}
        return {s: max(since, self._away[s]) + self.away_after for s, since in self._since.items()
                if s in self._away and self.is_outside(s)}

    def next_deadline(self) -> "float | None":
        """The earliest :meth:`takeovers` time, or ``None`` (what an async front end sleeps until)."""
        return min(self.takeovers().values(), default=None)

    def tick(self, now: "float | None" = None) -> list[int]:
        """Let a stand-in play for every away seat whose time is up; returns those seats."""
        now = self.clock() if now is None else now
        due = sorted(s for s, when in self.takeovers().items() if when <= now)
        for s in due:
            self.stand_in(s)
        return due

    def stand_in(self, seat: int, bot: "str | Bot | None" = None) -> None:
        """Let a bot (default: the session's stand-in) play for outside seat ``seat`` until
        :meth:`reclaim`.

        :raises ValueError: for a seat a bot plays already, or an unknown bot name.
        """
        if not 0 <= seat < self.game.players or seat in self._bots:
            raise ValueError(f"seat {seat} is not an outside player's seat")
        spec = bot if bot is not None else self.standin_name
        if isinstance(spec, str):
            entry = (self._make(spec, seed=self._seed(seat, "standin:")), spec)
        else:
            entry = (spec, getattr(spec, "name", type(spec).__name__))
        self._standins[seat] = entry
        self._gen[seat] = self._gen.get(seat, 0) + 1
        self._turns.pop(seat, None)

    def reclaim(self, seat: int) -> bool:
        """The player takes their seat back from a stand-in; returns whether one played for it."""
        if self._standins.pop(seat, None) is None:
            return False
        self._gen[seat] = self._gen.get(seat, 0) + 1
        self._turns.pop(seat, None)
        since = self._since
        if seat in since:                  # a fresh turn: the away clock starts again
            since[seat] = self.clock()
        return True
