"""What each ruleset's Encounter sheet needs of its own: the roster's combat numbers, how a log row
feeds the ruleset's Attack or Strike calculator, and that calculator's engine.

``wiring`` maps each calculator input (a defined name of the calculator) to a formula template the
sheet writer fills per log row: ``{attacker.<stat>}`` and ``{target.<stat>}`` (the roster's number
of the combatant named on the row), ``{log.<field>}`` (the row's own cell: roll, follow_roll,
damage_roll, extra_roll, mods), ``{attacker_hp}`` and ``{target_hp_before}`` (the attacker's and the
target's hit points before this row),
``{prot_wear}`` (PROT the target lost to earlier rows) and ``{derived.<name>}`` (a calculator
output worked out again for the row, ``derived``). Inputs not wired keep the calculator's default.
``resolve`` is the same through the engine, the reference the sheet is checked against.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pycalc import resolution, resolution_calculator
from pycalc.errors import RuleError
from pycalc.log_picks import row_picks, with_picks
from pycalc.resolution_block import (
    Resolution,
    TypedNumber,
    own_roll_charts,
    target_kind,
    typed_numbers,
    value,
)
from pycalc.rulesets import spelljammer, spelljammer_calculator
from pycalc.tables import RuleSet

if TYPE_CHECKING:
    from pycalc.encounter import Attack, Combatant, Fight, RowResult
    from pycalc.encounter_rows import RowState


def start_hp(combatant: Combatant) -> int:
    return combatant.max_hp if combatant.start_hp is None else combatant.start_hp


@dataclass(frozen=True)
class Stat:
    id: str  # ROSTER_<ID>
    label: str
    kind: str = "int"  # int, dice, size (a pick from the stun size table)
    default: object = 0  # what an empty roster cell counts as


@dataclass(frozen=True)
class LogRoll:
    field: str  # Attack's field
    label: str
    calculator_name: str  # the calculator input it feeds (the column exists when that input matters)
    d100: bool = False  # a d100 read as the Strike calculator reads it: 00 is the highest face
    short: str = ""  # the log column's title ("" : the field's usual one)
    chart: str = ""  # the chart (bands table) whose die it is ("" : the attack's or damage dice)


@dataclass(frozen=True)
class Adapter:
    stats: tuple[Stat, ...]
    wiring: Mapping[str, str]
    result: str
    hp_lost: str
    summary: str  # the calculator's outcome in one line, which every log row says too
    resolve: Callable[[RuleSet, Combatant, Combatant, Attack, RowState], dict[str, Any]]
    rolls: tuple[LogRoll, ...]
    derived: Mapping[str, tuple[str, Mapping[str, str]]] = field(default_factory=dict)
    shown: tuple[tuple[str, str], ...] = ()  # further calculator outputs the log shows: (name, label)
    roster_extra: Callable[[RuleSet, Fight, Combatant, int, Sequence[RowResult]], dict[str, object]] = (
        lambda *_: {}
    )
    prot_wear: Callable[[Mapping[str, Any]], int] = lambda _: 0
    # calculator inputs a roster pick fills besides the wiring's plain {attacker.x} and {target.x}:
    # the roster's outputs ({target.hp_now} is ROSTER_HP_NOW)
    picked: Mapping[str, str] = field(
        default_factory=lambda: {
            "ATTACK_TARGET_HP": "{target.hp_now}",
            "ATTACK_TARGET_SUBDUAL": "{target.subdual_taken}",
        }
    )

    def filled_from_roster(self) -> dict[str, tuple[str, str]]:
        """Calculator input -> (attacker or target, the roster column's stat id) a roster pick fills."""
        found = {}
        for name, template in {**self.wiring, **self.picked}.items():
            plain = re.fullmatch(r"\{(attacker|target)\.(\w+)\}", template)
            if plain:
                found[name] = (plain.group(1), plain.group(2))
        return found


def typed_number(value: Any) -> int | None:
    """A roster number that may be left empty (None)."""
    return None if value is None or value == "" else int(value)


def stat(combatant: Combatant, stat_id: str, adapter_stats: Sequence[Stat]) -> Any:
    found = combatant.stats.get(stat_id)
    if found is None or found == "":
        return next(s.default for s in adapter_stats if s.id == stat_id)
    return found


D20_ROLLS = (
    LogRoll("roll", "d20 roll", "ATTACK_ROLL"),
    LogRoll("follow_roll", "Follow-up d20", "ATTACK_FOLLOW_ROLL"),
    LogRoll("damage_roll", "Damage roll", "ATTACK_DAMAGE_ROLL"),
)
D20_WIRING = {
    "ATTACK_BONUS": "{attacker.attack_bonus}",
    "ATTACK_TARGET": "{target.ac}",
    "ATTACK_MODS": "{log.mods}",
    "ATTACK_ROLL": "{log.roll}",
    "ATTACK_FOLLOW_ROLL": "{log.follow_roll}",
    "ATTACK_DICE": "{attacker.dice}",
    "ATTACK_DAMAGE_ROLL": "{log.damage_roll}",
    "ATTACK_LEVEL": "{attacker.level}",
    "ATTACK_TARGET_HP": "{target_hp_before}",  # what the row's one line says the target is left at
    # and in what state (pycalc.sheets.target_state): the row's Kind, the target's subdual damage before it
    "ATTACK_SUBDUAL_KIND": "{log.kind}",
    "ATTACK_TARGET_SUBDUAL": "{log.sub_before}",
}


def row_choices(rules: RuleSet, attack: Attack) -> dict[str, Any]:
    """The engine's choices and toggles of a row: its dropdown columns' and its Picks cell's."""
    read = row_picks(rules, attack.named_picks)
    return {"choices": with_picks(attack.picks, read), "toggles": read.toggles}


# --------------------------------------------------------------------------- spelljammer

SJ_STATS = (
    Stat("sc", "SC"),
    Stat("def", "DEF"),
    Stat("con", "CON"),
    Stat("size", "Size", "size", "Medium"),
    Stat("prot", "PROT"),
    Stat("magic_def", "Magic DEF"),
    Stat("dice", "Damage dice", "dice", ""),
    Stat("rank", "Weapon rank"),
)


def sj_resolve(
    rules: RuleSet, attacker: Combatant, target: Combatant, attack: Attack, state: RowState
) -> dict:
    def get(who: Combatant, stat_id: str) -> Any:
        return stat(who, stat_id, SJ_STATS)

    wound = spelljammer.wound_modifier(rules, state.attacker_hp, start_hp(attacker))
    inputs = spelljammer_calculator.StrikeInputs(
        sc=get(attacker, "sc"),
        defense=get(target, "def"),
        con=get(target, "con"),
        hp=start_hp(target),
        start_hp=start_hp(target),
        mods=attack.mods + wound,
        roll=attack.roll,
        damage=attack.damage_roll or 0,
        prot=max(0, get(target, "prot") - state.target_prot_wear),
        size=get(target, "size"),
        max_hp=target.max_hp,
        magic_def=get(target, "magic_def"),
        **row_choices(rules, attack),
    )
    return spelljammer_calculator.outputs(rules, inputs)


def sj_roster_extra(rules: RuleSet, fight: Fight, me: Combatant, hp: int, log: Sequence[RowResult]) -> dict:
    stunned = any(
        row.round == fight.round and attack.target == me.name and row.outputs.get("TARGET_STUNNED") is True
        for attack, row in zip(fight.attacks, log, strict=True)
    )
    wear = sum(
        row.outputs.get("PROT_WEAR", 0)
        for attack, row in zip(fight.attacks, log, strict=True)
        if attack.target == me.name and row.round <= fight.round
    )
    try:
        wound: object = spelljammer.wound_modifier(rules, hp, start_hp(me)) if me.name else ""
    except RuleError as error:  # the sheet's cell shows the message
        wound = str(error)
    return {
        "ROSTER_WOUND_MOD": wound,
        "ROSTER_STUNNED": stunned,
        "ROSTER_PROT_NOW": max(0, stat(me, "prot", SJ_STATS) - wear) if me.name else "",
    }


def _sj_resolve_with_wear(
    rules: RuleSet, attacker: Combatant, target: Combatant, attack: Attack, state: RowState
) -> dict:
    found = sj_resolve(rules, attacker, target, attack, state)
    after = found.get("STRIKE_PROT_AFTER")
    before = max(0, stat(target, "prot", SJ_STATS) - state.target_prot_wear)
    found["PROT_WEAR"] = before - after if isinstance(after, int) else 0
    return found


SPELLJAMMER = Adapter(
    stats=SJ_STATS,
    wiring={
        "STRIKE_SC": "{attacker.sc}",
        "STRIKE_DEF": "{target.def}",
        "TARGET_CON": "{target.con}",
        "TARGET_SIZE": "{target.size}",
        "TARGET_MAX_HP": "{target.max_hp}",
        "TARGET_MAGIC_DEF": "{target.magic_def}",
        "STRIKE_PROT": "MAX(0,{target.prot}-{prot_wear})",
        "STRIKE_MODS": "{log.mods}+{derived.ATTACKER_WOUND_MOD}",
        "STRIKE_ROLL": "{log.roll}",
        "STRIKE_DAMAGE": "{log.damage_roll}",
    },
    result="STRIKE_OUTCOME",
    hp_lost="STRIKE_HP_LOST",
    summary="STRIKE_SUMMARY",
    resolve=_sj_resolve_with_wear,
    rolls=(
        LogRoll("roll", "d100 roll (00 = 100)", "STRIKE_ROLL", d100=True),
        LogRoll("damage_roll", "Damage rolled", "STRIKE_DAMAGE"),
    ),
    derived={
        "ATTACKER_WOUND_MOD": (
            "TARGET_WOUND_MOD",
            {"TARGET_HP": "{attacker_hp}", "TARGET_START_HP": "{attacker.start_hp}"},
        )
    },
    shown=(("TARGET_STUNNED", "Stunned"),),
    roster_extra=sj_roster_extra,
    picked={
        "TARGET_HP": "{target.hp_now}",
        "TARGET_START_HP": "{target.hp_at_start}",
        "STRIKE_PROT": "{target.prot_now}",
        "STRIKE_DICE": "{attacker.dice}",
    },
    prot_wear=lambda outputs: int(outputs.get("PROT_WEAR", 0)),
)

ADAPTERS = {"spelljammer": SPELLJAMMER}

# --------------------------------------------------------------------------- a ruleset of YAML alone


ROSTER_WHO = {"attacker": "attacker", "defender": "target"}  # a typed number's ``of``: the wiring's word


def typed_numbers_owned(block: Resolution) -> tuple[TypedNumber, ...]:
    """The typed numbers that are an attacker's or a defender's (``of``): the roster holds them."""
    return tuple(n for n in typed_numbers(block) if n.of is not None)


RANGE_INCREMENT = "range_increment"  # the roster stat of a combatant's missile weapon's increment
NUMBER_STAT = "number_"  # the prefix of a typed number's roster stat


def number_stat(number_id: str) -> str:
    """The roster stat of a typed number (apart from the roster's own stats: ac, dice, level...)."""
    return f"{NUMBER_STAT}{number_id}"


def generic_adapter(rules: RuleSet) -> Adapter:
    """A ruleset with no Python of its own: its roster holds what its generic Attack calculator
    (``pycalc.resolution_calculator``) asks for, and a log row feeds that calculator."""
    block = resolution.block(rules)
    kind = target_kind(block)
    target_stat = (  # a number needed is a combatant's number as osr's roster always had it ("needs 12")
        Stat("needed", "Number needed to hit it")
        if kind == "number_needed"
        else Stat("ac", "AC (descending)" if kind == "descending_ac" else "AC")
    )
    bonus = Stat("attack_bonus", "THAC0" if kind == "descending_ac" else "Attack bonus")
    level = (Stat("level", "Level / HD"),) if resolution_calculator.uses_level(block) else ()
    stats = (bonus, target_stat, Stat("dice", "Damage dice", "dice", ""), *level)
    further = resolution_calculator.rolls_further(block)
    rolls = (
        (*D20_ROLLS, LogRoll("extra_roll", "Second damage roll", "ATTACK_EXTRA_ROLL"))
        if further
        else D20_ROLLS
    )
    wiring = {**D20_WIRING, "ATTACK_TARGET": f"{{target.{target_stat.id}}}"}
    if further:
        wiring["ATTACK_EXTRA_ROLL"] = "{log.extra_roll}"
    if resolution_calculator.adds_dice(rules):  # Bless's 1d4: the row takes the dice's total
        rolls = (
            *rolls,
            LogRoll("added_roll", "Dice on the roll: their total", "ATTACK_ADDED_ROLL", short="+Dice"),
        )
        wiring["ATTACK_ADDED_ROLL"] = "{log.added_roll}"
    if own_roll_charts(block):  # a fumble table rolled on after a Fumble
        rolls = (*rolls, LogRoll("chart_roll", "Roll on the chart", "ATTACK_CHART_ROLL", short="Chart"))
        wiring["ATTACK_CHART_ROLL"] = "{log.chart_roll}"
    if block.range is not None:  # the combatant's missile weapon, the distance on the row
        stats += (Stat(RANGE_INCREMENT, "Range increment (ft)", default=""),)
        rolls = (
            *rolls,
            LogRoll("distance", "Distance to the target (ft)", "ATTACK_DISTANCE", short="Dist. ft"),
        )
        wiring |= {
            "ATTACK_RANGE_INCREMENT": f"{{attacker.{RANGE_INCREMENT}}}",
            "ATTACK_DISTANCE": "{log.distance}",
        }
    if not level:
        del wiring["ATTACK_LEVEL"]
    owned = typed_numbers_owned(block)  # the typed numbers of a combatant: roster columns
    stats += tuple(Stat(number_stat(n.id), n.label) for n in owned if n.roster is None)
    wiring |= {
        resolution_calculator.number_name(n.id): f"{{{ROSTER_WHO[n.of]}.{n.roster or number_stat(n.id)}}}"
        for n in owned
    }

    def number(who: Combatant, typed: TypedNumber) -> int:
        return int(who.dex if typed.roster == "dex" else stat(who, number_stat(typed.id), stats))

    def resolve(rules: RuleSet, attacker: Combatant, target: Combatant, attack: Attack, _: RowState) -> dict:
        inputs = resolution_calculator.CalculatorInputs(
            bonus=stat(attacker, "attack_bonus", stats),
            target=stat(target, target_stat.id, stats),
            mods=attack.mods,
            level=stat(attacker, "level", stats) if level else 0,
            roll=attack.roll,
            follow_roll=attack.follow_roll,
            dice=stat(attacker, "dice", stats),
            damage_roll=attack.damage_roll,
            extra_roll=attack.extra_roll,
            added_roll=attack.added_roll,
            chart_roll=attack.chart_roll,
            range_increment=typed_number(stat(attacker, RANGE_INCREMENT, stats)) if block.range else None,
            distance=attack.distance if block.range else None,
            numbers={n.id: number(attacker if n.of == "attacker" else target, n) for n in owned},
            **row_choices(rules, attack),
        )
        return resolution_calculator.attack_outputs(rules, inputs)

    return Adapter(
        stats=stats,
        wiring=wiring,
        result="ATTACK_RESULT",
        hp_lost="ATTACK_DAMAGE",
        summary="ATTACK_SUMMARY",
        resolve=resolve,
        rolls=rolls,
    )


def adapter(rules: RuleSet) -> Adapter:
    """The ruleset's own adapter, or the generic one of a ruleset written in YAML alone; with the
    encounter block's ``attacks_each_round``, its roster numbers end with Attacks each round."""
    found = ADAPTERS.get(rules.id) or generic_adapter(rules)
    block = rules.encounter_block
    if block is None or not block.attacks_each_round:
        return found
    return replace(found, stats=(*found.stats, each_round_stat(rules)))


EACH_ROUND = "attacks_each_round"  # the roster number (stat id) of a combatant's attacks each round


def each_round_stat(rules: RuleSet) -> Stat:
    """Attacks each round: a creature's number too (empty: the block's default, else not checked)."""
    block = rules.encounter_block
    assert block is not None
    if block.attacks_default is None:
        return Stat(EACH_ROUND, "Attacks each round (empty: not checked)", default="")
    return Stat(EACH_ROUND, f"Attacks each round (empty: {value(rules, block.attacks_default)})", default="")
