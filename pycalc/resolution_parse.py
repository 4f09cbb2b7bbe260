"""Parsing the ``resolution:`` block of a d20 ruleset's ``ruleset.yaml`` into
:class:`pycalc.resolution_block.Resolution` (every key is documented in tables/README.md, "The
resolution block"); its references are checked later by ``pycalc.resolution_refs``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pycalc.block_parser import Uses
from pycalc.resolution_block import (
    CHART_ROW_KEYS,
    CHECK_KEYS,
    CRITICAL_KEYS,
    CRITICAL_MODES,
    DAMAGE_KEYS,
    EFFECT_KEYS,
    FORMULA_KEYS,
    FUMBLE_KEYS,
    FUMBLE_MODES,
    HIT_FORMULA,
    NEED_BASES,
    NEED_RANGE_KEYS,
    NEEDS_MAGIC,
    NONE,
    OWN,
    PENALTY_FROM,
    PICKED,
    RANGE_KEYS,
    ROLL_COLUMN,
    ROLL_MODES,
    ROUNDINGS,
    SCOPES,
    TARGETS,
    THEN_KEYS,
    TOP_KEYS,
    Advantage,
    Chart,
    Check,
    Critical,
    DamageRules,
    Effect,
    Formula,
    FormulaTable,
    Fumble,
    NeedRange,
    Penalty,
    RangeBands,
    Resolution,
    RollColumn,
    RollRange,
    Rolls,
    Stage,
    possible,
)
from pycalc.situation_parse import SituationParser
from pycalc.table_files import LocatedDict, LocatedList, _Checker


class ResolutionParser(SituationParser):
    """The block's parts, each read from its mapping with the value readers of :class:`BlockParser`."""

    def rolls(self, raw: Any, line: int, what: str) -> Rolls:
        if raw == NONE:
            return ()
        items, lines = (raw, raw.item_lines) if isinstance(raw, LocatedList) else ([raw], [line])
        found: list[RollRange | RollColumn] = []
        for item, item_line in zip(items, lines, strict=True):
            data = self.check.mapping(item, item_line, f"{what} (natural rolls)")
            if data is None:
                continue
            if "table" in data:
                self.check.keys(data, {"table", "column"}, {"table", "column"}, what)
                column = self.column_id(data, "column", what) or ""
                table = self.table_id(
                    data.get("table"),
                    data.value_lines["table"],
                    f"{what}.table",
                    "bands",
                    {column: ("bool",)},
                )
                found.append(RollColumn(table, column))
                continue
            self.check.keys(data, {"from", "to", "when"}, set(), what)
            if "from" not in data and "to" not in data:
                self.check.fail(data.line, f"{what} needs 'from', 'to' or both (or table and column)")
            found.append(
                RollRange(
                    self.get(data, "from", self.number, what),
                    self.get(data, "to", self.number, what),
                    self.get(data, "when", self.flag, what, True),
                )
            )
        return tuple(found)

    def need_range(self, raw: Any, line: int, what: str) -> NeedRange | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, set(NEED_RANGE_KEYS), set(), what)
        if not any(key in data for key in NEED_RANGE_KEYS):
            self.check.fail(data.line, f"{what} needs at least one of {', '.join(NEED_RANGE_KEYS)}")
        return NeedRange(*(self.get(data, key, self.number, what) for key in NEED_RANGE_KEYS))

    def formula(self, raw: Any, line: int, what: str) -> Any:
        if isinstance(raw, str):
            name = self.check.ident(raw, line, what)
            self.uses.formula_names.append((name, line, what))
            return name
        data = self.check.mapping(raw, line, f"{what} (a formula or a damage.formulas row id)")
        if data is None:
            return HIT_FORMULA
        self.check.keys(data, set(FORMULA_KEYS), set(), what)
        if not data:
            self.check.fail(data.line, f"{what} needs at least one of {', '.join(FORMULA_KEYS)}")
        return Formula(*(self.get(data, key, self.number, what, 0) for key in FORMULA_KEYS))

    def chart(self, data: LocatedDict, what: str, mode: Any, with_formula: bool) -> Chart | None:
        if "chart" not in data:
            if "chart" in possible(mode):
                self.check.fail(data.line, f"{what} mode chart needs 'chart' (the bands table it reads)")
            return None
        own_roll = "chart" not in possible(mode)
        if own_roll:
            self.own_roll_chart(data, what)
            with_formula = False
        from_column, to_column, die = self.chart_rows(data, what, own_roll)
        special = self.column_id(data, "special", what)
        formula = self.column_id(data, "formula", what) if with_formula else None
        text = self.text_columns(data, what)
        columns: dict[str, tuple[str, ...]] = {}
        if special:
            columns[special] = ("bool",)
        columns |= {column: ("text",) for column in text or ()}
        if from_column and to_column:
            columns |= {from_column: ("int",), to_column: ("int",)}
        if formula:
            columns[formula] = ("text", "outcome")
            self.uses.chart_formulas.append((str(data["chart"]), formula, data.value_lines["formula"]))
        elif with_formula:
            self.check.fail(data.line, f"{what} chart needs 'formula' (the column naming each row's damage)")
        then = self.then_chart(data, what, mode, columns)
        check = self.row_check(data, what, mode, columns)
        plain = self.get(data, "plain_unless_special", self.flag, what, False)
        if "plain_unless_special" in data and not special:
            self.check.fail(
                data.value_lines["plain_unless_special"], f"{what}.plain_unless_special needs 'special'"
            )
        kind = "bands" if from_column is None else "entries"
        table = self.table_id(data["chart"], data.value_lines["chart"], f"{what}.chart", kind, columns)
        adds = self.get(data, "follow_adds_mods", self.flag, what, False) if with_formula else False
        if own_roll:
            self.uses.own_roll_charts.append((table, data.value_lines["chart"], f"{what}.chart"))
        return Chart(
            table,
            special,
            plain,
            formula,
            adds,
            text,
            own_roll,
            from_column,
            to_column,
            die,
            then,
            check=check,
        )

    def text_columns(self, data: LocatedDict, what: str, key: str = "text") -> tuple[str, ...] | None:
        """A chart's ``text`` (or a check's ``passed`` / ``failed``): a text column, or a list of them
        (their texts joined by ': ')."""
        if key not in data:
            return None
        raw, line = data[key], data.value_lines[key]
        items = list(raw) if isinstance(raw, LocatedList) else [raw]
        if not items:
            self.check.fail(line, f"{what}.{key} needs a text column or a list of them")
        return tuple(self.check.ident(item, line, f"{what}.{key}") for item in items)

    def row_check(
        self, data: LocatedDict, what: str, mode: Any, columns: dict[str, tuple[str, ...]]
    ) -> Check | None:
        """The check a row of this chart calls for (its columns added to ``columns``): only on a chart
        the follow-up roll reads (mode chart), whose row the calculator shows."""
        if "check" not in data:
            return None
        line, what = data.value_lines["check"], f"{what}.check"
        if possible(mode) != ["chart"]:
            self.check.fail(line, f"{what} needs mode chart (the row the follow-up roll reads calls for it)")
        raw = self.check.mapping(data["check"], line, what)
        if raw is None:
            return None
        self.check.keys(raw, CHECK_KEYS, CHECK_KEYS, what)
        label = raw.get("label", "")
        if "label" in raw and (not isinstance(label, str) or not label.strip()):
            self.check.fail(raw.value_lines.get("label", line), f"{what}.label must be text, e.g. DEX check")
            label = ""
        dc = self.column_id(raw, "dc", what) or ""
        passed, failed = (self.text_columns(raw, what, key) or () for key in ("passed", "failed"))
        if dc:
            columns[dc] = ("int",)
        columns |= {column: ("text",) for column in (*passed, *failed)}
        return Check(dc, label.strip(), passed, failed)

    def then_chart(
        self, data: LocatedDict, what: str, mode: Any, columns: dict[str, tuple[str, ...]]
    ) -> Chart | None:
        """The chart a roll of its own reads after a row of this chart that ticks ``when`` (a bool column
        of this chart, added to ``columns``): only after a chart the follow-up roll reads (mode chart)."""
        if "then" not in data:
            return None
        line, what = data.value_lines["then"], f"{what}.then"
        if possible(mode) != ["chart"]:
            self.check.fail(line, f"{what} needs mode chart (it follows the row the follow-up roll reads)")
        then = self.check.mapping(data["then"], line, what)
        if then is None:
            return None
        self.check.keys(then, THEN_KEYS, {"chart", "when", "text"}, what)
        when = self.column_id(then, "when", what)
        if when:
            columns[when] = ("bool",)
        chart = self.chart(then, what, NONE, False)
        return None if chart is None else replace(chart, when=when)

    def chart_rows(self, data: LocatedDict, what: str, own_roll: bool) -> tuple[str | None, str | None, Any]:
        """The from and to columns of a chart over an entries table (each row says the rolls it covers,
        as a table the GM fills does) and the die rolled on it; None for a bands table."""
        given = [key for key in CHART_ROW_KEYS if key in data]
        if not given:
            return None, None, None
        line = data.value_lines[given[0]]
        if len(given) < len(CHART_ROW_KEYS):
            self.check.fail(
                line,
                f"{what}: {', '.join(CHART_ROW_KEYS)} go together (the columns of each row's first and last "
                "roll, and the die rolled on the chart)",
            )
        if not own_roll:
            self.check.fail(
                line, f"{what}.{given[0]} needs a chart read by a roll of its own (no mode chart)"
            )
        return (
            self.column_id(data, "chart_from", what),
            self.column_id(data, "chart_to", what),
            self.get(data, "chart_die", self.number, what),
        )

    def own_roll_chart(self, data: LocatedDict, what: str) -> None:
        """A chart read by a roll of its own only says what the row does: it needs ``text``, and
        nothing of it may change the result or the damage (those read the follow-up roll, mode chart)."""
        if "text" not in data:
            self.check.fail(
                data.value_lines["chart"],
                f"{what}.chart without mode chart is read by a roll of its own: it needs 'text' (what the row does)",
            )
        for key in ("special", "plain_unless_special", "formula", "follow_adds_mods"):
            if key in data:
                self.check.fail(
                    data.value_lines[key],
                    f"{what}.{key} needs mode chart (a chart read by a roll of its own only says what the row does)",
                )

    def mode_block(self, raw: Any, line: int, what: str, keys: set[str]) -> LocatedDict | None:
        if isinstance(raw, str):
            block = LocatedDict(mode=raw)
            block.line, block.value_lines, block.key_lines = line, {"mode": line}, {"mode": line}
            return block
        data = self.check.mapping(raw, line, what)
        if data is not None:
            self.check.keys(data, keys, {"mode"}, what)
        return data

    def fumble(self, raw: Any, line: int, what: str) -> Fumble:
        data = self.mode_block(raw, line, what, FUMBLE_KEYS)
        if data is None:
            return Fumble()
        mode = self.get(data, "mode", self.choice(FUMBLE_MODES), what, NONE)
        return Fumble(mode, self.chart(data, what, mode, False))

    def critical(self, raw: Any, line: int, what: str) -> Critical:
        data = self.mode_block(raw, line, what, CRITICAL_KEYS)
        if data is None:
            return Critical()
        if "follow_adds_mods" in data and "chart" not in data:
            self.check.fail(data.value_lines["follow_adds_mods"], f"{what}.follow_adds_mods needs 'chart'")
        mode = self.get(data, "mode", self.choice(CRITICAL_MODES), what, NONE)
        return Critical(
            mode=mode,
            rolls=self.get(data, "rolls", self.rolls, what),
            no_critical_when_needed=self.get(data, "no_critical_when_needed", self.need_range, what),
            confirm_natural_miss_fails=self.get(data, "confirm_natural_miss_fails", self.flag, what, False),
            chart=self.chart(data, what, mode, True),
        )

    def formulas(self, raw: Any, line: int, what: str) -> FormulaTable | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"table", *FORMULA_KEYS}, {"table"}, what)
        columns = {key: self.column_id(data, key, what) or "" for key in FORMULA_KEYS if key in data}
        if not columns:
            self.check.fail(
                data.line, f"{what} needs the column of at least one of {', '.join(FORMULA_KEYS)}"
            )
        wanted = {column: ("int",) for column in columns.values()}
        return FormulaTable(
            self.table_id(data.get("table"), data.value_lines.get("table", line), what, "entries", wanted),
            columns,
        )

    def penalty(self, raw: Any, line: int, what: str) -> Penalty | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"above", "per_point", "from"}, {"above", "per_point"}, what)
        return Penalty(
            self.get(data, "above", self.number, what, 0),
            self.get(data, "per_point", self.number, what, 0),
            self.get(data, "from", self.choice(PENALTY_FROM), what, "total"),
        )

    def stages(self, raw: Any, line: int, what: str) -> tuple[Stage, ...]:
        if not isinstance(raw, LocatedList):
            self.check.fail(line, f"{what} must be a list of {{name, scope, rounding}}")
            return ()
        found: list[Stage] = []
        for index, (item, item_line) in enumerate(zip(raw, raw.item_lines, strict=True)):
            data = self.check.mapping(item, item_line, f"{what} item")
            if data is None:
                continue
            self.check.keys(data, {"name", "scope", "rounding", "factor", "when"}, {"name"}, f"{what} item")
            name = self.check.ident(data.get("name"), data.value_lines.get("name", item_line), f"{what} name")
            if name in {stage.name for stage in found}:
                self.check.fail(data.value_lines.get("name", item_line), f"{what}: duplicate name {name!r}")
            scope = self.get(data, "scope", self.choice(SCOPES), f"{what}.{name}", "whole")
            if index and any(s != "whole" for s in possible(scope)):
                self.check.fail(
                    data.value_lines["scope"],
                    f"{what}.{name}: only the first multiplier may have a scope other than whole",
                )
            rounding = self.get(data, "rounding", self.choice(ROUNDINGS), f"{what}.{name}", "down")
            factor = self.get(data, "factor", self.number, f"{what}.{name}")
            when = self.column_id(data, "when", f"{what}.{name}")
            if (factor is None) != (when is None):
                self.check.fail(
                    item_line, f"{what}.{name}: factor and when go together (a ticked row's factor)"
                )
            if when is not None:
                self.uses.number_flags.append((when, data.value_lines["when"], f"{what}.{name}.when"))
            found.append(Stage(name, scope, rounding, factor, when))
        return tuple(found)

    def damage(self, raw: Any, line: int, what: str) -> DamageRules:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return DamageRules()
        self.check.keys(data, DAMAGE_KEYS, set(), what)
        formula = self.formula
        return DamageRules(
            least=self.get(data, "least", self.number, what, 0),
            deals=self.get(data, "deals", self.flag, what, True),
            formulas=self.get(data, "formulas", self.formulas, what),
            hit=self.get(data, "hit", formula, what, HIT_FORMULA),
            critical=self.get(data, "critical", formula, what),
            auto_hit=self.get(data, "auto_hit", formula, what),
            auto_hit_multiplied=self.get(data, "auto_hit_multiplied", self.flag, what, True),
            natural_penalty=self.get(data, "natural_penalty", self.penalty, what),
            multipliers=self.get(data, "multipliers", self.stages, what, ()),
        )

    def effect(self, raw: Any, line: int, what: str) -> Effect | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, EFFECT_KEYS, set(), what)
        return Effect(
            self.get(data, "hit", self.text, what),
            self.get(data, "miss", self.text, what),
            self.get(data, "near_miss_by", self.number, what),
        )

    def range_bands(self, raw: Any, line: int, what: str) -> RangeBands | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, RANGE_KEYS, RANGE_KEYS, what)
        table, band, within = (
            self.check.ident(data.get(key), data.value_lines.get(key, data.line), f"{what}.{key}")
            for key in ("table", "band", "within")
        )
        columns = {band: ("text",), within: ("bool",), ROLL_COLUMN: ("int",)}
        self.uses.tables.append((table, data.value_lines.get("table", data.line), "bands", columns, what))
        return RangeBands(table, band, within)

    def advantage(self, raw: Any, line: int, what: str) -> Advantage | None:
        data = self.check.mapping(raw, line, what)
        if data is None:
            return None
        self.check.keys(data, {"highest_of", "lowest_of", "both"}, set(), what)
        return Advantage(
            self.get(data, "highest_of", self.number, what),
            self.get(data, "lowest_of", self.number, what),
            self.get(data, "both", self.choice(ROLL_MODES), what, "normal"),
        )

    def modifiers(self, raw: Any, line: int, what: str) -> tuple[str, ...] | None:
        if raw == OWN:
            return None
        if not isinstance(raw, LocatedList):
            self.check.fail(line, f"{what} must be 'own' or a list of picker table ids")
            return None
        found = []
        for item, item_line in zip(raw, raw.item_lines, strict=True):
            table = self.check.ident(item, item_line, f"{what} table id")
            self.uses.pickers.append((table, item_line))
            found.append(table)
        return tuple(found)

    def block(self, data: LocatedDict) -> Resolution:
        what = "resolution"
        self.check.keys(data, TOP_KEYS, {"die", "target"}, what)
        if "note" in data and not isinstance(data["note"], str):
            self.check.fail(data.value_lines["note"], f"{what}.note must be text")
        number = self.number
        if data.get("target") == "descending_ac" and "least_target" in data:
            self.check.fail(
                data.key_lines["least_target"], f"{what}.least_target is not read with target: descending_ac"
            )
        return Resolution(
            die=self.get(data, "die", number, what, 0),
            target=self.get(data, "target", self.choice(TARGETS), what, TARGETS[0]),
            file=self.check.file,
            line=data.line,
            ac_change=self.get(data, "ac_change", number, what, 1),
            least_target=self.get(data, "least_target", number, what),
            hit_margin=self.get(data, "hit_margin", number, what, 0),
            need_basis=self.get(data, "need_basis", self.choice(NEED_BASES), what, "need"),
            advantage=self.get(data, "advantage", self.advantage, what),
            follow_die=self.get(data, "follow_die", number, what),
            always_miss=self.get(data, "always_miss", self.rolls, what, ()),
            always_hit=self.get(data, "always_hit", self.rolls, what, ()),
            needs_magic=self.get(data, "needs_magic", self.choice(NEEDS_MAGIC), what, "cannot_hit"),
            fumble=self.get(data, "fumble", self.fumble, what, Fumble()),
            critical=self.get(data, "critical", self.critical, what, Critical()),
            damage=self.get(data, "damage", self.damage, what, DamageRules()),
            modifiers=self.get(data, "modifiers", self.modifiers, what),
            situation=self.situation(
                data["situation"],
                data.value_lines["situation"],
                f"{what}.situation",
                data.get("modifiers", OWN),
            )
            if "situation" in data
            else None,
            effect=self.get(data, "effect", self.effect, what),
            range=self.get(data, "range", self.range_bands, what),
            picked_tables=tuple(
                dict.fromkeys(ref.table for ref, _, _ in self.uses.refs if ref.entry == PICKED)
            ),
        )


def parse_block(check: _Checker, raw: Any, line: int) -> tuple[Resolution | None, Uses]:
    """The block of ``ruleset.yaml`` (problems go to ``check``); its references are checked later
    by :func:`pycalc.resolution_refs.check_references`, once the tables are loaded."""
    parser = ResolutionParser(check)
    data = check.mapping(raw, line, "resolution")
    if data is None:
        return None, parser.uses
    return parser.block(data), parser.uses
