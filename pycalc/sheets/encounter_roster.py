"""The roster and the conditions block: their columns, inputs and checks. A part of
``pycalc.sheets.encounter.EncounterWriter``: its methods read the writer's state set up there."""

from __future__ import annotations

from collections.abc import Mapping

from pycalc.damage_kinds import labels
from pycalc.encounter_block import SUBDUAL
from pycalc.encounter_block import cell as block_value
from pycalc.encounter_initiative import initiative_dice
from pycalc.encounter_rulesets import EACH_ROUND
from pycalc.sheets.calculator import BOOLEAN_FORMAT, add_list
from pycalc.sheets.common import (
    SHRINK,
    SUBTITLE,
    mark_input,
    mark_output,
    put,
    put_formula,
    table_name,
)
from pycalc.sheets.encounter_cells import (
    DICE_PART_LIMITS,
    DICE_PARTS,
    Columns,
    RowCell,
    add_number_check,
    library_columns,
    literal,
    working,
)
from pycalc.sheets.encounter_looks import HIDDEN_ROSTER, KIND_LABEL, ROSTER_EXTRA, SHORT_LABEL, TRUE_ONLY
from pycalc.sheets.formulas import by_label, q
from pycalc.sheets.log_rows import (
    substitute,
)
from pycalc.sheets.roll_entry import add_roll_check, dice_roll, die_roll


