"""The Encounter sheet recalculated in real LibreOffice equals the pure-Python model
(pycalc.encounter) on generated fights: random rosters, initiative rolls (groups sharing a roll),
20-60 attack log rows (unknown names, empty rows, area hits, subdual and heal rows), conditions and
the round, a creature library (lines named after a creature or of a Kind typed, their empty numbers
taken from it); every roster output, every log result and HP lost, every condition's activity compared."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import openpyxl
import pytest

from pycalc.creatures import LibraryLine, creature_for, from_creatures
from pycalc.damage_kinds import HEALED, labels
from pycalc.dice import parse
from pycalc.encounter import (
    ALSO_HITS,
    CONDITION_SIZE,
    LOG_SIZE,
    RECORD_LOG_SIZE,
    ROSTER_SIZE,
    Attack,
    Combatant,
    Condition,
    Fight,
    round_now,
    short_names,
    with_names,
)
from pycalc.encounter_block import HEAL, SUBDUAL, encounter
from pycalc.encounter_initiative import initiative_dice
from pycalc.encounter_record import (
    acts_now,
    record_log_rows,
    record_order,
    record_result,
    record_state,
    record_targets,
)
from pycalc.encounter_rows import resolve_log, roster_state
from pycalc.encounter_rulesets import EACH_ROUND, adapter
from pycalc.encounter_state import active, bleeding, lethal_hp
from pycalc.log_picks import named_picks
from pycalc.resolution_calculator import added_dice_bounds, chart_roll_bounds
from pycalc.tables import RULESET_IDS, RuleSet, load_ruleset
from tests.parity import same

FIGHTS = 200
DICE = ["1d8", "1d6+1", "2d4", "1d10+2", "1d4", "d6", "3d6-1", "1d12"]


def safe_labels(rules: RuleSet, table_id: str) -> list[str]:
    """Labels that a keyboard entry keeps as text (not a number, date or formula)."""
    return [str(r.label) for r in rules.table(table_id).rows if str(r.label)[:1] not in "=+-0123456789"]


def random_named_picks(rules: RuleSet, chance: random.Random) -> str:
    """A Picks cell as a GM may type it: empty half the time, else one to three names (in any case,
    spaces or underscores), sometimes a trailing comma, a name not in the list or one twice."""
    names = [p.name for p in named_picks(rules)]
    if not names or chance.random() < 0.5:
        return ""
    typed = chance.sample(names, chance.randint(1, min(3, len(names))))
    if chance.random() < 0.05:
        typed.append(chance.choice(["dragon", typed[0]]))  # unknown, or twice
    shaped = [chance.choice([n, n.upper(), n.replace(" ", "_"), n.title(), f" {n} "]) for n in typed]
    return ",".join(shaped) + ("," if chance.random() < 0.1 else "")


def random_kind(rules: RuleSet, chance: random.Random) -> str:
    """The Kind cell as a GM may type it: mostly empty, else a kind's label or first letter in any
    case, now and then a text that names no kind."""
    named = labels(rules)
    draw = chance.random()
    if draw < 0.7 or not named:
        return ""
    if draw < 0.98:
        label = named[SUBDUAL if SUBDUAL in named and draw < 0.85 else HEAL]
        return chance.choice([label, label.lower(), label.upper(), label[0], label[0].lower()])
    return chance.choice(["x", "lethal"])


def with_kinds(rules: RuleSet, attack: Attack, chance: random.Random) -> Attack:
    """A row with a random Kind; a heal row mostly has the hit points typed in Dmg, no roll and
    mostly no Also hits."""
    kind = random_kind(rules, chance)
    if kind and kind[0].lower() == labels(rules).get(HEAL, "?")[0].lower():
        # small heals too: C&C's mortally wounded stay in their band, their bleeding stopped
        damage = (
            chance.choice([chance.randint(0, 2), chance.randint(0, 15)])
            if chance.random() < 0.8
            else attack.damage
        )
        also = attack.also if chance.random() < 0.1 else ()
        return replace(attack, kind=kind, damage=damage, also=also)
    return replace(attack, kind=kind)


def random_stats(rules: RuleSet, chance: random.Random) -> dict[str, object]:
    found: dict[str, object] = {}
    for stat in adapter(rules).stats:
        if stat.kind == "dice":
            found[stat.id] = chance.choice(DICE)
        elif stat.kind == "size":
            found[stat.id] = chance.choice(safe_labels(rules, "stun_size"))
        elif stat.id == EACH_ROUND:  # mostly empty (the default, if any), else a few
            found[stat.id] = chance.choice(["", "", "", 1, 1, 2, 3])
        elif stat.id == "range_increment":  # often none (a melee fighter), at times 0 (refused)
            found[stat.id] = chance.choice(["", "", 10, 30, 50, 0])
        elif rules.id == "spelljammer":
            found[stat.id] = chance.randint(
                *{"sc": (50, 150), "def": (10, 80), "con": (6, 34)}.get(stat.id, (0, 8))
            )
        else:
            found[stat.id] = chance.randint(
                *{"ac": (9, 20), "needed": (4, 20), "level": (1, 9)}.get(stat.id, (-1, 8))
            )
        if chance.random() < 0.05:
            found[stat.id] = ""  # left empty: counts as its default
    return found


CREATURE_NAMES = ["Goblin", "Orc chief", "wolf", "Black  Knight"]
CREATURE_SIZE = 40


def random_library(rules: RuleSet, chance: random.Random) -> list[LibraryLine]:
    """Two to five creatures, each number given or left empty, sometimes one name twice (the first
    counts) and an empty line between."""
    lines = []
    for name in chance.sample(CREATURE_NAMES, chance.randint(2, len(CREATURE_NAMES))):
        values: dict[str, object] = {"dex": chance.randint(-2, 3)} | random_stats(rules, chance)
        values = {k: v for k, v in values.items() if chance.random() < 0.7}
        lines.append(LibraryLine(name, values | {"max_hp": chance.randint(1, 40)}))
    if chance.random() < 0.2:
        lines.append(LibraryLine(lines[0].name.upper(), {"max_hp": 77}))
    if chance.random() < 0.2:
        lines.insert(1, LibraryLine(""))
    return lines


def from_library(
    library: Sequence[LibraryLine], combatant: Combatant, index: int, chance: random.Random
) -> Combatant:
    """One line in three a creature's: named after it (Goblin 4), or of its Kind typed (any case) or
    of a Kind the library lacks; most of its numbers left empty (its maximum HP only when a creature
    gives one: a line of no HP at all is not a fight)."""
    if not combatant.name or chance.random() > 0.35:
        return combatant
    kind = chance.choice(CREATURE_NAMES)
    if chance.random() < 0.5:
        named = replace(combatant, name=f"{kind} {index + 1}")
    else:
        typed = chance.choice([kind, kind.upper(), f" {kind.lower()} ", "Dragon"])
        named = replace(combatant, kind=typed)
    stats = {k: ("" if chance.random() < 0.7 else v) for k, v in combatant.stats.items()}
    found = creature_for(library, named.name, named.kind) is not None
    return replace(
        named,
        dex=None if chance.random() < 0.7 else combatant.dex,
        max_hp=None if found and chance.random() < 0.7 else combatant.max_hp,
        stats=stats,
    )


def random_fight(rules: RuleSet, chance: random.Random, full: bool = False) -> Fight:
    """A fight of 3-30 combatants and 20-60 attacks, one in ten 61-90 (full: 30 named combatants and
    200 attacks)."""
    rule = encounter(rules).initiative
    count = ROSTER_SIZE if full else chance.randint(3, ROSTER_SIZE)
    groups = ["", "", "", "wolves", "goblins", "Party"]
    faces = initiative_dice(rules)
    bleeds = encounter(rules).hit_points.loss is not None
    casts = encounter(rules).spell_when_attacked is not None
    roster = []
    library = random_library(rules, chance)
    for index in range(count):
        named = full or chance.random() > 0.05
        rolls = tuple(None if chance.random() < 0.3 else chance.randint(1, top) for top in faces)
        roster.append(
            Combatant(
                name=f"Fighter {index + 1}" if named else "",
                side=chance.choice(["PCs", "Foes"]),
                group=chance.choice(groups),
                init_rolls=rolls,
                dex=chance.randint(-2, 3),
                action=chance.choice(["", *safe_labels(rules, rule.modifiers)]) if rule.modifiers else "",
                casting_time=chance.choice([None, chance.randint(1, 9)]) if rule.modifiers else None,
                first_round=chance.random() < 0.2 if rule.first_round else False,
                max_hp=chance.randint(1, 120 if rules.id == "spelljammer" else 40),
                start_hp=chance.choice([None, None, chance.randint(1, 40)]),
                stats=random_stats(rules, chance),
                morale_roll=chance.choice([None, chance.randint(2, 12)]) if encounter(rules).morale else None,
                aided_round=chance.choice([None, None, chance.randint(1, 6)]) if bleeds else None,
                cast_round=chance.choice([None, None, chance.randint(1, 6)]) if casts else None,
            )
        )
        roster[-1] = from_library(library, roster[-1], index, chance)
    names = [c.name for c in roster if c.name]
    picks = encounter(rules).log_picks
    rounds = chance.randint(1, 6)
    attacks = []
    added_dice = (
        added_dice_bounds(rules) if any(r.field == "added_roll" for r in adapter(rules).rolls) else None
    )
    chart_rolls = (
        chart_roll_bounds(rules) if any(r.field == "chart_roll" for r in adapter(rules).rolls) else None
    )
    rows = chance.randint(20, 60) if chance.random() < 0.9 else chance.randint(61, 90)  # over the record's 60
    for _ in range(LOG_SIZE if full else rows):
        roll_top = 100 if rules.id == "spelljammer" else 20
        attacks.append(
            Attack(
                attacker=chance.choice([*names, "Nobody"] if chance.random() < 0.03 else names),
                target=chance.choice(names),
                round=chance.choice([None, None, chance.randint(1, rounds)]),
                also=tuple(chance.sample(names, chance.randint(0, min(ALSO_HITS, len(names)))))
                if chance.random() < 0.1
                else (),
                roll=chance.choice([None, *range(0 if roll_top == 100 else 1, roll_top + 1)])
                if chance.random() < 0.97
                else 25 * roll_top,
                follow_roll=chance.choice([None, chance.randint(1, 20)]),
                damage_roll=chance.choice([None, chance.randint(1, 30)]),
                extra_roll=chance.choice([None, chance.randint(1, 8)]),
                distance=chance.choice([None, None, chance.randint(0, 200)]),
                mods=chance.randint(-3, 3),
                picks={t: chance.choice(safe_labels(rules, t)) for t in picks if chance.random() < 0.3},
                named_picks=random_named_picks(rules, chance),
                damage=chance.randint(0, 20) if chance.random() < 0.08 else None,
            )
        )
        attacks[-1] = with_kinds(rules, attacks[-1], chance)
        if added_dice:  # drawn only where a row adds dice, so the shipped rulesets keep their fights
            low, high = added_dice
            attacks[-1] = replace(attacks[-1], added_roll=chance.choice([None, *range(low - 1, high + 2)]))
        if chart_rolls:  # likewise only where a chart is rolled on by a roll of its own
            low, high = chart_rolls
            attacks[-1] = replace(attacks[-1], chart_roll=chance.choice([None, *range(low - 1, high + 2)]))
        if attacks[-1].damage is not None and chance.random() < 0.5:  # a trap, a fall, a potion: no attacker
            attacks[-1] = replace(attacks[-1], attacker="")
    if chance.random() < 0.1:
        attacks[chance.randrange(len(attacks))] = Attack("", "")
    table = encounter(rules).conditions
    condition_names = safe_labels(rules, table) if table else ["Stunned", "Prone", "Held"]
    conditions = [
        Condition(
            chance.choice(names),
            chance.choice(condition_names),
            chance.randint(1, rounds),
            chance.choice([None, chance.randint(1, 4)]),
        )
        for _ in range(chance.randint(0, 10))
    ]
    round_typed = None if chance.random() < 0.05 else chance.randint(1, rounds + 1)  # None: emptied
    if casts and round_typed is not None:  # half the casters cast in the round now, where the checks apply
        roster = [
            replace(c, cast_round=round_typed) if c.cast_round is not None and chance.random() < 0.5 else c
            for c in roster
        ]
    fight = Fight(roster, attacks, conditions, round=round_typed, creatures=library)
    return shortened(fight, random.Random(chance.random()))


def healed_fight() -> Fight:
    """A combatant brought to -8 in round 1 and healed 1 in round 2 (C&C: it stays mortally wounded,
    its bleeding stopped; elsewhere an ordinary heal), a subdual knock-out and a heal of it."""
    stats = {"attack_bonus": 2, "ac": 12, "dice": "1d6", "needed": 10, "sc": 80, "def": 20, "con": 12}
    roster = [
        Combatant("Aria", init_rolls=(4, 1, 1), max_hp=6, stats=stats),
        Combatant("Thug", init_rolls=(2, 1, 1), max_hp=6, stats=stats),
    ]
    attacks = [
        Attack("", "Aria", round=1, damage=14),
        Attack("Aria", "Thug", damage=6, kind="s"),
        Attack("", "Aria", round=2, damage=1, kind="h"),
        Attack("", "Thug", damage=2, kind="h"),
    ]
    return Fight(roster, attacks, round=4)


def shortened(fight: Fight, chance: random.Random) -> Fight:
    """Some short names typed on the roster (one the initials of another line), one in five log names
    typed as the short name (any case), one row in twenty voided (x)."""
    roster = [
        replace(c, short=chance.choice(["zz", "f1", f"x{k}"])) if c.name and chance.random() < 0.1 else c
        for k, c in enumerate(fight.roster)
    ]
    shorts = {c.name: s for c, s in zip(roster, short_names(roster), strict=True) if c.name and s}

    def typed(name: str) -> str:
        short = shorts.get(name)
        if short and chance.random() < 0.2:
            return short.upper() if chance.random() < 0.2 else short
        return name

    attacks = [
        replace(
            a,
            attacker=typed(a.attacker),
            target=typed(a.target),
            also=tuple(typed(n) for n in a.also),
            void=(a.attacker or a.target) != "" and chance.random() < 0.05,
        )
        for a in fight.attacks
    ]
    return replace(fight, roster=roster, attacks=attacks)


# --------------------------------------------------------------------------- fight -> sheet columns


def text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return str(value)


def column(values: list[object], size: int) -> list[str]:
    return [text(v) for v in values] + [""] * (size - len(values))


def dice_parts(value: object) -> tuple[int | None, int | None, int | None]:
    """Dice text (1d6+1, d6, a plain number) as the roster's three number cells: count, sides, bonus."""
    if value is None or value == "":
        return None, None, None
    dice = parse(value)
    if not dice.sides:
        return None, None, dice.modifier
    return dice.count, dice.sides, dice.modifier or None


