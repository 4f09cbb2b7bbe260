"""The ``encounter:`` block of a ruleset's ``ruleset.yaml``: the rules of a whole fight that the
Encounter sheet and :mod:`pycalc.encounter` follow (documented in ``tables/README.md``).

Every number is a table cell (``table.entry`` or ``table.entry.column``), so a house rule on the table
is followed; every table it names is checked once the tables are loaded (``file:line`` errors).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pycalc.block_parser import BlockParser, Uses
from pycalc.resolution_block import Ref, value
from pycalc.surprise import SurpriseRules, parse_surprise
from pycalc.table_files import LocatedDict, LocatedList, RuleSet, _Checker

TIES = ("simultaneous", "higher_dex")
INITIATIVE_KEYS = {
    "die",
    "die_dice",
    "adds_dex",
    "ties",
    "later_dice",
    "lost_at_or_below",
    "later_tie_delay",
    "modifiers",
    "first_round",
}
HIT_POINT_KEYS = {"states", "loss_per_round", "start_band_exempt"}
MORALE_KEYS = {"roll", "table", "check_at_percent", "check_at_down"}
BLOCK_KEYS = {
    "initiative",
    "hit_points",
    "conditions",
    "morale",
    "log_picks",
    "log_picks_by_name",
    "stun_loses_attacks",
    "spell_lost_on_hit",
    "spell_when_attacked",
    "attacks_each_round",
    "damage_kinds",
    "creatures",
    "surprise",
}
DAMAGE_KIND_KEYS = {
    "table",
    "knocked_out",
    "further_damage_lethal",
    "heal_cap",
    "beyond_healing",
    "subdual_picks",
    "normal_part",
}
NORMAL_PART_KEYS = {"per", "rounding", "at_least", "damage_at_least"}
ROUNDINGS = ("up", "down")
SUBDUAL, HEAL = "subdual", "heal"  # the damage kinds table's row ids (normal damage: the Kind left empty)
CREATURE_TEXT_KEYS = {"name", "section", "note"}  # a creature's words; every other key is a roster number


@dataclass(frozen=True)
class Initiative:
    die: Any  # faces of the initiative die: a whole number or a Ref (int, or dice when die_is_dice)
    die_is_dice: bool
    adds_dex: bool
    ties: str  # simultaneous: equal numbers act together; higher_dex: then the higher DEX, then together
    later_dice: tuple[Any, ...]  # faces of the dice of a combatant's later attacks (spelljammer)
    lost_at_or_below: Any  # None, or actions at this initiative or later are lost
    later_tie_delay: Any  # a later attack on the number of the attack before goes this much lower (0: none)
    modifiers: str | None  # a table whose `init` column the roster's Action pick adds
    first_round: str | None  # the table of who acts first in round 1 whatever the roll (reach, size)


@dataclass(frozen=True)
class HitPoints:
    table: str  # a bands table keyed by current hit points
    state: str  # its column naming the state
    loss: str | None = None  # its column of hit points lost each round in the band until aided (bleeding)
    start_band_exempt: bool = False  # still in the band of its starting hit points: the last row's state


@dataclass(frozen=True)
class Morale:
    roll: Ref  # the morale roll's dice
    table: str  # the GM-fillable table: roll_from, roll_to, result
    check_at_percent: Any  # check when this % of a side is down
    check_at_down: Any = None  # check when exactly this many of a side are down (osr: the first death)


@dataclass(frozen=True)
class NormalPart:
    """The part of a subdual hit that is normal damage (C&C's one point in five): the hit's damage, at
    least ``damage_at_least``, over ``per``, rounded ``up`` or ``down``, at least ``at_least``; each a
    number, a table cell or by ruling."""

    per: Any
    rounding: Any
    at_least: Any = 0
    damage_at_least: Any = 0


@dataclass(frozen=True)
class DamageKinds:
    """The log's Kind column: subdual (or temporary) damage and healing, as the seed keeps them apart."""

    table: (
        str  # an entries table whose rows `subdual` (optional) and `heal` are typed by label or first letter
    )
    knocked_out: str | None  # column of the hit point states: the state of one knocked out by subdual damage
    further_damage_lethal: bool  # subdual damage to a combatant already at 0 or below counts as normal
    heal_cap: str | None  # column of the hit point states: healing raises hit points to at most this
    beyond_healing: str | None  # column of the hit point states: TRUE where healing has no effect
    # picker tables and their bool column: a row whose pick there is TRUE deals subdual damage (flat of
    # the blade, a punch) with the Kind left empty
    subdual_picks: tuple[tuple[str, str], ...] = ()
    normal_part: NormalPart | None = None  # None: a subdual hit is subdual damage whole


@dataclass(frozen=True)
class SpellWhenAttacked:
    """A caster attacked in the round it casts (``encounter.spell_when_attacked``): the table's rows
    with an ``order`` (1: the attacker acts earlier, a higher initiative; 0: together, the same
    number; empty: no check) say ``says`` after the caster's name on the row's check."""

    table: str
    order: str  # an int column
    says: str  # a text column
    hit_needed: bool  # only a row that takes hit points from the caster (else a miss counts too)


@dataclass(frozen=True)
class EncounterRules:
    initiative: Initiative
    hit_points: HitPoints
    conditions: str | None  # an entries table: rounds, rounds_dice, effect
    morale: Morale | None
    log_picks: tuple[str, ...]  # picker tables the attack log offers on every row
    file: str
    line: int
    log_picks_by_name: tuple[str, ...] | None = (
        None  # typed by name in the Picks cell (None: log_picks.by_name_tables)
    )
    stun_loses_attacks: bool = False  # a combatant a row stuns loses its later attacks of that round
    damage_kinds: DamageKinds | None = None  # the log's Kind column (None: normal damage only)
    creatures: tuple[Creature, ...] = ()  # the Creatures sheet's examples, each from the seed
    # (table, column): a row whose result is a row of this table with the column above 0 is a hit, and
    # a hit while its target casts (between its initiative and the number its spell goes off on) loses
    # the spell
    spell_lost_on_hit: tuple[str, str] | None = None
    # a caster attacked (or hit) in the round it casts by one acting earlier or together: the roster's
    # Casts a spell in round, the row's check says what the table says
    spell_when_attacked: SpellWhenAttacked | None = None
    # the roster's Attacks each round (a creature's number too), and a row past the attacker's number
    # of attacks in its round says so (not with initiative.later_dice, whose rolls give the attacks)
    attacks_each_round: bool = False
    # the number an empty Attacks each round counts as: a Ref, or None (empty: not checked)
    attacks_default: Any = None
    # the line of each table named in log_picks and log_picks_by_name (for file:line errors)
    pick_lines: tuple[tuple[str, int], ...] = ()
    surprise: SurpriseRules | None = None  # a die for each side (pycalc.surprise)

    def pick_line(self, table_id: str) -> int:
        """The line naming ``table_id`` in log_picks or log_picks_by_name (else the block's)."""
        return next((line for named, line in self.pick_lines if named == table_id), self.line)


@dataclass(frozen=True)
class Creature:
    """An example line of the Creatures sheet: roster numbers the seed gives (by the roster's stat
    ids, ``dex`` and ``max_hp``), the seed section they come from."""

    name: str
    section: str
    values: dict[str, Any]  # stat id -> a whole number or a dice text (only what the seed gives)
    line: int
    note: str = ""


def parse_encounter(check: _Checker, raw: Any, line: int) -> tuple[EncounterRules | None, Uses]:
    parser = BlockParser(check)
    data = check.mapping(raw, line, "encounter")
    if data is None:
        return None, parser.uses
    check.keys(data, BLOCK_KEYS, {"initiative", "hit_points"}, "encounter")
    initiative = _initiative(parser, data)
    hit_points = _hit_points(parser, data)
    conditions = None
    if "conditions" in data:
        columns = {"rounds": ("int",), "rounds_dice": ("dice",), "effect": ("text",)}
        conditions = parser.table_id(
            data["conditions"], data.value_lines["conditions"], "encounter.conditions", "entries", columns
        )
    morale = _morale(parser, data) if "morale" in data else None
    picked = _pick_tables(check, parser, data, "log_picks")
    picked_by_name = _pick_tables(check, parser, data, "log_picks_by_name")
    picks = tuple(table_id for table_id, _ in picked)
    by_name = tuple(table_id for table_id, _ in picked_by_name) if "log_picks_by_name" in data else None
    stun = _flag(check, data, "stun_loses_attacks")
    save = _spell_when_attacked(parser, data) if "spell_when_attacked" in data else None
    creatures = _creatures(check, data) if "creatures" in data else ()
    spell = _spell_lost_on_hit(parser, data) if "spell_lost_on_hit" in data else None
    surprise = (
        parse_surprise(parser, data["surprise"], data.value_lines["surprise"]) if "surprise" in data else None
    )
    if initiative is None or hit_points is None:
        return None, parser.uses
    if spell and not initiative.modifiers:
        check.fail(
            data.value_lines["spell_lost_on_hit"],
            "encounter.spell_lost_on_hit needs initiative.modifiers (the roster's casting time)",
        )
    kinds = _damage_kinds(parser, data, hit_points) if "damage_kinds" in data else None
    each_round, default = _attacks_each_round(parser, data) if "attacks_each_round" in data else (False, None)
    if each_round and initiative.later_dice:
        check.fail(
            data.value_lines["attacks_each_round"],
            "encounter.attacks_each_round: initiative.later_dice already give each combatant its attacks",
        )
    return EncounterRules(
        initiative,
        hit_points,
        conditions,
        morale,
        picks,
        check.file,
        line,
        by_name,
        stun,
        kinds,
        creatures,
        spell,
        save,
        each_round,
        default,
        picked + picked_by_name,
        surprise,
    ), parser.uses


def _flag(check: _Checker, data: LocatedDict, key: str) -> bool:
    """A true/false key of the block (false when absent)."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        check.fail(data.value_lines[key], f"encounter.{key} must be true or false")
        return False
    return value


def _attacks_each_round(parser: BlockParser, data: LocatedDict) -> tuple[bool, Any]:
    """The roster's Attacks each round: true (no default: only a number typed, or a creature's, is
    checked), false (no column), or the table cell of the number an empty one counts as."""
    raw, line = data["attacks_each_round"], data.value_lines["attacks_each_round"]
    what = "encounter.attacks_each_round"
    if isinstance(raw, bool):
        return raw, None
    if isinstance(raw, str):
        ref = parser.reference(raw, line, what, "int")
        return ref is not None, ref
    parser.check.fail(
        line, f"{what} must be true, false or a table.entry.column reference (the default number)"
    )
    return False, None


def _spell_when_attacked(parser: BlockParser, data: LocatedDict) -> SpellWhenAttacked | None:
    check, what = parser.check, "encounter.spell_when_attacked"
    block = check.mapping(data["spell_when_attacked"], data.value_lines["spell_when_attacked"], what)
    if block is None:
        return None
    keys = {"table", "order", "says", "hit_needed"}
    check.keys(block, keys, keys, what)
    if not keys <= set(block):
        return None
    order = parser.column_id(block, "order", what) or ""
    says = parser.column_id(block, "says", what) or ""
    columns = {order: ("int",), says: ("text",)}
    table = parser.table_id(
        block.get("table"), block.value_lines["table"], f"{what}.table", "entries", columns
    )
    hit_needed = block.get("hit_needed")
    if not isinstance(hit_needed, bool):
        check.fail(block.value_lines["hit_needed"], f"{what}.hit_needed must be true or false")
        hit_needed = False
    return SpellWhenAttacked(table, order, says, hit_needed)


def _spell_lost_on_hit(parser: BlockParser, data: LocatedDict) -> tuple[str, str] | None:
    what, line = "encounter.spell_lost_on_hit", data.value_lines["spell_lost_on_hit"]
    table_id, _, column = str(data["spell_lost_on_hit"]).partition(".")
    if not column:
        parser.check.fail(line, f"{what}: {data['spell_lost_on_hit']!r} is not table.column")
        return None
    parser.table_id(table_id, line, what, "entries", {column: ("int",)})
    return table_id, column


def _damage_kinds(parser: BlockParser, data: LocatedDict, hit_points: HitPoints) -> DamageKinds | None:
    check = parser.check
    what = "encounter.damage_kinds"
    block = check.mapping(data["damage_kinds"], data.value_lines["damage_kinds"], what)
    if block is None:
        return None
    check.keys(block, DAMAGE_KIND_KEYS, {"table"}, what)
    table = parser.table_id(block["table"], block.value_lines["table"], f"{what}.table", "entries", {})
    lethal = block.get("further_damage_lethal", False)
    if not isinstance(lethal, bool):
        check.fail(
            block.value_lines["further_damage_lethal"], f"{what}.further_damage_lethal must be true or false"
        )
        lethal = False
    columns: dict[str, tuple[str, ...]] = {}
    found: dict[str, str | None] = {}
    for key, kind in (("knocked_out", "text"), ("heal_cap", "int"), ("beyond_healing", "bool")):
        found[key] = (
            None if key not in block else check.ident(block[key], block.value_lines[key], f"{what}.{key}")
        )
        if found[key]:
            columns[found[key]] = (kind,)
    if columns:
        parser.table_id(
            hit_points.table, block.line, f"{what} (columns of {hit_points.table})", "bands", columns
        )
    picks: list[tuple[str, str]] = []
    raw = block.get("subdual_picks", LocatedList())
    if not isinstance(raw, list):
        check.fail(block.value_lines["subdual_picks"], f"{what}.subdual_picks must be a list of table.column")
        raw = LocatedList()
    for item, item_line in zip(raw, getattr(raw, "item_lines", []), strict=False):
        table_id, _, column = str(item).partition(".")
        if not column:
            check.fail(item_line, f"{what}.subdual_picks: {item!r} is not table.column")
            continue
        parser.table_id(table_id, item_line, f"{what}.subdual_picks", "entries", {column: ("bool",)})
        parser.uses.pickers.append((table_id, item_line))
        picks.append((table_id, column))
    normal = _normal_part(parser, block, what) if "normal_part" in block else None
    return DamageKinds(
        table, found["knocked_out"], lethal, found["heal_cap"], found["beyond_healing"], tuple(picks), normal
    )


def _normal_part(parser: BlockParser, block: LocatedDict, what: str) -> NormalPart | None:
    what = f"{what}.normal_part"
    data = parser.check.mapping(block["normal_part"], block.value_lines["normal_part"], what)
    if data is None:
        return None
    parser.check.keys(data, NORMAL_PART_KEYS, {"per", "rounding"}, what)
    number = parser.number
    return NormalPart(
        per=parser.get(data, "per", number, what, 1),
        rounding=parser.get(data, "rounding", parser.choice(ROUNDINGS), what, "down"),
        at_least=parser.get(data, "at_least", number, what, 0),
        damage_at_least=parser.get(data, "damage_at_least", number, what, 0),
    )


def _creatures(check: _Checker, data: LocatedDict) -> tuple[Creature, ...]:
    """The example creatures: each a mapping of name, section (the seed's), an optional note, and
    the roster numbers the seed gives (whole numbers, or dice text such as 1d8+4)."""
    raw = data["creatures"]
    if not isinstance(raw, list):
        check.fail(data.value_lines["creatures"], "encounter.creatures must be a list of creatures")
        return ()
    found = []
    for item, item_line in zip(raw, getattr(raw, "item_lines", []), strict=False):
        what = "encounter.creatures item"
        block = check.mapping(item, item_line, what)
        if block is None:
            continue
        name = check.text(block, "name", what)
        section = check.text(block, "section", f"creature {name!r}")
        values = {}
        for key, given in block.items():
            if key in CREATURE_TEXT_KEYS:
                continue
            check.ident(key, block.key_lines[key], f"creature {name!r} key")
            if isinstance(given, bool) or not isinstance(given, int | str):
                check.fail(block.value_lines[key], f"creature {name!r} {key!r} must be a number or dice text")
                continue
            values[key] = given
        note = check.text(block, "note", f"creature {name!r}", "") if "note" in block else ""
        found.append(Creature(name, section, values, block.line, note))
    return tuple(found)


def _pick_tables(
    check: _Checker, parser: BlockParser, data: LocatedDict, key: str
) -> tuple[tuple[str, int], ...]:
    """The picker tables listed under ``key``, each with its line."""
    picks: list[tuple[str, int]] = []
    raw_picks = data.get(key, LocatedList())
    if not isinstance(raw_picks, list):
        check.fail(data.value_lines[key], f"encounter.{key} must be a list of picker tables")
        raw_picks = LocatedList()
    for item, item_line in zip(raw_picks, getattr(raw_picks, "item_lines", []), strict=False):
        picks.append((check.ident(item, item_line, f"encounter.{key}"), item_line))
        parser.uses.pickers.append(picks[-1])
    return tuple(picks)


def _initiative(parser: BlockParser, data: LocatedDict) -> Initiative | None:
    check = parser.check
    block = check.mapping(
        data.get("initiative"), data.value_lines.get("initiative", data.line), "encounter.initiative"
    )
    if block is None:
        return None
    what = "encounter.initiative"
    check.keys(block, INITIATIVE_KEYS, {"adds_dex", "ties"}, what)
    if ("die" in block) == ("die_dice" in block):
        check.fail(block.line, f"{what} needs one of 'die' (faces) or 'die_dice' (a dice cell)")
    if "die_dice" in block:
        die: Any = parser.reference(
            str(block["die_dice"]), block.value_lines["die_dice"], f"{what}.die_dice", "dice"
        )
    else:
        die = parser.get(block, "die", parser.number, what, 0)
    later = block.get("later_dice", LocatedList())
    later_lines = getattr(later, "item_lines", [block.line] * len(later)) if isinstance(later, list) else []
    if not isinstance(later, list):
        check.fail(block.value_lines["later_dice"], f"{what}.later_dice must be a list")
        later = []
    tables = {}
    for key, columns in (("modifiers", {"init": ("int",)}), ("first_round", {})):
        if key in block:
            tables[key] = parser.table_id(
                block[key], block.value_lines[key], f"{what}.{key}", "entries", columns
            )
    return Initiative(
        die=die,
        die_is_dice="die_dice" in block,
        adds_dex=parser.get(block, "adds_dex", parser.flag, what, False),
        ties=parser.get(block, "ties", parser.choice(TIES), what, TIES[0]),
        later_dice=tuple(
            parser.number(item, item_line, f"{what}.later_dice")
            for item, item_line in zip(later, later_lines, strict=False)
        ),
        lost_at_or_below=parser.get(block, "lost_at_or_below", parser.number, what),
        later_tie_delay=parser.get(block, "later_tie_delay", parser.number, what, 0),
        modifiers=tables.get("modifiers"),
        first_round=tables.get("first_round"),
    )


def _hit_points(parser: BlockParser, data: LocatedDict) -> HitPoints | None:
    check = parser.check
    what = "encounter.hit_points"
    block = check.mapping(data.get("hit_points"), data.value_lines.get("hit_points", data.line), what)
    if block is None:
        return None
    check.keys(block, HIT_POINT_KEYS, {"states"}, what)
    states = str(block.get("states", ""))
    table, _, state = states.partition(".")
    if not state:
        check.fail(
            block.value_lines.get("states", block.line), f"{what}.states must be table.column, got {states!r}"
        )
    columns = {state: ("text",)}
    loss = None
    if "loss_per_round" in block:
        line = block.value_lines["loss_per_round"]
        other, _, loss = str(block["loss_per_round"]).partition(".")
        if other != table or not loss:
            check.fail(line, f"{what}.loss_per_round must be a column of {table}: {table}.COLUMN")
            loss = None
        else:
            columns[loss] = ("int",)
    parser.table_id(table, block.value_lines.get("states", block.line), f"{what}.states", "bands", columns)
    exempt = block.get("start_band_exempt", False)
    if not isinstance(exempt, bool):
        check.fail(block.value_lines["start_band_exempt"], f"{what}.start_band_exempt must be true or false")
        exempt = False
    return HitPoints(table, state, loss, exempt)


def _morale(parser: BlockParser, data: LocatedDict) -> Morale | None:
    check = parser.check
    what = "encounter.morale"
    block = check.mapping(data["morale"], data.value_lines["morale"], what)
    if block is None:
        return None
    check.keys(block, MORALE_KEYS, MORALE_KEYS - {"check_at_down"}, what)
    roll = parser.reference(str(block["roll"]), block.value_lines["roll"], f"{what}.roll", "dice")
    columns = {"roll_from": ("int",), "roll_to": ("int",), "result": ("text",)}
    table = parser.table_id(block["table"], block.value_lines["table"], f"{what}.table", "entries", columns)
    percent = parser.get(block, "check_at_percent", parser.number, what)
    first = parser.get(block, "check_at_down", parser.number, what)
    if roll is None:
        return None
    return Morale(roll, table, percent, first)


def encounter(rules: RuleSet) -> EncounterRules:
    found = rules.encounter_block
    if found is None:
        raise KeyError(f"{rules.id} has no encounter block")
    return found


def cell(rules: RuleSet, item: Any) -> Any:
    """A block value under the rules in force (a literal, or the table cell a Ref names)."""
    return value(rules, item)
