# mypy: disable-error-code="no-any-return"
"""A whole Pan hand between sound bots (`bots.SoundBot`), compiled (numba): the simulation's
fast path, held equal hand by hand to the engine and the table driver by the tests.

`play_hand` deals the pack it is given exactly as `PanHand` does and plays what
`driver.advance` plays with a `SoundBot` at every seat: the declarations, draws and takes,
the bot's melds (its uses in the engine's order, `kernel_melds`), collections under table
stakes, the discards, forcing back (rule 13) and forcing the option card (rule 12), going
out. It leaves to the engine (returns `FALLBACK` before anything differs, the caller plays
the same hand again with `PanHand`) what the bots meet rarely: a discard that would put its
discarder out (rule 14 and the bots' race to go out), a player out of chips (pays rule 5B),
the stock running out (a reshuffle, which draws from the table's random source), and any
state the engine would refuse.

A hand's results: `res[R_WINNER]` (-1 none), `res[R_END]` (`END_OUT`, `END_PASSED`), the
turns (draws and takes), the chips put up for the tops, paid for conditions and for the
outs, each seat's chips after, the conditions counted on the melds as they lie at the end
(by `melds.ConditionKind` order) as the simulation counts them, and the stock left.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from .kernel_melds import (
    BORROW,
    LAY,
    U_B,
    U_H,
    U_KIND,
    U_MELD,
    U_NB,
    U_NH,
    U_WIDTH,
    card_uses,
    fits,
    meld_conditions,
    meld_kind,
    meld_value,
    sort_keys,
    triple_ok,
)
from .melds import ConditionKind
from .rules import PanRules

R_STATUS, R_WINNER, R_END, R_TURNS, R_TOPS, R_CONDITIONS, R_OUTS, R_STOCK = range(8)
R_COUNTS = 8
"""`res[R_COUNTS:R_COUNTS + 5]`: conditions by kind; then `res[R_CHIPS:]` chips by seat."""
R_CHIPS = 13
DONE, FALLBACK = 0, 1
END_OUT, END_PASSED = 0, 1
END_REASONS = ("went out", "every other player passed")
"""The engine's `end_reason` for each `R_END` code."""

IN, PASSED, OUT = 0, 1, 2
DECLARING, PLAYING, COMPLETE = 0, 1, 2
NONE, STOCK, TAKEN = 0, 1, 2
MAXH, MAXM, MAXC = 40, 8, 16
MAXE = 1024
MAXU = 512
PLAY_THRESHOLD = 6
"""`bots.SoundBot`'s default play threshold (its prospects)."""


@njit(cache=True)
def _popcount(x: int) -> int:
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _remove(arr: Any, n: int, x: int) -> int:
    """Remove the first copy of `x` from `arr[:n]` (list.remove); the new length, -1 if
    absent."""
    for i in range(n):
        if arr[i] == x:
            for j in range(i, n - 1):
                arr[j] = arr[j + 1]
            return n - 1
    return -1


@njit(cache=True)
def _table(loose: Any, nl: int, mc: Any, ml: Any, nm: int, order: Any) -> tuple[Any, Any]:
    """`uses.table_partners` of the loose cards and the melds' cards: ranks counted, and
    each card's 16 * suit + Pan order present."""
    ranks = np.zeros(14, np.int64)
    suited = np.zeros(64, np.int64)
    for i in range(nl):
        ranks[loose[i] >> 2] += 1
        suited[16 * (loose[i] & 3) + order[loose[i]]] = 1
    for mi in range(nm):
        for j in range(ml[mi]):
            x = mc[mi, j]
            ranks[x >> 2] += 1
            suited[16 * (x & 3) + order[x]] = 1
    return ranks, suited


@njit(cache=True)
def _has_partners(x: int, ranks: Any, suited: Any, order: Any) -> bool:
    """`uses.has_partners`: two more of its rank, or two of its suit making a run with it."""
    if ranks[x >> 2] >= 3:
        return True
    k = 16 * (x & 3) + order[x]
    if k >= 1 and suited[k - 1] and ((k >= 2 and suited[k - 2]) or suited[k + 1]):
        return True
    return suited[k + 1] == 1 and suited[k + 2] == 1


@njit(cache=True)
def _partners_ok(loose: Any, nl: int, mc: Any, ml: Any, nm: int, order: Any) -> bool:
    """`outs._partners_everywhere`: every loose card has two partners on the table."""
    ranks, suited = _table(loose, nl, mc, ml, nm, order)
    for i in range(nl):  # noqa: SIM110 (a loop: numba compiles no generator into all())
        if not _has_partners(loose[i], ranks, suited, order):
            return False
    return True


@njit(cache=True)
def _repeats(arr: Any, i: int) -> bool:
    """Is `arr[i]` among `arr[:i]` (each card once, as it first lies)?"""
    for j in range(i):  # noqa: SIM110 (a loop: numba compiles no generator into any())
        if arr[j] == arr[i]:
            return True
    return False