def sheet_inputs(rules: RuleSet, fight: Fight) -> dict[str, list[str]]:
    rule, ruleset = encounter(rules).initiative, adapter(rules)
    roster, log = fight.roster, fight.attacks
    cells = {
        "ENC_ROUND": [text(fight.round)],
        "ROSTER_NAME": column([c.name for c in roster], ROSTER_SIZE),
        "ROSTER_SIDE": column([c.side for c in roster], ROSTER_SIZE),
        "ROSTER_GROUP": column([c.group for c in roster], ROSTER_SIZE),
        "ROSTER_DEX": column([c.dex for c in roster], ROSTER_SIZE),
        "ROSTER_MAX_HP": column([c.max_hp for c in roster], ROSTER_SIZE),
        "ROSTER_START_HP": column([c.start_hp for c in roster], ROSTER_SIZE),
        "ROSTER_SHORT_TYPED": column([c.short for c in roster], ROSTER_SIZE),
        "ROSTER_KIND": column([c.kind for c in roster], ROSTER_SIZE),
    }
    cells |= library_inputs(rules, fight.creatures)
    for k in range(1 + len(rule.later_dice)):
        name = "ROSTER_INIT_ROLL" + (f"_{k + 1}" if k else "")
        cells[name] = column([c.init_rolls[k] for c in roster], ROSTER_SIZE)
    if encounter(rules).hit_points.loss:
        cells["ROSTER_AIDED_ROUND"] = column([c.aided_round for c in roster], ROSTER_SIZE)
    if encounter(rules).spell_when_attacked:
        cells["ROSTER_CAST_ROUND"] = column([c.cast_round for c in roster], ROSTER_SIZE)
    if encounter(rules).morale:
        cells["ROSTER_MORALE_ROLL"] = column([c.morale_roll for c in roster], ROSTER_SIZE)
    if rule.modifiers:
        cells["ROSTER_ACTION"] = column([c.action for c in roster], ROSTER_SIZE)
        cells["ROSTER_CASTING_TIME"] = column([c.casting_time for c in roster], ROSTER_SIZE)
    if rule.first_round:
        cells["ROSTER_FIRST_ROUND"] = column([c.first_round for c in roster], ROSTER_SIZE)
    for stat in ruleset.stats:
        values = [c.stats.get(stat.id) for c in roster]
        if stat.kind == "dice":  # typed as three numbers (AutoInput never completes a number)
            parts = [dice_parts(v) for v in values]
            for k, part in enumerate(("COUNT", "SIDES", "BONUS")):
                cells[f"ROSTER_{stat.id.upper()}_{part}"] = column([p[k] for p in parts], ROSTER_SIZE)
        else:
            cells[f"ROSTER_{stat.id.upper()}"] = column(values, ROSTER_SIZE)
    cells |= {
        "LOG_ROUND": column([a.round for a in log], LOG_SIZE),
        "LOG_ATTACKER": column([a.attacker for a in log], LOG_SIZE),
        "LOG_TARGET": column([a.target for a in log], LOG_SIZE),
        "LOG_MODS": column([a.mods for a in log], LOG_SIZE),
        "LOG_FLAT_DAMAGE": column([a.damage for a in log], LOG_SIZE),
        "LOG_VOID": column(["x" if a.void else "" for a in log], LOG_SIZE),
        "LOG_KIND": column([a.kind for a in log], LOG_SIZE),
    }
    for k in range(ALSO_HITS):
        cells[f"LOG_ALSO_HITS_{k + 1}"] = column(
            [a.also[k] if k < len(a.also) else "" for a in log], LOG_SIZE
        )
    for roll in ruleset.rolls:
        cells[f"LOG_{roll.field.upper()}"] = column([getattr(a, roll.field) for a in log], LOG_SIZE)
    for table_id in encounter(rules).log_picks:
        cells[f"LOG_{table_id.upper()}"] = column([a.picks.get(table_id, "") for a in log], LOG_SIZE)
    if named_picks(rules):
        cells["LOG_PICKS"] = column([a.named_picks for a in log], LOG_SIZE)
    cells |= {
        "COND_TARGET": column([c.target for c in fight.conditions], CONDITION_SIZE),
        "COND_NAME": column([c.name for c in fight.conditions], CONDITION_SIZE),
        "COND_START": column([c.start for c in fight.conditions], CONDITION_SIZE),
        "COND_ROUNDS": column([c.rounds for c in fight.conditions], CONDITION_SIZE),
    }
    return cells


