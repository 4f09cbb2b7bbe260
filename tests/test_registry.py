"""The ruleset registry (``pycalc.registry``): every shipped ruleset behind the ``Ruleset`` protocol,
naming the same objects the layers below reach it by; a ruleset in YAML alone gets the generic one."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from pycalc import d20_engines, encounter_rulesets, lite, resolution
from pycalc.d20 import D20_RULESETS, OUTCOMES, Attack
from pycalc.registry import SHIPPED, GenericRuleset, Ruleset, ruleset_of
from pycalc.sheets import d20 as generic_sheets
from pycalc.sheets.workbook import calculator_writer
from pycalc.tables import RULESET_IDS, load_folder, load_ruleset

FIXTURE = Path(__file__).parent / "fixtures" / "tables" / "bx"


def test_every_shipped_ruleset_is_registered_behind_the_protocol():
    assert set(SHIPPED) == set(RULESET_IDS)
    for ruleset_id, ruleset in SHIPPED.items():
        assert isinstance(ruleset, Ruleset)
        assert ruleset.id == ruleset_id
        assert ruleset.tables().id == ruleset_id


def test_the_protocol_is_checked_not_assumed():
    class Partial:
        id = "partial"

        def tables(self) -> None: ...

    assert not isinstance(Partial(), Ruleset)


def test_the_registry_names_what_each_layer_reaches_a_ruleset_by():
    for ruleset_id, ruleset in SHIPPED.items():
        rules = load_ruleset(ruleset_id)
        found = ruleset.encounter(rules)
        own = encounter_rulesets.ADAPTERS.get(ruleset_id)
        if own is not None:
            assert found == encounter_rulesets.adapter(rules)
            assert found.wiring is own.wiring  # the shipped adapter's
        else:  # an Attack calculator of the generic writer: the generic adapter feeds it
            assert found.wiring == encounter_rulesets.generic_adapter(rules).wiring
        assert calculator_writer(rules) is ruleset.sheets
        assert ruleset.sheets.__module__ == f"pycalc.sheets.{ruleset_id}"
        # each module of its Excel functions is named after it (osr's attack is the shared functions')
        assert all(module.__name__.startswith(f"pycalc.udfs.{ruleset_id}") for module in ruleset.udfs)
        if ruleset_id in D20_RULESETS:
            assert ruleset.resolution == d20_engines.ENGINES[ruleset_id].result


def test_its_excel_functions_are_the_modules_its_lite_bundle_carries():
    shared = lite.bundle_udf_modules([])
    for ruleset_id, ruleset in SHIPPED.items():
        named = [module.__name__.removeprefix(f"{lite.UDF_PACKAGE}.") for module in ruleset.udfs]
        assert named == lite.bundle_udf_modules([ruleset_id])[len(shared) :], ruleset_id


def test_each_part_comes_from_the_rulesets_own_modules_or_the_generic_engine():
    for ruleset_id, ruleset in SHIPPED.items():
        own = f"pycalc.rulesets.{ruleset_id}"
        for part in (ruleset.resolution, ruleset.situation, ruleset.odds, *ruleset.subsystems.values()):
            assert callable(part) and part.__module__.startswith((own, "pycalc.resolution")), (
                ruleset_id,
                part,
            )
            assert next(iter(inspect.signature(part).parameters)) == "rules", part  # (rules, ...)


@pytest.mark.parametrize("ruleset_id", D20_RULESETS)
def test_a_shipped_d20_resolution_resolves(ruleset_id: str):
    rules = load_ruleset(ruleset_id)
    resolve = SHIPPED[ruleset_id].resolution
    results = {resolve(rules, Attack(bonus=5, target=12), roll, 10) for roll in range(1, 21)}
    assert results <= set(OUTCOMES) and len(results) >= 2


def test_a_ruleset_of_yaml_alone_gets_the_generic_engine():
    rules = load_folder(FIXTURE)
    found = ruleset_of(rules)
    assert isinstance(found, GenericRuleset) and isinstance(found, Ruleset)
    assert found.id == rules.id and found.tables() is rules
    assert found.sheets is generic_sheets.write_calculators is calculator_writer(rules)
    assert found.subsystems == {}
    assert found.encounter(rules).wiring == encounter_rulesets.adapter(rules).wiring
    assert found.resolution(rules, resolution.from_d20(Attack(5, 12)), 20, 1) in OUTCOMES


def test_a_ruleset_without_a_resolution_block_has_no_calculators():
    rules = dataclasses.replace(load_folder(FIXTURE), resolution_block=None)
    assert ruleset_of(rules) is None and calculator_writer(rules) is None