@njit(cache=True)
def _apply(x: int, use: Any, loose: Any, nl: int, mc: Any, ml: Any, mk: Any, nm: int,
           order: Any, anyset: Any) -> tuple[int, int]:
    """`outs._apply` in place (no pay): `x` melded by `use`; the loose count and melds."""
    kind = use[U_KIND]
    if kind == LAY:
        mi = use[U_MELD]
        mc[mi, ml[mi]] = x
        ml[mi] += 1
        sort_keys(mc[mi], ml[mi])
        return nl, nm
    new = mc[nm]
    k = 0
    new[k] = x
    k += 1
    if kind == BORROW:
        mi = use[U_MELD]
        for t in range(use[U_NB]):
            b = use[U_B + t]
            ml[mi] = _remove(mc[mi], ml[mi], b)
            new[k] = b
            k += 1
    for t in range(use[U_NH]):
        h = use[U_H + t]
        nl = _remove(loose, nl, h)
        new[k] = h
        k += 1
    sort_keys(new, k)
    ml[nm] = k
    mk[nm] = meld_kind(new, k, order, anyset)
    return nl, nm + 1


@njit(cache=True)
def _out_search(loose: Any, nl: int, mc: Any, ml: Any, mk: Any, nm: int, tabs: Any) -> int:
    """Whether `outs.best_out` finds a plan (1, else 0): every loose card melded, one use
    at a time, depth first (a stack of states, one a card melded: numba's cache does not
    keep recursive functions). 2: the search outgrew its buffers (the caller leaves the
    hand to the engine)."""
    order, anyset = tabs[0], tabs[2]
    depth = nl + 1
    # per depth: the loose cards, the melds, the uses of the card being tried, the others
    L, OTH = np.empty((depth, MAXH), np.int64), np.empty((depth, MAXH), np.int64)
    MC = np.empty((depth, MAXM, MAXC), np.int64)
    ML, MK = np.empty((depth, MAXM), np.int64), np.empty((depth, MAXM), np.int64)
    U = np.empty((depth, 64, U_WIDTH), np.int64)
    counts = np.zeros((6, depth), np.int64)  # loose, melds, uses, next use, card, others
    NL, NM, NU, UI, CI, NO = counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    L[0, :nl] = loose[:nl]
    NL[0] = nl
    MC[0] = mc
    ML[0] = ml
    MK[0] = mk
    NM[0] = nm
    d = 0
    enter = True
    while d >= 0:
        if enter:
            enter = False
            if NL[d] == 0:
                return 1
            if not _partners_ok(L[d], NL[d], MC[d], ML[d], NM[d], order):
                d -= 1
                continue
            if NM[d] >= MAXM:
                return 2
            CI[d] = -1
            UI[d] = 0
            NU[d] = 0
        if UI[d] >= NU[d]:  # the next loose card (each value once)
            i = CI[d] + 1
            while i < NL[d] and _repeats(L[d], i):
                i += 1
            if i >= NL[d]:
                d -= 1
                continue
            CI[d] = i
            no = 0
            for j in range(NL[d]):
                if j != i:
                    OTH[d, no] = L[d, j]
                    no += 1
            NO[d] = no
            NU[d] = card_uses(L[d, i], OTH[d], no, MC[d], ML[d], MK[d], NM[d], tabs, U[d], 0)
            if NU[d] > U.shape[1]:
                return 2
            UI[d] = 0
            continue
        u = UI[d]
        UI[d] += 1
        no = NO[d]
        L[d + 1, :no] = OTH[d, :no]
        MC[d + 1] = MC[d]
        ML[d + 1] = ML[d]
        MK[d + 1] = MK[d]
        NL[d + 1], NM[d + 1] = _apply(L[d, CI[d]], U[d, u], L[d + 1], no, MC[d + 1], ML[d + 1],
                                      MK[d + 1], NM[d], order, anyset)
        d += 1
        enter = True
    return 0


@njit(cache=True)
def _goes_out(st: Any, hands: Any, hl: Any, mcs: Any, mls: Any, mks: Any, nms: Any, seat: int,
              card: int, tabs: Any) -> int:
    """`QueriesMixin.goes_out_with`: in the hand, ten cards, and the card with his whole
    hand melds at once (`_out_search`'s answer)."""
    if st[seat] != IN:
        return 0
    count = hl[seat]
    for mi in range(nms[seat]):
        count += mls[seat, mi]
    if count != 10:
        return 0
    loose = np.empty(hl[seat] + 1, np.int64)
    loose[0] = card
    loose[1:] = hands[seat, :hl[seat]]
    if not _partners_ok(loose, hl[seat] + 1, mcs[seat], mls[seat], nms[seat], tabs[0]):
        return 0
    return _out_search(loose, hl[seat] + 1, mcs[seat], mls[seat], mks[seat], nms[seat], tabs)


# ----- the hand's state: scalars in `g`, seat values in `sv` -------------------------------

G_N, G_PHASE, G_CUR, G_DRAWN, G_DKIND, G_STARTED, G_ACTIONS, G_OPTRES = range(8)
G_FIRSTDRAW, G_LASTDISC, G_TOPS, G_NEXTDECL, G_SL, G_NE, G_ND, G_NL = range(8, 16)
G_NHITS, G_FALLBACK, G_WINNER, G_END, G_TURNS, G_PAIDC, G_PAIDO, G_DEALER = range(16, 24)
G_OUTS = 24
G_SIZE = 25
V_ST, V_DEC, V_CHIPS, V_PU, V_PN = range(5)
E_CARD, E_SEAT, E_FROM, E_CHOSEN, E_TOUCHED, E_DRAWERS = range(6)