def library_inputs(rules: RuleSet, library: Sequence[LibraryLine]) -> dict[str, list[str]]:
    """The Creatures sheet's cells: every line as typed, the rest of the sheet empty (no example)."""
    cells = {"CREATURE_NAME": column([c.name for c in library], CREATURE_SIZE)}
    for key in ("dex", "max_hp"):
        cells[f"CREATURE_{key.upper()}"] = column([c.values.get(key) for c in library], CREATURE_SIZE)
    for stat in adapter(rules).stats:
        values = [c.values.get(stat.id) for c in library]
        if stat.kind == "dice":
            parts = [dice_parts(v) for v in values]
            for k, part in enumerate(("COUNT", "SIDES", "BONUS")):
                cells[f"CREATURE_{stat.id.upper()}_{part}"] = column([p[k] for p in parts], CREATURE_SIZE)
        else:
            cells[f"CREATURE_{stat.id.upper()}"] = column(values, CREATURE_SIZE)
    cells["CREATURE_NOTE"] = column([], CREATURE_SIZE)
    return cells


def expected_outputs(rules: RuleSet, fight: Fight) -> dict[str, list[object]]:
    rule = encounter(rules).initiative
    log = resolve_log(rules, fight)
    states = roster_state(rules, fight, log)
    named = [bool(c.name) for c in fight.roster]

    def roster_column(values: list[object], empty: object = "") -> list[object]:
        shown = [v if n else empty for v, n in zip(values, named, strict=True)]
        return shown + [empty] * (ROSTER_SIZE - len(shown))

    found: dict[str, list[object]] = {
        "ROSTER_INITIATIVE": roster_column([s.initiative for s in states]),
        "ROSTER_ORDER": roster_column([s.order for s in states]),
        "ROSTER_SIMULTANEOUS": roster_column([s.simultaneous for s in states]),
        "ROSTER_HP_NOW": roster_column([s.hp_now for s in states]),
        "ROSTER_STATE": roster_column([s.state for s in states]),
        "ROSTER_CONDITIONS": roster_column([s.conditions for s in states]),
        "ROSTER_DOWN": roster_column([s.down for s in states]),
        "LOG_RESULT": [r.result for r in log] + [""] * (LOG_SIZE - len(log)),
        "LOG_CHECK": [r.check for r in log] + [""] * (LOG_SIZE - len(log)),
        "LOG_HP_LOST": [
            r.hp_lost if a.attacker or a.target else "" for a, r in zip(fight.attacks, log, strict=True)
        ]
        + [""] * (LOG_SIZE - len(log)),
        "COND_ACTIVE": [active(rules, c, round_now(fight)) for c in fight.conditions]
        + [""] * (CONDITION_SIZE - len(fight.conditions)),
        "ROSTER_SHORT": roster_column(short_names(fight.roster)),
        "ROSTER_FROM_CREATURES": roster_column(
            [from_creatures(fight.creatures, c.name, c.kind) for c in fight.roster]
        ),
        "ENC_ACTS_NOW": [acts_now(rules, fight, states)],
    }
    found |= record_outputs(rules, fight, states, log)
    for k in range(len(rule.later_dice)):
        found[f"ROSTER_INITIATIVE_{k + 2}"] = roster_column([s.later[k] for s in states])
    if rule.lost_at_or_below is not None:
        found["ROSTER_LOST"] = roster_column([s.lost for s in states])
    if rule.modifiers:
        found["ROSTER_SPELL_AT"] = roster_column([s.spell_at for s in states])
    if rule.first_round:
        found["ROSTER_ROUND_ONE"] = roster_column([s.round_one for s in states])
    if SUBDUAL in labels(rules):
        found["ROSTER_SUBDUAL_TAKEN"] = roster_column([s.subdual for s in states])
    if encounter(rules).morale:
        found["ROSTER_MORALE"] = roster_column([s.morale for s in states])
        found["ROSTER_SIDE_DOWN"] = roster_column([s.side_down for s in states])
    for key in ("WOUND_MOD", "STUNNED", "PROT_NOW"):
        if rules.id == "spelljammer":
            found[f"ROSTER_{key}"] = roster_column([s.extra[f"ROSTER_{key}"] for s in states])
    return {name: [None if v is None else v for v in values] for name, values in found.items()}


