"""House ways as data (a TOML file a card room posts) and the one engine that interprets them.

Rules clause 8: the dealer sets by the house way, which "must be clearly posted" and documented
in the internal controls, so it is data the room chooses, not code. A file names one rule for
every class of hand; the engine refuses a file with an unknown rule or a gap (a class, a
two-pair combination or a four-of-a-kind rank with no rule).

Every rule names which cards go in front, by rank (the joker counting as an ace). Where several
settings put those ranks in front, the engine takes the best back hand, then the first in the
fixed order of `FRONT_PAIRS`: the documented way to settle a wording that leaves a choice.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cardroom.cards import Card
from cardroom.errors import RulesError, read_document
from cardroom.games.pai_gow.evaluate import ACE, Category, category_of, pg_rank
from cardroom.games.pai_gow.settings import Setting, all_settings, validate_seven

BUILT_IN = {"trump-plaza": "trump-plaza.toml", "ballys": "ballys.toml"}
DEFAULT_WAY = "trump-plaza"

CLASSES = ("no-pair", "one-pair", "two-pair", "three-pair", "three-of-a-kind", "full-house",
           "four-of-a-kind", "five-aces")
STRAIGHT_CATEGORIES = frozenset({Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH})

_RANK_NAMES = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10, "10": 10}
_RANK_NAMES.update({str(r): r for r in range(2, 10)})


@dataclass(frozen=True)
class Action:
    """One rule: a kind, with up to three rank parameters."""

    kind: str
    ranks: tuple[int, ...] = ()


# slot -> allowed kinds and how many rank parameters each takes
_FORMS: dict[str, dict[str, int]] = {
    "no-pair": {"highest-back": 0},
    "one-pair": {"pair-back": 0},
    "two-pair": {"split": 0, "together": 0, "split-unless-single": 1},
    "three-pair": {"highest-pair-front": 0},
    "three-of-a-kind": {"trips-back": 0},
    "three-aces": {"trips-back": 0, "pair-back-ace-front": 0},
    "two-three-of-a-kinds": {"pair-of-higher-front": 0},
    "full-house": {"split": 0, "together": 0, "split-unless-pair": 3},
    "full-house-two-pair": {"highest-pair-front": 0},
    "four-of-a-kind": {"split": 0, "together": 0, "split-unless-front": 1,
                       "split-unless-pair": 1},
    "four-of-a-kind-with-pair": {"pair-front": 0, "use-rank-rule": 0},
    "four-of-a-kind-with-trips": {"pair-front": 0, "use-rank-rule": 0},
    "five-aces": {"split": 0, "together": 0, "split-unless-pair": 1},
    "straights": {"max-front": 0, "never": 0},
    "joker-ace-high-straight": {"straight": 0, "pair-of-aces": 0},
}
_SCALARS = tuple(k for k in _FORMS if k not in ("two-pair", "four-of-a-kind"))


def _rank(text: str, where: str) -> int:
    r = _RANK_NAMES.get(text.strip().upper())
    if r is None:
        raise RulesError(f"{where}: {text!r} is not a rank (2-9, T, J, Q, K, A)")
    return r


def _range(text: str, where: str) -> tuple[int, int]:
    parts = text.split("-")
    if len(parts) == 1:
        r = _rank(parts[0], where)
        return r, r
    if len(parts) != 2:
        raise RulesError(f"{where}: {text!r} is not a rank range such as 7-10")
    lo, hi = _rank(parts[0], where), _rank(parts[1], where)
    if lo > hi:
        raise RulesError(f"{where}: range {text!r} runs backwards")
    return lo, hi


def parse_action(slot: str, text: Any, where: str) -> Action:
    if not isinstance(text, str):
        raise RulesError(f"{where}: expected a rule name, got {text!r}")
    words = re.sub(r"\bwith\b", " ", text).split()
    forms = _FORMS[slot]
    if not words or words[0] not in forms:
        raise RulesError(
            f"{where}: unknown rule {text!r}; allowed: {', '.join(sorted(forms))}"
        )
    kind, params = words[0], words[1:]
    if len(params) != forms[kind]:
        raise RulesError(f"{where}: rule {kind!r} takes {forms[kind]} rank(s), got {text!r}")
    return Action(kind, tuple(_rank(p, where) for p in params))


@dataclass(frozen=True)
class HouseWay:
    """A parsed, complete house way."""

    name: str
    title: str
    pair_class: dict[int, str]
    class_order: tuple[str, ...]
    two_pair: dict[str, Action]
    four_of_a_kind: dict[int, Action]
    rules: dict[str, Action]
    straights_apply_to: frozenset[str]

    def two_pair_key(self, high: int, low: int) -> str:
        if high == ACE:
            return "aces"
        a, b = self.pair_class[low], self.pair_class[high]
        return f"{a}-{b}"


def parse_house_way(data: dict[str, Any], source: str) -> HouseWay:
    """Validate a house-way mapping: every rule known, no gap."""
    known_top = {"name", "title", "pair-classes", "rules"}
    for key in data:
        if key not in known_top:
            raise RulesError(f"{source}: unknown key {key!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise RulesError(f"{source}: the house way needs a name")
    title = str(data.get("title", name))
    pair_class, class_order = _pair_classes(data.get("pair-classes"), source)
    rules_data = data.get("rules")
    if not isinstance(rules_data, dict):
        raise RulesError(f"{source}: gap: the [rules] table is missing")
    for key in rules_data:
        if key not in _FORMS and key != "straights-apply-to":
            raise RulesError(f"{source}: unknown rule {key!r}")
    rules: dict[str, Action] = {}
    for slot in _SCALARS:
        if slot not in rules_data:
            raise RulesError(f"{source}: gap: no rule for {slot!r}")
        rules[slot] = parse_action(slot, rules_data[slot], f"{source}: rules.{slot}")
    two_pair = _two_pair_rules(rules_data.get("two-pair"), class_order, source)
    four = _four_of_a_kind_rules(rules_data.get("four-of-a-kind"), source)
    apply_to = rules_data.get("straights-apply-to", [])
    if not isinstance(apply_to, list) or any(c not in CLASSES for c in apply_to):
        raise RulesError(f"{source}: straights-apply-to must list classes among {CLASSES}")
    return HouseWay(name, title, pair_class, class_order, two_pair, four, rules,
                    frozenset(apply_to))


def _pair_classes(classes: Any, source: str) -> tuple[dict[int, str], tuple[str, ...]]:
    """[pair-classes]: each rank 2-K in exactly one class; the classes from lowest up."""
    if not isinstance(classes, dict) or not classes:
        raise RulesError(f"{source}: gap: [pair-classes] (low, medium, high ...) is missing")
    pair_class: dict[int, str] = {}
    spans = []
    for cname, span in classes.items():
        lo, hi = _range(str(span), f"{source}: pair-classes.{cname}")
        spans.append((lo, cname))
        for r in range(lo, hi + 1):
            if r in pair_class:
                raise RulesError(f"{source}: pair-classes: rank {r} is in two classes")
            pair_class[r] = cname
    missing = [r for r in range(2, 14) if r not in pair_class]
    if missing or ACE in pair_class:
        raise RulesError(f"{source}: gap: pair-classes must cover 2 through K exactly "
                         f"(aces have their own two-pair rule); missing {missing}")
    return pair_class, tuple(c for _, c in sorted(spans))


def _two_pair_rules(tp: Any, class_order: tuple[str, ...], source: str) -> dict[str, Action]:
    """[rules.two-pair]: one rule for each pair of classes (low-high) and for aces."""
    if not isinstance(tp, dict):
        raise RulesError(f"{source}: gap: no [rules.two-pair] table")
    combos = [f"{a}-{b}" for i, a in enumerate(class_order) for b in class_order[i:]] + ["aces"]
    for key in tp:
        if key not in combos:
            raise RulesError(f"{source}: unknown two-pair combination {key!r}; "
                             f"expected {', '.join(combos)}")
    two_pair = {}
    for combo in combos:
        if combo not in tp:
            raise RulesError(f"{source}: gap: no two-pair rule for {combo!r}")
        two_pair[combo] = parse_action("two-pair", tp[combo], f"{source}: two-pair.{combo}")
    return two_pair


def _four_of_a_kind_rules(quads: Any, source: str) -> dict[int, Action]:
    """[rules.four-of-a-kind]: one rule for each rank 2-A, given by rank ranges."""
    if not isinstance(quads, dict):
        raise RulesError(f"{source}: gap: no [rules.four-of-a-kind] table")
    four: dict[int, Action] = {}
    for span, text in quads.items():
        where = f"{source}: four-of-a-kind.{span}"
        lo, hi = _range(span, where)
        action = parse_action("four-of-a-kind", text, where)
        for r in range(lo, hi + 1):
            if r in four:
                raise RulesError(f"{where}: rank {r} has two rules")
            four[r] = action
    gaps = [r for r in range(2, 15) if r not in four]
    if gaps:
        raise RulesError(f"{source}: gap: four of a kind of rank(s) {gaps} have no rule")
    return four


def load_house_way(path: str | Path) -> HouseWay:
    p = Path(path)
    data = read_document(p, tomllib.loads, tomllib.TOMLDecodeError, "TOML", RulesError,
                         "house-way file")
    return parse_house_way(data, str(p))


def house_way(name_or_path: str = DEFAULT_WAY) -> HouseWay:
    """A built-in house way by name ('trump-plaza', 'ballys'), or a card room's TOML file."""
    if name_or_path in BUILT_IN:
        text = (resources.files("cardroom.games.pai_gow") / "data" / BUILT_IN[name_or_path])
        data = tomllib.loads(text.read_text(encoding="utf-8"))
        return parse_house_way(data, f"built-in house way {name_or_path!r}")
    if name_or_path.endswith(".toml"):
        return load_house_way(name_or_path)
    raise RulesError(f"unknown house way {name_or_path!r}: built in are "
                     f"{', '.join(BUILT_IN)}, or give a .toml file")


