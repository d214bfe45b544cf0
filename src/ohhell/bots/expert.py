"""``expert``: information-set MCTS over sampled deals, with heuristic rollouts.

Each decision:

1. draws a pool of deals of the hidden cards from the core sampler
   (:class:`ohhell.sampling.HandSampler`: exact, never breaks a shown void),
   each weighted by how well it explains the bids already made
   (:func:`ohhell.sampling.bid_likelihood`);
2. for a card: single-observer ISMCTS over the rest of the hand
   (:func:`ohhell.bots.ismcts.search_play`): each simulation takes a deal from
   the pool in proportion to its weight, walks the tree among the cards legal
   in that deal (UCB1 with availability counts), adds one node, finishes the
   hand with every seat on the heuristic policy and backs up each seat's own
   score; the card visited most is played and its mean score reported;
3. for a bid, by default (``bidder="auto"`` where NumPy is installed): the learned level's
   bid (:class:`ohhell.bots.learnedbot.LearnedBot`), which measured stronger than the search
   below and takes milliseconds; with ``bidder="search"`` (or without NumPy), the same
   search with the bid at the root
   (:func:`ohhell.bots.ismcts.search_bid`): every candidate bid gets the same
   number of simulations, the seats still to bid bid as the heuristic would
   (the dealer respecting the hook), and the bid with the best mean is chosen;
   the reasoning gives the probability of each number of tricks and each
   bid's expected score under the active scoring rules;
4. a one-card hand's bid is not searched: it is the exact bidding equilibrium
   of :mod:`ohhell.bots.onecard` (``one_card=False``: bid as any other hand, above);
5. late in the game (the last ``late_hands`` hands of a game of several) the
   search's objective adds the chance of winning the game to the hand's score, so the
   bot will break its own bid to stop a rival who would otherwise overtake it.

The budget: ``iterations`` sampled deals per decision (default 400; a card
decision runs 4 simulations per deal, a bid 24) and a wall-clock cap of
``seconds`` (default 1.0 s), whichever ends first.
"""

from __future__ import annotations

import math
import random
import time
from typing import Sequence

from ..actions import BIDS
from ..fast import HandState, random_playout
from ..sampling import HandSampler, bid_likelihood, bid_likelihoods, card_win_chances
from ..scoring import hand_score
from ..tricks import hook_bid
from ..view import View
from .base import Bot, Budget, Decision
from .heuristic import trick_distribution
from .inference import PlayModel
from .ismcts import search_bid, search_play
from .onecard import one_card_decision
from .policy import PLAYOUTS, sure_tricks

__all__ = ["ExpertBot", "model_bid", "learned_pending_bids"]


def model_bid(hand: int, trump: int, n: int, h: int, tc: int, legal: "Sequence[int]", rules) -> int:
    """How the expert models a seat still to bid: the legal bid with the best expected score
    under the heuristic's trick distribution of ``hand``, never below its sure tricks (the
    coach models the seats after the one it evaluates the same way)."""
    dist = trick_distribution([p for _, p in card_win_chances(hand, trump, n, h, tc)])
    sure = sure_tricks(hand, trump, tc)
    best, best_v = legal[0], -1e9
    for b in legal:
        v = sum(dist[t] * hand_score(b, t, h, rules) for t in range(h + 1))
        if b < sure:
            v -= 100
        if v > best_v:
            best, best_v = b, v
    return best