def record_outputs(rules: RuleSet, fight: Fight, states: list, log: list) -> dict[str, list[object]]:
    """The Fight record sheet: the roster in acting order, the last filled log rows in two blocks."""
    lines = record_order(fight, states)
    pad = lambda values, size: values + [""] * (size - len(values))  # noqa: E731
    found: dict[str, list[object]] = {
        "RECORD_NAME": pad([fight.roster[i].name for i in lines], ROSTER_SIZE),
        "RECORD_ORDER": pad([states[i].order for i in lines], ROSTER_SIZE),
        "RECORD_HP_NOW": pad([states[i].hp_now for i in lines], ROSTER_SIZE),
        "RECORD_STATE": pad(
            [record_state(rules, fight, fight.lines[i], states[i], log) for i in lines], ROSTER_SIZE
        ),
    }
    rows = record_log_rows(fight)
    half = RECORD_LOG_SIZE // 2
    named = with_names(fight)  # the record names the roster's names, typed or short
    for suffix, part in (("", rows[:half]), ("_MORE", rows[half:])):
        attacks = [named.attacks[i] for i in part]
        found[f"RECORD_LOG_ROUND{suffix}"] = pad([log[i].round for i in part], half)
        found[f"RECORD_LOG_TARGETS{suffix}"] = pad([record_targets(a) for a in attacks], half)
        found[f"RECORD_LOG_RESULT{suffix}"] = pad([record_result(log[i].result) for i in part], half)
        found[f"RECORD_LOG_HP_LOST{suffix}"] = pad([log[i].hp_lost for i in part], half)
    return found


