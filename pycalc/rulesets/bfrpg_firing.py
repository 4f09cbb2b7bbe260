"""Basic Fantasy RPG's Firing into melee calculator: the roll needed with the shot's modifier, and
whether a near miss hits the target's melee opponent instead.

Reads ``firing_into_melee`` and ``ranged_rules`` of ``tables/bfrpg/range.yaml``; the roll is the generic
d20 engine's (``pycalc.resolution``). ``pycalc.sheets.bfrpg_firing`` writes the same rules as native
formulas.
"""

from __future__ import annotations

from pycalc import resolution as generic
from pycalc import resolution_results
from pycalc.d20 import HITS
from pycalc.rulesets.bfrpg import faces
from pycalc.tables import RuleSet

# Text the calculator shows (the workbook formulas use the same strings).
FIRE_HIT, FIRE_STRAY, FIRE_MISS = "Hit", "Miss: hits the target's melee opponent", "Miss"


def firing_outputs(
    rules: RuleSet, shot_label: str, bonus: int, target: int, mods: int, roll: int | None
) -> dict[str, object]:
    shot = rules.table("firing_into_melee").by_label(shot_label)
    attack = generic.Attack(bonus, target, mods + int(shot["hit"]))
    need = generic.raw_need(rules, attack)
    out: dict[str, object] = {"FIRE_NEED": need, "FIRE_MARGIN": "", "FIRE_OUTCOME": ""}
    if roll is None:
        return out
    if not 1 <= roll <= faces(rules):
        out["FIRE_OUTCOME"] = f"#ROLL? 1 to {faces(rules)}"
        return out
    margin = need - roll
    out["FIRE_MARGIN"] = margin
    stray_max = int(rules.constant("ranged_rules", "stray_hit_max_miss"))
    if resolution_results.resolve(rules, attack, roll) in HITS:
        out["FIRE_OUTCOME"] = FIRE_HIT
    elif shot["near_miss"] and 1 <= margin <= stray_max:
        out["FIRE_OUTCOME"] = FIRE_STRAY
    else:
        out["FIRE_OUTCOME"] = FIRE_MISS
    return out