@njit(cache=True)
def _fallback(g: Any) -> None:
    g[G_FALLBACK] = 1
    g[G_PHASE] = COMPLETE


@njit(cache=True)
def _in_count(g: Any, sv: Any) -> int:
    c = 0
    for i in range(g[G_N]):
        if sv[V_ST, i] == IN:
            c += 1
    return c


@njit(cache=True)
def _next_in(g: Any, sv: Any, seat: int) -> int:
    """`HandBase.next_in`: the next seat still in after `seat`, round to itself."""
    n = g[G_N]
    for d in range(1, n + 1):
        j = (seat + d) % n
        if sv[V_ST, j] == IN:
            return j
    return -1


@njit(cache=True)
def _option_card(g: Any, ev: Any, disc: Any) -> int:
    """`QueriesMixin.option_card`: the entry, or -1."""
    if g[G_ND] == 0 or g[G_CUR] < 0:
        return -1
    e = disc[g[G_ND] - 1]
    if not ev[e, E_FROM] or ev[e, E_SEAT] != g[G_LASTDISC]:
        return -1
    return e


@njit(cache=True)
def _hit(g: Any, sv: Any, hits: Any, seat: int, mi: int, units: int) -> None:
    if units > 0:
        sv[V_PU, seat] += units
        sv[V_PN, seat] += 1
        hits[g[G_NHITS], 0] = seat
        hits[g[G_NHITS], 1] = mi
        g[G_NHITS] += 1


@njit(cache=True)
def _addition(mcs: Any, mls: Any, mks: Any, seat: int, mi: int, card: int,
              tabs: Any) -> int:
    """`melds.addition_units` of `card` laid off on the seat's meld `mi`."""
    n = mls[seat, mi]
    after = np.empty(n + 1, np.int64)
    after[:n] = mcs[seat, mi, :n]
    after[n] = card
    sort_keys(after, n + 1)
    kind = mks[seat, mi]
    return meld_value(after, n + 1, kind, tabs[1], tabs[4], tabs[5]) - meld_value(
        mcs[seat, mi], n, kind, tabs[1], tabs[4], tabs[5])


@njit(cache=True)
def _add_to_meld(S: Any, seat: int, mi: int, card: int, tabs: Any) -> None:
    """`MeldingMixin._add_to_meld`."""
    g, sv, mcs, mls, mks, hits = S[0], S[1], S[4], S[5], S[6], S[13]
    units = _addition(mcs, mls, mks, seat, mi, card, tabs)
    n = mls[seat, mi]
    mcs[seat, mi, n] = card
    mls[seat, mi] = n + 1
    sort_keys(mcs[seat, mi], n + 1)
    _hit(g, sv, hits, seat, mi, units)


@njit(cache=True)
def _new_meld(S: Any, seat: int, cards: Any, k: int, tabs: Any) -> None:
    """`MeldingMixin._new_meld`."""
    g, sv, mcs, mls, mks, nms, hits = S[0], S[1], S[4], S[5], S[6], S[7], S[13]
    mi = nms[seat]
    if mi >= MAXM or k > MAXC:
        _fallback(g)
        return
    mcs[seat, mi, :k] = cards[:k]
    sort_keys(mcs[seat, mi], k)
    kind = meld_kind(mcs[seat, mi], k, tabs[0], tabs[2])
    mls[seat, mi] = k
    mks[seat, mi] = kind
    nms[seat] = mi + 1
    g[G_ACTIONS] += 1
    _hit(g, sv, hits, seat, mi, meld_value(mcs[seat, mi], k, kind, tabs[1], tabs[4], tabs[5]))


@njit(cache=True)
def _fitting(S: Any, seat: int, card: int, tabs: Any, first: bool) -> int:
    """`QueriesMixin.fitting_melds`: the first fitting meld (`first`), else whether every
    fitting meld takes the card for nothing (1), some pays (0), or none fits (-1)."""
    mcs, mls, mks, nms = S[4], S[5], S[6], S[7]
    found = -1
    for mi in range(nms[seat]):
        if fits(mcs[seat, mi], mls[seat, mi], mks[seat, mi], card, tabs[0]):
            if first:
                return mi
            if _addition(mcs, mls, mks, seat, mi, card, tabs) > 0:
                return 0
            found = 1
    return found


@njit(cache=True)
def _goes_out_s(S: Any, seat: int, card: int, tabs: Any) -> bool:
    """`_goes_out` in the hand's state; a search too big for the kernel leaves the hand to
    the engine (and answers yes: every caller then stops)."""
    found = _goes_out(S[1][V_ST], S[2], S[3], S[4], S[5], S[6], S[7], seat, card, tabs)
    if found == 2:
        _fallback(S[0])
    return found > 0


@njit(cache=True)
def _uses_of(S: Any, seat: int, card: int, tabs: Any, out: Any) -> int:
    """`QueriesMixin.card_uses` into `out`; more than it holds leaves the hand to the
    engine."""
    m = card_uses(card, S[2][seat], S[3][seat], S[4][seat], S[5][seat], S[6][seat],
                  S[7][seat], tabs, out, 0)
    if m > out.shape[0]:
        _fallback(S[0])
        return 0
    return m