# ----------------------------------------------------------------------------- the engine

def pairing_rank(card: Card) -> int:
    """Rank for pairing: the joker is an ace."""
    return ACE if card.is_joker else pg_rank(card)


@dataclass(frozen=True)
class Decision:
    """What the house way did and why (the rule applied), for display and tests."""

    setting: Setting
    index: int
    rule: str


def classify(cards: Sequence[Card]) -> tuple[str, dict[int, int]]:
    counts = Counter(pairing_rank(c) for c in cards)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 5:
        return "five-aces", counts
    if shape[0] == 4:
        return "four-of-a-kind", counts
    if shape[0] == 3 and shape[1] >= 2:
        return "full-house", counts
    if shape[:3] == [2, 2, 2]:
        return "three-pair", counts
    if shape[:2] == [2, 2]:
        return "two-pair", counts
    if shape[0] == 3:
        return "three-of-a-kind", counts
    if shape[0] == 2:
        return "one-pair", counts
    return "no-pair", counts


def _of(counts: dict[int, int], n: int) -> list[int]:
    return sorted((r for r, k in counts.items() if k == n), reverse=True)


@dataclass(frozen=True)
class _Shape:
    """A hand's pairing ranks grouped by how many of each it holds, highest first."""

    counts: dict[int, int]
    singles: list[int]
    pairs: list[int]
    trips: list[int]

    @property
    def top2(self) -> tuple[int, int]:
        return (self.singles[0], self.singles[1]) if len(self.singles) >= 2 else (0, 0)


