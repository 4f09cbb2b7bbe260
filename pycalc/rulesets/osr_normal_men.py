"""OSR house rules Normal Men: the attacks per round against them, and the seed's shortcut for how many
of them those attacks kill per round.

Reads ``attacker_kinds_vs_normal_men`` of ``tables/osr`` and the rulings normal_men_multiple_attacks,
expected_kills_method and expected_kills_rounding (the chance to hit is the generic d20 engine's);
``pycalc.sheets.osr_normal_men`` writes the same rules as native formulas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from pycalc import dice as dice_module
from pycalc import resolution as generic
from pycalc import resolution_chances
from pycalc.errors import RuleError, not_in_list, said
from pycalc.tables import RuleSet


def attacks_vs_normal_men(rules: RuleSet, kind: str, level_or_hd: int) -> int:
    """Melee attacks per round against Normal Men (level for fighter types, whole HD for monsters)."""
    table = rules.table("attacker_kinds_vs_normal_men")
    try:
        row = table.by_label(kind)
    except KeyError:
        raise not_in_list("kind", (row.label for row in table.rows)) from None
    if level_or_hd < 0:
        raise RuleError("#LEVEL? 0 or more")
    if row.id == "other_pc" and rules.ruling("normal_men_multiple_attacks") == "all_pcs":
        row = table.entry("fighter_type")
    if level_or_hd > row["more_than"]:
        return max(row["otherwise"], level_or_hd * row["per_level_or_hd"])
    return row["otherwise"]


@dataclass(frozen=True)
class Kills:
    hit_chance: Fraction
    hits: Fraction
    average_damage: Fraction
    average_hp: Fraction
    kills: Fraction | int


def expected_kills(rules: RuleSet, attacks: int, need: int, damage_dice: str, hp_dice: str) -> Kills:
    """The seed's shortcut: hits from the chance to hit, then Normal Men killed per round."""
    if attacks < 0:
        raise RuleError("#ATTACKS? 0 or more")
    chance = resolution_chances.hit_chance(rules, generic.Attack(0, need))
    hits = attacks * chance
    damage = dice_module.parse(damage_dice).mean
    hp = dice_module.parse(hp_dice).mean
    if hp <= 0:
        raise RuleError("#HP DICE? average hit points must be above 0")
    if rules.ruling("expected_kills_method") == "one_per_hit_capped":
        kills: Fraction | int = hits * min(Fraction(1), damage / hp)
    else:
        kills = hits * damage / hp
    if rules.ruling("expected_kills_rounding") == "up":
        kills = math.ceil(kills)
    return Kills(chance, hits, damage, hp, kills)


KILLS_SHOWN = ("KILLS_HIT_CHANCE", "KILLS_HITS", "KILLS_PER_ROUND")


def normal_men_outputs(
    rules: RuleSet, kind: str, level_or_hd: int, need: int, damage_dice: str, hp_dice: str
) -> dict[str, object]:
    """The attacks per round against Normal Men, and how many of them those attacks kill."""
    attacks = said(attacks_vs_normal_men, rules, kind, level_or_hd)
    if isinstance(attacks, str):
        return {"NORMAL_MEN_ATTACKS": attacks, **dict.fromkeys(KILLS_SHOWN, attacks)}
    try:
        found = expected_kills(rules, attacks, need, damage_dice, hp_dice)
    except RuleError as error:
        return {"NORMAL_MEN_ATTACKS": attacks, **dict.fromkeys(KILLS_SHOWN, str(error))}
    return {
        "NORMAL_MEN_ATTACKS": attacks,
        "KILLS_HIT_CHANCE": found.hit_chance,
        "KILLS_HITS": found.hits,
        "KILLS_AVG_DAMAGE": found.average_damage,
        "KILLS_AVG_HP": found.average_hp,
        "KILLS_PER_ROUND": found.kills,
    }