@njit(cache=True)
def _start_turn(S: Any, seat: int, card: int, kind: int) -> None:
    """`TurnMixin._start_turn` (the foul causes aside: the bots make none)."""
    g, ev, live = S[0], S[10], S[12]
    g[G_DRAWN] = card
    g[G_DKIND] = kind
    g[G_STARTED] = 1
    g[G_ACTIONS] = 0
    g[G_OPTRES] = 1 if kind != STOCK else 0
    g[G_FIRSTDRAW] = 1
    k = 0
    for j in range(g[G_NL]):
        e = live[j]
        if ev[e, E_SEAT] == seat:
            ev[e, E_TOUCHED] = 1
        elif ev[e, E_FROM]:
            ev[e, E_DRAWERS] |= 1 << seat
        if not ev[e, E_TOUCHED] or (ev[e, E_FROM] and _popcount(ev[e, E_DRAWERS]) < 2):
            live[k] = e
            k += 1
    g[G_NL] = k


@njit(cache=True)
def _drop_live(S: Any, e: int) -> None:
    g, live = S[0], S[12]
    k = 0
    for j in range(g[G_NL]):
        if live[j] != e:
            live[k] = live[j]
            k += 1
    g[G_NL] = k


@njit(cache=True)
def _add_discard(S: Any, card: int, seat: int, from_stock: int, chosen: int) -> None:
    g, ev, disc, live = S[0], S[10], S[11], S[12]
    e = g[G_NE]
    if e >= MAXE:
        _fallback(g)
        return
    g[G_NE] = e + 1
    ev[e, E_CARD] = card
    ev[e, E_SEAT] = seat
    ev[e, E_FROM] = from_stock
    ev[e, E_CHOSEN] = chosen
    ev[e, E_TOUCHED] = 0
    ev[e, E_DRAWERS] = 0
    disc[g[G_ND]] = e
    g[G_ND] += 1
    live[g[G_NL]] = e
    g[G_NL] += 1


@njit(cache=True)
def _end(g: Any, winner: int, code: int) -> None:
    g[G_PHASE] = COMPLETE
    g[G_CUR] = -1
    g[G_WINNER] = winner
    g[G_END] = code


@njit(cache=True)
def _award_alone(S: Any, winner: int) -> None:
    """`EndingMixin._award_tops_alone`: every other player passed."""
    g, sv = S[0], S[1]
    sv[V_CHIPS, winner] += g[G_TOPS]
    g[G_TOPS] = 0
    _end(g, winner, END_PASSED)


@njit(cache=True)
def _collect(S: Any, seat: int) -> None:
    """`PaysMixin._collect` under table stakes; a payer out of chips (pays rule 5B) is left
    to the engine."""
    g, sv, owed = S[0], S[1], S[8]
    units = sv[V_PU, seat]
    sv[V_PU, seat] = 0
    sv[V_PN, seat] = 0
    stake = sv[V_CHIPS, seat]
    for p in range(g[G_N]):
        if p == seat or sv[V_ST, p] != IN:
            continue
        due = units + owed[seat, p]
        owed[seat, p] = 0
        paid = min(due, stake, sv[V_CHIPS, p])
        if paid > 0:
            sv[V_CHIPS, p] -= paid
            sv[V_CHIPS, seat] += paid
            g[G_PAIDC] += paid
        if due > paid:
            owed[seat, p] += due - paid
        if sv[V_CHIPS, p] == 0:
            _fallback(g)
            return


@njit(cache=True)
def _finish_out(S: Any, winner: int) -> None:
    """`EndingMixin._finish`: the pending pays called, the tops, the outs."""
    g, sv = S[0], S[1]
    if sv[V_PN, winner] > 0:
        _collect(S, winner)
        if g[G_FALLBACK]:
            return
    stake = sv[V_CHIPS, winner]
    sv[V_ST, winner] = OUT
    sv[V_CHIPS, winner] += g[G_TOPS]
    g[G_TOPS] = 0
    for i in range(g[G_N]):
        if i != winner and sv[V_ST, i] == IN:
            pay = min(g[G_OUTS], stake, sv[V_CHIPS, i])
            if pay > 0:
                sv[V_CHIPS, i] -= pay
                sv[V_CHIPS, winner] += pay
                g[G_PAIDO] += pay
    _end(g, winner, END_OUT)


@njit(cache=True)
def _tallies(hand: Any, n: int, order: Any) -> tuple[Any, Any]:
    """`bots.tallies`: ranks, and 16 * suit + Pan order, counted."""
    ranks = np.zeros(14, np.int64)
    suited = np.zeros(68, np.int64)
    for i in range(n):
        ranks[hand[i] >> 2] += 1
        suited[16 * (hand[i] & 3) + order[hand[i]] + 2] += 1
    return ranks, suited


@njit(cache=True)
def _links(c: int, ranks: Any, suited: Any, order: Any) -> int:
    """`bots.links` (`suited` shifted by two)."""
    k = 16 * (c & 3) + order[c] + 2
    return ranks[c >> 2] + suited[k - 2] + suited[k - 1] + suited[k + 1] + suited[k + 2]