def learned_pending_bids(model, view: View, deals: "Sequence[Sequence[int]]",
                         cands: "Sequence[int]") -> "list[dict[int, list[int]]]":
    """Every seat's bid in each sampled deal, for each of this seat's candidate bids, when the
    seats still to bid bid as the learned trick model says (:class:`ohhell.bots.learned.TrickModel`):
    each in turn takes the legal bid with the best expected score under its predicted trick
    distribution, given its sampled hand and the bids before it (this seat's candidate among
    them; a hooked dealer never the forbidden bid, through :func:`ohhell.tricks.hook_bid`).
    Under simultaneous bidding a seat sees no earlier bid and the hook does not apply.
    ``out[d][b]`` is the bids of deal ``d`` when this seat bids ``b``.  One batched pass of the
    model per seat still to bid."""
    import numpy as np

    from .learned import feature_matrix, features
    rules = view.rules
    n, h, me = view.players, view.hand_size, view.seat
    assert me is not None, "a seat's view"
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    simultaneous = rules.simultaneous_bidding
    hook = rules.hook and not simultaneous
    keys = [(d, b) for d in range(len(deals)) for b in cands]
    bids = []
    for d, b in keys:
        bb = list(view.bids)
        bb[me] = b
        bids.append(bb)
    # score[k, x]: the points of bidding x and taking k tricks, under this table's scoring
    score = np.array([[hand_score(x, k, h, rules) for x in range(h + 1)] for k in range(h + 1)], dtype=np.float64)
    for pos, s in enumerate(order):
        if s == me or view.bids[s] is not None:
            continue
        rows = [features(deals[d][s], view.trump, view.trump_card, n, h, pos,
                         () if simultaneous else [bb[t] for t in order[:pos]], hook)
                for (d, _), bb in zip(keys, bids)]
        P = model.predict_batch(feature_matrix(rows), [h] * len(rows))[:, :h + 1]
        ev = P @ score
        if hook and pos == n - 1:
            for i, bb in enumerate(bids):
                forbid = hook_bid(h, sum(bb[t] for t in order[:pos]))
                if forbid is not None:
                    ev[i, forbid] = -1e9
        choice = ev.argmax(axis=1)
        for bb, x in zip(bids, choice):
            bb[s] = int(x)
    out: list[dict[int, list[int]]] = [{} for _ in deals]
    for (d, b), bb in zip(keys, bids):
        out[d][b] = bb
    return out


def _bidding(view: View, legal, spread: float):
    """What both bid searches start from: the seats still to bid after this one (in order),
    whether a hooked dealer is among them, the seat that leads, the candidate bids (legal
    bids within ``spread`` of the closed-form trick estimate, plus the sure tricks) and that
    estimate."""
    n = view.players
    me = view.seat
    h = view.hand_size
    trump = -1 if view.trump is None else view.trump
    tc = -1 if view.trump_card is None else int(view.trump_card)
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    pending = [s for s in order if s != me and view.bids[s] is None]
    hook_dealer = view.rules.hook and view.dealer != me and view.dealer in pending
    legal_bids = [a.tricks for a in legal]
    dist0 = trick_distribution([p for _, p in card_win_chances(view.hand_mask, trump, n, h, tc)])
    mean0 = sum(t * p for t, p in enumerate(dist0))
    sure = sure_tricks(view.hand_mask, trump, tc)
    cands = sorted({b for b in legal_bids if abs(b - mean0) <= spread or b == sure}) or legal_bids[:]
    return pending, hook_dealer, order[0], cands, mean0


