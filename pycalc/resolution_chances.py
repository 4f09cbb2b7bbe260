"""The exact chances of a d20 attack's outcomes: every natural roll (and follow-up roll) weighed, with
advantage or disadvantage, and dice a picked row adds to the roll (``hit: 1d4``) counted total by total."""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from fractions import Fraction

from pycalc.d20 import CRITICAL, HIT, OUTCOMES
from pycalc.resolution import (
    ADVANTAGE,
    DISADVANTAGE,
    LOWEST_FACE,
    NORMAL,
    Attack,
    block,
    faces,
    follow_faces,
    get,
    uses_follow_roll,
)
from pycalc.resolution_added import fixed_attacks
from pycalc.resolution_results import resolve
from pycalc.tables import RuleSet


def roll_mode(rules: RuleSet, attack: Attack) -> str:
    if attack.advantage and attack.disadvantage:
        rule = block(rules).advantage
        return NORMAL if rule is None else str(get(rules, rule.both))
    return ADVANTAGE if attack.advantage else DISADVANTAGE if attack.disadvantage else NORMAL


def face_weight(rules: RuleSet, face: int, mode: str = NORMAL) -> Fraction:
    """Probability that the kept natural roll shows ``face`` (advantage keeps the highest of n)."""
    sides = faces(rules)
    rule = block(rules).advantage
    if mode == NORMAL or rule is None:
        return Fraction(1, sides)
    if mode == ADVANTAGE:
        n = int(get(rules, rule.highest_of))
        return Fraction(face**n - (face - 1) ** n, sides**n)
    n = int(get(rules, rule.lowest_of))
    return Fraction((sides + 1 - face) ** n - (sides - face) ** n, sides**n)


def roll_weights(rules: RuleSet, attack: Attack) -> list[tuple[int, Fraction]]:
    mode = roll_mode(rules, attack)
    return [(roll, face_weight(rules, roll, mode)) for roll in range(LOWEST_FACE, faces(rules) + 1)]


def follow_weights(rules: RuleSet) -> list[tuple[int | None, Fraction]]:
    if not uses_follow_roll(rules):
        return [(None, Fraction(1))]
    count = follow_faces(rules)
    return [(follow, Fraction(1, count)) for follow in range(LOWEST_FACE, count + 1)]


def pairs(rules: RuleSet, attack: Attack) -> Iterable[tuple[int, int | None, Fraction]]:
    """Every (natural roll, follow roll) with its probability."""
    follows = follow_weights(rules)
    for roll, weight in roll_weights(rules, attack):
        for follow, chance in follows:
            yield roll, follow, weight * chance


_CHANCES: weakref.WeakKeyDictionary[RuleSet, dict[Attack, dict[str, Fraction]]] = weakref.WeakKeyDictionary()


CHANCES_KEPT = 4096  # attacks remembered per RuleSet (a calculator, the odds and the UDFs ask again)


def chances(rules: RuleSet, attack: Attack) -> dict[str, Fraction]:
    """Exact probability of each result over every roll and follow roll (remembered per RuleSet and
    attack: both never change, and a follow-up d20 makes it 400 resolutions)."""
    known = _CHANCES.get(rules)
    if known is None:
        known = _CHANCES[rules] = {}
    if attack not in known:
        found = dict.fromkeys(OUTCOMES, Fraction(0))
        for fixed, share in fixed_attacks(attack):
            for roll, follow, weight in pairs(rules, fixed):
                found[resolve(rules, fixed, roll, follow)] += share * weight
        if len(known) >= CHANCES_KEPT:
            known.clear()
        known[attack] = found
    return dict(known[attack])


def hit_chance(rules: RuleSet, attack: Attack) -> Fraction:
    odds = chances(rules, attack)
    return odds[HIT] + odds[CRITICAL]