@njit(cache=True)
def _use_value(S: Any, seat: int, card: int, use: Any, tabs: Any) -> int:
    """`bots._use_value`: what the use pays, ten to the unit, lay-offs first on a tie."""
    if use[U_KIND] == LAY:
        return 10 * _addition(S[4], S[5], S[6], seat, use[U_MELD], card, tabs) + 3
    allc = np.empty(MAXC + 1, np.int64)
    allc[0] = card
    k = 1
    for t in range(use[U_NB]):
        allc[k] = use[U_B + t]
        k += 1
    for t in range(use[U_NH]):
        allc[k] = use[U_H + t]
        k += 1
    sort_keys(allc, k)
    kind = meld_kind(allc, k, tabs[0], tabs[2])
    value = 10 * meld_value(allc, k, kind, tabs[1], tabs[4], tabs[5])
    return value + (2 if use[U_KIND] != BORROW else 1)


@njit(cache=True)
def _apply_use(S: Any, seat: int, card: int, use: Any, drawn: bool, tabs: Any) -> None:
    """`bots.apply_use`: the engine's lay_off, meld or borrow, unchecked."""
    g, hands, hl, mcs, mls = S[0], S[2], S[3], S[4], S[5]
    kind = use[U_KIND]
    if kind == LAY:
        if drawn:
            c = g[G_DRAWN]
            g[G_DRAWN] = -1
        else:
            c = card
            hl[seat] = _remove(hands[seat], hl[seat], card)
        g[G_ACTIONS] += 1
        _add_to_meld(S, seat, use[U_MELD], c, tabs)
        return
    cards = np.empty(MAXC + 2, np.int64)
    k = 0
    if not drawn:
        cards[k] = card
        k += 1
        hl[seat] = _remove(hands[seat], hl[seat], card)
    for t in range(use[U_NH]):
        cards[k] = use[U_H + t]
        k += 1
        hl[seat] = _remove(hands[seat], hl[seat], use[U_H + t])
    if drawn:
        cards[k] = g[G_DRAWN]
        k += 1
        g[G_DRAWN] = -1
    if kind == BORROW:
        mi = use[U_MELD]
        for t in range(use[U_NB]):
            mls[seat, mi] = _remove(mcs[seat, mi], mls[seat, mi], use[U_B + t])
            cards[k] = use[U_B + t]
            k += 1
    _new_meld(S, seat, cards, k, tabs)


@njit(cache=True)
def _hand_uses(S: Any, seat: int, tabs: Any, out: Any, which: Any) -> int:
    """`QueriesMixin.hand_uses`: each hand card once, as it first lies, with its uses (the
    rest of the hand), skipping a card with no partner on his table (`uses.screen`; the
    bots' melds are always valid). `which[row]` is the hand card of each row."""
    hands, hl, mcs, mls, mks, nms = S[2], S[3], S[4], S[5], S[6], S[7]
    order = tabs[0]
    hand = hands[seat]
    n = hl[seat]
    ranks, suited = _table(hand, n, mcs[seat], mls[seat], nms[seat], order)
    rest = np.empty(MAXH, np.int64)
    m = 0
    for i in range(n):
        x = hand[i]
        if _repeats(hand, i) or not _has_partners(x, ranks, suited, order):
            continue
        nr = 0
        for j in range(n):
            if j != i:
                rest[nr] = hand[j]
                nr += 1
        m2 = card_uses(x, rest, nr, mcs[seat], mls[seat], mks[seat], nms[seat], tabs, out, m)
        if m2 > out.shape[0]:
            _fallback(S[0])
            return 0
        for r in range(m, m2):
            which[r] = x
        m = m2
    return m


@njit(cache=True)
def _declare(S: Any, seat: int, tabs: Any) -> None:
    """`SoundBot.declare` and `DeclarationsMixin.declare`."""
    g, sv, hands, hl = S[0], S[1], S[2], S[3]
    order, anyset = tabs[0], tabs[2]
    hand = hands[seat]
    n = hl[seat]
    ranks, suited = _tallies(hand, n, order)
    prospects = 0
    for i in range(n):
        if _links(hand[i], ranks, suited, order) > 1:
            prospects += 1
    play = prospects >= PLAY_THRESHOLD
    if not play:
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    if triple_ok(hand[a], hand[b], hand[c], order, anyset):
                        play = True
    if not play and _in_count(g, sv) <= 1:
        play = True  # every other player has passed: he may not pass
    sv[V_DEC, seat] = 1 if play else 0
    if not play:
        sv[V_ST, seat] = PASSED
    nn = g[G_N]
    g[G_NEXTDECL] += 1
    while g[G_NEXTDECL] < nn and sv[V_ST, (g[G_DEALER] + 1 + g[G_NEXTDECL]) % nn] != IN:
        g[G_NEXTDECL] += 1
    live = -1
    count = 0
    undeclared = False
    for i in range(nn):
        if sv[V_ST, i] == IN:
            count += 1
            live = i
            if sv[V_DEC, i] < 0:
                undeclared = True
    if count == 1 and not undeclared:
        if seat == live:
            _award_alone(S, live)
            return
        g[G_PHASE] = PLAYING
        g[G_NEXTDECL] = nn
        g[G_CUR] = live
        return
    if g[G_NEXTDECL] >= nn and g[G_PHASE] == DECLARING:
        g[G_PHASE] = PLAYING
        first = (g[G_DEALER] + 1) % nn
        g[G_CUR] = first if sv[V_ST, first] == IN else _next_in(g, sv, first)