def mismatches(expected: dict[str, list[object]], got: dict[str, list[object]], fight_no: int) -> list[str]:
    found = []
    for name, values in expected.items():
        for row, (want, have) in enumerate(zip(values, got[name], strict=True)):
            want = "" if want is None else want
            if not same(want, have):
                found.append(f"fight {fight_no} {name}[{row}]: model {want!r} != sheet {have!r}")
    return found


@pytest.mark.timeout(900)  # 200 fights of up to 30 combatants and 60 log rows, about 0.5 s each
@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_the_encounter_sheet_equals_the_model(calc, build_ruleset: Callable[[str], Path], ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    xlsx = build_ruleset(ruleset_id) / f"{ruleset_id}.xlsx"
    chance = random.Random(f"encounter-{ruleset_id}")
    fights = [random_fight(rules, chance) for _ in range(FIGHTS)] + [healed_fight()]
    expected = [expected_outputs(rules, f) for f in fights]
    present = set(openpyxl.load_workbook(xlsx, read_only=True).defined_names)
    inputs = [{n: v for n, v in sheet_inputs(rules, f).items() if n in present} for f in fights]
    results = calc.evaluate_columns(xlsx, inputs, list(expected[0]))
    found = [m for i, (e, g) in enumerate(zip(expected, results, strict=True)) for m in mismatches(e, g, i)]
    assert not found, f"{len(found)} mismatches, first:\n" + "\n".join(found[:8])
    assert sum(1 for f in fights for a in f.attacks if a.roll is not None) > 20 * FIGHTS
    from_library = [c for f in fights for c in f.roster if creature_for(f.creatures, c.name, c.kind)]
    assert len(from_library) > 2 * FIGHTS  # library lines, their empty numbers the creature's
    assert sum(1 for c in from_library if c.max_hp is None) > FIGHTS
    if encounter(rules).hit_points.loss:  # C&C's -7 to -9: bleeding, aided or not, is exercised
        bleeding_now = [
            bleeding(rules, replace(f, round=round_now(f)), c, log, lethal_hp(f, c, log, round_now(f)))
            for f in fights
            for log in [resolve_log(rules, f)]
            for c in f.lines
        ]
        assert sum(1 for lost in bleeding_now if lost) >= 5  # a hit deals damage with dice on the roster only
        notes = [t for e in expected for t in e["RECORD_STATE"] if "bleeding" in str(t)]
        assert sum(1 for t in notes if "aided" in t) >= 5  # the record's notes, aided or not, compared
        assert sum(1 for t in notes if "aided" not in t) >= 15
        assert sum(1 for t in notes if "healed in round" in t) >= 1  # a heal row stopped it (healed_fight)
    if encounter(rules).attacks_each_round:  # rows past the attacker's Attacks each round, compared
        assert sum(1 for e in expected for t in e["LOG_CHECK"] if " each round" in str(t)) >= 500
    if encounter(rules).spell_when_attacked:  # a caster attacked (or hit) in the round it casts, compared
        assert sum(1 for e in expected for t in e["LOG_CHECK"] if " while casting" in str(t)) >= 5
    results = [r for f in fights for r in resolve_log(rules, f)]
    assert sum(1 for r in results if r.result == HEALED and r.hp_lost < 0) >= 100  # heals that gave HP back
    if SUBDUAL in labels(rules):  # subdual rows, and knock-outs the roster names as the seed does
        assert sum(1 for r in results if r.subdual > 0) >= 100
        hit_points, kinds = encounter(rules).hit_points, encounter(rules).damage_kinds
        rows = rules.table(hit_points.table).rows
        knocked_out = {str(r[kinds.knocked_out]) for r in rows} - {str(r[hit_points.state]) for r in rows}
        assert sum(1 for e in expected for t in e["ROSTER_STATE"] if t in knocked_out) >= 20