Front = tuple[tuple[int, int], str]
"""The ranks the house way puts in front, and the name of the rule that says so."""


def front_request(way: HouseWay, hand_class: str, counts: dict[int, int]) -> Front:
    """The ranks the house way puts in front, and the name of the rule that says so."""
    shape = _Shape(counts, _of(counts, 1), _of(counts, 2), _of(counts, 3))
    if hand_class == "no-pair":
        return (shape.singles[1], shape.singles[2]), "no-pair"
    if hand_class == "one-pair":
        return shape.top2, "one-pair"
    if hand_class == "three-pair":
        return (shape.pairs[0], shape.pairs[0]), "three-pair"
    return _FRONT_BY_CLASS[hand_class](way, shape)


def _two_pair_front(way: HouseWay, h: _Shape) -> Front:
    hi, lo = h.pairs
    key = way.two_pair_key(hi, lo)
    act = way.two_pair[key]
    together = act.kind == "together" or (
        act.kind == "split-unless-single" and h.singles[0] >= act.ranks[0])
    return (h.top2 if together else (lo, lo)), f"two-pair {key}: {act.kind}"


def _three_of_a_kind_front(way: HouseWay, h: _Shape) -> Front:
    if h.trips[0] == ACE and way.rules["three-aces"].kind == "pair-back-ace-front":
        return (ACE, h.singles[0]), "three-aces"
    return h.top2, "three-of-a-kind"