@njit(cache=True)
def _best(S: Any, seat: int, card: int, uses: Any, which: Any, nu: int, tabs: Any) -> int:
    """The first use of the highest `_use_value` (Python's `max`)."""
    if nu == 1:
        return 0
    best, value = 0, -1
    for u in range(nu):
        v = _use_value(S, seat, card if card >= 0 else which[u], uses[u], tabs)
        if v > value:
            best, value = u, v
    return best


@njit(cache=True)
def _start(S: Any, seat: int, tabs: Any, uses: Any) -> None:
    """`SoundBot.start`: the tops when every other player passed, the option card when it
    lays off or pays, else a draw."""
    g, sv, stock, ev, disc = S[0], S[1], S[9], S[10], S[11]
    if not g[G_FIRSTDRAW] and _in_count(g, sv) == 1:
        _award_alone(S, seat)
        return
    opt = _option_card(g, ev, disc)
    if opt >= 0:
        card = ev[opt, E_CARD]
        nu = _uses_of(S, seat, card, tabs, uses)
        take = False
        for u in range(nu):
            if uses[u, U_KIND] == LAY or _use_value(S, seat, card, uses[u], tabs) >= 10:
                take = True
                break
        if take:
            g[G_ND] -= 1
            _drop_live(S, opt)
            _start_turn(S, seat, card, TAKEN)
            g[G_TURNS] += 1
            return
    if g[G_SL] == 0:
        _fallback(g)
        return
    g[G_SL] -= 1
    _start_turn(S, seat, stock[g[G_SL]], STOCK)
    g[G_TURNS] += 1


@njit(cache=True)
def _react_option(S: Any, f: int, tabs: Any, uses: Any) -> None:
    """`SoundBot.react_option` (rule 12): would `f` force the option card? Sound bots take
    an option card that fits their spread, so they never draw past one and this never
    forces among them; if it would, the hand is the engine's (`FALLBACK`)."""
    g, sv, ev, disc = S[0], S[1], S[10], S[11]
    cur, card = g[G_CUR], g[G_DRAWN]
    top = _option_card(g, ev, disc)
    if cur < 0 or card < 0 or top < 0:
        return
    if sv[V_ST, f] != IN or f == cur or g[G_DKIND] != STOCK or g[G_ACTIONS] != 0 \
            or g[G_OPTRES] or ev[top, E_SEAT] == f:
        return
    tc = ev[top, E_CARD]
    nu = _uses_of(S, cur, tc, tabs, uses)
    spread = False
    for u in range(nu):
        if uses[u, U_KIND] != 1:  # a lay-off or a borrowing: it fits his spreads
            spread = True
    if not spread or _goes_out_s(S, cur, tc, tabs):
        return
    if _uses_of(S, cur, card, tabs, uses) == 0 or _fitting(S, cur, tc, tabs, False) == 0:
        return
    _fallback(g)


@njit(cache=True)
def _option_window(S: Any, seat: int, tabs: Any, uses: Any) -> None:
    """`driver.option_window`: after a draw past an option card that fits the drawer's
    spread, each other player still in may force it."""
    g, sv, ev, disc = S[0], S[1], S[10], S[11]
    if g[G_DKIND] != STOCK or g[G_OPTRES]:
        return
    top = _option_card(g, ev, disc)
    if top < 0 or _fitting(S, seat, ev[top, E_CARD], tabs, True) < 0:
        return
    players = np.empty(g[G_N], np.int64)
    k = 0
    for i in range(g[G_N]):
        if sv[V_ST, i] == IN:
            players[k] = i
            k += 1
    for j in range(k):
        other = players[j]
        if other != seat and g[G_CUR] == seat and not g[G_OPTRES]:
            _react_option(S, other, tabs, uses)


@njit(cache=True)
def _discard(S: Any, seat: int, card: int) -> None:
    """`TurnMixin.discard`: the turn's discard (no card is forced back in the kernel)."""
    g, sv, hands, hl = S[0], S[1], S[2], S[3]
    from_stock = g[G_DRAWN] >= 0
    if from_stock:
        g[G_DRAWN] = -1
    else:
        hl[seat] = _remove(hands[seat], hl[seat], card)
    sv[V_PU, seat] = 0
    sv[V_PN, seat] = 0
    _add_discard(S, card, seat, 1 if from_stock else 0, 1)
    g[G_LASTDISC] = seat
    g[G_STARTED] = 0
    g[G_DRAWN] = -1
    g[G_DKIND] = NONE
    if g[G_PHASE] == PLAYING:
        g[G_CUR] = _next_in(g, sv, seat)


@njit(cache=True)
def _choose_discard(S: Any, seat: int, tabs: Any) -> None:
    """`SoundBot._discard`: the legal card (each once, in hand order) with the fewest
    partners, then not a valle, then the highest in Pan order; the first among equals."""
    hands, hl = S[2], S[3]
    order, valle = tabs[0], tabs[1]
    hand = hands[seat]
    n = hl[seat]
    if n == 0:
        _fallback(S[0])
        return
    ranks, suited = _tallies(hand, n, order)
    best = -1
    bk0, bk1, bk2 = 0, 0, 0
    for i in range(n):
        c = hand[i]
        if _repeats(hand, i):
            continue
        k0, k1, k2 = _links(c, ranks, suited, order) - 1, valle[c], -order[c]
        if best < 0 or k0 < bk0 or (k0 == bk0 and (k1 < bk1 or (k1 == bk1 and k2 < bk2))):
            best, bk0, bk1, bk2 = c, k0, k1, k2
    _discard(S, seat, best)


