"""Compiled kernels of the batched simulator: the core's rules over int arrays.

Each game is one row of an ``int64`` state array ``S`` (see the ``F_*`` and
``O_*`` offsets); the rules are an ``int64`` vector ``R``.  The functions are
compiled with numba when it is installed (the ``fast`` extra) and otherwise
run as plain Python over the same arrays (correct, but about a hundred times
slower).  :mod:`ohhell.env.batch` is the public face; nothing here checks its
arguments.

The rules implemented are exactly :class:`ohhell.Game`'s (docs/rules.md): every
player count 3..7, every schedule and hand-size list, every ``no_trump``
option (as a per-hand trump flag), hook, simultaneous bidding (seats bid in
the core's order: the first seat without a bid from the dealer's left),
must-trump and both scoring variants.  The tests replay the same deals and
the same choices through :class:`ohhell.Game` and compare every state.

The rules are copies, inlined for speed, of their one home :mod:`ohhell.tricks`
(each copy says which function it copies); ``tests/env/test_kernel_rules.py``
drives them next to the home over random positions.  Inside the arrays no trump
(and "no card led", "no bid") is ``-1``: this module's documented sentinel.
"""

from __future__ import annotations

import numpy as np

try:  # pragma: no cover - which branch runs depends on the installation
    import numba
    from numba import njit, prange
    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    numba = None
    HAVE_NUMBA = False

    def njit(*args, **kwargs):
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

    prange = range

__all__ = ["HAVE_NUMBA"]

# --- state layout -------------------------------------------------------------------------------
F_K, F_DEALER, F_H, F_TCARD, F_TRUMP, F_PHASE, F_TOACT, F_NBIDS, F_BIDSUM, F_LEADER, F_LED, \
    F_BEST, F_WINNER, F_NTRICK, F_NTRICKS, F_PLAYED, F_DECISIONS, F_FIRST = range(18)
O_HANDS = 18
O_BIDS = O_HANDS + 7
O_WON = O_BIDS + 7
O_TOT = O_WON + 7
O_TRICK = O_TOT + 7
O_VOIDS = O_TRICK + 7
WIDTH = O_VOIDS + 7

# --- rules vector -------------------------------------------------------------------------------
R_N, R_K, R_HOOK, R_SIMUL, R_MUST, R_MISSED, R_ZERO, R_MAXH = range(8)
R_WIDTH = 8

BID, PLAY, OVER = 0, 1, 2
DEAL_KERNEL, DEAL_GIVEN = 0, 1

# Popcount of 13-bit suit masks.
POP13 = np.zeros(8192, dtype=np.int64)
# SEL13[m * 16 + k]: the rank of the k-th lowest card of suit mask m.
SEL13 = np.full(8192 * 16, -1, dtype=np.int8)
for _m in range(1, 8192):
    POP13[_m] = POP13[_m >> 1] + (_m & 1)
    _r = [b for b in range(13) if _m >> b & 1]
    for _k, _b in enumerate(_r):
        SEL13[_m * 16 + _k] = _b
del _m, _r, _k, _b

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


