"""The d100 strike-chance ruleset (spelljammer): the engine the Strike calculator, the UDFs and the
parity tests rest on. Roll d100 at or under SC - DEF; stun, wounds, defending, casting time and
shooting into melee.

Everything numeric comes from the ruleset's tables (``dice``, ``outcomes``, ``automatic_results``,
``critical_grievous`` and the rest); nothing is typed in here. Its odds are in
``pycalc.rulesets.spelljammer_odds``, the calculator as a pure function in
``pycalc.rulesets.spelljammer_calculator``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pycalc.errors import RuleError
from pycalc.tables import Row, RuleSet

# --------------------------------------------------------------------------- d100 strike-chance resolution (spelljammer): roll d100 at or under SC - DEF


@dataclass(frozen=True)
class Outcome:
    id: str
    label: str
    rank: int
    damage_multiplier: int
    prot_applies: bool
    prot_wear: int
    effect: str


@lru_cache(maxsize=64)
def outcomes(rules: RuleSet) -> tuple[Outcome, ...]:
    """The outcomes from Miss up, ordered by rank (read once per ruleset: every roll resolves with them)."""
    rows = rules.table("outcomes").rows
    found = (
        Outcome(
            str(r.id),
            str(r.label),
            r["rank"],
            r["damage_multiplier"],
            r["prot_applies"],
            r["prot_wear"],
            r["effect"],
        )
        for r in rows
    )
    return tuple(sorted(found, key=lambda o: o.rank))


def outcome_named(rules: RuleSet, name: str) -> Outcome:
    """The outcome whose label or id is ``name`` (case-insensitive)."""
    wanted = name.strip().casefold()
    for outcome in outcomes(rules):
        if wanted in (outcome.id.casefold(), outcome.label.casefold()):
            return outcome
    labels = ", ".join(o.label for o in outcomes(rules))
    raise RuleError(f"#RESULT? use {labels}")


def die_faces(rules: RuleSet) -> int:
    return rules.constant("dice", "strike_die_faces")


def modified_sc(sc: int, defense: int, mods: int = 0) -> int:
    """SC - DEF + mods: the highest roll that hits by the table."""
    return sc - defense + mods


def _band_value(rules: RuleSet, modified: int, column: str) -> int:
    band = rules.table("critical_grievous").band(modified)
    return band[column] if band else 0


def critical_max(rules: RuleSet, modified: int) -> int:
    """Highest d100 roll that is a critical by the table (0 when none)."""
    return _band_value(rules, modified, "critical_max")


def grievous_max(rules: RuleSet, modified: int) -> int:
    """Highest d100 roll that is a grievous hit by the table (0 when none)."""
    return _band_value(rules, modified, "grievous_max")


def _automatic(rules: RuleSet, roll: int) -> Row | None:
    return rules.table("automatic_results").band(roll)


def check_roll(rules: RuleSet, roll: int) -> int:
    """The d100 roll as read: 1 to 100, where 00 (typed 0) is 100."""
    faces = die_faces(rules)
    if roll == 0:
        return faces
    if not 1 <= roll <= faces:
        raise RuleError(f"#ROLL? 1 to {faces} (00 = {faces})")
    return roll


def resolve(rules: RuleSet, modified: int, roll: int) -> Outcome:
    """The outcome of one d100 roll against a modified strike chance."""
    roll = check_roll(rules, roll)
    ranked = outcomes(rules)
    if roll <= grievous_max(rules, modified):
        rank = 3
    elif roll <= critical_max(rules, modified):
        rank = 2
    elif roll <= modified:
        rank = 1
    else:
        rank = 0
    automatic = _automatic(rules, roll)
    if automatic is not None:
        if automatic["always_miss"]:
            rank = 0
        elif automatic["at_least"]:
            rank = max(rank, outcome_named(rules, automatic["at_least"]).rank)
    return ranked[rank]


def distribution(rules: RuleSet, modified: int) -> dict[str, Fraction]:
    """Exact probability of each outcome (by id) over every face of the die."""
    faces = die_faces(rules)
    counts = {o.id: 0 for o in outcomes(rules)}
    for roll in range(1, faces + 1):
        counts[resolve(rules, modified, roll).id] += 1
    return {outcome_id: Fraction(count, faces) for outcome_id, count in counts.items()}


def hit_chance(rules: RuleSet, modified: int) -> Fraction:
    """Probability of any hit (every outcome above Miss)."""
    miss = outcomes(rules)[0].id
    return 1 - distribution(rules, modified)[miss]


def damage_taken(rules: RuleSet, damage: int, prot: int, outcome: Outcome) -> int:
    """Hit points lost: damage times the outcome's multiplier, less PROT where it applies."""
    if damage < 0:
        raise RuleError("#DAMAGE? 0 or more")
    if prot < 0:
        raise RuleError("#PROT? 0 or more")
    taken = damage * outcome.damage_multiplier - (prot if outcome.prot_applies else 0)
    return max(0, taken)