@njit(cache=True)
def _finish(S: Any, seat: int, tabs: Any, uses: Any, which: Any) -> None:
    """`SoundBot.finish`: the drawn card melded its best way, then every hand card that
    can be, the pays called, then out, or the discard."""
    g, sv, hl, mls, nms = S[0], S[1], S[3], S[5], S[7]
    card = g[G_DRAWN]
    if card >= 0:
        nu = _uses_of(S, seat, card, tabs, uses)
        if nu > 0:
            _apply_use(S, seat, card, uses[_best(S, seat, card, uses, which, nu, tabs)], True,
                       tabs)
    if g[G_DRAWN] < 0:
        while not g[G_FALLBACK]:
            nu = _hand_uses(S, seat, tabs, uses, which)
            if nu == 0:
                break
            b = _best(S, seat, -1, uses, which, nu, tabs)
            _apply_use(S, seat, which[b], uses[b], False, tabs)
    if sv[V_PN, seat] > 0:
        _collect(S, seat)
    if g[G_FALLBACK] or g[G_PHASE] != PLAYING or sv[V_ST, seat] != IN:
        return
    if hl[seat] == 0 and g[G_DRAWN] < 0:
        melded = 0
        for mi in range(nms[seat]):
            melded += mls[seat, mi]
        if melded == 11 and g[G_CUR] == seat and g[G_STARTED]:
            _finish_out(S, seat)
            return
    if g[G_DRAWN] >= 0:
        if g[G_DKIND] != STOCK:
            _fallback(g)
            return
        _discard(S, seat, g[G_DRAWN])
        return
    _choose_discard(S, seat, tabs)


@njit(cache=True)
def _react(S: Any, i: int, tabs: Any) -> None:
    """`SoundBot.react` to a discard that does not put its discarder out (rule 13): would
    `i` force it back (it fits his spread for nothing, every card of his hand has a
    partner other than its own copies, and the rules let `i` force it)? A sound bot melds
    every card that fits before it discards, so this never forces among them; if it would,
    the hand is the engine's (`FALLBACK`)."""
    g, sv, hands, hl, ev, disc, live = S[0], S[1], S[2], S[3], S[10], S[11], S[12]
    order = tabs[0]
    top = disc[g[G_ND] - 1]
    t = ev[top, E_SEAT]
    card = ev[top, E_CARD]
    if t == i or sv[V_ST, t] != IN or hl[t] < 3 or _fitting(S, t, card, tabs, False) != 1:
        return
    hand = hands[t]
    ranks, suited = _tallies(hand, hl[t], order)
    for a in range(hl[t]):
        copies = 0
        for b in range(hl[t]):
            if hand[b] == hand[a]:
                copies += 1
        if _links(hand[a], ranks, suited, order) <= copies:
            return
    # can_force_back: the seat's latest discard still forceable
    if g[G_PHASE] != PLAYING or sv[V_ST, i] != IN:
        return
    d = -1
    for j in range(g[G_NL] - 1, -1, -1):
        if ev[live[j], E_SEAT] == t:
            d = live[j]
            break
    if d < 0:
        return
    if ev[d, E_FROM]:
        drawers = ev[d, E_DRAWERS]
        if _popcount(drawers) >= 2 or ((drawers >> i) & 1 and _in_count(g, sv) != 2):
            return
    elif ev[d, E_TOUCHED]:
        return
    if _goes_out_s(S, t, ev[d, E_CARD], tabs) or _fitting(S, t, ev[d, E_CARD], tabs, True) >= 0:
        _fallback(g)