@njit(cache=True, error_model="numpy", inline="always")
def splitmix(rs):
    """One step of splitmix64: ``(next state, a float in [0, 1))``."""
    rs = rs + _GOLDEN
    z = (rs ^ (rs >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return rs, float(z >> _S11) * _INV53


@njit(cache=True, error_model="numpy", inline="always")
def shuffle_deal(out, base, deck, rs, n, h, dealer, with_trump):
    """Shuffle just enough of a fresh deck (Fisher-Yates from the top, random stream ``rs``)
    and deal ``h`` cards each, one at a time from the dealer's left, OR-ing each
    seat's cards into ``out[base + seat]`` (which must be zero).

    Returns ``(next stream state, turned trump card or -1)``.
    """
    need = n * h + (1 if with_trump else 0)
    for j in range(52):
        deck[j] = j
    for j in range(need):
        rs, u = splitmix(rs)
        r = j + int(u * (52 - j))
        t = deck[j]
        deck[j] = deck[r]
        deck[r] = t
    seat = dealer
    for j in range(n * h):
        seat = seat + 1 if seat + 1 < n else 0
        out[base + seat] |= np.int64(1) << deck[j]
    return rs, (deck[n * h] if with_trump else -1)


@njit(cache=True, error_model="numpy")
def rng_uniform(rng, g):
    """A float in [0, 1) from game ``g``'s splitmix64 stream (``rng[g]`` is its state)."""
    rs, u = splitmix(rng[g])
    rng[g] = rs
    return u


@njit(cache=True, error_model="numpy")
def popcount(m):
    """The number of cards in a 52-bit mask."""
    return POP13[m & 8191] + POP13[(m >> 13) & 8191] + POP13[(m >> 26) & 8191] + POP13[(m >> 39) & 8191]


@njit(cache=True, error_model="numpy")
def select_card(m, k):
    """The ``k``-th lowest card (0-based) of a 52-bit mask."""
    for suit in range(4):
        sub = (m >> (13 * suit)) & 8191
        c = POP13[sub]
        if k < c:
            return suit * 13 + SEL13[sub * 16 + k]
        k -= c
    return -1


@njit(cache=True, error_model="numpy")
def start_hand(st, g, k, dealer, R, sizes, trumps, D, rng, mode, deck):
    """Deal hand ``k`` of game ``g`` (state row ``st``) with ``dealer`` and open its bidding."""
    n = R[R_N]
    h = sizes[k]
    for s in range(7):
        st[O_HANDS + s] = 0
        st[O_BIDS + s] = -1
        st[O_WON + s] = 0
        st[O_TRICK + s] = -1
        st[O_VOIDS + s] = 0
    if mode == DEAL_KERNEL:
        rs, tc = shuffle_deal(st, O_HANDS, deck, rng[g], n, h, dealer, trumps[k])
        rng[g] = rs
    else:
        for s in range(n):
            st[O_HANDS + s] = D[g, k, s]
        tc = D[g, k, n]
    st[F_K] = k
    st[F_DEALER] = dealer
    st[F_H] = h
    st[F_TCARD] = tc
    st[F_TRUMP] = tc // 13 if tc >= 0 else -1
    st[F_PHASE] = BID
    lead = dealer + 1 if dealer + 1 < n else 0
    st[F_TOACT] = lead
    st[F_LEADER] = lead
    st[F_NBIDS] = 0
    st[F_BIDSUM] = 0
    st[F_LED] = -1
    st[F_BEST] = -1
    st[F_WINNER] = -1
    st[F_NTRICK] = 0
    st[F_NTRICKS] = 0
    st[F_PLAYED] = 0


@njit(cache=True, error_model="numpy")
def start_game(st, g, first_dealer, R, sizes, trumps, D, rng, mode, deck):
    """Begin a new game in row ``st`` (game ``g``): totals zero, hand 0 dealt."""
    for s in range(7):
        st[O_TOT + s] = 0
    st[F_DECISIONS] = 0
    st[F_FIRST] = first_dealer
    start_hand(st, g, 0, first_dealer, R, sizes, trumps, D, rng, mode, deck)


@njit(cache=True, error_model="numpy")
def legal_cards(st, R, p):
    """The cards seat ``p`` may play now, as a mask (play phase).

    Rule home: :func:`ohhell.tricks.legal_mask`."""
    hand = st[O_HANDS + p]
    if st[F_NTRICK] > 0:
        m = hand & (np.int64(8191) << (13 * st[F_LED]))
        if m:
            return m
        t = st[F_TRUMP]
        if R[R_MUST] and t >= 0:
            m = hand & (np.int64(8191) << (13 * t))
            if m:
                return m
    return hand


@njit(cache=True, error_model="numpy")
def hooked_bid(st, R):
    """The bid the hook forbids now, or -1 (rule home: :func:`ohhell.tricks.hook_bid`)."""
    if R[R_HOOK] and st[F_NBIDS] == R[R_N] - 1:
        x = st[F_H] - st[F_BIDSUM]
        if 0 <= x <= st[F_H]:
            return x
    return -1


@njit(cache=True, error_model="numpy")
def is_legal(st, R, a):
    """Whether action id ``a`` is legal for the seat to act."""
    phase = st[F_PHASE]
    if phase == PLAY:
        return 0 <= a < 52 and (legal_cards(st, R, st[F_TOACT]) >> a) & 1 == 1
    if phase == BID:
        b = a - 52
        return 0 <= b <= st[F_H] and b != hooked_bid(st, R)
    return False


@njit(cache=True, error_model="numpy")
def end_hand(st, g, R, sizes, trumps, D, rng, mode, deck, scores_out):
    """Score the finished hand (adding to ``scores_out[g]``) and deal the next or end the game."""
    n = R[R_N]
    h = st[F_H]
    for s in range(n):
        b = st[O_BIDS + s]
        w = st[O_WON + s]
        if b == w:
            sc = 5 + h if (b == 0 and R[R_ZERO]) else 10 + w
        else:
            sc = w if R[R_MISSED] else 0
        st[O_TOT + s] += sc
        scores_out[g, s] += sc
    k = st[F_K] + 1
    if k < R[R_K]:
        d = st[F_DEALER] + 1
        start_hand(st, g, k, d if d < n else 0, R, sizes, trumps, D, rng, mode, deck)
    else:
        st[F_PHASE] = OVER
        st[F_TOACT] = -1


@njit(cache=True, error_model="numpy")
def apply_action(st, g, R, a, sizes, trumps, D, rng, mode, deck, scores_out):
    """Apply legal action id ``a`` for the seat to act in game ``g`` (row ``st``)."""
    n = R[R_N]
    p = st[F_TOACT]
    st[F_DECISIONS] += 1
    if a >= 52:
        b = a - 52
        st[O_BIDS + p] = b
        st[F_NBIDS] += 1
        st[F_BIDSUM] += b
        if st[F_NBIDS] == n:
            st[F_PHASE] = PLAY
            st[F_TOACT] = st[F_LEADER]
        elif R[R_SIMUL]:
            d = st[F_DEALER]
            s = d + 1 if d + 1 < n else 0
            while st[O_BIDS + s] >= 0:
                s = s + 1 if s + 1 < n else 0
            st[F_TOACT] = s
        else:
            st[F_TOACT] = p + 1 if p + 1 < n else 0
        return
    c = a
    st[O_HANDS + p] ^= np.int64(1) << c
    suit = c // 13
    rank = c - suit * 13
    trump = st[F_TRUMP]
    nt = st[F_NTRICK]
    if nt == 0:
        st[F_LED] = suit
        st[F_LEADER] = p
        st[F_WINNER] = p
        st[F_BEST] = 26 + rank if suit == trump else 13 + rank
    else:
        led = st[F_LED]
        # rule homes: ohhell.tricks.voids_shown and ohhell.tricks.strength
        if suit != led:
            st[O_VOIDS + p] |= 1 << led
            if R[R_MUST] and trump >= 0 and suit != trump:
                st[O_VOIDS + p] |= 1 << trump
        sv = 26 + rank if suit == trump else (13 + rank if suit == led else -1)
        if sv > st[F_BEST]:
            st[F_BEST] = sv
            st[F_WINNER] = p
    st[O_TRICK + nt] = c
    st[F_PLAYED] |= np.int64(1) << c
    nt += 1
    if nt < n:
        st[F_NTRICK] = nt
        st[F_TOACT] = p + 1 if p + 1 < n else 0
        return
    w = st[F_WINNER]
    st[O_WON + w] += 1
    st[F_NTRICK] = 0
    st[F_NTRICKS] += 1
    if st[F_NTRICKS] == st[F_H]:
        end_hand(st, g, R, sizes, trumps, D, rng, mode, deck, scores_out)
    else:
        st[F_TOACT] = w
        st[F_LEADER] = w
        st[F_LED] = -1
        st[F_BEST] = -1


@njit(cache=True, error_model="numpy")
def choose(st, R, u):
    """The ``floor(u * count)``-th legal action (ascending id) for ``u`` in [0, 1)."""
    if st[F_PHASE] == PLAY:
        m = legal_cards(st, R, st[F_TOACT])
        return select_card(m, int(u * popcount(m)))
    h = st[F_H]
    x = hooked_bid(st, R)
    if x < 0:
        return 52 + int(u * (h + 1))
    b = int(u * h)
    return 52 + (b + 1 if b >= x else b)


# --- batch kernels --------------------------------------------------------------------------------

@njit(cache=True, error_model="numpy")
def k_start(S, first, R, sizes, trumps, D, rng, mode, deck, rows):
    """Start a new game in each row listed in ``rows`` (``first[g]`` < 0: draw the first dealer)."""
    for i in range(rows.shape[0]):
        g = rows[i]
        f = first[g]
        if f < 0:
            f = int(rng_uniform(rng, g) * R[R_N])
        start_game(S[g], g, f, R, sizes, trumps, D, rng, mode, deck[g])


@njit(cache=True, parallel=True, error_model="numpy")
def k_legal_mask(S, R, out):
    """``out[g, a]`` = 1 when action id ``a`` is legal in game ``g`` (all zero when over)."""
    for g in prange(S.shape[0]):
        st = S[g]
        for a in range(out.shape[1]):
            out[g, a] = 0
        ph = st[F_PHASE]
        if ph == PLAY:
            m = legal_cards(st, R, st[F_TOACT])
            for c in range(52):
                if (m >> c) & 1:
                    out[g, c] = 1
        elif ph == BID:
            x = hooked_bid(st, R)
            for b in range(st[F_H] + 1):
                if b != x:
                    out[g, 52 + b] = 1


@njit(cache=True, error_model="numpy")
def k_check(S, R, actions):
    """The first unfinished game whose action is illegal, or -1."""
    for g in range(S.shape[0]):
        if S[g, F_PHASE] != OVER and not is_legal(S[g], R, actions[g]):
            return g
    return -1


@njit(cache=True, parallel=True, error_model="numpy")
def k_step(S, R, actions, sizes, trumps, D, rng, mode, deck, scores_out):
    """Apply ``actions[g]`` (legal) in every unfinished game; hand scores go to ``scores_out``."""
    for g in prange(S.shape[0]):
        for s in range(R[R_N]):
            scores_out[g, s] = 0
        if S[g, F_PHASE] != OVER:
            apply_action(S[g], g, R, actions[g], sizes, trumps, D, rng, mode, deck[g], scores_out)


@njit(cache=True, parallel=True, error_model="numpy")
def k_random_actions(S, R, rng, out):
    """A uniformly random legal action for every unfinished game (-1 for a finished one)."""
    for g in prange(S.shape[0]):
        if S[g, F_PHASE] == OVER:
            out[g] = -1
        else:
            out[g] = choose(S[g], R, rng_uniform(rng, g))


@njit(cache=True, error_model="numpy")
def _playout_game(g, R, sizes, trumps, D, rng, mode, scores, U, record, first, totals, deck):
    """One whole game of uniformly random decisions, with the state in local variables.

    The same rules as :func:`apply_action` (and the same order of random
    draws), written as straight loops over bids and tricks: this is the hot
    path of :func:`k_playouts`.
    """
    n = R[R_N]
    K = R[R_K]
    hook = R[R_HOOK]
    must = R[R_MUST]
    missed = R[R_MISSED]
    zero = R[R_ZERO]
    use_u = U.shape[1] > 0
    rec = record.shape[1] > 0
    hands = np.zeros(7, dtype=np.int64)
    bids = np.zeros(7, dtype=np.int64)
    won = np.zeros(7, dtype=np.int64)
    for s in range(7):
        totals[g, s] = 0
    rs = rng[g]
    dealer = first[g]
    if dealer < 0:
        rs, u = splitmix(rs)
        dealer = int(u * n)
    i = 0
    for k in range(K):
        h = sizes[k]
        for s in range(n):
            hands[s] = 0
            won[s] = 0
        if mode == DEAL_KERNEL:
            rs, tc = shuffle_deal(hands, 0, deck, rs, n, h, dealer, trumps[k])
        else:
            for s in range(n):
                hands[s] = D[g, k, s]
            tc = D[g, k, n]
        trump = tc // 13 if tc >= 0 else -1
        trump_mask = (np.int64(8191) << (13 * trump)) if trump >= 0 else np.int64(0)
        lead = dealer + 1 if dealer + 1 < n else 0
        # The bids, from the dealer's left (with simultaneous bidding too: the core's order).
        bidsum = 0
        p = lead
        for j in range(n):
            if use_u:
                u = U[g, i]
            else:
                rs, u = splitmix(rs)
            x = h - bidsum if (hook and j == n - 1) else -1   # rule home: ohhell.tricks.hook_bid
            if 0 <= x <= h:
                b = int(u * h)
                if b >= x:
                    b += 1
            else:
                b = int(u * (h + 1))
            bids[p] = b
            bidsum += b
            if rec:
                record[g, i] = 52 + b
            i += 1
            p = p + 1 if p + 1 < n else 0
        # The tricks.
        leader = lead
        for _t in range(h):
            p = leader
            led = -1
            best = -1
            winner = p
            for j in range(n):
                hand = hands[p]
                m = hand
                if j > 0:   # rule home: ohhell.tricks.legal_mask
                    m = hand & (np.int64(8191) << (13 * led))
                    if m == 0:
                        m = hand
                        if must and trump >= 0 and hand & trump_mask:
                            m = hand & trump_mask
                if use_u:
                    u = U[g, i]
                else:
                    rs, u = splitmix(rs)
                cnt = POP13[m & 8191] + POP13[(m >> 13) & 8191] + POP13[(m >> 26) & 8191] \
                    + POP13[(m >> 39) & 8191]
                q = int(u * cnt)
                c = -1
                for suit in range(4):
                    sub = (m >> (13 * suit)) & 8191
                    cs = POP13[sub]
                    if q < cs:
                        c = suit * 13 + SEL13[sub * 16 + q]
                        break
                    q -= cs
                hands[p] = hand ^ (np.int64(1) << c)
                suit = c // 13
                rank = c - suit * 13
                if j == 0:   # rule home: ohhell.tricks.strength
                    led = suit
                    best = 26 + rank if suit == trump else 13 + rank
                else:
                    sv = 26 + rank if suit == trump else (13 + rank if suit == led else -1)
                    if sv > best:
                        best = sv
                        winner = p
                if rec:
                    record[g, i] = c
                i += 1
                p = p + 1 if p + 1 < n else 0
            won[winner] += 1
            leader = winner
        for s in range(n):
            b = bids[s]
            w = won[s]
            if b == w:
                sc = 5 + h if (b == 0 and zero) else 10 + w
            else:
                sc = w if missed else 0
            totals[g, s] += sc
            scores[g, s] += sc
        dealer = dealer + 1 if dealer + 1 < n else 0
    rng[g] = rs
    return i


@njit(cache=True, parallel=True, error_model="numpy")
def k_playouts(R, sizes, trumps, D, rng, mode, scores, U, record, first, totals):
    """Play whole games from their deals to the end with uniformly random actions.

    One game per row of ``totals`` (final totals are written there).
    ``U[g, i]`` (when ``U`` has columns) replaces the random number of game
    ``g``'s ``i``-th decision; ``record[g, i]`` (when it has columns) receives
    the action taken; ``first[g]`` is the first dealer (< 0: draw it).  Hand
    scores are added to ``scores``.  Games are spread over numba's threads
    (``numba.set_num_threads``); the results do not depend on how many.
    Returns the number of decisions.
    """
    G = totals.shape[0]
    counts = np.zeros(G, dtype=np.int64)
    for g in prange(G):
        deck = np.empty(52, dtype=np.int64)
        counts[g] = _playout_game(g, R, sizes, trumps, D, rng, mode, scores, U, record, first, totals, deck)
    return counts.sum()


@njit(cache=True, parallel=True, error_model="numpy")
def k_observe(S, R, seats, off, H, scale, out):
    """The ``observation`` encoding (see :class:`ohhell.env.Encoder`) of seat ``seats[g]`` in every game.

    ``off`` holds the start of each slice in the encoder's layout order.
    """
    n = R[R_N]
    K = R[R_K]
    for g in prange(S.shape[0]):
        st = S[g]
        o = out[g]
        for i in range(o.shape[0]):
            o[i] = 0.0
        me = seats[g]
        ph = st[F_PHASE]
        over = ph == OVER
        o[off[0] + ph] = 1.0
        if not over:
            m = st[O_HANDS + me]
            for c in range(52):
                if (m >> c) & 1:
                    o[off[1] + c] = 1.0
        tc = st[F_TCARD]
        if tc >= 0:
            o[off[2] + tc] = 1.0
        t = st[F_TRUMP]
        o[off[3] + (4 if t < 0 else t)] = 1.0
        h = st[F_H]
        o[off[4] + h - 1] = 1.0
        k = st[F_K]
        done = K if over else k
        o[off[5]] = done / K
        o[off[5] + 1] = (K - k - 1) / K
        o[off[5] + 2] = 1.0 if k == K - 1 else 0.0
        o[off[6] + (st[F_DEALER] - me) % n] = 1.0
        if not over:
            o[off[7] + (st[F_TOACT] - me) % n] = 1.0
            revealed = (not R[R_SIMUL]) or st[F_NBIDS] == n or ph != BID
            total = 0
            for s in range(n):
                r = (s - me) % n
                b = st[O_BIDS + s]
                if b >= 0 and (revealed or s == me):
                    o[off[8] + r * (H + 2) + b] = 1.0
                    total += b
                else:
                    o[off[8] + r * (H + 2) + H + 1] = 1.0
                o[off[10] + r * (H + 1) + st[O_WON + s]] = 1.0
                v = st[O_VOIDS + s]
                for suit in range(4):
                    if (v >> suit) & 1:
                        o[off[14] + r * 4 + suit] = 1.0
            o[off[9]] = total / (n * H)
            leader = st[F_LEADER]
            if ph == PLAY:
                o[off[11] + (leader - me) % n] = 1.0
            nt = st[F_NTRICK]
            for i in range(nt):
                s = (leader + i) % n
                o[off[12] + ((s - me) % n) * 52 + st[O_TRICK + i]] = 1.0
            pm = st[F_PLAYED]
            for c in range(52):
                if (pm >> c) & 1:
                    o[off[13] + c] = 1.0
            for s in range(n):
                played = st[F_NTRICKS] + (1 if (s - leader) % n < nt else 0)
                o[off[15] + (s - me) % n] = (h - played) / H
        for s in range(n):
            o[off[16] + (s - me) % n] = st[O_TOT + s] / scale
