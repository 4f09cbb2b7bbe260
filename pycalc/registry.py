"""Every ruleset the build knows, behind one protocol (``Ruleset``), imported statically.

A ruleset is its tables (the YAML folder), how an attack roll resolves, the situation its Attack or
Strike calculator works out from the picked rows and typed numbers, its odds, its subsystems (the
other calculators: falling, grappling, jousting, mass combat ...), what its Encounter sheet needs
(``pycalc.encounter_rulesets.Adapter``), its Excel functions (``pycalc.udfs`` modules) and the
writer of its calculator sheets. The five shipped rulesets have Python of their own for each
(``SHIPPED``); a ruleset written in YAML alone, with a resolution block, takes the generic engine's
(``generic_ruleset``). ``ruleset_of`` gives either.

Each layer keeps the registry it needs to stay below the others (``pycalc.d20_engines.ENGINES`` for
the Excel functions, ``pycalc.encounter_rulesets.ADAPTERS`` for the Encounter sheet); this module
sits above them all and names the same objects (``tests/test_registry.py`` checks they agree), so
nothing below imports it and no import cycle can go through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, ModuleType
from typing import Any, Protocol, runtime_checkable

from openpyxl.workbook.workbook import Workbook

import pycalc.udfs.bfrpg_joust
import pycalc.udfs.bfrpg_parry
import pycalc.udfs.cnc_falling
import pycalc.udfs.cnc_moves
import pycalc.udfs.cnc_special_ac
import pycalc.udfs.cnc_subdual
import pycalc.udfs.combat17_brawling
import pycalc.udfs.combat17_missiles
import pycalc.udfs.combat17_subdual
import pycalc.udfs.osr_grappling
import pycalc.udfs.osr_mass_combat
import pycalc.udfs.osr_normal_men
import pycalc.udfs.osr_saves
import pycalc.udfs.shared
import pycalc.udfs.spelljammer
from pycalc import d20_engines, encounter_rulesets, resolution_calculator, resolution_results
from pycalc.encounter_rulesets import Adapter
from pycalc.rulesets import (
    bfrpg_joust,
    bfrpg_parry,
    cnc_falling,
    cnc_movement,
    cnc_special_ac,
    cnc_subdual,
    combat17_brawling,
    combat17_rate_of_fire,
    combat17_scatter,
    combat17_subdual,
    osr,
    osr_grappling,
    osr_mass_combat,
    osr_normal_men,
    osr_saves,
    spelljammer,
    spelljammer_calculator,
)
from pycalc.sheets import bfrpg as bfrpg_sheets
from pycalc.sheets import cnc as cnc_sheets
from pycalc.sheets import combat17 as combat17_sheets
from pycalc.sheets import d20 as generic_sheets
from pycalc.sheets import osr as osr_sheets
from pycalc.sheets import spelljammer as spelljammer_sheets
from pycalc.sheets.dual import Udfs
from pycalc.tables import RuleSet, load_ruleset

CalculatorWriter = Callable[[Workbook, RuleSet, Udfs], None]
"""Writes a ruleset's calculator sheets into a book (``with_udfs``: the .xlsx's native formulas, the
.xlsm's Excel functions, or both texts, see ``pycalc.sheets.dual``)."""

Calculator = Callable[..., dict[str, object]]
"""A calculator as the engine works it out: (rules, its inputs ...) -> each output cell's value."""


@runtime_checkable
class Ruleset(Protocol):
    """What the build, the Encounter sheet and the Excel functions use of a ruleset."""

    @property
    def id(self) -> str:
        """The ruleset's id: its folder under tables/, the workbook's file name."""
        ...

    def tables(self) -> RuleSet:
        """Its tables, loaded (from tables/<id>/)."""
        ...

    @property
    def resolution(self) -> Callable[..., str]:
        """(rules, attack, roll, follow roll ...) -> the outcome of one attack roll."""
        ...

    @property
    def situation(self) -> Calculator:
        """The Attack (or Strike) calculator: its picked rows and typed numbers -> its outputs."""
        ...

    @property
    def odds(self) -> Calculator:
        """The Odds sheet's numbers for the calculator's situation."""
        ...

    @property
    def subsystems(self) -> Mapping[str, Callable[..., Any]]:
        """Its other calculators and rules by name (falling, grapple, joust ...); none for a ruleset
        written in YAML alone."""
        ...

    def encounter(self, rules: RuleSet) -> Adapter:
        """What its Encounter sheet needs: the roster's numbers, the wiring of a log row."""
        ...

    @property
    def udfs(self) -> tuple[ModuleType, ...]:
        """The ``pycalc.udfs`` modules holding its Excel functions: its own (named after it), then its
        subsystems' (``osr_grappling``...)."""
        ...

    @property
    def sheets(self) -> CalculatorWriter:
        """The writer of its calculator sheets."""
        ...


@dataclass(frozen=True)
class ShippedRuleset:
    """A ruleset shipped with its own Python (tables/<id>/ and pycalc/rulesets/<id>.py ...)."""

    id: str
    resolution: Callable[..., str]
    situation: Calculator
    odds: Calculator
    udfs: tuple[ModuleType, ...]
    sheets: CalculatorWriter
    subsystems: Mapping[str, Callable[..., Any]] = field(default_factory=dict)

    def tables(self) -> RuleSet:
        return load_ruleset(self.id)

    def encounter(self, rules: RuleSet) -> Adapter:
        """Its adapter (the generic one where its Attack calculator is the generic one), with the roster
        numbers its encounter block adds (Attacks each round)."""
        return encounter_rulesets.adapter(rules)


