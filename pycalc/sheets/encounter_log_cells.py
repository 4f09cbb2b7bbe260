"""One log row's cells (the calculator's resolution with the row's numbers) and the damage kinds: a row's
Kind, its subdual part, a heal's hit points. A part of ``pycalc.sheets.encounter.EncounterWriter``: its
methods read the writer's state set up there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pycalc.damage_kinds import HEALED, bad_kind, heal_also_message, heal_needs_amount, labels
from pycalc.encounter import ALSO_HITS, DAMAGE, LOST_STUNNED
from pycalc.encounter_block import HEAL, SUBDUAL
from pycalc.log_picks import SEPARATOR
from pycalc.log_picks import UNKNOWN as PICKS_UNKNOWN
from pycalc.sheets.common import (
    name_part,
)
from pycalc.sheets.encounter_cells import VOID, RowCell, literal
from pycalc.sheets.encounter_looks import named_formula, read_picks_formula
from pycalc.sheets.formulas import band, q
from pycalc.sheets.kind_formulas import normal_part, subdual_picked, typed_kind
from pycalc.sheets.log_rows import (
    ROW,
    substitute,
)


class LogCells:
    def log_row_cells(self, row: int, wired: Mapping[str, tuple[str, Any]]) -> dict[int, RowCell]:
        """The formula cells of a log row by column, in the order they are written (a derived
        output's working cells first)."""
        log, r = self.log, self.roster
        at = lambda key: log.at(key, row)  # noqa: E731
        first = row == log.top + 1
        above = lambda key: f"{log.span(key, row - 1)}"  # noqa: E731
        roster_names = r.ref("name")
        cells: dict[str, str] = {
            f"who_{key}": (
                f'IF({at(key)}="","",IFERROR(INDEX({roster_names},MATCH({at(key)},{roster_names},0)),'
                f"IFERROR(INDEX({roster_names},MATCH({at(key)},{r.ref('short')},0)),{at(key)})))"
            )
            for key in ("attacker", *self.target_keys)
        }
        cells |= {
            "round_now": f"IF(ISNUMBER({at('round')}),{at('round')},{1 if first else log.at('round_now', row - 1)})",
            "arow": f'IF({at("who_attacker")}="","",MATCH({at("who_attacker")},{roster_names},0))',
            "trow": f'IF({at("who_target")}="","",MATCH({at("who_target")},{roster_names},0))',
        }
        cells["actor"] = f'IF(AND({at("void")}="",ISNUMBER({at("arow")})),{at("arow")},"")'
        for key in self.target_keys[1:]:
            who = at(f"who_{key}")
            cells[self.line_key(key)] = f'IF({who}="","",MATCH({who},{roster_names},0))'

        if self.block.hit_points.loss:
            for key in self.target_keys:
                line = at(self.line_key(key))  # its roster line (the sums compare line numbers, not names)
                taken = self.over_targets(
                    lambda other, line=line: (
                        f'SUMIFS({log.span("lethal")},{log.span(self.line_key(other))},{line},{log.span("round_now")},"<="&{at("round_now")})'
                    )
                )
                start = f"INDEX({r.ref('start')},{line})"
                # only the roster's line of a combatant bleeding now reads it (its bleed_since): the
                # sums over the whole log are skipped for every other target, as a keystroke waits on them
                loss = f"INDEX({r.ref('bleed_loss')},{line})"
                bleeds = f"IFERROR(AND(ISNUMBER({loss}),{loss}>0),FALSE)"
                cells[f"hp_{key}"] = (
                    f"IF(NOT(ISNUMBER({line})),0,IF({bleeds},IFERROR({start}-({taken}),0),0))"
                )
        filled = f'IF({at("attacker")}&{at("target")}="",0,1)'
        cells["filled"] = filled if first else f"{log.at('filled', row - 1)}+{filled}"
        cells["row_no"] = f"ROW()-ROW(${log.letter('attacker')}${log.top})"
        now_row = f"AND(ISNUMBER({at('actor')}),{at('round_now')}=ENC_ROUND_NOW)"
        if first:
            cells["first_now"] = now_row
        else:
            earlier = f"COUNTIFS({above('actor')},{at('actor')},{above('round_now')},ENC_ROUND_NOW)"
            cells["first_now"] = f"IF({now_row},{earlier}=0,FALSE)"
        cells["aorder"] = f"IF(ISNUMBER({at('actor')}),N(INDEX({r.ref('order')},{at('actor')})),0)"
        cells["attacker_hp"] = (
            f"IF(ISNUMBER({at('arow')}),{self.stat('attacker', 'start_hp', row)}-({self.taken_above(row, at('arow'))}),0)"
        )
        cells["target_hp_before"] = (
            f"IF(ISNUMBER({at('trow')}),{self.stat('target', 'start_hp', row)}-({self.taken_above(row, at('trow'))}),0)"
        )
        worn = "STRIKE_PROT" in self.ruleset.wiring  # no PROT to wear: no sum over the rows above
        cells["prot_wear"] = (
            "0" if first or not worn else f"SUMIFS({above('wear')},{above('trow')},{at('trow')})"
        )
        replace: dict[str, str] = {}
        derived: dict[int, RowCell] = {}
        found: list[str] = []  # one term per input the Picks cell sets: 1 where it picks
        if "picks_read" in log.index:
            cells["picks_read"] = read_picks_formula(at("named_picks"))
        for name, (how, what) in wired.items():
            if how == "cell":
                replace[name] = at(what)
            elif how == "column":  # a row without both names takes the calculator's default
                both = f"AND(ISNUMBER({at('arow')}),ISNUMBER({at('trow')}))"
                default = self.calculator.inputs[name]
                default = literal(
                    0 if isinstance(default, (int, float)) and not isinstance(default, bool) else default
                )
                cells[f"in_{name}"] = f"IF({both},{self.fill(what, row, derived)},{default})"
                replace[name] = at(f"in_{name}")
            elif how == "pick":
                label = at(f"pick_{what}")
                default = q(str(self.rules.table(what).rows[0].label))
                cells[f"in_{name}"] = f'IF({label}="",{default},{label})'
                replace[name] = at(f"in_{name}")
            elif how == "named":
                cells[f"in_{name}"] = named_formula(at("picks_read"), what, self.calculator.inputs[name])
                replace[name] = at(f"in_{name}")
                default = literal(self.calculator.inputs[name])
                found.append(
                    f"N({at(f'in_{name}')})" if what[0].toggle else f"({at(f'in_{name}')}<>{default})"
                )
            else:
                replace[name] = literal(self.calculator.inputs[name])
        if "picks_bad" in log.index:
            read = at("picks_read")
            typed = f'LEN({read})-LEN(SUBSTITUTE({read},{q(SEPARATOR)},""))-1'
            cells["picks_bad"] = f"{typed}<>{'+'.join(found) or '0'}"
        for name in self.plan:
            replace[name] = self.row_value(name, row)
        for name, planned in self.plan.items():
            if planned.kind == ROW:
                cells[f"w_{name}"] = substitute(planned.template, replace)
        ruleset = self.ruleset
        result, lost = replace[ruleset.result], replace[ruleset.hp_lost]
        names = f'{at("attacker")}&{at("target")}=""'
        flat = f"ISNUMBER({at('damage')})"  # damage with no attack roll: the row is not resolved
        # a hit whose damage cannot be worked out (dice "1d8+") says why, not "Hit" and 0 HP lost
        said = f'IF(AND(IFERROR(LEFT({lost},1)="#",FALSE),LEFT({result},1)<>"#"),{lost},{result})'
        bad = "FALSE"  # a row not resolved: a Picks cell it cannot read, or a stun took the attack
        if "picks_bad" in log.index:
            said, bad = f"IF({at('picks_bad')},{q(PICKS_UNKNOWN)},{said})", at("picks_bad")
        if "stunned_before" in log.index:
            stunned = at("stunned_before")
            said, bad = f"IF({stunned},{q(LOST_STUNNED)},{said})", f"OR({stunned},{bad})"
        attacker_ok = f'OR(ISNUMBER({at("arow")}),AND({flat},{at("attacker")}=""))'
        void = f'{at("void")}<>""'
        flat_said, flat_lost = q(DAMAGE), at("damage")
        if self.block.damage_kinds:  # a Kind no row names; a heal row (Dmg, no roll: the HP given back)
            also_typed = "OR(" + ",".join(f'{at(f"also{k}")}<>""' for k in range(1, ALSO_HITS + 1)) + ")"
            heal_said = f"IF(NOT({flat}),{q(heal_needs_amount())},IF({also_typed},{q(heal_also_message())},{q(HEALED)}))"
            said = f"IF({at('kind_bad')},{q(bad_kind(self.rules))},IF({at('is_heal')},{heal_said},{said}))"
            flat_said = (
                f"IF({at('kind_bad')},{q(bad_kind(self.rules))},IF({at('is_heal')},{heal_said},{flat_said}))"
            )
            flat_lost = f"IF(OR({at('kind_bad')},{at('is_heal')}),0,{flat_lost})"  # a heal: hp_lost below
            bad = f"OR({at('kind_bad')},{at('is_heal')},{bad})"
        cells["result"] = (
            f'IF({names},"",IF({void},{q(VOID)},IF(NOT({attacker_ok}),"#ATTACKER? a name on the roster",'
            f'IF(NOT(ISNUMBER({at("trow")})),"#TARGET? a name on the roster",IF({flat},{flat_said},{said})))))'
        )
        both = f'AND(ISNUMBER({at("arow")}),ISNUMBER({at("trow")}),{at("void")}="")'
        damage_key = "dmg" if self.block.damage_kinds else "hp_lost"
        cells[damage_key] = (
            f'IF({names},"",IF({void},0,IF(AND({flat},{attacker_ok},ISNUMBER({at("trow")})),{flat_lost},'
            f"IF(AND({both},NOT({flat}),NOT({bad})),IF(ISNUMBER({lost}),{lost},0),0))))"
        )
        if self.block.damage_kinds:
            # the damage (dmg) and a heal's hit points (heal_given) never read hp_lost nor the HP worked
            # out from it: LibreOffice's threaded calculation left a row's target HP before it as an
            # error when hp_lost read it (a loop between the two columns' formula groups)
            heal_row = f"AND({flat},{attacker_ok},ISNUMBER({at('trow')}),NOT({also_typed}))"
            cells |= self.kind_cells(row, heal_row)
            cells["hp_lost"] = f'IF({names},"",IF({at("heal_ok")},-{at("heal_given")},{at("dmg")}))'
        for name, _ in ruleset.shown:
            cells[f"shown_{name}"] = f'IF(AND({both},NOT({flat}),NOT({bad})),{replace[name]},"")'
        cells["summary"] = f'IF(AND({both},NOT({flat}),NOT({bad})),{replace[ruleset.summary]},"")'
        if "STRIKE_PROT" in ruleset.wiring:
            before, after = at("in_STRIKE_PROT"), replace["STRIKE_PROT_AFTER"]
            cells["wear"] = f"IF(AND({both},NOT({flat}),NOT({bad}),ISNUMBER({after})),{before}-{after},0)"
        else:
            cells["wear"] = "0"
        # the target's HP before the row less what the row took from it (as Target, and as Also hits
        # when named there too): no sum over the rows above again
        named = "+".join(f"({at('who_' + key)}={at('who_target')})" for key in self.target_keys)
        cells["target_hp"] = (
            f'IF(ISNUMBER({at("trow")}),{at("target_hp_before")}-N({at("hp_lost")})*({named}),"")'
        )
        cells |= self.check_cells(row, first)
        return {**derived, **{log.index[key]: self.log_cell(key, formula) for key, formula in cells.items()}}

    def taken_above(self, row: int, line: str, criteria: str = "", column: str = "hp_lost") -> str:
        """The hit points the log rows above ``row`` took from the roster line ``line`` as target or Also hits
        (SUMIFS with further ``criteria``, e.g. a round; ``column``: sub_lost for the subdual part);
        "0" on the first row."""
        if row == self.log.top + 1:
            return "0"
        above = lambda key: self.log.span(key, row - 1)  # noqa: E731
        more = f",{criteria}" if criteria else ""
        if column == "hp_lost" and self.block.damage_kinds:
            # hp_lost is dmg, or minus heal_given on a heal row (its Target only): summed from those two
            # columns, not from hp_lost. LibreOffice's threaded calculation left a target's HP before at
            # Err:522 (a circular reference that is none) where it summed hp_lost, in a file opened again
            dealt = self.taken_above(row, line, criteria, column="dmg")
            return f"{dealt}-SUMIFS({above('heal_given')},{above('trow')},{line}{more})"
        return self.over_targets(
            lambda key: f"SUMIFS({above(column)},{above(self.line_key(key))},{line}{more})"
        )

    def kind_keys(self) -> tuple[str, ...]:
        kinds = self.block.damage_kinds
        if kinds is None:
            return ()
        lethal = ("down_lethal",) if kinds.further_damage_lethal else ()
        return (
            "dmg", "is_sub", "is_heal", "kind_bad", "heal_ok", "heal_given",
            "sub_lost", *lethal,
        )  # fmt: skip

    def kind_cells(self, row: int, heal_row: str) -> dict[str, str]:
        """The row's kind (by label or first letter, any case), the subdual part of its HP lost (the
        normal part, ``kind_formulas.normal_part``, left out; none on a target already down where further damage kills), the hit points a
        heal row gives back (the caps read at the band of the target's HP without subdual damage)
        and the subdual damage it takes off first."""
        log, r, kinds = self.log, self.roster, self.block.damage_kinds
        assert kinds is not None
        at = lambda key: log.at(key, row)  # noqa: E731
        kind = at("kind")

        def typed(kind_id: str) -> str:
            return typed_kind(self.rules, kind, kind_id)

        trow = at("trow")
        picked = self.subdual_picked(row)
        cells = {
            "is_sub": typed(SUBDUAL)
            if picked == "FALSE"
            else f'OR({typed(SUBDUAL)},AND({kind}="",{picked}))',
            "is_heal": typed(HEAL),
            "kind_bad": f'AND({kind}<>"",NOT({at("is_sub")}),NOT({at("is_heal")}))',
            "sub_before": f"IF(ISNUMBER({trow}),{self.taken_above(row, trow, column='sub_lost')},0)",
            "heal_ok": f'AND({at("void")}="",{at("is_heal")},{heal_row})',
        }
        before = at("target_hp_before")  # normal and subdual damage less heals
        lethal_before = f"({before}+{at('sub_before')})"
        most = f"MAX(INDEX({r.ref('use_max_hp')},{trow}),INDEX({r.ref('start')},{trow}))"
        states = self.block.hit_points.table
        if kinds.heal_cap:
            cap = band(states, kinds.heal_cap, lethal_before)
            most = f"IF(ISNUMBER({cap}),MIN({most},{cap}),{most})"
        given = f"MAX(0,MIN({at('damage')},{most}-{before}))"
        if kinds.beyond_healing:
            given = f"IF(IFERROR({band(states, kinds.beyond_healing, lethal_before)}=TRUE,FALSE),0,{given})"
        cells["heal_given"] = f"IF({at('heal_ok')},{given},0)"
        hp = f"IF(ISNUMBER({at('dmg')}),{at('dmg')},0)"
        normal = normal_part(self.rules, f"MAX(0,{hp})")
        no_part = f"OR({hp}<=0,{before}<=0)" if kinds.further_damage_lethal else f"{hp}<=0"
        part = f"IF({no_part},0,{hp})" if normal == "0" else f"IF({no_part},0,{hp}-{normal})"
        cells["sub_lost"] = (
            f"IF({at('heal_ok')},-MIN({at('sub_before')},{at('heal_given')}),IF({at('is_sub')},{part},0))"
        )
        if kinds.further_damage_lethal:
            lethal = f"{hp}-{at('sub_lost')}"
            cells["down_lethal"] = f"IF(AND(NOT({at('heal_ok')}),{before}<=0,{lethal}>0),{lethal},0)"
        if self.block.hit_points.loss:
            cells["lethal"] = f"IF(ISNUMBER({at('hp_lost')}),{at('hp_lost')},0)-{at('sub_lost')}"
        return cells

    def subdual_picked(self, row: int) -> str:
        """TRUE where a pick of the row deals subdual damage, as the row's calculator inputs hold the
        picks (and its Picks cell reads)."""
        log = self.log
        if SUBDUAL not in labels(self.rules):
            return "FALSE"

        def logged(name: str | None) -> str | None:
            return log.at(f"in_{name}", row) if name is not None and f"in_{name}" in log.index else None

        def toggle_cell(table_id: str, row_id: str) -> str | None:
            end = f"_{name_part(table_id)}_{name_part(row_id)}"
            return logged(next((n for n in self.used if n.endswith(end)), None))

        found = subdual_picked(self.rules, toggle_cell, lambda table_id: logged(self.pick_input(table_id)))
        if found == "FALSE":
            return found
        readable = f"NOT({log.at('picks_bad', row)})" if "picks_bad" in log.index else "TRUE"
        return f"AND({readable},{found})"
