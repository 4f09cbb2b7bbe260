"""A log row's checks (may this combatant act, is this round ahead...) and the rows written from their
template. A part of ``pycalc.sheets.encounter.EncounterWriter``: its methods read the writer's state set
up there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from openpyxl.worksheet.worksheet import Worksheet

from pycalc.encounter import ORDER_HINT, SPELL_CHECK
from pycalc.encounter_checks import CHECK_SEPARATOR
from pycalc.sheets.calculator import BOOLEAN_FORMAT
from pycalc.sheets.common import (
    formula_value,
    mark_output,
    put_formula,
    table_name,
)
from pycalc.sheets.encounter_cells import RowCell
from pycalc.sheets.encounter_looks import TRUE_ONLY
from pycalc.sheets.formulas import q
from pycalc.sheets.log_rows import (
    ROW_MARK,
    RowTemplate,
    gives_boolean,
    kept_off_threads,
)
from pycalc.sheets.ooxml.cells import (
    cells_of,
    set_formula,
)
from pycalc.sheets.ooxml.fast_cells import styled_like


class LogChecks:
    def check_cells(self, row: int, first: bool) -> dict[str, str]:
        """The row's check (``pycalc.encounter_checks.row_checks``): the round ahead of Round now, an attacker
        down (or stunned) before it acts, a target already down; the parts joined by CHECK_SEPARATOR."""
        log, r = self.log, self.roster
        at = lambda key: log.at(key, row)  # noqa: E731
        above = lambda key: f"{log.span(key, row - 1)}"  # noqa: E731
        cells: dict[str, str] = {}
        this_round = at("round_now")
        start = self.stat("attacker", "start_hp", row)
        earlier = self.taken_above(row, at("arow"), f'{above("round_now")},"<"&{this_round}')
        # read only where the attacker is down (the check's "went down this round"): the sums over the
        # rows above are skipped on every other row, as a keystroke waits on them
        down_now = f"AND(ISNUMBER({at('arow')}),{at('attacker_hp')}<=0)"
        cells["hp_round_start"] = f"IF({down_now},{start}-({earlier}),0)"
        if self.block.stun_loses_attacks:
            cells["stunned_before"] = (
                "FALSE"
                if first
                else f"IF(ISNUMBER({at('arow')}),COUNTIFS({above('trow')},{at('arow')},{above('round_now')},"
                f"{this_round},{above('shown_TARGET_STUNNED')},TRUE)>0,FALSE)"
            )
        sep = q(CHECK_SEPARATOR)
        attacker = f"INDEX({r.ref('name')},{at('arow')})"
        target = f"INDEX({r.ref('name')},{at('trow')})"
        hp = at("attacker_hp")
        down = (
            f'IF({at("hp_round_start")}>0,{attacker}&" went down this round: the attack stands only if "&'
            f'{attacker}&" acts together with whoever downed it",{attacker}&" is at "&{hp}&" HP: it cannot act")'
        )
        attacker_part = f'IF({hp}<=0,{down}&{sep},"")'
        if self.block.stun_loses_attacks:
            lost = f'{attacker}&" was stunned earlier this round: its remaining attacks are lost"&{sep}'
            attacker_part = f"IF({at('stunned_before')},{lost},{attacker_part})"
        rule = self.block.initiative
        # the attacker's rows this round, this one too
        counted = f"COUNTIFS({log.span('actor', row)},{at('arow')},{log.span('round_now', row)},{this_round})"
        if rule.later_dice or self.block.spell_lost_on_hit:
            cells["attack_no"] = counted
        elif self.block.attacks_each_round:  # counted only for an attacker with a number to check
            number = f"INDEX({r.ref('attacks')},{at('actor')})"
            cells["attack_no"] = f'IF(ISNUMBER({at("actor")}),IF(ISNUMBER({number}),{counted},""),"")'
        if rule.later_dice:  # pycalc.encounter_checks.attacks_check
            allowed, made = f"INDEX({r.ref('attacks')},{at('arow')})", at("attack_no")
            attacker_part += (
                f'&IF(AND(ISNUMBER({allowed}),{made}>{allowed}),{attacker}&" makes attack "&{made}&'
                f'" this round: its initiative rolls give it "&{allowed}&{sep},"")'
            )
        if self.block.attacks_each_round:  # pycalc.encounter_checks.each_round_check
            allowed, made = f"INDEX({r.ref('attacks')},{at('arow')})", at("attack_no")
            attacker_part += (
                f'&IF(AND(ISNUMBER({made}),ISNUMBER({allowed}),{made}>{allowed}),{attacker}&" makes attack "&'
                f'{made}&" this round: it has "&{allowed}&IF({allowed}=1," attack"," attacks")&" each round"&{sep},"")'
            )
        target_part = f'IF({at("target_hp_before")}<=0,{target}&" is already at "&{at("target_hp_before")}&" HP"&{sep},"")'
        resolved = f"AND(ISNUMBER({at('arow')}),ISNUMBER({at('trow')}),NOT(ISNUMBER({at('damage')})))"
        if self.block.damage_kinds:  # a row with a Kind no row names, or a heal, is not resolved
            resolved = f"AND({resolved},NOT({at('kind_bad')}),NOT({at('is_heal')}))"
        filled = f'{at("attacker")}&{at("target")}<>""'
        ahead = f'IF(AND({filled},{this_round}>ENC_ROUND_NOW),"round "&{this_round}&" is after Round now ("&ENC_ROUND_NOW&")"&{sep},"")'
        spell = self.block.spell_when_attacked
        if spell is not None:  # pycalc.encounter_checks.spell_attacked
            first = lambda index: f"INDEX({r.ref('init')},{index})"  # noqa: E731
            mine, theirs = first(at("arow")), first(at("trow"))
            casting = (
                f"AND({this_round}=ENC_ROUND_NOW,INDEX({r.ref('cast_round')},{at('trow')})={this_round})"
            )
            hit = f",N({at('hp_lost')})>0" if spell.hit_needed else ""
            said = (
                f"INDEX({table_name(spell.table, spell.says)},"
                f"MATCH(({mine}>{theirs})-({mine}<{theirs}),{table_name(spell.table, spell.order)},0))"
            )
            numbers = f"ISNUMBER({mine}),ISNUMBER({theirs})"
            target_part += f'&IF(AND({casting}{hit},{numbers}),IFERROR({target}&" "&{said}&{sep},""),"")'
        if self.block.spell_lost_on_hit:  # pycalc.encounter_checks.spell_lost, spell_check
            cells["spell_hit"] = self.spell_hit(row)
            target_part += f'&IF(ISNUMBER({at("spell_hit")}),{target}&{q(SPELL_CHECK)}&{sep},"")'
        passed = f"MATCH({at('row_no')},{r.ref('passed_at')},0)"  # pycalc.encounter_rows.order_hints
        hint = (
            f"IF(AND({at('round_now')}=ENC_ROUND_NOW,ISNUMBER({passed})),"
            f'INDEX({r.ref("name")},{passed})&{q(ORDER_HINT)}&{sep},"")'
        )
        cells["check_parts"] = (
            f'IF({at("void")}<>"","",{ahead}&IF({resolved},{attacker_part}&{target_part}&{hint},""))'
        )
        parts = at("check_parts")
        cells["check"] = f'IF({parts}="","",LEFT({parts},LEN({parts})-LEN({sep})))'
        return cells

    @property
    def counts_attacks(self) -> bool:
        """Whether a log row counts its attacker's rows this round (``attack_no``)."""
        block = self.block
        return bool(block.initiative.later_dice or block.spell_lost_on_hit or block.attacks_each_round)

    def initiative_keys(self) -> list[str]:
        """The roster's initiative columns: the first attack's, then each later attack's."""
        return ["init", *(f"later{k}" for k in range(1, 1 + len(self.block.initiative.later_dice)))]

    def spell_hit(self, row: int) -> str:
        """The target's roster line where the row hits it while it casts this round (its number at or
        below the target's initiative, above the number the spell goes off on), else empty."""
        log, r = self.log, self.roster
        assert self.block.spell_lost_on_hit is not None
        at = lambda key: log.at(key, row)  # noqa: E731
        table, column = self.block.spell_lost_on_hit
        keys = self.initiative_keys()
        numbers = ",".join(f"INDEX({r.ref(k)},{at('arow')})" for k in keys)
        number = f'IF({at("attack_no")}>{len(keys)},"",CHOOSE({at("attack_no")},{numbers}))'
        theirs, cast = f"INDEX({r.ref('init')},{at('trow')})", f"INDEX({r.ref('cast')},{at('trow')})"
        rank = f"INDEX({table_name(table, column)},MATCH({at('result')},{table_name(table, 'label')},0))"
        hit = f"IFERROR({rank}>0,FALSE)"
        return (
            f"IF(AND({at('round_now')}=ENC_ROUND_NOW,{hit},ISNUMBER({at('trow')}),ISNUMBER({number}),"
            f"ISNUMBER({theirs}),ISNUMBER({cast})),IF(AND({number}>{theirs}-{cast},{number}<={theirs}),"
            f'{at("trow")},""),"")'
        )

    def log_cell(self, key: str, formula: str) -> RowCell:
        shown = key.startswith("shown_")
        number_format = self.part_format(key[2:]) if key.startswith("w_") else TRUE_ONLY if shown else None
        if (number_format is None and gives_boolean(formula, self.cells.booleans)) or isinstance(
            self.calculator.inputs.get(key.removeprefix("in_")), bool
        ):
            number_format = BOOLEAN_FORMAT  # a TRUE/FALSE reads so in every office, not 1/0
        return RowCell(
            formula, number_format, shown or key in ("result", "hp_lost", "target_hp", "check", "summary")
        )

    def write_row_cells(self, row: int, cells: Mapping[int, RowCell], sheet: Worksheet | None = None) -> None:
        for column, made in cells.items():
            cell = put_formula((sheet or self.sheet).cell(row, column), made.formula)
            if made.output:
                mark_output(cell)
            if made.number_format is not None:
                cell.number_format = made.number_format

    def write_log_rows(self, wired: Mapping[str, tuple[str, Any]]) -> None:
        """The log's rows: the first (which reads no row above) and the second worked out, the rest
        copied from the second's formulas with the row numbers changed and its cells' styles."""
        top, last = self.log.top + 1, self.log.top + self.log.rows
        cells = lambda row: {  # noqa: E731
            column: replace(made, formula=kept_off_threads(made.formula))
            for column, made in self.log_row_cells(row, wired).items()
        }
        self.write_row_cells(top, cells(top), self.log_sheet)
        second = cells(top + 1)
        self.write_row_cells(top + 1, second, self.log_sheet)
        marked = cells(ROW_MARK)
        template = RowTemplate.of({column: formula_value(made.formula) for column, made in marked.items()})
        if template.formulas(top + 1) != {c: formula_value(made.formula) for c, made in second.items()}:
            raise AssertionError("the log's row template does not give its second row")
        self.row_template, self.templated_rows = template, range(top + 2, last + 1)
        if self.template_only:
            return
        styled = {column: cells_of(self.log_sheet)[(top + 1, column)] for column in second}
        for row in self.templated_rows:
            for column, value in template.formulas(row).items():
                cell = styled_like(styled[column], row, column)
                set_formula(cell, value)