class RosterWriter:
    def write_roster(self) -> None:
        r, rule = self.roster, self.block.initiative
        put_formula(self.sheet.cell(r.top - 1, 1), q("Roster and acting order")).font = SUBTITLE
        inputs = [
            ("name", "Name", "NAME"),
            ("short_typed", SHORT_LABEL, "SHORT_TYPED"),
            ("side", "Side", "SIDE"),
            ("group", "Group (shares one roll)", "GROUP"),
            ("kind", KIND_LABEL, "KIND"),
        ]
        # what one fight only holds, side by side: one Name Box name clears them for the next fight
        inputs.append(("roll0", "Initiative roll", "INIT_ROLL"))
        for k, _ in enumerate(rule.later_dice, start=1):
            inputs.append((f"roll{k}", f"Roll, attack {k + 1}", f"INIT_ROLL_{k + 1}"))
        if rule.modifiers:
            inputs.append(("action", "Action (initiative)", "ACTION"))
            inputs.append(("cast", "Casting time", "CASTING_TIME"))
        if self.block.morale:
            inputs.append(
                (
                    "morale_roll",
                    f"Morale roll ({block_value(self.rules, self.block.morale.roll)})",
                    "MORALE_ROLL",
                )
            )
        if self.block.hit_points.loss:
            inputs.append(("aided", "Aided in round (stops the bleeding)", "AIDED_ROUND"))
        if self.block.spell_when_attacked:
            inputs.append(("cast_round", "Casts a spell in round", "CAST_ROUND"))
        inputs.append(("dex", "DEX modifier", "DEX"))
        if rule.first_round:
            inputs.append(("first", "Acts first in round 1 (reach, size)", "FIRST_ROUND"))
        dice = [s for s in self.ruleset.stats if s.kind == "dice"]
        inputs += [(f"s_{s.id}", s.label, s.id.upper()) for s in self.ruleset.stats if s not in dice]
        inputs += [
            ("max_hp", "Maximum HP", "MAX_HP"),
            ("start_hp", "Start HP (empty = max)", "START_HP"),
        ]
        # dice as three numbers (count, sides, bonus): AutoInput never completes a number, so 1d6 typed
        # under 1d6+1 stays 1d6; the dice text the rows read is worked out in a hidden column
        inputs += [
            (f"s_{s.id}_{part}", f"{s.label}: {word}", f"{s.id.upper()}_{part.upper()}")
            for s in dice
            for part, word in DICE_PARTS
        ]
        for key, label, defined in inputs:
            r.add(key, label)
            self.name(r, key, f"ROSTER_{defined}")
            for row in r.rows_range():
                mark_input(put(self.sheet.cell(row, r.index[key]), None))
        for key in ("aided", "cast_round"):
            if key in r.index:
                add_number_check(self.sheet, r.span(key).replace("$", ""), 1)
        if f"s_{EACH_ROUND}" in r.index:  # none (a combatant that makes no attack) or more
            add_number_check(self.sheet, r.span(f"s_{EACH_ROUND}").replace("$", ""), 0)
        for s in dice:
            for part, (least, most) in DICE_PART_LIMITS.items():
                add_number_check(self.sheet, r.span(f"s_{s.id}_{part}").replace("$", ""), least, most)
        if self.block.morale:
            add_roll_check(
                self.sheet,
                r.span("morale_roll").replace("$", ""),
                dice_roll(self.rules, self.block.morale.roll),
            )
        faces = initiative_dice(self.rules)
        for k in range(1 + len(rule.later_dice)):
            add_roll_check(self.sheet, r.span(f"roll{k}").replace("$", ""), die_roll(faces[k]))
        if rule.modifiers:
            add_list(self.sheet, r.span("action").replace("$", ""), "=" + table_name(rule.modifiers, "label"))
        add_list(self.sheet, r.span("kind").replace("$", ""), "=CREATURE_NAME", strict=False)
        if rule.first_round:
            add_list(self.sheet, r.span("first").replace("$", ""), "TRUE,FALSE")
        for s in self.ruleset.stats:
            if s.kind == "size":
                add_list(
                    self.sheet, r.span(f"s_{s.id}").replace("$", ""), "=" + table_name("stun_size", "label")
                )
        outputs = [("creature", "From Creatures", "FROM_CREATURES")]
        outputs += [("init", "Initiative", "INITIATIVE"), ("order", "Order (1 acts first)", "ORDER")]
        outputs.append(("together", "Acts together with another", "SIMULTANEOUS"))
        outputs += [
            (f"later{k}", f"Initiative, attack {k + 1}", f"INITIATIVE_{k + 1}")
            for k in range(1, 1 + len(rule.later_dice))
        ]
        if rule.lost_at_or_below is not None:
            outputs.append(("lost", "Attacks lost (too late)", "LOST"))
        if rule.modifiers:
            outputs.append(("spell", "Spell goes off on", "SPELL_AT"))
        if rule.first_round:
            outputs.append(("note", "Round 1", "ROUND_ONE"))
        outputs += [("hp_now", "HP now", "HP_NOW")]
        if SUBDUAL in labels(self.rules):  # the subdual (temporary) damage inside the hit points lost
            outputs.append(("sub_taken", f"{labels(self.rules)[SUBDUAL]} damage taken", "SUBDUAL_TAKEN"))
        outputs.append(("state", "State", "STATE"))
        outputs += [(key, label, key.upper()) for key, label in ROSTER_EXTRA.get(self.rules.id, ())]
        outputs += [("conditions", "Conditions now", "CONDITIONS"), ("down", "0 HP or less", "DOWN")]
        if self.block.morale:
            outputs += [("morale", "Morale", "MORALE"), ("side_down", "Side down", "SIDE_DOWN")]
        for key, label, defined in outputs:
            r.add(key, label)
            self.name(r, key, f"ROSTER_{defined}")
        self.head(r)
        working(r)
        r.add("dexv", "DEX (as a number)")
        r.add("start", "HP at the start")
        r.add("log_hp", "HP after the log")
        r.add("lethal_hp", "HP after the log's normal damage")  # subdual damage does not wound
        r.add("state_hp", "HP whose band names the state")
        r.add("down_lethal", "normal damage taken while down")
        r.add("record_key", "Place on the fight record")
        self.name(r, "record_key", "ROSTER_RECORD_KEY")
        for key in ("last_word", "short_auto", "short", "named_no", "acted", "sorted", "waiting"):
            r.add(key, key)
        r.add("first_now_row", "its first log row of the round now (0: none)")
        r.add("passed_at", "the first log row of the round now that passes it in the acting order")
        if rule.later_dice:
            r.add("attacks", "attacks its initiative rolls give it")
        elif self.block.attacks_each_round:
            r.add("attacks", "attacks each round (typed, the creature's, else the default)")
        r.add("kind_used", "the creature's name the line looks up")
        r.add("crow", "its line on the Creatures sheet")
        for key, label, defined in library_columns(self.ruleset):  # typed, else the creature's
            r.add(f"use_{key}", f"{label} in use")
            self.name(r, f"use_{key}", f"ROSTER_{defined}_IN_USE")
        self.name(r, "short", "ROSTER_SHORT")  # the short name the log takes (typed, or initials)
        self.name(r, "named_no", "ROSTER_NAMED_NO")
        self.name(r, "acted", "ROSTER_ACTED")  # attacks logged this round
        self.name(r, "waiting", "ROSTER_WAITING")  # place in the acting order while yet to act
        for s in dice:
            r.add(f"s_{s.id}", s.label)
            self.name(r, f"s_{s.id}", f"ROSTER_{s.id.upper()}")
        if self.block.hit_points.loss:
            for key in ("bleed_loss", "bleed_top", "bleed_low", "bleed_since", "bleed_stop", "bleed_lost"):
                r.add(key, key)
            self.name(r, "bleed_loss", "ROSTER_BLEED_LOSS")  # the fight record says who bleeds
            self.name(r, "bleed_stop", "ROSTER_BLEED_STOP")  # and whose bleeding a heal stopped
        self.name(r, "start", "ROSTER_HP_AT_START")

    def finish_roster(self) -> None:
        r = self.roster
        for row in r.rows_range():
            for key, formula in self.roster_formulas(row).items():
                cell = put_formula(self.sheet.cell(row, r.index[key]), formula)
                if key not in HIDDEN_ROSTER and not key.startswith(("bleed_", "use_")):
                    mark_output(cell)
                if key in ("together", "down", "stunned"):
                    cell.number_format = TRUE_ONLY
                if key in ("state", "conditions", "note"):  # a long text shrinks rather than being cut
                    cell.alignment = SHRINK

    def derived_formula(
        self,
        output: str,
        wiring: Mapping[str, str],
        block: Columns,
        row: int,
        prefix: str,
        cells: dict[int, RowCell],
    ) -> str:
        """``output`` of the calculator worked out on this row with these inputs (its working cells
        become hidden columns named prefix + name, added to ``cells``); the expression of its value."""
        order, used = self.calculator.shared_closure([output])
        replace = {
            name: f"({wiring[name]})" if name in wiring else literal(self.calculator.inputs[name])
            for name in used
        }
        for name in order:
            key = prefix + name
            if key not in block.index:
                block.add(key, name)
            replace[name] = block.at(key, row)
        for name in order:
            formula = substitute(self.calculator.formulas[name], replace)
            cells[block.index[prefix + name]] = RowCell(formula, self.calculator.formats[name])
        return replace[output]

    def write_conditions(self) -> None:
        c = self.conditions
        put_formula(
            self.sheet.cell(c.top - 1, 1),
            q("Conditions (type the round it starts and how many rounds it lasts)"),
        ).font = SUBTITLE
        for key, label, defined in (
            ("target", "Combatant", "COND_TARGET"),
            ("name", "Condition", "COND_NAME"),
            ("start", "Starts in round", "COND_START"),
            ("rounds", "Lasts (rounds; empty: as the table says, else until cleared)", "COND_ROUNDS"),
        ):
            c.add(key, label)
            self.name(c, key, defined)
            for row in c.rows_range():
                mark_input(put(self.sheet.cell(row, c.index[key]), None))
        for key, label, defined in (
            ("ends", "Last round", "COND_LAST_ROUND"),
            ("active", "Active now", "COND_ACTIVE"),
            ("effect", "Effect", "COND_EFFECT"),
        ):
            c.add(key, label)
            self.name(c, key, defined)
        self.head(c)
        working(c)
        c.add("text", "Shown on the roster")
        c.add("key", "Slot on the roster")
        add_list(self.sheet, c.span("target").replace("$", ""), "=ROSTER_NAME")
        if self.block.conditions:
            add_list(  # a condition of the GM's own is kept (no effect, lasts until cleared)
                self.sheet,
                c.span("name").replace("$", ""),
                "=" + table_name(self.block.conditions, "label"),
                strict=False,
            )
        for key in ("start", "rounds"):
            add_number_check(self.sheet, c.span(key).replace("$", ""), 1)
        for row in c.rows_range():
            at = lambda key, row=row: c.at(key, row)  # noqa: E731
            blank = f'OR({at("target")}="",{at("name")}="",{at("start")}="")'
            rounds = at("rounds")
            if self.block.conditions:  # empty: the table's fixed rounds, if it gives them
                listed = by_label(self.block.conditions, "rounds", at("name"))
                rounds = f'IF(ISNUMBER({rounds}),{rounds},IFERROR(IF({listed}="","",{listed}),""))'
            formulas = {
                "ends": f'IF(OR({blank},{rounds}=""),"",{at("start")}+{rounds}-1)',
                "active": f'IF({blank},"",AND({at("start")}<=ENC_ROUND_NOW,OR({at("ends")}="",ENC_ROUND_NOW<={at("ends")})))',
                "effect": f'IFERROR({by_label(self.block.conditions, "effect", at("name"))},"")'
                if self.block.conditions
                else '""',
                "text": f'IF({at("ends")}="",{at("name")},{at("name")}&" (to round "&{at("ends")}&")")',
                "key": f'IF({at("active")}=TRUE,{at("target")}&"#"&COUNTIFS({c.span("target", row)},{at("target")},{c.span("active", row)},TRUE),"")',
            }
            for key, formula in formulas.items():
                cell = put_formula(self.sheet.cell(row, c.index[key]), formula)
                if key in ("ends", "active", "effect"):
                    mark_output(cell)
                if key == "active":
                    cell.number_format = BOOLEAN_FORMAT
