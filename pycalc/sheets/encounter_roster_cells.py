"""The roster's worked-out cells: hit points and states, initiative and order, creatures, short names,
bleeding, morale, conditions now. A part of ``pycalc.sheets.encounter.EncounterWriter``: its methods
read the writer's state set up there."""

from __future__ import annotations

from pycalc.creatures import NO_CREATURE
from pycalc.encounter import CONDITION_SLOTS, SPELL_LOST
from pycalc.encounter_rulesets import EACH_ROUND
from pycalc.encounter_state import NO_MORALE_ROW
from pycalc.sheets.common import (
    table_name,
)
from pycalc.sheets.encounter_cells import DICE_PARTS, RowCell, dice_text, expression, library_columns
from pycalc.sheets.formulas import band, by_label, last, q


class RosterCells:
    def roster_formulas(self, row: int) -> dict[str, str]:
        r, rule = self.roster, self.block.initiative
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        found = {
            **{
                f"s_{s.id}": dice_text(*(at(f"use_s_{s.id}_{part}") for part, _ in DICE_PARTS))
                for s in self.ruleset.stats
                if s.kind == "dice"
            },
            "dexv": f"SUM({at('use_dex')})",
            "start": f'IF({at("start_hp")}="",SUM({at("use_max_hp")}),{at("start_hp")})',
        }
        found |= self.from_creatures(row)
        adds = (
            f"{at('dexv')}"
            if rule.adds_dex is True
            else (f"IF({expression(rule.adds_dex)},{at('dexv')},0)" if rule.adds_dex else "0")
        )
        action = (
            f'IF({at("action")}="",0,{by_label(rule.modifiers, "init", at("action"))})'
            if rule.modifiers
            else "0"
        )
        previous = None
        for k in range(1 + len(rule.later_dice)):
            own, roll_span = at(f"roll{k}"), r.span(f"roll{k}")
            group = at("group")
            first = f"INDEX({roll_span},MATCH({group},{r.span('group')},0))"
            roll = f'IF(ISNUMBER({own}),{own},IF({group}="","",IF({first}="","",{first})))'
            raw = f'IF({named},"",IF({roll}="","",{roll}+{adds}+{action}))'
            key = "init" if k == 0 else f"later{k}"
            if previous is None:
                found[key] = raw
            else:
                delay = expression(rule.later_tie_delay)
                found[key] = f'IF(OR({raw}="",{previous}=""),{raw},IF({raw}={previous},{raw}-{delay},{raw}))'
            previous = at(key)
        init = at("init")
        ahead = f'COUNTIF({r.span("init")},">"&{init})'
        if rule.ties == "higher_dex":
            ahead += f'+COUNTIFS({r.span("init")},{init},{r.span("dexv")},">"&{at("dexv")})'
        found["order"] = f'IF({init}="","",1+{ahead})'
        order, group = at("order"), at("group")
        same = f"COUNTIF({r.span('order')},{order})"
        mine = f'IF({group}="",1,COUNTIFS({r.span("order")},{order},{r.span("group")},{group}))'
        found["together"] = f'IF({order}="","",{same}-{mine}>0)'
        if rule.lost_at_or_below is not None:
            limit = expression(rule.lost_at_or_below)
            counts = "+".join(f'IF({at(k)}="",0,{at(k)}<={limit})' for k in self.initiative_keys())
            found["lost"] = f'IF({named},"",{counts})'
        if (
            rule.later_dice
        ):  # the attacks its rolls give it this round (pycalc.encounter_checks.attacks_allowed)
            rolled = "COUNT(" + ",".join(at(k) for k in self.initiative_keys()) + ")"
            lost = f"-{at('lost')}" if rule.lost_at_or_below is not None else ""
            found["attacks"] = f'IF({named},"",IF({rolled}=0,"",{rolled}{lost}))'
        elif self.block.attacks_each_round:  # pycalc.encounter_checks.attacks_each_round
            used = at(f"use_s_{EACH_ROUND}")
            default = self.block.attacks_default
            fallback = '""' if default is None else expression(default)
            found["attacks"] = f'IF({named},"",IF({used}="",{fallback},{used}))'
        if rule.modifiers:
            found["spell"] = f'IF(OR({init}="",{at("cast")}=""),"",{init}-{at("cast")})'
            if self.block.spell_lost_on_hit:  # a row hit it while it cast: pycalc.encounter.SPELL_LOST
                place = f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
                lost = f"COUNTIF({self.log.ref('spell_hit')},{place})>0"
                found["spell"] = f"IF({lost},{q(SPELL_LOST)},{found['spell']})"
        if rule.first_round:
            title = self.rules.table(rule.first_round).title
            found["note"] = (
                f'IF(AND(NOT({named}),ENC_ROUND_NOW=1,{at("first")}=TRUE),{q("acts first: " + title)},"")'
            )
        log = self.log
        taken = self.over_targets(
            lambda key: (
                f'SUMIFS({log.ref("hp_lost")},{log.ref("who_" + key)},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
            )
        )
        found["log_hp"] = f"IF({named},0,{at('start')}-({taken}))"
        kinds = self.block.damage_kinds
        if "sub_taken" in r.index:
            pool = "+".join(
                f'SUMIFS({log.ref("sub_lost")},{log.ref("who_" + key)},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
                for key in self.target_keys
            )
            found["sub_taken"] = f'IF({named},"",{pool})'
            found["lethal_hp"] = f"IF({named},0,{at('log_hp')}+{at('sub_taken')})"
        else:
            found["lethal_hp"] = f"IF({named},0,{at('log_hp')})"
        if kinds is not None and kinds.further_damage_lethal:
            found["down_lethal"] = (
                f"IF({named},0,SUMIFS({log.ref('down_lethal')},{log.ref('who_target')},{at('name')},"
                f'{log.ref("round_now")},"<="&ENC_ROUND_NOW))'
            )
        else:
            found["down_lethal"] = "0"
        size, place = f"ROWS({r.span('name')})", f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
        found["record_key"] = (
            f'IF({named},"",IF(ISNUMBER({at("order")}),{at("order")},{size}+1)*{size}+{place})'
        )
        found |= self.short_name(row)
        found["named_no"] = f'IF({named},"",COUNTIF({r.span("name", row)},"?*"))'
        found["acted"] = (
            f"IF({named},0,COUNTIFS({log.ref('actor')},{place},{log.ref('round_now')},ENC_ROUND_NOW))"
        )
        found["sorted"] = f'IF({named},"",COUNTIF({r.span("record_key")},"<="&{at("record_key")}))'
        found["waiting"] = f'IF({named},"",IF(AND({at("acted")}=0,NOT({at("down")})),{at("sorted")},""))'
        if self.block.hit_points.loss:
            found |= self.bleeding(row)
            found["hp_now"] = f'IF({named},"",{at("log_hp")}-{at("bleed_lost")})'
        else:
            found["hp_now"] = f'IF({named},"",{at("log_hp")})'
        hit_points = self.block.hit_points
        sub = at("sub_taken") if "sub_taken" in r.index else "0"
        # the wound's band once the normal damage alone takes one to 0 or below (pycalc.encounter)
        found["state_hp"] = f"IF({named},0,IF({at('hp_now')}+{sub}<=0,{at('hp_now')}+{sub},{at('hp_now')}))"
        state = band(hit_points.table, hit_points.state, at("state_hp"))
        if hit_points.start_band_exempt:
            starts = table_name(hit_points.table, "from")
            same = f"MATCH({at('state_hp')},{starts},1)=MATCH({at('start')},{starts},1)"
            state = f"IF({same},{last(hit_points.table, hit_points.state)},{state})"
        if "sub_taken" in r.index and kinds is not None and kinds.knocked_out:
            out = f"AND({sub}>0,{at('hp_now')}<=0,{at('hp_now')}+{sub}>0,{at('down_lethal')}=0)"
            state = f"IF({out},{band(hit_points.table, kinds.knocked_out, at('hp_now'))},{state})"
        found["state"] = f'IF({named},"",IFERROR({state},""))'
        found["down"] = f'IF({named},"",{at("hp_now")}<=0)'
        found |= self.passed(row)
        found["conditions"] = self.conditions_now(row)
        if self.block.morale:
            found |= self.morale(row)
        found |= self.roster_extra(row)
        return found

    def passed(self, row: int) -> dict[str, str]:
        """The acting-order hint (``pycalc.encounter_rows.order_hints``): the line's first log row of the
        round now, and the first row of the round now before it whose attacker acts later in the order
        (empty for a line unnamed, down or without initiative)."""
        r, log = self.roster, self.log
        at = lambda key: r.at(key, row)  # noqa: E731
        unnamed = f'{at("name")}=""'
        place = f"ROWS(${r.letter('name')}${r.top + 1}:{at('name')})"
        at_first = f"SUMIFS({log.ref('row_no')},{log.ref('actor')},{place},{log.ref('first_now')},TRUE)"
        past = f"(ROWS({log.ref('row_no')})+1)"
        first = f"IF({at('first_now_row')}=0,{past},{at('first_now_row')})"
        later = (
            f"SUMPRODUCT(MAX(({log.ref('aorder')}>{at('order')})*({log.ref('round_now')}=ENC_ROUND_NOW)"
            f"*({log.ref('row_no')}<{first})*({past}-{log.ref('row_no')})))"
        )
        skip = f"OR({unnamed},NOT(ISNUMBER({at('order')})),{at('down')}=TRUE"
        if "cast_round" in r.index:  # a caster this round: its spell is no log row
            skip += f",{at('cast_round')}=ENC_ROUND_NOW"
        if "spell" in r.index:
            skip += f',{at("spell")}<>""'
        skip += ")"
        return {
            "first_now_row": f"IF({unnamed},0,{at_first})",
            "passed_at": f'IF({skip},"",IF({later}=0,"",{past}-{later}))',
        }

    def from_creatures(self, row: int) -> dict[str, str]:
        """The creature the line names (its Kind, else its name without a last word of digits) and each
        library number in use: the one typed, else the creature's (the dice as a whole: the creature's
        when the line's three dice cells are empty). The model: pycalc.creatures."""
        r = self.roster
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        trimmed, last_word, kind = f"TRIM({at('name')})", at("last_word"), f"TRIM({at('kind')})"
        digits_gone = last_word
        for digit in "0123456789":
            digits_gone = f'SUBSTITUTE({digits_gone},"{digit}","")'
        by_name = f'IF({digits_gone}="",TRIM(LEFT({trimmed},LEN({trimmed})-LEN({last_word}))),{trimmed})'
        crow = at("crow")
        found = {
            "kind_used": f'IF({named},"",IF({kind}<>"",{kind},{by_name}))',
            "crow": f'IF({at("kind_used")}="","",IFERROR(MATCH({at("kind_used")},CREATURE_NAME,0),""))',
            "creature": f'IF({named},"",IF(ISNUMBER({crow}),INDEX(CREATURE_NAME,{crow}),'
            f'IF({kind}="","",{q(NO_CREATURE + ": ")}&{kind})))',
        }
        dice_typed = {
            s.id: "OR(" + ",".join(f'{at(f"s_{s.id}_{part}")}<>""' for part, _ in DICE_PARTS) + ")"
            for s in self.ruleset.stats
            if s.kind == "dice"
        }
        for key, _, defined in library_columns(self.ruleset):
            library = f"INDEX(CREATURE_{defined},{crow})"
            creature = f'IF(ISNUMBER({crow}),IF({library}="","",{library}),"")'
            typed = next((t for stat_id, t in dice_typed.items() if key.startswith(f"s_{stat_id}_")), None)
            if typed is None:
                typed = f'{at(key)}<>""'
            found[f"use_{key}"] = f'IF({typed},IF({at(key)}="","",{at(key)}),{creature})'
        return found

    def short_name(self, row: int) -> dict[str, str]:
        """The short name the log takes besides the name: the one typed, else the initials (g3 for
        Goblin 3, bk for Black Knight, a for Aria) unless a line above has it or a line typed it (the
        model: pycalc.encounter.short_names)."""
        r = self.roster
        at = lambda key: r.at(key, row)  # noqa: E731
        named = f'{at("name")}=""'
        trimmed, last_word = f"TRIM({at('name')})", at("last_word")
        spaces = f'LEN({trimmed})-LEN(SUBSTITUTE({trimmed}," ",""))'
        last_space = f'FIND("|",SUBSTITUTE({trimmed}," ","|",{spaces}))'  # the last word after it
        digits_gone = last_word
        for digit in "0123456789":
            digits_gone = f'SUBSTITUTE({digits_gone},"{digit}","")'
        more = f'IF({digits_gone}="",{last_word},LOWER(LEFT({last_word},1)))'
        auto, typed = at("short_auto"), at("short_typed")
        taken = [f"COUNTIF({r.span('short', row - 1)},{auto})>0"] if row > r.top + 1 else []
        taken.append(f"COUNTIF({r.span('short_typed')},{auto})>0")
        return {
            "last_word": f'IF({named},"",IF(ISNUMBER(FIND(" ",{trimmed})),MID({trimmed},{last_space}+1,LEN({trimmed})),{trimmed}))',
            "short_auto": f'IF({named},"",LOWER(LEFT({trimmed},1))&IF(ISNUMBER(FIND(" ",{trimmed})),{more},""))',
            "short": f'IF({named},"",IF({typed}<>"",{typed},IF(OR({",".join(taken)}),"",{auto})))',
        }

    def bleeding(self, row: int) -> dict[str, str]:
        """Hit points lost to a band that loses them each round (C&C's -7 to -9), in every round after
        the round the log first brought the combatant there (0: it started there), until the round
        before it was aided, never below the band (the model: pycalc.encounter_state.bleeding)."""
        r, log, rule = self.roster, self.log, self.block.hit_points
        at = lambda key: r.at(key, row)  # noqa: E731
        hp, top = at("lethal_hp"), at("bleed_top")
        later = "ENC_ROUND_NOW+1"  # after every round that counts: no row reached the band

        def first_round(key: str) -> str:
            reached = f"({log.ref('who_' + key)}={at('name')})*({log.ref('hp_' + key)}<={top})"
            return f"SUMPRODUCT(MIN({reached}*{log.ref('round_now')}+(1-{reached})*({later})))"

        since = "MIN(" + ",".join(first_round(key) for key in self.target_keys) + ")"
        until = f"IF(ISNUMBER({at('aided')}),MIN(ENC_ROUND_NOW,{at('aided')}-1),ENC_ROUND_NOW)"
        if self.block.damage_kinds:  # a heal in a round after it reached the band stops it, as aid does
            until = f"MIN({until},{at('bleed_stop')}-1)"
            healed = (
                f"({log.ref('who_target')}={at('name')})*({log.ref('heal_ok')}=TRUE)"
                f"*({log.ref('round_now')}>{at('bleed_since')})"
            )
            stop = f"SUMPRODUCT(MIN({healed}*{log.ref('round_now')}+(1-{healed})*({later})))"
        bleeds = f'OR({at("name")}="",NOT(ISNUMBER({at("bleed_loss")})),{at("bleed_loss")}<=0)'
        return {
            "bleed_loss": f"IFERROR({band(rule.table, rule.loss, hp)},0)",
            "bleed_top": f"IFERROR({band(rule.table, 'to', hp)},0)",
            "bleed_low": f"IFERROR({band(rule.table, 'from', hp)},0)",
            "bleed_since": f"IF({bleeds},0,IF({at('start')}<={top},0,{since}))",
            **({"bleed_stop": f"IF({bleeds},0,{stop})"} if self.block.damage_kinds else {}),
            "bleed_lost": f"IF({bleeds},0,MIN({at('bleed_loss')}*MAX(0,{until}-{at('bleed_since')}),"
            f"{hp}-{at('bleed_low')}+1))",
        }

    def morale(self, row: int) -> dict[str, str]:
        """The GM's morale table read at the roll; how much of the combatant's side is down."""
        r, morale = self.roster, self.block.morale
        at = lambda key: r.at(key, row)  # noqa: E731
        low, high = table_name(morale.table, "roll_from"), table_name(morale.table, "roll_to")
        roll = at("morale_roll")
        index = (
            f"SUMPRODUCT(ISNUMBER({low})*({low}<={roll})*({high}>={roll})*(ROW({low})-ROW(INDEX({low},1))+1))"
        )
        result = f"IF({index}=0,{q(NO_MORALE_ROW)},INDEX({table_name(morale.table, 'result')},{index}))"
        side = at("side")
        down = f"COUNTIFS({r.span('side')},{side},{r.span('down')},TRUE)"
        size = f'COUNTIFS({r.span("side")},{side},{r.span("name")},"<>")'
        percent = expression(morale.check_at_percent)
        by_percent = f'": check morale ("&{percent}&"% down)"'
        first = (
            '""'
            if morale.check_at_down is None
            else f'IF({down}={expression(morale.check_at_down)},": check morale (the first down)","")'
        )
        check = f'IF({down}>=VALUE({percent}&"%")*{size},{by_percent},{first})'
        return {
            "morale": f'IF(OR({at("name")}="",NOT(ISNUMBER({roll}))),"",{result})',
            "side_down": f'IF(OR({at("name")}="",{side}=""),"",{down}&" of "&{size}&{check})',
        }

    def conditions_now(self, row: int) -> str:
        """The active conditions, CONDITION_SLOTS of them by name, then how many more."""
        c = self.conditions
        name = self.roster.at("name", row)
        slots = [
            f'IFERROR(INDEX({c.span("text")},MATCH({name}&"#{k}",{c.span("key")},0)),"")'
            for k in range(1, CONDITION_SLOTS + 1)
        ]
        joined = slots[0] + "".join(f'&IF({s}="","",", "&{s})' for s in slots[1:])
        count = f"COUNTIFS({c.span('target')},{name},{c.span('active')},TRUE)"
        shown = "+".join(f'({s}<>"")' for s in slots)  # no number typed into the formula
        more = f'IF({count}>{shown},", and "&({count}-({shown}))&" more","")'
        return f'IF({name}="","",{joined}&{more})'

    def roster_extra(self, row: int) -> dict[str, str]:
        if self.rules.id != "spelljammer":
            return {}
        r, log = self.roster, self.log
        at = lambda key: r.at(key, row)  # noqa: E731
        derived: dict[int, RowCell] = {}
        wound = self.derived_formula(
            "TARGET_WOUND_MOD",
            {"TARGET_HP": at("hp_now"), "TARGET_START_HP": at("start")},
            r,
            row,
            "rw_",
            derived,
        )
        self.write_row_cells(row, derived)
        stunned = f"COUNTIFS({log.ref('who_target')},{at('name')},{log.ref('round_now')},ENC_ROUND_NOW,{log.ref('shown_TARGET_STUNNED')},TRUE)>0"
        wear = f'SUMIFS({log.ref("wear")},{log.ref("who_target")},{at("name")},{log.ref("round_now")},"<="&ENC_ROUND_NOW)'
        prot = f'IF({at("use_s_prot")}="",0,{at("use_s_prot")})'
        return {
            "wound_mod": f'IF({at("name")}="","",{wound})',
            "stunned": f'IF({at("name")}="","",{stunned})',
            "prot_now": f'IF({at("name")}="","",MAX(0,{prot}-{wear}))',
        }
