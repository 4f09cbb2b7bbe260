"""Shooting into melee (spelljammer): does the shot target a friend or the foe?"""

from __future__ import annotations

from pycalc.errors import RuleError
from pycalc.tables import RuleSet


def training_row(rules: RuleSet, training: str):
    table = rules.table("shooter_training")
    try:
        return table.by_label(training)
    except KeyError:
        labels = ", ".join(str(r.label) for r in table.rows)
        raise RuleError(f"#TRAINING? use {labels}") from None


def friend_on(rules: RuleSet, friends: int, opponents: int) -> int:
    """The highest modified d100 that targets a friend for this many friends and opponents."""
    for row in rules.table("shooting_into_melee").rows:
        if row["friends"] == friends and row["opponents"] == opponents:
            return row["friend_on"]
    raise RuleError(f"#SITUATION? no row for {friends} friend(s) and {opponents} opponent(s)")


def shooting_total(rules: RuleSet, roll: int, weapon_rank: int, master_rank: int, training: str) -> int:
    multiplier = rules.constant("shooting_constants", "master_bowman_rank_multiplier")
    return roll + weapon_rank + multiplier * master_rank + training_row(rules, training)["roll_bonus"]


def targets_friend(
    rules: RuleSet, roll: int, weapon_rank: int, master_rank: int, training: str, friends: int, opponents: int
) -> bool:
    """True when the shot goes at a friend: the total is at or under the table's number, or the
    raw d100 is at or under the training's always-a-friend number."""
    if not 1 <= roll <= rules.constant("dice", "strike_die_faces"):
        raise RuleError("#ROLL? 1 to 100")
    if roll <= training_row(rules, training)["always_friend_on"]:
        return True
    return shooting_total(rules, roll, weapon_rank, master_rank, training) <= friend_on(
        rules, friends, opponents
    )
