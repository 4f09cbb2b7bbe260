"""The bodies the d20 rulesets' UDFs share (``pycalc.udfs.d20_attack`` readers, ``pycalc.udfs.d20_odds``):
each ruleset's UDF gives what its own engine gives, and the shared readers keep each ruleset's messages."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pycalc import d20, lite, oxt, resolution_chances, udfs
from pycalc import resolution as generic
from pycalc.errors import RuleError
from pycalc.tables import load_ruleset
from pycalc.udfs import cells, d20_attack


def test_outcomes_are_read_in_any_case_and_listed_in_the_message():
    assert d20_attack.as_outcome(" fumble ") == d20.FUMBLE
    with pytest.raises(RuleError, match=r"^#RESULT\? use Miss, Hit, Critical, Fumble$"):
        d20_attack.as_outcome("Crit")
    three = (d20.MISS, d20.HIT, d20.CRITICAL)
    assert d20_attack.as_outcome("HIT", three, "Miss, Hit or Critical") == d20.HIT
    with pytest.raises(RuleError, match=r"^#RESULT\? use Miss, Hit or Critical$"):
        d20_attack.as_outcome("Fumble", three, "Miss, Hit or Critical")


def test_the_target_is_named_as_the_ruleset_names_it():
    assert d20_attack.d20_attack(2.0, 15.0, None) == d20.Attack(2, 15, 0, 0)
    assert udfs.d20_hit_chance("osr", 2.0, None).startswith("#TARGET? target:")


def test_arg_docs_are_the_xw_arg_decorators_in_their_order():
    (udf,) = [u for u in lite.declared_udfs(["shared"]) if u.name == "d20_need"]
    assert list(oxt.arg_options(udf)) == ["ruleset", "bonus", "target", "mods", "picks"]


def test_any_hit_counts_the_criticals():
    chances = resolution_chances.chances(load_ruleset("combat17"), generic.Attack(3, 15, 1))
    assert udfs.d20_hit_chance("combat17", 3.0, 15.0, 1.0) == float(chances[d20.HIT] + chances[d20.CRITICAL])
    assert udfs.d20_chance("combat17", "Hit", 3.0, 15.0, 1.0) == float(chances[d20.HIT])


def test_cells_read_fractions_texts_and_picker_rows():
    assert cells.as_fraction(0.3, "REDUCTION", Fraction(0)) == Fraction(3, 10)
    assert cells.as_fraction(" ", "REDUCTION", Fraction(1)) == 1
    with pytest.raises(RuleError, match=r"^#REDUCTION\? a number, not TRUE/FALSE$"):
        cells.as_fraction(True, "REDUCTION", Fraction(0))
    assert cells.optional_text("  ") is None and cells.optional_text(" Made ") == "Made"
    rules = load_ruleset("bfrpg")
    stances = rules.table("defense_stance").rows
    assert cells.as_choice(rules, "defense_stance", None) == stances[0].label
    assert cells.as_choice(rules, "defense_stance", stances[-1].id) == stances[-1].label
    with pytest.raises(RuleError, match=r"^#ATTACKER.S DEFENSIVE STANCE THIS ROUND\? one of Normal fighting"):
        cells.as_choice(rules, "defense_stance", "Asleep")