def _full_house_front(way: HouseWay, h: _Shape) -> Front:
    if len(h.trips) == 2:
        return (h.trips[0], h.trips[0]), "two-three-of-a-kinds"
    if len(h.pairs) == 2:
        return (h.pairs[0], h.pairs[0]), "full-house-two-pair"
    act = way.rules["full-house"]
    p = h.pairs[0]
    together = act.kind == "together" or (
        act.kind == "split-unless-pair" and p == act.ranks[0]
        and sorted(h.singles) == sorted(act.ranks[1:]))
    return (h.top2 if together else (p, p)), f"full-house: {act.kind}"


def _four_of_a_kind_front(way: HouseWay, h: _Shape) -> Front:
    quad = _of(h.counts, 4)[0]
    rest = [r for r, k in h.counts.items() if k < 4]
    rest_pair = h.pairs[0] if h.pairs else (h.trips[0] if h.trips else 0)
    if rest_pair:
        slot = "four-of-a-kind-with-pair" if h.pairs else "four-of-a-kind-with-trips"
        if way.rules[slot].kind == "pair-front":
            return (rest_pair, rest_pair), slot
    act = way.four_of_a_kind[quad]
    best_rest = (rest_pair, rest_pair) if rest_pair else h.top2
    together = act.kind == "together" or (
        act.kind == "split-unless-front" and max(rest) >= act.ranks[0]) or (
        act.kind == "split-unless-pair" and rest_pair == act.ranks[0])
    return (best_rest if together else (quad, quad)), f"four-of-a-kind: {act.kind}"


def _five_aces_front(way: HouseWay, h: _Shape) -> Front:
    """The other two cards are a pair or two singles."""
    act = way.rules["five-aces"]
    others = h.pairs[0] if h.pairs else 0
    rest2 = (others, others) if others else h.top2
    together = act.kind == "together" or (
        act.kind == "split-unless-pair" and others == act.ranks[0])
    return (rest2 if together else (ACE, ACE)), f"five-aces: {act.kind}"


_FRONT_BY_CLASS: dict[str, Callable[[HouseWay, _Shape], Front]] = {
    "two-pair": _two_pair_front,
    "three-of-a-kind": _three_of_a_kind_front,
    "full-house": _full_house_front,
    "four-of-a-kind": _four_of_a_kind_front,
    "five-aces": _five_aces_front,
}


def _straight_candidates(way: HouseWay, hand_class: str, counts: dict[int, int],
                         settings: list[Setting]) -> list[int]:
    cands = [i for i, s in enumerate(settings)
             if category_of(s.back_score) in STRAIGHT_CATEGORIES]
    joker_rule = way.rules["joker-ace-high-straight"].kind
    if (joker_rule == "pair-of-aces" and hand_class == "one-pair" and counts.get(ACE) == 2
            and any(c.is_joker for s in settings[:1] for c in (*s.front, *s.back))):
        # Bally's: an ace-high straight (or straight flush) using the joker is played as
        # a pair of aces instead, unless a lower straight can be played.
        def ace_high_with_joker(s: Setting) -> bool:
            cat = category_of(s.back_score)
            return (cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
                    and (s.back_score >> 15) & 31 == 28 and any(c.is_joker for c in s.back))
        cands = [i for i in cands if not ace_high_with_joker(settings[i])]
    return cands


def set_hand(cards: Sequence[Card], way: HouseWay, wheel_second: bool = False) -> Decision:
    """The reference interpreter: the house way's setting of seven cards."""
    seven = validate_seven(cards)
    settings = all_settings(seven, wheel_second)
    hand_class, counts = classify(seven)
    if way.rules["straights"].kind == "max-front" and hand_class in way.straights_apply_to:
        cands = _straight_candidates(way, hand_class, counts, settings)
        if cands:
            best = max(cands, key=lambda i: (settings[i].front_score, settings[i].back_score,
                                             -i))
            return Decision(settings[best], best, "straights: max-front")
    (f1, f2), rule = front_request(way, hand_class, counts)
    want = sorted((f1, f2))
    matching = [i for i, s in enumerate(settings)
                if sorted(pairing_rank(c) for c in s.front) == want]
    if not matching:  # pragma: no cover - every rule names ranks the hand holds
        raise RulesError(f"house way {way.name}: rule {rule} names cards the hand lacks")
    best = max(matching, key=lambda i: (settings[i].back_score, -i))
    chosen = settings[best]
    if chosen.is_foul:  # pragma: no cover - the rule vocabulary cannot foul; never hide it
        raise RulesError(f"house way {way.name}: rule {rule} fouled {chosen}")
    return Decision(chosen, best, rule)
