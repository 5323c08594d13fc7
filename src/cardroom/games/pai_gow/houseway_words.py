"""A house way in words, for posting (Pai Gow rules clause 8: the house way "must be clearly
posted for all players to view"). The sentences are generated from the same parsed house way
the dealer's engine follows (`houseway.HouseWay`), so the posted way cannot drift from the
played one; every rule kind the files may name has its sentence here."""

from __future__ import annotations

from cardroom.games.pai_gow.houseway import Action, HouseWay

_NAMES = {11: "jacks", 12: "queens", 13: "kings", 14: "aces"}
_ONE = {11: "a jack", 12: "a queen", 13: "a king", 14: "an ace"}


def plural(rank: int) -> str:
    """'7s', 'kings'."""
    return _NAMES.get(rank, f"{rank}s")


def one(rank: int) -> str:
    """'a 7', 'an 8', 'a king'."""
    return _ONE.get(rank, f"an {rank}" if rank == 8 else f"a {rank}")


def or_higher(rank: int) -> str:
    """'a king or higher'; 'an ace' (nothing ranks above it)."""
    return one(rank) if rank == 14 else f"{one(rank)} or higher"


def span(lo: int, hi: int) -> str:
    return plural(lo) if lo == hi else f"{plural(lo)} to {plural(hi)}"


def _spans(ranks: dict[int, Action]) -> list[tuple[int, int, Action]]:
    """Consecutive ranks with the same rule, as (low, high, rule)."""
    out: list[tuple[int, int, Action]] = []
    for r in sorted(ranks):
        if out and out[-1][2] == ranks[r] and out[-1][1] == r - 1:
            out[-1] = (out[-1][0], r, ranks[r])
        else:
            out.append((r, r, ranks[r]))
    return out


def _two_pair(act: Action) -> str:
    if act.kind == "split":
        return "always split: the lower pair in front, the higher pair in back"
    if act.kind == "together":
        return "keep both pairs in back, the two highest single cards in front"
    return (f"split (the lower pair in front) unless a single card is "
            f"{or_higher(act.ranks[0])}: then keep both pairs in back and put the two highest "
            "single cards in front")


def _four(act: Action) -> str:
    if act.kind == "split":
        return "always split into two pairs, one in front and one in back"
    if act.kind == "together":
        return "keep the four together in back"
    if act.kind == "split-unless-front":
        return (f"split into two pairs unless {or_higher(act.ranks[0])} can go in front: "
                "then keep the four together in back")
    return (f"split into two pairs unless the hand also holds a pair of "
            f"{plural(act.ranks[0])}: then keep the four together and put that pair in front")


def describe_house_way(way: HouseWay) -> list[str]:
    """Every rule of `way` as one plain sentence, in the order a player looks them up."""
    r = way.rules
    classes: dict[str, tuple[int, int]] = {}
    for rank, name in way.pair_class.items():
        lo, hi = classes.get(name, (rank, rank))
        classes[name] = (min(lo, rank), max(hi, rank))
    lines = [
        f"The dealer sets the bank's hand by the house way {way.title}:",
        "No pair: the highest card stays in the back hand; the second and third highest "
        "cards go in front.",
        "One pair: the pair in back, the two highest other cards in front.",
        "Pairs for the two-pair rules: " + "; ".join(
            f"{name} pairs are {span(*classes[name])}" for name in way.class_order) + ".",
    ]
    for key, act in way.two_pair.items():
        what = "a pair of aces with any other pair" if key == "aces" else \
            " and ".join(key.split("-", 1)) + " pairs"
        lines.append(f"Two pair, {what}: {_two_pair(act)}.")
    lines.append("Three pairs: the highest pair in front.")
    lines.append("Three of a kind: keep it in back, the two highest other cards in front.")
    lines.append("Three aces: " + (
        "a pair of aces in back, an ace and the highest other card in front."
        if r["three-aces"].kind == "pair-back-ace-front"
        else "as any three of a kind, all three in back."))
    lines.append("Two three-of-a-kinds: a pair of the higher one in front.")
    fh = r["full-house"]
    if fh.kind == "split":
        lines.append("Full house: always split, the pair in front and three of a kind in "
                     "back.")
    elif fh.kind == "together":
        lines.append("Full house: keep it together in back.")
    else:
        p, a, b = fh.ranks
        lines.append(f"Full house: split, the pair in front and three of a kind in back, "
                     f"unless the pair is {plural(p)} and the other two cards are "
                     f"{one(a)} and {one(b)}: then keep the full house in back with those two "
                     "in front.")
    lines.append("Three of a kind with two pairs: the higher pair in front.")
    for slot, what, front in (("four-of-a-kind-with-pair", "a pair", "the pair"),
                              ("four-of-a-kind-with-trips", "three of a kind",
                               "two of the three")):
        lines.append(f"Four of a kind with {what}: " + (
            f"{front} in front, the four in back." if r[slot].kind == "pair-front"
            else "as four of a kind of its rank (below)."))
    for lo, hi, act in _spans(way.four_of_a_kind):
        lines.append(f"Four {span(lo, hi)}: {_four(act)}.")
    fa = r["five-aces"]
    lines.append("Five aces (four aces and the joker): " + (
        "keep them together." if fa.kind == "together" else
        "split, a pair of aces in front." if fa.kind == "split" else
        f"split, a pair of aces in front, unless the hand also holds a pair of "
        f"{plural(fa.ranks[0])}: then that pair goes in front."))
    if r["straights"].kind == "max-front":
        hands = sorted(way.straights_apply_to, key=lambda c: c)
        lines.append("Straights and flushes (hands with " + ", ".join(
            c.replace("-", " ") for c in hands) + "): play the straight, flush or straight "
            "flush in back when one can be made, choosing the one that leaves the best front "
            "hand.")
    else:
        lines.append("Straights and flushes are never played ahead of the rules above.")
    lines.append(
        "A pair of aces that makes an ace-high straight with the joker plays as a pair of aces, "
        "unless a lower straight can be played."
        if r["joker-ace-high-straight"].kind == "pair-of-aces"
        else "An ace-high straight made with the joker plays as a straight.")
    lines.append("The joker counts as an ace, or completes a straight, flush or straight "
                 "flush. Where a rule leaves a choice of cards, the dealer keeps the best "
                 "back hand.")
    return lines