class ExpertBot(Bot):
    """Search: ISMCTS over bid-weighted sampled deals with heuristic rollouts, score-aware late.

    :param seed: seeds the bot's sampler and search (a seeded bot is
        reproducible given an iteration budget it can finish within ``seconds``).
    :param iterations: sampled deals per decision (``Budget.iterations`` overrides).
    :param seconds: wall-clock cap per decision (``Budget.seconds`` overrides).
    :param weighted: weight deals by the bids (``False``: uniform).
    :param late_hands: in the game's last this-many hands, value winning the game too.
    :param win_weight: what winning the game is worth, in points, late in the game.
    :param search: ``"ismcts"`` (default) or ``"flat"`` (flat Monte Carlo over the cards).
    :param uct_c: the UCB exploration constant (rewards are scaled to 0..1).
    :param sims_per_iteration: simulations per sampled deal for a card.
    :param bid_factor: a bid gets this many times the simulations of a card.
    :param pool: at most this many sampled deals per decision.
    :param rollout: the policy that finishes each simulated hand: ``"heuristic"`` (default:
        :func:`ohhell.bots.policy.heuristic_playout`), ``"v2"`` (:mod:`ohhell.bots.policy_v2`:
        the heuristic's plan with the odds of each card holding a trick, the sure tricks
        against the need, and the voids shown; it also picks the search's first card to try)
        or ``"random"``; ``"v2-self"``: this seat's own play by ``v2`` and the other seats' by the
        heuristic (its searches then expect it to play better than the others).
    :param bid_search: ``"ismcts"`` (default) or ``"flat"`` (rollouts per candidate bid).
    :param bid_model: how seats still to bid are modelled in the bid search: ``"heuristic"``
        (default: the best bid under the heuristic's trick distribution, :func:`model_bid`),
        ``"learned"`` (the best bid under the learned trick model, which reads the bids made
        before each of them, this bot's candidate bid included: :func:`learned_pending_bids`;
        needs NumPy) or ``"random"``.
    :param opponents: how the other seats play in the card search: ``"heuristic"``
        (in the tree, for their own score) or ``"random"``.
    :param one_card: bid one-card hands by the exact equilibrium of
        :func:`ohhell.bots.onecard.one_card_decision` (default); ``False`` keeps the
        search's bid (today's expert as a frozen baseline).
    :param bid_evidence: how the bids already made weigh the sampled deals:
        ``"closed"`` (default; :func:`ohhell.sampling.bid_likelihood`, a
        Gaussian around each hand's estimated tricks), ``"learned"``
        (:class:`ohhell.bots.learned.LearnedBidEvidence`: the learned trick
        model and each bidder's best bids under the scoring; needs NumPy) or
        ``"bidder"`` (:class:`ohhell.bots.learnedbot.LearnedBidderEvidence`: the bids the
        learned level, and so this bot's own learned bidder, would weigh; needs NumPy).
    :param bid_tree: which sampled deals share a tree of card play in the bid search
        (:func:`ohhell.bots.ismcts.search_bid`): ``"bids"`` (default: those with the same bids
        for every seat), ``"total"`` (the same total of bids) or ``"shared"`` (all).
    :param learned_prior: above 0, the play network's policy
        (:class:`ohhell.bots.playnet.PlayNet`) guides the card search's root:
        its most probable cards are tried first and each card's UCB value
        gains ``learned_prior * P(card) / (visits + 1)``; 0 (default) is off.
        Needs NumPy.
    :param bid_net: between 0 (default: off) and 1, how much a bid's expected score comes from
        the bid-conditioned network (:class:`ohhell.bots.playnet.BidNet`: P(k tricks | the
        hand, the turned card, the place, the earlier bids and the bid), learned from hands
        played out by the play network) rather than from the bid search's play-outs: each
        candidate's score is ``(1 - bid_net) * search + bid_net * network`` (late in a game
        the search's value of winning is kept as it is). Needs NumPy.
    :param bid_weights: the weights file of ``bid_net``'s network (default: the shipped one).
    :param bidder: ``"auto"`` (default): ``"learned"`` where NumPy is installed, else
        ``"search"``; ``"learned"``: bid as the learned level does
        (:class:`ohhell.bots.learnedbot.LearnedBot`, its bid-conditioned model near the trick
        model's best; one-card hands by ``one_card`` as here) and search only the cards (needs
        NumPy); ``"search"``: the bid search above (``bid_search``, ``bid_model``,
        ``bid_factor``, ``bid_tree``, ``bid_net`` and ``bid_weights`` shape only this bid).
    :param bid_lift: with the learned bidder, how much more often than the network's own play
        this bot's card play is taken to make a bid of ``b``: ``bid_lift * b`` in log-odds
        (:func:`ohhell.bots.learnedbot.lift_made`; 0: the model as it is).
    :raises ValueError: for an unknown option value.
    """

    name = "expert"

    def __init__(self, seed: "int | str | None" = None, *, iterations: int = 400,
                 seconds: float = 1.0, weighted: bool = True, late_hands: int = 2,
                 win_weight: float = 25.0, search: str = "ismcts", uct_c: float = 0.4,
                 sims_per_iteration: int = 4, pool: int = 200, rollout: str = "heuristic",
                 bid_search: str = "ismcts", bid_model: str = "heuristic",
                 opponents: str = "heuristic", bid_factor: int = 6, rivalry: float = 0.0,
                 exact: int = 0, play_slack: float = 1.0, one_card: bool = True,
                 bid_evidence: str = "closed", learned_prior: float = 0.0, bid_tree: str = "bids",
                 bid_net: float = 0.0, bid_weights: "str | None" = None, bidder: str = "auto",
                 bid_lift: float = 0.0) -> None:
        if not 0.0 <= float(bid_net) <= 1.0:
            raise ValueError(f"bid_net must be between 0 and 1, not {bid_net!r}")
        self.bid_net = float(bid_net)
        self._bid_net = None
        if self.bid_net > 0:
            from .playnet import shared_nets
            self._bid_net = shared_nets(bid_weights)[1]
        if not isinstance(one_card, bool):
            raise ValueError(f"one_card must be true or false, not {one_card!r}")
        self.one_card = one_card
        if bid_evidence not in ("closed", "learned", "bidder"):
            raise ValueError(f"bid_evidence must be one of closed, learned, bidder, not {bid_evidence!r}")
        self.bid_evidence = bid_evidence
        if not float(learned_prior) >= 0:
            raise ValueError(f"learned_prior must be 0 or more, not {learned_prior!r}")
        self.learned_prior = float(learned_prior)
        self._play_net = None
        if self.learned_prior > 0:
            from .playnet import shared_nets
            self._play_net = shared_nets()[0]
        self._evidence = None
        if bid_evidence == "learned":
            from .learned import LearnedBidEvidence
            self._evidence = LearnedBidEvidence()
        elif bid_evidence == "bidder":
            from .learnedbot import LearnedBidderEvidence
            self._evidence = LearnedBidderEvidence()
        for name, value, allowed in (("search", search, ("ismcts", "flat")),
                                     ("rollout", rollout, ("heuristic", "v2", "v2-self", "random")),
                                     ("bid_search", bid_search, ("ismcts", "flat")),
                                     ("bid_model", bid_model, ("heuristic", "learned", "random")),
                                     ("opponents", opponents, ("heuristic", "random")),
                                     ("bid_tree", bid_tree, ("bids", "total", "shared")),
                                     ("bidder", bidder, ("auto", "search", "learned"))):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
        if bidder == "auto":
            from . import available
            bidder = "learned" if available("learned") else "search"
        if bid_lift and bidder != "learned":
            raise ValueError(f"bid_lift needs the learned bidder (bidder=learned, with NumPy installed), "
                             f"not bidder={bidder}")
        self.bidder = bidder
        self._bidder = None
        if bidder == "learned":
            from .learnedbot import LearnedBot
            self._bidder = LearnedBot(one_card=one_card, bid_lift=bid_lift)
        if rollout == "v2-self" and "flat" in (search, bid_search):
            raise ValueError("rollout v2-self needs search=ismcts and bid_search=ismcts (a flat search "
                             "plays every seat with one policy)")
        self.rollout = rollout
        self.rivalry = float(rivalry)
        self.exact = max(0, int(exact))
        self.play_slack = float(play_slack)
        self.bid_search = bid_search
        self.bid_tree = bid_tree
        self.bid_model = bid_model
        self._trick_model = None
        if bid_model == "learned":
            from .learned import shared_model
            self._trick_model = shared_model()
        self.opponents = opponents
        self.bid_factor = max(1, int(bid_factor))
        self.search = search
        self.uct_c = uct_c
        self.sims_per_iteration = sims_per_iteration
        self.pool = pool
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.weighted = weighted
        self.late_hands = late_hands
        self.win_weight = win_weight

    # --- the objective ------------------------------------------------------------------

    def _late(self, view: View) -> bool:
        # A one-hand game is scored on points alone (as OpenSpiel scores its oh_hell).
        return (self.late_hands > 0 and view.hand_count > 1
                and view.hand_count - view.hand_index <= self.late_hands)

    def _utility(self, view: View, scores) -> float:
        """The hand's score for this seat plus, late in the game, the value of winning."""
        me = view.seat
        u = float(scores[me])
        if self.rivalry:
            u -= self.rivalry * (sum(scores) - scores[me]) / (len(scores) - 1)
        if not self._late(view):
            return u
        finals = [t + s for t, s in zip(view.totals, scores)]
        rival = max(f for s, f in enumerate(finals) if s != me)
        margin = finals[me] - rival
        after = view.hand_count - view.hand_index - 1
        if after == 0:
            win = 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)
        else:
            win = 0.5 * (1.0 + math.erf(margin / (12.0 * math.sqrt(after) * math.sqrt(2))))
        return u + self.win_weight * win

    # --- deciding -----------------------------------------------------------------------

    def decide(self, view: View, budget: Budget | None = None) -> Decision:
        legal = view.legal_actions()
        if not legal:
            raise ValueError(f"seat {view.seat} has no action to take now")
        iters = self.iterations
        secs = self.seconds
        if budget is not None:
            if budget.iterations is not None:
                iters = max(1, budget.iterations)
            if budget.seconds is not None:
                secs = budget.seconds
        deadline = time.perf_counter() + secs
        if view.phase == "bid":
            if self._bidder is not None:
                return self._bidder.decide(view)
            return self._bid(view, legal, iters, deadline)
        return self._play(view, legal, iters, deadline)

    def _deals(self, view: View):
        sampler = HandSampler(view, self.rng)
        weighted = self.weighted and any(b is not None for s, b in enumerate(view.bids) if s != view.seat)
        plays = PlayModel(view, self.play_slack) if self.play_slack < 1.0 and view.phase == "play" else None
        if plays is not None and not plays.events:
            plays = None
        if weighted and self._evidence is not None:
            # A learned model weighs a batch at a time (one pass of its network).
            while True:
                batch = [sampler.sample().hands for _ in range(16)]
                for hands, w in zip(batch, bid_likelihoods(view, batch, self._evidence)):
                    if plays is not None:
                        w *= plays.likelihood(hands)
                    yield hands, w
        while True:
            d = sampler.sample()
            w = bid_likelihood(view, d.hands) if weighted else 1.0
            if plays is not None:
                w *= plays.likelihood(d.hands)
            yield d.hands, w

    def _play(self, view: View, legal, iters: int, deadline: float) -> Decision:
        if len(legal) == 1:
            return Decision(legal[0], {legal[0]: 0.0}, note="the only legal card")
        if self.search == "flat":
            return self._play_flat(view, legal, iters, deadline)
        rules = view.rules
        me = view.seat
        n = view.players
        h = view.hand_size
        bids = list(view.bids)
        gone0 = 1 << view.trump_card if view.trump_card is not None else 0
        pool = max(8, min(self.pool, iters))
        states, weights = [], []
        for hands, w in self._deals(view):
            if w > 0:
                states.append(HandState.from_view(view, hands))
                weights.append(w)
            if len(states) >= pool or (len(states) >= 8 and time.perf_counter() > deadline - 0.5 * self.seconds):
                break
        prior = None
        if self._play_net is not None:
            policy, _ = self._play_net.evaluate(view)
            prior = {int(a.card): p for a, p in policy.items()}
        late = self._late(view)
        top = 10.0 + h + (self.win_weight if late else 0.0)
        norm = 10.0 + h

        def reward(won):
            scores = [hand_score(bids[s], won[s], h, rules) for s in range(n)]
            r = [x / norm for x in scores]
            r[me] = (self._utility(view, scores) + self.rivalry * norm) / (top + self.rivalry * norm)
            return r

        def my_score(won):
            return hand_score(bids[me], won[me], h, rules)

        stats = search_play(states, weights, me, reward, iterations=iters * self.sims_per_iteration,
                            deadline=deadline, gone0=gone0, scores_tricks=rules.missed_bid_scores_tricks,
                            rng=self.rng, c=self.uct_c, my_score=my_score,
                            rollout=self.rollout, only=me if self.opponents == "random" else -1,
                            exact=self.exact,
                            table=[[hand_score(bids[s], t, h, rules) for t in range(h + 1)] for s in range(n)]
                            if self.exact else None, prior=prior, prior_weight=self.learned_prior,
                            voids=view.voids if self.rollout in ("v2", "v2-self") else None)
        by_card = {a.card: a for a in legal}
        ev = {by_card[c]: v[2] for c, v in stats.items() if c in by_card}
        visits = {by_card[c]: v[0] for c, v in stats.items() if c in by_card}
        best = max(visits, key=lambda a: (visits[a], ev[a]))
        total = sum(visits.values())
        note = (f"{best.card}: expected {ev[best]:.2f} points; chosen in {100 * visits[best] / max(1, total):.0f}% "
                f"of {total} searches over {len(states)} sampled deals")
        st = {"deals": len(states), "simulations": total, "visits": visits}
        if late:
            st["utility"] = {by_card[c]: v[1] * top for c, v in stats.items() if c in by_card}
            note += " (weighing the game score)"
        return Decision(best, ev, None, note, st)

    def _play_flat(self, view: View, legal, iters: int, deadline: float) -> Decision:
        rules = view.rules
        me = view.seat
        h = view.hand_size
        bids = list(view.bids)
        scores_tricks = rules.missed_bid_scores_tricks
        gone0 = 1 << view.trump_card if view.trump_card is not None else 0
        cards = [a.card for a in legal]
        k = len(cards)
        tot_u = [0.0] * k
        tot_s = [0.0] * k
        made = [0.0] * k
        wsum = 0.0
        done = 0
        clock = time.perf_counter
        for hands, w in self._deals(view):
            if w > 0:
                base = HandState.from_view(view, hands)
                for i in range(k):
                    st = base.copy()
                    st.play(cards[i])
                    won = (random_playout(st, self.rng.random) if self.rollout == "random"
                           else PLAYOUTS[self.rollout](st, gone0, scores_tricks))
                    scores = [hand_score(bids[s], won[s], h, rules) for s in range(view.players)]
                    tot_u[i] += w * self._utility(view, scores)
                    tot_s[i] += w * scores[me]
                    made[i] += w * (won[me] == bids[me])
                wsum += w
            done += 1
            if done >= iters or clock() > deadline:
                break
        if wsum <= 0:
            wsum = 1.0
        ev = {legal[i]: tot_s[i] / wsum for i in range(k)}
        util = [tot_u[i] / wsum for i in range(k)]
        bi = max(range(k), key=lambda i: (util[i], -cards[i] % 13))
        best = legal[bi]
        note = (f"{best.card}: expected {ev[best]:.2f} points, makes the bid "
                f"{100 * made[bi] / wsum:.0f}% of {done} sampled deals")
        stats = {"deals": done, "make_chance": {legal[i]: made[i] / wsum for i in range(k)}}
        if self._late(view):
            stats["utility"] = {legal[i]: util[i] for i in range(k)}
            note += " (weighing the game score)"
        return Decision(best, ev, None, note, stats)

    def _bid_tree(self, view: View, legal, iters: int, deadline: float) -> Decision:
        """The bid by ISMCTS over this bid and the play that follows it."""
        rules = view.rules
        n = view.players
        me = view.seat
        h = view.hand_size
        trump = -1 if view.trump is None else view.trump
        tc = -1 if view.trump_card is None else int(view.trump_card)
        gone0 = 1 << tc if tc >= 0 else 0
        pending, hook_dealer, leader, cands, _ = _bidding(view, legal, 2.6)
        all_bids = list(range(h + 1))
        pool = max(8, min(self.pool, iters))
        deals, weights = [], []
        for hands, w in self._deals(view):
            if w > 0:
                deals.append(hands)
                weights.append(w)
            if len(deals) >= pool or (len(deals) >= 8 and time.perf_counter() > deadline - 0.5 * self.seconds):
                break
        base: dict[int, list] = {}
        learned = (learned_pending_bids(self._trick_model, view, deals, cands)
                   if self._trick_model is not None and pending else None)

        def start(d: int, b: int) -> HandState:
            hands = deals[d]
            if learned is not None:
                return HandState(hands, trump, leader, hand_size=h, bids=learned[d][b],
                                 must_trump=rules.must_trump)
            bb = base.get(d)
            if bb is None:
                bb = list(view.bids)
                for s in pending:
                    if not (s == view.dealer and rules.hook):
                        bb[s] = (self.rng.randrange(h + 1) if self.bid_model == "random"
                                 else model_bid(hands[s], trump, n, h, tc, all_bids, rules))
                base[d] = bb
            bids = bb[:]
            bids[me] = b
            if hook_dealer:
                forbid = hook_bid(h, sum(x for s, x in enumerate(bids) if s != view.dealer))
                opts = [x for x in all_bids if x != forbid]
                bids[view.dealer] = (self.rng.choice(opts) if self.bid_model == "random"
                                     else model_bid(hands[view.dealer], trump, n, h, tc, opts, rules))
            return HandState(hands, trump, leader, hand_size=h, bids=bids, must_trump=rules.must_trump)

        late = self._late(view)
        top = 10.0 + h + (self.win_weight if late else 0.0)
        norm = 10.0 + h

        def reward(won, bids):
            scores = [hand_score(bids[s], won[s], h, rules) for s in range(n)]
            r = [x / norm for x in scores]
            r[me] = (self._utility(view, scores) + self.rivalry * norm) / (top + self.rivalry * norm)
            return r

        def my_score(won, bids):
            return hand_score(bids[me], won[me], h, rules)

        res = search_bid(deals, weights, me, cands, start, reward,
                         iterations=iters * self.sims_per_iteration * self.bid_factor, deadline=deadline, gone0=gone0,
                         scores_tricks=rules.missed_bid_scores_tricks, rng=self.rng, c=self.uct_c,
                         rollout=self.rollout, my_score=my_score,
                         only=me if self.bid_model == "random" else -1, exact=self.exact,
                         table_of=lambda bb: [[hand_score(bb[s], t, h, rules) for t in range(h + 1)]
                                              for s in range(n)], tree=self.bid_tree)
        if self._bid_net is not None:
            self._blend_bid_net(view, res, top + self.rivalry * norm)
        best_b = max(res, key=lambda b: (res[b]["value"], res[b]["score"]))
        values = {BIDS[b]: res[b]["score"] for b in res}
        tr = res[best_b]["tricks"][:h + 1]
        tot = sum(tr) or 1
        probs = [x / tot for x in tr]
        best = BIDS[best_b]
        sims = sum(r["visits"] for r in res.values())
        note = (f"bid {best_b}: expected {values[best]:.2f} points; makes it in "
                f"{100 * probs[best_b]:.0f}% of its {tot} searches ({sims} in all, {len(deals)} sampled deals)")
        stats = {"deals": len(deals), "simulations": sims,
                 "visits": {BIDS[b]: res[b]["visits"] for b in res},
                 "trick_probs_by_bid": {BIDS[b]: [x / max(1, sum(res[b]["tricks"])) for x in res[b]["tricks"][:h + 1]]
                                        for b in res}}
        if late:
            stats["utility"] = {BIDS[b]: res[b]["value"] * top for b in res}
            note += " (weighing the game score)"
        return Decision(best, values, probs, note, stats)

    def _blend_bid_net(self, view: View, res: dict, top: float) -> None:
        """Move each searched bid's score (and its value, by as many points) towards the
        bid-conditioned network's expected score, by ``bid_net``; its trick distribution too."""
        from .learnedbot import bid_features
        h = view.hand_size
        base = bid_features(view)
        assert self._bid_net is not None
        dists = self._bid_net.by_bid(base, list(res), h)
        lam = self.bid_net
        for b, r in res.items():
            net = sum(float(p) * hand_score(b, k, h, view.rules) for k, p in enumerate(dists[b]))
            shift = lam * (net - r["score"])
            r["score"] += shift
            r["value"] += shift / top
            tot = sum(r["tricks"]) or 1
            r["tricks"] = [(1 - lam) * x + lam * tot * (float(dists[b][k]) if k <= h else 0.0)
                           for k, x in enumerate(r["tricks"])]

    def _bid(self, view: View, legal, iters: int, deadline: float) -> Decision:
        rules = view.rules
        n = view.players
        me = view.seat
        h = view.hand_size
        trump = -1 if view.trump is None else view.trump
        tc = -1 if view.trump_card is None else int(view.trump_card)
        gone0 = 1 << tc if tc >= 0 else 0
        legal_bids = [a.tricks for a in legal]
        if self.one_card and h == 1:
            return one_card_decision(view)
        if len(legal_bids) == 1:
            return Decision(legal[0], {legal[0]: 0.0}, note="the only legal bid")
        if self.bid_search == "ismcts":
            return self._bid_tree(view, legal, iters, deadline)
        # The seats after us still to bid; candidate bids near the closed-form estimate
        # first, widened below by what the rollouts show.
        pending, hook_dealer, leader, cands, mean0 = _bidding(view, legal, 1.6)
        tricks = {b: [0.0] * (h + 1) for b in legal_bids}
        util = {b: 0.0 for b in legal_bids}
        score = {b: 0.0 for b in legal_bids}
        wsum = 0.0
        done = 0
        clock = time.perf_counter
        widened = False
        all_bids_range = list(range(h + 1))
        for hands, w in self._deals(view):
            if w > 0:
                base_bids = list(view.bids)
                for s in pending:
                    if s == view.dealer and rules.hook:
                        continue
                    base_bids[s] = model_bid(hands[s], trump, n, h, tc, all_bids_range, rules)
                for b in cands:
                    bids = base_bids[:]
                    bids[me] = b
                    if hook_dealer:
                        forbid = hook_bid(h, sum(x for s, x in enumerate(bids) if s != view.dealer))
                        opts = [x for x in all_bids_range if x != forbid]
                        bids[view.dealer] = model_bid(hands[view.dealer], trump, n, h, tc, opts, rules)
                    st = HandState(hands, trump, leader, hand_size=h, bids=bids,
                                   must_trump=rules.must_trump)
                    won = (random_playout(st, self.rng.random) if self.rollout == "random"
                           else PLAYOUTS[self.rollout](st, gone0, rules.missed_bid_scores_tricks))
                    scores = [hand_score(bids[s], won[s], h, rules) for s in range(n)]
                    tricks[b][won[me]] += w
                    util[b] += w * self._utility(view, scores)
                    score[b] += w * scores[me]
                wsum += w
            done += 1
            if not widened and done >= max(8, iters // 5):
                # add any legal bid the rollouts say is reachable
                widened = True
                seen = [t for b in cands for t in range(h + 1) if tricks[b][t] > 0]
                extra = {b for b in legal_bids if seen and min(seen) - 1 <= b <= max(seen) + 1} - set(cands)
                if extra:
                    cands = sorted(set(cands) | extra)
                    # restart the tallies so every candidate sees the same deals
                    tricks = {b: [0.0] * (h + 1) for b in legal_bids}
                    util = {b: 0.0 for b in legal_bids}
                    score = {b: 0.0 for b in legal_bids}
                    wsum = 0.0
                    done = 0
            if (done >= iters and widened) or clock() > deadline:
                break
        if wsum <= 0:
            wsum = 1.0
        values = {BIDS[b]: score[b] / wsum for b in cands}
        u = {b: util[b] / wsum for b in cands}
        best_b = max(cands, key=lambda b: (u[b], -abs(b - mean0)))
        probs = [x / wsum for x in tricks[best_b]]
        best = BIDS[best_b]
        note = (f"bid {best_b}: expected {values[best]:.2f} points; "
                f"makes it in {100 * probs[best_b]:.0f}% of {done} sampled deals")
        stats = {"deals": done, "trick_probs_by_bid": {BIDS[b]: [x / wsum for x in tricks[b]] for b in cands}}
        if self._late(view):
            stats["utility"] = {BIDS[b]: u[b] for b in cands}
            note += " (weighing the game score)"
        return Decision(best, values, probs, note, stats)