@njit(cache=True)
def play_hand(pack: Any, n: int, dealer: int, chips: int, outs_chips: int, tabs: Any,
              res: Any, left: Any) -> None:
    """One hand from `pack` (card keys, as `PanHand` is given it), `n` sound bots with
    `chips` each, `dealer` dealing: `res` its results (the module docstring), `left` the
    stock it leaves (its top last; `res[R_STOCK]` cards)."""
    g = np.zeros(G_SIZE, np.int64)
    sv = np.zeros((5, n), np.int64)
    hands = np.zeros((n, MAXH), np.int64)
    hl = np.zeros(n, np.int64)
    mcs = np.zeros((n, MAXM, MAXC), np.int64)
    mls = np.zeros((n, MAXM), np.int64)
    mks = np.zeros((n, MAXM), np.int64)
    nms = np.zeros(n, np.int64)
    owed = np.zeros((n, n), np.int64)
    stock = np.zeros(pack.shape[0] + 1, np.int64)
    ev = np.zeros((MAXE, 6), np.int64)
    disc = np.zeros(MAXE, np.int64)
    live = np.zeros(MAXE, np.int64)
    hits = np.zeros((MAXE, 2), np.int64)
    S = (g, sv, hands, hl, mcs, mls, mks, nms, owed, stock, ev, disc, live, hits)
    uses = np.zeros((MAXU, U_WIDTH), np.int64)
    which = np.zeros(MAXU, np.int64)
    g[G_N], g[G_DEALER], g[G_OUTS] = n, dealer, outs_chips
    g[G_CUR], g[G_DRAWN], g[G_LASTDISC], g[G_WINNER] = -1, -1, -1, -1
    sv[V_DEC, :] = -1
    sv[V_CHIPS, :] = chips - 1  # the tops: one chip each
    g[G_TOPS] = n
    pos = 0
    for _ in range(2):  # two rounds of five from first hand
        for d in range(1, n + 1):
            seat = (dealer + d) % n
            hands[seat, hl[seat]:hl[seat] + 5] = pack[pos:pos + 5]
            hl[seat] += 5
            pos += 5
    size = pack.shape[0] - pos
    for j in range(size):
        stock[j] = pack[pack.shape[0] - 1 - j]
    g[G_SL] = size
    last_top = -1
    steps = 0
    while g[G_PHASE] != COMPLETE:
        steps += 1
        if steps > 20000:
            _fallback(g)
            break
        top = disc[g[G_ND] - 1] if g[G_ND] > 0 else -1
        if top >= 0 and top != last_top:
            last_top = top
            if g[G_PHASE] == PLAYING:
                ts, tc = ev[top, E_SEAT], ev[top, E_CARD]
                if _goes_out_s(S, ts, tc, tabs):
                    _fallback(g)  # an out card discarded: rule 14, the bots' race
                    break
                if _fitting(S, ts, tc, tabs, True) >= 0:
                    for i in range(n):
                        if i != ts and g[G_PHASE] == PLAYING:
                            _react(S, i, tabs)
            continue
        if g[G_PHASE] == DECLARING:
            _declare(S, (dealer + 1 + g[G_NEXTDECL]) % n, tabs)
            continue
        if g[G_SL] == 0 and not g[G_STARTED]:
            _fallback(g)  # the stock is out: reshuffled from the table's source
            break
        seat = g[G_CUR]
        if not g[G_STARTED]:
            _start(S, seat, tabs, uses)
            if g[G_PHASE] == PLAYING:
                _option_window(S, seat, tabs, uses)
        if g[G_PHASE] == PLAYING and g[G_CUR] == seat and g[G_STARTED]:
            _finish(S, seat, tabs, uses, which)
    res[:] = 0
    res[R_STATUS] = FALLBACK if g[G_FALLBACK] else DONE
    res[R_WINNER], res[R_END], res[R_TURNS] = g[G_WINNER], g[G_END], g[G_TURNS]
    res[R_TOPS], res[R_CONDITIONS], res[R_OUTS] = n, g[G_PAIDC], g[G_PAIDO]
    conds = np.empty((2, 2), np.int64)
    for h in range(g[G_NHITS]):
        seat, mi = hits[h, 0], hits[h, 1]
        if mi < nms[seat]:
            for k in range(meld_conditions(mcs[seat, mi], mls[seat, mi], mks[seat, mi],
                                           tabs[1], conds)):
                res[R_COUNTS + conds[k, 0]] += 1
    res[R_CHIPS:R_CHIPS + n] = sv[V_CHIPS]
    res[R_STOCK] = g[G_SL]
    left[:g[G_SL]] = stock[:g[G_SL]]


# ----- from Python ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KernelHand:
    """A hand the kernel played to its end, as the simulation records it."""

    winner: int | None
    end_reason: str
    turns: int
    paid: dict[str, int]
    """Chips put up by heading (`analysis.pan_sim.PAYMENTS`, the wagers their sum)."""
    conditions: dict[str, int]
    """Conditions on the melds as they lie at the end, by `ConditionKind` value (made ones)."""
    chips: list[int]
    stock: npt.NDArray[np.int64]
    """The stock left, as card keys, its top last."""


def supports(rules: PanRules) -> bool:
    """The rules the kernel plays: set additions not strict, no pass forfeit, no conditions
    paid again on going out (the others run on the engine)."""
    return (not rules.strict_set_additions and rules.pass_forfeit_chips == 0
            and not rules.repay_conditions_on_out)


def play(keys: npt.NDArray[np.int64], n: int, dealer: int, chips: int, rules: PanRules,
         tabs: tuple[Any, ...]) -> KernelHand | None:
    """One hand of `n` sound bots with `chips` each from the pack `keys` (`cards.card_key`,
    as `PanHand` is given it; `tabs`: `kernel_melds.tables(rules)`); None when it is the
    engine's to play (`FALLBACK`)."""
    res = np.zeros(R_CHIPS + n, np.int64)
    left = np.zeros(len(keys), np.int64)
    play_hand(keys, n, dealer, chips, rules.outs_chips, tabs, res, left)
    if res[R_STATUS] == FALLBACK:
        return None
    paid = {"tops": int(res[R_TOPS]), "conditions": int(res[R_CONDITIONS]),
            "outs": int(res[R_OUTS])}
    paid["wagers"] = sum(paid.values())
    return KernelHand(
        None if res[R_WINNER] < 0 else int(res[R_WINNER]), END_REASONS[res[R_END]],
        int(res[R_TURNS]), paid,
        {k.value: int(c) for k, c in zip(ConditionKind, res[R_COUNTS:R_COUNTS + 5], strict=True)
         if c},
        [int(c) for c in res[R_CHIPS:R_CHIPS + n]], left[:res[R_STOCK]])
