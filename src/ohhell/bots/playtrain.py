"""Training data for the learned play and bid networks (:mod:`ohhell.bots.playnet`).

Used by ``scripts/train_play_model.py``; deterministic for a seed.  Every
example is taken from a real :class:`~ohhell.Game` through the deciding seat's
:class:`~ohhell.view.View`, so no input holds a card the seat could not see.

* :func:`teacher_chunk`: one-hand games under random rules (3 to 7 players,
  1 to 13 cards, the hook, must-trump, the scoring variants, simultaneous
  bidding, no trump); every seat bids by the learned trick model (its best
  expected score, a share of bids drawn softly so the bid contexts vary) and
  plays the expert's card (:class:`~ohhell.bots.expert.ExpertBot`, a fixed
  iteration budget and no clock, so the data do not depend on the machine's
  speed).  A card decision gives the expert's visit shares (the policy target),
  and when the hand ends the tricks the seat took (the value target); a bid
  gives the bidder's inputs, its bid and the tricks it took.
* :func:`dagger_chunk`: the teacher's hands again, but the cards played are the play
  network's (the expert's in a share ``beta`` of decisions), while every decision is still
  labelled by the expert: the positions the network itself reaches, with the expert's
  answer (DAgger, Ross et al. 2011), so that the network learns to recover from its own
  mistakes rather than only to follow the expert's games.
* :func:`selfplay_chunk`: the same hands (up to 17 cards) with every seat playing
  the play network's card: bid examples whose tricks follow the network's own
  play (no play examples).  Four bids in ten are any legal bid within two of the trick model's best,
  so the bid-conditioned model sees what each bid leads to, not only the usual bid.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from ..actions import BIDS, Bid
from ..game import Game
from ..rules import Rules
from ..scoring import hand_score
from .learned import TrickModel, shared_model
from .learnedbot import bid_features
from .playnet import _features

__all__ = ["random_rules", "teacher_chunk", "dagger_chunk", "selfplay_chunk", "model_bid_choice", "bid_label_chunk",
           "standard_rules"]


def random_rules(rng: random.Random, max_hand: int = 13) -> Rules:
    """One hand's rules, drawn: players, hand size and every variant."""
    n = rng.randint(3, 7)
    h = rng.randint(1, min(max_hand, 52 // n))
    no_trump = "last" if n * h == 52 or rng.random() < 0.12 else "never"
    simultaneous = rng.random() < 0.05
    return Rules(n, hand_sizes=[h], no_trump=no_trump, hook=not simultaneous and rng.random() < 0.4,
                 simultaneous_bidding=simultaneous, must_trump=rng.random() < 0.15,
                 missed_bid_scores_tricks=rng.random() < 0.15, zero_bid_scores_hand_size=rng.random() < 0.1)


def standard_rules(rng: random.Random) -> Rules:
    """One hand of the standard game, drawn: 3 to 7 players (mostly 4 and 5, the player
    counts of the issue's full-game matches), the hand's size from that count's schedule
    (:meth:`Rules.preset`), so that sizes come as often as in a full game, with a trump turned
    except in the full game's last hand (no trump there, as in the game)."""
    n = rng.choices((3, 4, 5, 6, 7), weights=(1, 4, 4, 1, 1))[0]
    sizes = Rules.preset("standard", players=n).hand_sizes
    h = rng.choice(sizes)
    # A one-hand game's only hand is its last: it has a trump unless it is the full game's last.
    return Rules.preset("standard", players=n, hand_sizes=[h], no_trump="last" if h == sizes[-1] else "never")


def model_bid_choice(view, model: TrickModel, rng: random.Random, soft: float = 0.3,
                     beta: float = 1.0, explore: float = 0.0, window: int = 2) -> "tuple[int, list[float]]":
    """A bid by the learned trick model: its best expected score, or (``soft`` of the time)
    drawn in proportion to ``exp(beta * expected score)``, or (``explore`` of the time) any
    legal bid within ``window`` of the best, uniformly.  Returns the bid and the bidder's
    features."""
    h = view.hand_size
    x = bid_features(view)
    from .learned import feature_matrix
    P = model.predict_batch(feature_matrix([x]), [h])[0]
    legal = [a.tricks for a in view.legal]
    ev = {b: sum(float(P[k]) * hand_score(b, k, h, view.rules) for k in range(h + 1)) for b in legal}
    u = rng.random()
    if u < explore:
        top_b = max(legal, key=lambda b: (ev[b], -b))
        near = [b for b in legal if abs(b - top_b) <= window]
        return near[int(rng.random() * len(near))], x
    if u < explore + soft:
        top = max(ev.values())
        w = [math.exp(beta * (ev[b] - top)) for b in legal]
        r = rng.random() * sum(w)
        for b, wb in zip(legal, w):
            r -= wb
            if r < 0:
                return b, x
        return legal[-1], x
    return max(legal, key=lambda b: (ev[b], -b)), x


def _play_hand(rules: Rules, seed: str, rng: random.Random, model: TrickModel, card_fn, soft: float,
               explore: float = 0.0, explorer: "int | None" = None, bidder=None):
    """Play one hand; ``card_fn(view)`` returns ``(action, target or None)``.  Returns the
    bid examples ``(x, bid, tricks, h)`` and the play examples ``(x, target, legal slots, won,
    tricks left, tricks, h, score)``.  With an ``explorer`` seat, the other seats bid the
    trick model's best, or ``bidder(view)`` (a bid) when it is given."""
    g = Game(rules, seed=seed)
    h = rules.hand_sizes[0]
    bid_rows: list = []
    plays: list = []
    while g.phase == "bid":
        for s in g.seats_to_act:
            v = g.view(s)
            if explorer is None:
                b, x = model_bid_choice(v, model, rng, soft, explore=explore)
            elif s == explorer or bidder is None:   # one seat explores, every other bids the trick model's best
                b, x = model_bid_choice(v, model, rng, 0.0, explore=1.0 if s == explorer else 0.0)
            else:       # ... or as ``bidder`` does
                b, x = bidder(v), bid_features(v)
            bid_rows.append((s, x, b))
            g.apply(BIDS[b], seat=s)
            break
    while g.phase == "play":
        s = g.to_act
        v = g.view(s)
        action, target = card_fn(v)
        if target is not None:
            x, slot = _features(v)
            legal_slots = [slot[a.card // 13] * 13 + a.card % 13 for a in v.legal]
            tgt = {slot[c // 13] * 13 + c % 13: p for c, p in target.items()}
            plays.append((s, x, tgt, legal_slots, v.tricks_won[s], h - len(v.tricks)))
        g.apply(action, seat=s)
    won = g.past_hands[0].tricks_won
    scores = g.past_hands[0].scores
    bids_out = [(x, b, won[s], h) for s, x, b in bid_rows]
    plays_out = [(x, tgt, ls, w0, left, won[s], h, scores[s]) for s, x, tgt, ls, w0, left in plays]
    return bids_out, plays_out


def _expert_card(expert):
    """``card(view)`` for :func:`_play_hand`: the expert's card and its visit shares (no
    example where only one card is legal)."""
    def card(view):
        if len(view.legal) == 1:
            return view.legal[0], None
        d = expert.decide(view)
        visits = d.stats.get("visits") or {d.action: 1}
        tot = sum(visits.values())
        return d.action, {int(a.card): n / tot for a, n in visits.items()}
    return card


def _teacher_hands(hands: int, name: str, rng: random.Random, card, on_decisions=None,
                   explore: float = 0.0) -> tuple:
    model = shared_model()
    bids: list = []
    plays: list = []
    for i in range(int(hands)):
        rules = random_rules(rng)
        b, p = _play_hand(rules, f"{name}:{i}", rng, model, card, soft=0.3, explore=explore)
        bids += b
        plays += p
        if on_decisions is not None:
            on_decisions(len(p))
    return bids, plays


def teacher_chunk(task: Sequence, on_decisions=None) -> tuple:
    """``(hands, seed, iterations[, explore])``: that many hands with the expert
    (``iterations`` sampled deals per decision) playing every card; with ``explore`` above 0,
    that share of the bids is any legal bid within two of the trick model's best (the
    expert then plays each bid out: what each bid leads to, for a bid model).  Returns
    ``(bid examples, play examples)``."""
    from .expert import ExpertBot
    hands, seed, iterations, *rest = task
    explore = float(rest[0]) if rest else 0.0
    rng = random.Random(f"teacher:{seed}")
    expert = ExpertBot(f"teacher:{seed}", iterations=int(iterations), seconds=1e9)
    return _teacher_hands(hands, f"teacher:{seed}", rng, _expert_card(expert), on_decisions, explore)


def dagger_chunk(task: Sequence, on_decisions=None) -> tuple:
    """``(hands, seed, iterations, weights, beta)``: hands like :func:`teacher_chunk`'s where
    each card is the play network's most likely card (``weights``, as :func:`shared_nets`
    takes), or the expert's in a share ``beta`` of decisions, and every decision with a
    choice is labelled with the expert's visit shares all the same.  Returns ``(bid
    examples, play examples)``."""
    from .expert import ExpertBot
    from .playnet import shared_nets
    hands, seed, iterations, weights, beta = task
    rng = random.Random(f"dagger:{seed}")
    mix = random.Random(f"dagger-mix:{seed}")     # its own stream: the deals do not depend on beta
    expert = ExpertBot(f"dagger:{seed}", iterations=int(iterations), seconds=1e9)
    net, _ = shared_nets(weights)
    label = _expert_card(expert)

    def card(view):
        action, target = label(view)
        if target is None or mix.random() < float(beta):
            return action, target
        policy, _ = net.evaluate(view)
        return net.best_card(view.legal, policy), target

    return _teacher_hands(hands, f"dagger:{seed}", rng, card, on_decisions)


SELFPLAY_RULES = ("random", "standard", "standard-one", "standard-learned")


def selfplay_chunk(task: Sequence, on_decisions=None) -> tuple:
    """``(hands, seed, weights[, rules])``: hands with every seat playing the play network's
    most likely card (``weights``: a weights file's path or its bytes, as :func:`shared_nets`
    takes), under ``rules``: ``"random"`` (default: :func:`random_rules`, up to 17 cards) or
    ``"standard"`` (:func:`standard_rules`); four bids in ten explore (any legal bid within two
    of the trick model's best) and two in ten are drawn softly.  ``"standard-one"``: the
    standard game, where one seat a hand explores (every bid within two of the trick model's
    best equally likely) and every other seat bids the trick model's best, as the learned level
    did before its bid-conditioned model, so that what a bid leads to is measured among players
    who bid as the learned level's opponents do; ``"standard-learned"``: the same, but the other
    seats bid as the learned level with ``weights`` does (its bid-conditioned model: the next
    round of that policy's improvement).  Returns ``(bid examples, [])``: the bids like
    :func:`teacher_chunk`'s, and no play examples (their inputs would cost far more memory
    than the bids, and the play network learns from the teacher)."""
    from .playnet import shared_nets
    hands, seed, weights, *rest = task
    kind = rest[0] if rest else "random"
    if kind not in SELFPLAY_RULES:
        raise ValueError(f"self-play rules must be one of {', '.join(SELFPLAY_RULES)}, not {kind!r}")
    rng = random.Random(f"selfplay:{seed}" if kind == "random" else f"selfplay-{kind}:{seed}")
    model = shared_model()
    net, _ = shared_nets(weights)

    def card(view):
        if len(view.legal) == 1:
            return view.legal[0], None
        policy, _ = net.evaluate(view)
        return net.best_card(view.legal, policy), None

    bidder = None
    if kind == "standard-learned":
        from .learnedbot import LearnedBot
        learned = LearnedBot(weights=weights)

        def bidder(view) -> int:
            a = learned.decide(view).action
            assert isinstance(a, Bid)
            return a.tricks

    bids: list = []
    plays: list = []
    for i in range(int(hands)):
        rules = random_rules(rng, max_hand=17) if kind == "random" else standard_rules(rng)
        explorer = rng.randrange(rules.players) if kind in ("standard-one", "standard-learned") else None
        b, p = _play_hand(rules, f"selfplay:{seed}:{i}", rng, model, card, soft=0.2, explore=0.4, explorer=explorer,
                          bidder=bidder)
        bids += b
        plays += p
    return bids, plays


def bid_label_chunk(task: Sequence, on_decisions=None) -> list:
    """``(deals, seed, iterations)``: the expert's bids as labels for a learned bid policy.

    Each deal is one hand of the standard game (:func:`standard_rules`).  Every seat bids in turn by the expert's bid search (``bidder="search"``, ``iterations`` sampled deals, no clock,
    so the labels do not depend on the machine's speed).  Returns one row per bid:
    ``(features, hand size, legal bids, {bid: the expert's expected score}, the bid made)``,
    the features being :func:`ohhell.bots.learned.features` of the bidder's view.
    """
    from .expert import ExpertBot

    def bid_of(a) -> int:
        assert isinstance(a, Bid)
        return a.tricks

    deals, seed, iterations = task
    rng = random.Random(f"bidlabel:{seed}")
    expert = ExpertBot(f"bidlabel:{seed}", iterations=int(iterations), seconds=1e9, bidder="search")
    rows: list = []
    for i in range(int(deals)):
        rules = standard_rules(rng)
        h = rules.hand_sizes[0]
        g = Game(rules, seed=f"bidlabel:{seed}:{i}")
        while g.phase == "bid":
            s = g.seats_to_act[0]
            v = g.view(s)
            x = bid_features(v)
            d = expert.decide(v)
            rows.append((x, h, [bid_of(a) for a in v.legal],
                         {bid_of(a): float(val) for a, val in d.values.items()}, bid_of(d.action)))
            g.apply(d.action, seat=s)
            if on_decisions is not None:
                on_decisions(1)
    return rows

