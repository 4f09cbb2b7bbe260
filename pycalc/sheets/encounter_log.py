"""The attack log: its columns, the row formulas copied from the calculator, the picks typed by name. A
part of ``pycalc.sheets.encounter.EncounterWriter``: its methods read the writer's state set up there."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from openpyxl.comments import Comment
from openpyxl.utils import get_column_letter

from pycalc.encounter import ALSO_HITS, ROSTER_SIZE
from pycalc.log_picks import Pick, named_picks
from pycalc.sheets.calculator import BOOLEAN_FORMAT, add_list
from pycalc.sheets.common import (
    NOTE,
    absolute,
    define_name,
    mark_input,
    name_part,
    put,
    put_formula,
    table_name,
)
from pycalc.sheets.encounter_cells import RowCell, add_number_check, literal, working
from pycalc.sheets.encounter_looks import (
    LOG_HEADER_HEIGHT,
    LOG_TITLE,
    add_picks_note,
    add_void_check,
    also_used,
    log_roll_label,
    pick_label,
    short_title,
    strike_out_void,
)
from pycalc.sheets.formulas import q
from pycalc.sheets.log_rows import (
    LITERAL,
    ONCE,
    ONCE_PREFIX,
    ROW_PREFIX,
    RowFormula,
    gives_boolean,
    names_in,
    plan_rows,
    substitute,
    table_cells,
)
from pycalc.sheets.ooxml.fast_cells import styled_like
from pycalc.sheets.roll_entry import add_roll_check, log_roll
from pycalc.table_files import Table, TableError, TableProblem


class LogWriter:
    @property
    def target_keys(self) -> list[str]:
        return ["target", *(f"also{k}" for k in range(1, ALSO_HITS + 1))]

    def line_key(self, key: str) -> str:
        """The log column of the roster line a row's attacker or target key names ("" when none): the
        sums over the rows above compare these numbers, not the names (far fewer comparisons of text
        per keystroke)."""
        return {"attacker": "arow", "target": "trow"}.get(key, f"line_{key}")

    def over_targets(self, term: Callable[[str], str]) -> str:
        """``term`` of each target key joined by "+"; an Also hits key's only where some log row names
        one (a damage roll typed then re-sums the Target column alone, not three empty ones)."""
        return "+".join(
            term(key) if key == "target" else f"IF({also_used(key)},{term(key)},0)"
            for key in self.target_keys
        )

    def write_log(self) -> None:
        log, ruleset, sheet = self.log, self.ruleset, self.log_sheet
        put_formula(sheet.cell(log.top - 1, 1), q(LOG_TITLE)).font = NOTE  # a formula: no AutoInput from it
        # an ordinary attack is typed from Attacker to the damage roll, Tab between: Enter then goes to
        # the next row's Attacker (the round is typed on a round's first row only, after the modifier)
        inputs = [("attacker", "Attacker", "LOG_ATTACKER"), ("target", "Target", "LOG_TARGET")]
        rolls = [roll for roll in ruleset.rolls if roll.calculator_name in self.used]
        inputs += [(roll.field, log_roll_label(roll), f"LOG_{roll.field.upper()}") for roll in rolls]
        inputs += [
            ("mods", "Mod", "LOG_MODS"),
            ("round", "New round", "LOG_ROUND"),
            ("void", "Void: x", "LOG_VOID"),
        ]
        # the outcome right after what an ordinary attack types; the inputs of fewer rows after it
        shown = [("result", "Result", "LOG_RESULT"), ("hp_lost", "HP lost", "LOG_HP_LOST")]
        shown += [(f"shown_{n}", label, f"LOG_{label.upper()}") for n, label in ruleset.shown]
        shown.append(("target_hp", "Target HP after", "LOG_TARGET_HP_AFTER"))
        shown.append(("check", "Check (empty: all is well)", "LOG_CHECK"))
        shown.append(("summary", "In one line", "LOG_SUMMARY"))
        picks = [(t, self.pick_input(t)) for t in self.block.log_picks]
        listed = [(f"pick_{t}", pick_label(self.rules.table(t).title), f"LOG_{t.upper()}") for t, _ in picks]
        flat = ("damage", "Dmg, no roll", "LOG_FLAT_DAMAGE")
        named = named_picks(self.rules)
        by_name = [("named_picks", "Picks by name", "LOG_PICKS")] if named else []
        more = [*listed, *by_name]
        more += [(f"also{k}", f"Also hits {k}", f"LOG_ALSO_HITS_{k}") for k in range(1, ALSO_HITS + 1)]
        more.append(flat)
        if self.block.damage_kinds:  # empty: normal damage; subdual (temporary) or heal by label or letter
            more.append(("kind", "Kind", "LOG_KIND"))
        for key, label, defined in [*inputs, *shown, *more]:
            log.add(key, label)
            self.name(log, key, defined)
        for key, _, _ in [*inputs, *more]:
            first = put(sheet.cell(log.top + 1, log.index[key]), None)
            mark_input(first)
            for row in log.rows_range()[1:]:
                styled_like(first, row, log.index[key])
        for key in ("attacker", *self.target_keys):
            add_list(sheet, log.span(key).replace("$", ""), "=LOG_WHO_LIST")
        for table_id, _ in picks:
            add_list(
                sheet, log.span(f"pick_{table_id}").replace("$", ""), "=" + table_name(table_id, "label")
            )
        for roll in rolls:
            add_roll_check(sheet, log.span(roll.field).replace("$", ""), log_roll(self.rules, roll))
        if named:
            add_picks_note(sheet, log, named)
        add_number_check(sheet, log.span("round").replace("$", ""), 1)
        add_number_check(sheet, log.span("mods").replace("$", ""), None)
        add_number_check(sheet, log.span("damage").replace("$", ""), 0)
        add_void_check(sheet, log.span("void").replace("$", ""))
        self.head(log)
        sheet.row_dimensions[log.top].height = LOG_HEADER_HEIGHT
        for table_id, _ in picks:  # a narrow list column: its title's first word, the whole in a comment
            table = self.rules.table(table_id)
            title = put_formula(
                sheet.cell(log.top, log.index[f"pick_{table_id}"]), q(log.labels[f"pick_{table_id}"])
            )
            listed = ", ".join(str(row.label) for row in table.rows)
            title.comment = Comment(f"{short_title(table.title)}: {listed}", "GM combat")
            title.comment.width, title.comment.height = 300, 120
        strike_out_void(sheet, log)
        working(log)
        for key in ("attacker", *self.target_keys):
            log.add(f"who_{key}", f"who_{key}")
        self.name(log, "who_attacker", "LOG_ATTACKER_NAME")  # the roster's name, typed or short
        self.name(log, "who_target", "LOG_TARGET_NAME")
        for k in range(1, ALSO_HITS + 1):
            self.name(log, f"who_also{k}", f"LOG_ALSO_NAME_{k}")
        log.add("actor", "actor")  # the attacker's roster line, on a row not voided
        log.add("who_list", "who_list")  # the names, then the short names: the attacker's and targets' list
        define_name(
            self.book,
            "LOG_WHO_LIST",
            absolute(
                sheet,
                f"{log.letter('who_list')}{log.top + 1}",
                f"{log.letter('who_list')}{log.top + 2 * ROSTER_SIZE}",
            ),
        )
        for key in (
            "round_now",
            *(("picks_read", "picks_bad") if named else ()),
            "arow",
            "trow",
            *(self.line_key(key) for key in self.target_keys[1:]),
            "attacker_hp",
            "target_hp_before",
            # before the calculator's inputs: the row's one line reads it (ATTACK_TARGET_SUBDUAL)
            *(("sub_before",) if self.block.damage_kinds else ()),
            "hp_round_start",
            *(("stunned_before",) if self.block.stun_loses_attacks else ()),
            *(("attack_no",) if self.counts_attacks else ()),
            "prot_wear",
            "wear",
            "filled",
            "row_no",  # the acting-order hint (pycalc.encounter_rows.order_hints): the row's number in the log,
            "first_now",  # the attacker's first row of the round now,
            "aorder",  # and the attacker's place in the acting order (0: none)
        ):
            log.add(key, key)
        self.name(log, "filled", "LOG_FILLED_COUNT")
        for key in self.target_keys[1:]:  # one cell each (the log's title row): is the column used
            log.add(f"used_{key}", f"used_{key}")
            used = put_formula(
                sheet.cell(log.top, log.index[f"used_{key}"]), f'COUNTIF({log.span(key)},"?*")>0'
            )
            used.number_format = BOOLEAN_FORMAT
            define_name(self.book, also_used(key), absolute(sheet, used.coordinate))
        wired = {}
        for name in sorted(self.used):
            template = ruleset.wiring.get(name)
            if template is None:
                pick = next((t for t, n in picks if n == name), None)
                wired[name] = ("pick", pick) if pick else self.named_wiring(name, named)
            elif re.fullmatch(r"\{log\.(\w+)\}", template) and template[5:-1] in log.index:
                wired[name] = ("cell", template[5:-1])
            else:
                wired[name] = ("column", template)
            if wired[name][0] in ("column", "pick", "named"):
                # every row input before the workings that read it: LibreOffice's threaded calculation
                # could read a later column of the same row before working it out (an #N/A kept)
                log.add(f"in_{name}", name)
        # the kind's workings read the picks' inputs, the check reads the kind: each after what it reads
        # (LibreOffice's threaded calculation kept an error where a working read a later column)
        for key in self.kind_keys():
            log.add(key, key)
        if self.block.hit_points.loss:  # each target's HP after its round (bleeding counts from it)
            log.add("lethal", "lethal")  # the HP lost to normal damage (subdual damage does not bleed)
            for key in self.target_keys:
                log.add(f"hp_{key}", key)
        if self.block.spell_lost_on_hit:
            log.add("spell_hit", "spell_hit")  # the target's roster line when the row breaks its spell
        log.add("check_parts", "check_parts")
        self.check_named(wired, named)
        self.plan = self.row_formulas(wired)
        for name, planned in self.plan.items():
            if planned.kind != LITERAL:
                log.add(f"w_{name}", name)
        self.name(log, "round_now", "LOG_ROUND_NOW")
        parts = [f"w_{name}" for name in self.plan if name.startswith((ONCE_PREFIX, ROW_PREFIX))]
        if parts:  # the parts the rows share (hidden): some read as an error where no row uses them
            first, last = (log.letter(parts[0]), log.letter(parts[-1]))
            define_name(
                self.book,
                "LOG_SHARED_PARTS",
                absolute(self.log_sheet, f"{first}{log.top}", f"{last}{log.top + log.rows}"),
            )
        for name, planned in self.plan.items():
            if planned.kind == ONCE:
                cell = put_formula(
                    self.log_sheet.cell(log.top, log.index[f"w_{name}"]), self.once(planned.template)
                )
                cell.number_format = self.part_format(name)
        self.write_log_rows(wired)
        self.write_who_list()

    def write_who_list(self) -> None:
        """The attacker's and targets' list: the roster's names, then their short names, each list
        from its top (the roster's lines without a name left out)."""
        log, r = self.log, self.roster
        column, count = log.index["who_list"], f'COUNTIF({r.ref("name")},"?*")'
        letter = get_column_letter(column)
        for first in (log.top + 1, log.top + ROSTER_SIZE + 1):  # the names, then the short names
            for row in range(first, first + ROSTER_SIZE):
                k = f"(ROW()-ROW(${letter}${first - 1}))"  # the place in the list, by its row
                line = f"MATCH({k},{r.ref('named_no')},0)"
                name = f"INDEX({r.ref('name' if first == log.top + 1 else 'short')},{line})"
                put_formula(self.log_sheet.cell(row, column), f'IF({k}>{count},"",IF({name}="","",{name}))')

    def row_formulas(self, wired: Mapping[str, tuple[str, Any]]) -> dict[str, RowFormula]:
        """How the log rows carry each working name and the parts they share (``log_rows.plan_rows``),
        for this file, laid out alike in both."""
        blankable = {name for name, (how, _) in wired.items() if how == "cell"}
        cells = self.cells = table_cells(self.rules, self.book, blankable)
        if self.calculator.log_plan is not None:
            return self.calculator.log_plan
        both = [self.calculator, *([self.calculator.other] if self.calculator.other else [])]
        varying = {name for name, (how, _) in wired.items() if how != "default"}
        defaults = [
            {n: literal(c.inputs.get(n, self.calculator.inputs[n])) for n in self.used - varying}
            for c in both
        ]
        native = 0 if self.calculator.native else 1
        plans = plan_rows(self.working, [c.formulas for c in both], defaults, varying, native, cells)
        self.other_plan = plans[1] if len(plans) > 1 else None
        return plans[0]

    def part_format(self, name: str) -> str:
        """A working name's number format (its calculator cell's); a part taken out of the rows, or a
        working cell of no format of its own (the generic calculator's hidden workings), is TRUE/FALSE
        when it gives it."""
        own = self.calculator.formats.get(name, "General")
        if own != "General":
            return own
        return BOOLEAN_FORMAT if gives_boolean(self.plan[name].template, self.cells.booleans) else "General"

    def once(self, template: str) -> str:
        """A formula worked out once for every row: the names worked out once read their cells."""
        return substitute(
            template, {n: self.row_value(n, self.log.top) for n in names_in(template) if n in self.plan}
        )

    def row_value(self, name: str, row: int) -> str:
        """A working name's value on a log row: its literal, its one cell, or the row's cell."""
        planned = self.plan[name]
        if planned.kind == LITERAL:
            return planned.template
        if planned.kind == ONCE:
            return f"${self.log.letter(f'w_{name}')}${self.log.top}"
        return self.log.at(f"w_{name}", row)

    def pick_input(self, table_id: str) -> str:
        """The calculator input that picks from ``table_id`` (its formulas MATCH it in the labels)."""
        labels = table_name(table_id, "label")
        for name in self.used:
            if any(f"MATCH({name},{labels}" in self.calculator.formulas[w] for w in self.working):
                return name
        raise self.pick_problem(
            table_id,
            f"{table_id!r} changes nothing the Attack calculator works out (none of its columns is one"
            " the resolution block reads): take it out of the log's picks",
        )

    def pick_problem(self, table_id: str, message: str) -> TableError:
        """A log pick the calculator cannot take, at the line naming it (``file:line``)."""
        line = self.block.pick_line(table_id)
        return TableError([TableProblem(self.block.file, line, f"encounter log picks: {message}")])

    def named_wiring(self, name: str, named: list[Pick]) -> tuple[str, Any]:
        """A calculator input the Picks cell sets: ("named", its picks) (a choice table's rows, or one
        toggle's), else ("default", None)."""
        for pick in named:
            if pick.toggle and name.endswith(f"_{name_part(pick.table_id)}_{name_part(pick.row_id)}"):
                return ("named", [pick])
        for table_id in dict.fromkeys(p.table_id for p in named if not p.toggle):
            if self.pick_input(table_id) == name:
                return ("named", [p for p in named if p.table_id == table_id])
        return ("default", None)

    def check_named(self, wired: Mapping[str, tuple[str, Any]], named: list[Pick]) -> None:
        """Every pick of the calculator that the log's outcome reads is a column or typed by name;
        every table typed by name feeds the calculator, and no table is both a column and typed."""
        pickers = [t for t in self.rules.tables.values() if t.picker]
        for name, (how, _) in wired.items():
            table = next((t for t in pickers if self.picks_from(name, t)), None)
            if how == "default" and table is not None:
                raise self.pick_problem(
                    table.id,
                    f"the calculator's pick {table.id!r} is not reachable from a log row:"
                    " add it to encounter.log_picks or encounter.log_picks_by_name",
                )
        fed = {p.table_id for how, picks in wired.values() if how == "named" for p in picks}
        for table_id in dict.fromkeys(p.table_id for p in named):
            if table_id not in fed or table_id in self.block.log_picks:
                raise self.pick_problem(
                    table_id,
                    f"log_picks_by_name {table_id!r} is not a calculator pick of the log's outcome,"
                    " or is in log_picks too",
                )

    def picks_from(self, name: str, table: Table) -> bool:
        """The calculator input ``name`` is the dropdown of ``table`` (a choice table) or one of its
        boxes (a toggle table)."""
        if table.picker == "toggle":
            return any(name.endswith(f"_{name_part(table.id)}_{name_part(str(r.id))}") for r in table.rows)
        labels = table_name(table.id, "label")
        return any(f"MATCH({name},{labels}" in self.calculator.formulas[w] for w in self.working)

    def stat(self, who: str, stat_id: str, row: int) -> str:
        r, log = self.roster, self.log
        index = log.at("arow" if who == "attacker" else "trow", row)
        if stat_id == "start_hp":
            return f"IF(ISNUMBER({index}),INDEX({r.ref('start')},{index}),0)"
        dice = any(s.id == stat_id and s.kind == "dice" for s in self.ruleset.stats)
        key = {"dex": "dexv", "max_hp": "use_max_hp"}.get(
            stat_id, f"s_{stat_id}" if dice else f"use_s_{stat_id}"
        )
        default = literal(next((s.default for s in self.ruleset.stats if s.id == stat_id), 0))
        value = f"INDEX({r.ref(key)},{index})"
        if key != "dexv":
            value = f'IF({value}="",{default},{value})'
        return f"IF(ISNUMBER({index}),{value},{default})"  # an empty row: the defaults

    def fill(self, template: str, row: int, derived: dict[int, RowCell]) -> str:
        """A wiring template on a log row; the working cells of a derived output go to ``derived``."""
        log = self.log

        def one(match: re.Match[str]) -> str:
            what = match.group(1)
            if what.startswith(("attacker.", "target.")):
                who, stat_id = what.split(".")
                return self.stat(who, stat_id, row)
            if what.startswith("log."):
                return log.at(what[4:], row)
            if what.startswith("derived."):
                output, wiring = self.ruleset.derived[what[8:]]
                filled = {name: self.fill(t, row, derived) for name, t in wiring.items()}
                return self.derived_formula(output, filled, log, row, what[8:] + "_", derived)
            return log.at(what, row)

        return re.sub(r"\{([\w.]+)\}", one, template)