@dataclass(frozen=True)
class GenericRuleset:
    """A ruleset written in YAML alone: its resolution block drives the generic engine and sheets."""

    rules: RuleSet
    resolution: Callable[..., str] = resolution_results.resolve
    situation: Calculator = resolution_calculator.attack_outputs
    odds: Calculator = resolution_calculator.odds_outputs
    udfs: tuple[ModuleType, ...] = (pycalc.udfs.shared,)
    sheets: CalculatorWriter = generic_sheets.write_calculators
    subsystems: Mapping[str, Callable[..., Any]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.rules.id

    def tables(self) -> RuleSet:
        return self.rules

    def encounter(self, rules: RuleSet) -> Adapter:
        return encounter_rulesets.generic_adapter(rules)


def d20_resolution(ruleset_id: str) -> Callable[..., str]:
    return d20_engines.ENGINES[ruleset_id].result


SHIPPED: Mapping[str, ShippedRuleset] = MappingProxyType(
    {
        "cnc": ShippedRuleset(
            "cnc",
            d20_resolution("cnc"),
            resolution_calculator.attack_outputs,  # its Attack calculator is the generic one
            resolution_calculator.odds_outputs,
            (
                pycalc.udfs.cnc_falling,
                pycalc.udfs.cnc_moves,
                pycalc.udfs.cnc_special_ac,
                pycalc.udfs.cnc_subdual,
            ),
            cnc_sheets.write_calculators,
            {
                "falling": cnc_falling.falling,
                "disarm": cnc_special_ac.disarm_ac,
                "grapple": cnc_special_ac.grapple_ac,
                "touch": cnc_special_ac.touch_ac,
                "movement": cnc_movement.action_move,
                "charge": cnc_movement.charge_verdict,
                "subdual": cnc_subdual.subdual_normal,
            },
        ),
        "osr": ShippedRuleset(
            "osr",
            d20_resolution("osr"),
            resolution_calculator.attack_outputs,  # its Attack calculator is the generic one
            resolution_calculator.odds_outputs,
            (
                pycalc.udfs.osr_grappling,
                pycalc.udfs.osr_mass_combat,
                pycalc.udfs.osr_normal_men,
                pycalc.udfs.osr_saves,
            ),
            osr_sheets.write_calculators,
            {
                "fumble": osr.fumble_effect,
                "grapple": osr_grappling.grapple_outputs,
                "mass_combat": osr_mass_combat.mass_outputs,
                "normal_men": osr_normal_men.normal_men_outputs,
                "save": osr_saves.save_outputs,
                "spell": osr_saves.spell_outputs,
            },
        ),
        "combat17": ShippedRuleset(
            "combat17",
            d20_resolution("combat17"),
            resolution_calculator.attack_outputs,  # its Attack calculator is the generic one
            resolution_calculator.odds_outputs,
            (
                pycalc.udfs.combat17_brawling,
                pycalc.udfs.combat17_missiles,
                pycalc.udfs.combat17_subdual,
            ),
            combat17_sheets.write_calculators,
            {
                "brawling": combat17_brawling.brawl_outputs,
                "subdual": combat17_subdual.subdual_outputs,
                "rate_of_fire": combat17_rate_of_fire.shots_fired,
                "scatter": combat17_scatter.scatter,
            },
        ),
        "bfrpg": ShippedRuleset(
            "bfrpg",
            d20_resolution("bfrpg"),
            resolution_calculator.attack_outputs,  # its Attack calculator is the generic one
            resolution_calculator.odds_outputs,
            (
                pycalc.udfs.bfrpg_joust,
                pycalc.udfs.bfrpg_parry,
            ),
            bfrpg_sheets.write_calculators,
            {
                "joust": bfrpg_joust.joust_outputs,
                "parry": bfrpg_parry.parry_outputs,
            },
        ),
        "spelljammer": ShippedRuleset(
            "spelljammer",
            spelljammer.resolve,
            spelljammer_calculator.outputs,
            spelljammer_calculator.odds_outputs,
            (pycalc.udfs.spelljammer,),
            spelljammer_sheets.write_calculators,
            {
                "damage": spelljammer.damage_taken,
                "stun": spelljammer.is_stunned,
                "wounds": spelljammer.wound_modifier,
                "defending": spelljammer.defending_bonus,
                "casting": spelljammer.spell_goes_off,
                "shooting": spelljammer.targets_friend,
            },
        ),
    }
)


def generic_ruleset(rules: RuleSet) -> GenericRuleset | None:
    """The generic engine's ruleset for ``rules`` (None when its YAML has no resolution block: it
    gets reference sheets only)."""
    return GenericRuleset(rules) if rules.resolution_block is not None else None


def ruleset_of(rules: RuleSet) -> Ruleset | None:
    """The ruleset of these tables: a shipped one by its id, else the generic engine's (None when
    there is no resolution block either)."""
    return SHIPPED.get(rules.id) or generic_ruleset(rules)