# --------------------------------------------------------------------------- Stun (spelljammer): a single hit that does more than the stun threshold stuns for the round


def size_names(rules: RuleSet) -> list[str]:
    return [str(r.label) for r in rules.table("stun_size").rows]


def size_bonus(rules: RuleSet, size: str) -> int:
    try:
        return rules.table("stun_size").by_label(size)["con_bonus"]
    except KeyError:
        names = size_names(rules)
        raise RuleError(f"#SIZE? use {', '.join(names[:-1])} or {names[-1]}") from None


def hit_point_bonus(rules: RuleSet, max_hp: int) -> int:
    """+1 CON per 10 HP (or fraction) of maximum hit points above 100."""
    above = max_hp - rules.constant("stun_rules", "hp_bonus_above")
    if above <= 0:
        return 0
    step = rules.constant("stun_rules", "hp_bonus_step")
    return -(-above // step) * rules.constant("stun_rules", "hp_bonus_per_step")


def adjusted_con(rules: RuleSet, con: int, size: str = "Medium", max_hp: int = 0) -> int:
    if con < 0:
        raise RuleError("#CON? 0 or more")
    if max_hp < 0:
        raise RuleError("#MAX HP? 0 or more")
    return con + size_bonus(rules, size) + hit_point_bonus(rules, max_hp)


def threshold_for_con(rules: RuleSet, con: int) -> int:
    """Damage a single hit must exceed to stun, for an already adjusted CON."""
    if con <= rules.constant("stun_rules", "human_max_con"):
        return con
    table = rules.table("stun_table")
    band = table.band(con)
    if band is not None:
        return band["threshold"]
    last = table.rows[-1]
    if con < (last.low or 0) or rules.ruling("stun_above_table") == "cap":
        return last["threshold"]
    return last["threshold"] + rules.constant("stun_rules", "progression_step") * (con - last.high)


def stun_threshold(rules: RuleSet, con: int, size: str = "Medium", max_hp: int = 0) -> int:
    return threshold_for_con(rules, adjusted_con(rules, con, size, max_hp))


def is_stunned(rules: RuleSet, damage: int, con: int, size: str = "Medium", max_hp: int = 0) -> bool:
    """Whether one hit doing ``damage`` (as the stun_damage_basis ruling defines it) stuns."""
    return damage > stun_threshold(rules, con, size, max_hp)


# --------------------------------------------------------------------------- Wound modifiers (spelljammer), with the seed's exception for low starting hit points


def _tier_index(rules: RuleSet, hp: int) -> int:
    rows = rules.table("wound_tiers").rows
    return next(i for i, row in enumerate(rows) if row.contains(hp))


def wound_modifier(rules: RuleSet, hp: int, starting_hp: int) -> int:
    """Modifier to all actions at ``hp`` current hit points.

    "If starting hit points are at one of these levels, then the character has no modifier until
    they reach the next level": the tier that holds the starting hit points gives no modifier.
    """
    if starting_hp <= 0:
        raise RuleError("#START HP? more than 0")
    tier = _tier_index(rules, hp)
    if tier == _tier_index(rules, starting_hp):
        return 0
    return rules.table("wound_tiers").rows[tier]["modifier"]


# --------------------------------------------------------------------------- Defending, Full Defense and Desperate Defense (spelljammer)


def _option(rules: RuleSet, entry: str) -> float:
    return rules.constant("defense_options", entry)


def _check_rank(rank: int) -> None:
    if rank < 0:
        raise RuleError("#RANK? 0 or more")


def max_sacrifice(rules: RuleSet, rank: int) -> int:
    _check_rank(rank)
    return math.floor(rank * _option(rules, "max_sacrifice_per_rank"))


def defending_bonus(rules: RuleSet, sc_sacrificed: int, rank: int) -> int:
    """DEF gained by sacrificing SC, 2 for 1, fractions down; at most rank x 5 SC."""
    if sc_sacrificed < 0:
        raise RuleError("#SC? 0 or more")
    most = max_sacrifice(rules, rank)
    if sc_sacrificed > most:
        raise RuleError(f"#MAX? rank {rank} sacrifices at most {most} SC")
    return math.floor(sc_sacrificed / _option(rules, "sc_per_def"))


def _max_bonus_rounded_up(rules: RuleSet, rank: int) -> int:
    _check_rank(rank)
    return math.ceil(rank * _option(rules, "max_def_per_rank"))


def full_defense(rules: RuleSet, defense: int, rank: int) -> int:
    """DEF = normal DEF + 5 + (weapon rank x 2.5, rounded up)."""
    return defense + int(_option(rules, "full_defense_bonus")) + _max_bonus_rounded_up(rules, rank)


def desperate_defense(rules: RuleSet, defense: int, rank: int) -> int:
    """DEF = normal DEF + 20 + (weapon rank x 2.5, rounded up)."""
    return defense + int(_option(rules, "desperate_defense_bonus")) + _max_bonus_rounded_up(rules, rank)


# --------------------------------------------------------------------------- Spell casting time and the initiative a spell goes off on (spelljammer)


def spell_kinds(rules: RuleSet) -> list[str]:
    return [c.id.upper() for c in rules.table("mage_casting_time").columns]


def cast_time(rules: RuleSet, rank: int, kind: str) -> int:
    """Casting time of a mage spell of this rank and kind (GK or SK)."""
    table = rules.table("mage_casting_time")
    column = kind.strip().lower()
    if column not in table.column_ids:
        raise RuleError(f"#KIND? use {' or '.join(spell_kinds(rules))}")
    band = table.band(rank)
    if band is None:
        raise RuleError(f"#RANK? {table.rows[0].low} to {table.rows[-1].high}")
    return band[column]


def spell_goes_off(rules: RuleSet, initiative: int, casting_time: int) -> int | str:
    """The initiative the spell goes off on this round, or what happens when that is too late.

    Too late means at or after the initiative on which actions are lost (-6); the late_spell
    ruling says whether the casting restarts on initiative 10 next round or is lost.
    """
    if casting_time < 0:
        raise RuleError("#CASTING TIME? 0 or more")
    goes_off = initiative - casting_time
    if goes_off > rules.constant("initiative_rules", "lost_at_or_below"):
        return goes_off
    if rules.ruling("late_spell") == "lost":
        return "Lost"
    restart = rules.constant("initiative_rules", "round_start_for_long_spells")
    return f"Next round on {restart - casting_time}"


# --------------------------------------------------------------------------- Shooting into melee (spelljammer): does the shot target a friend or the foe?


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
    return (
        check_roll(rules, roll)
        + weapon_rank
        + multiplier * master_rank
        + training_row(rules, training)["roll_bonus"]
    )


def targets_friend(
    rules: RuleSet, roll: int, weapon_rank: int, master_rank: int, training: str, friends: int, opponents: int
) -> bool:
    """True when the shot goes at a friend: the total is at or under the table's number, or the
    raw d100 is at or under the training's always-a-friend number."""
    roll = check_roll(rules, roll)
    if roll <= training_row(rules, training)["always_friend_on"]:
        return True
    return shooting_total(rules, roll, weapon_rank, master_rank, training) <= friend_on(
        rules, friends, opponents
    )
