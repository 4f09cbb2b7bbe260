"""The shared attack functions (``pycalc.udfs.shared``: d20_need, d20_result, d20_hit_chance,
d20_chance, d20_effect, d20_damage, d20_expected_damage, d20_damage_chance_at_least,
d20_kill_chance) for the shipped rulesets whose Attack calculator is the generic one, called as xlwings
calls them (floats, None for an empty cell, text), against that calculator
(``resolution_calculator.attack_outputs``) given the same inputs and the same picks read from the
Picks text as the Encounter log reads it. The round's odds of several attacks are checked against
one attack's odds put together by hand."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pycalc import d20, log_picks
from pycalc.resolution_calculator import CalculatorInputs, attack_outputs
from pycalc.resolution_summary import EFFECT
from pycalc.tables import load_ruleset
from pycalc.udfs import shared

GENERIC = d20.D20_RULESETS  # every one's Attack calculator is the generic one
NAMES = {r: [p.name for p in log_picks.named_picks(load_ruleset(r))] for r in GENERIC}
DICE = ["1d4", "1d6+1", "2d4-1", "1d8+2", "d10", "2d6"]
HEALTH = [HealthCheck.too_slow]


@st.composite
def typed_attack(draw: st.DrawFn, ruleset: str) -> dict:
    """One attack as a GM types it: numbers, rolls, dice and up to two picks (two of one choice
    table, or one named twice, make the Picks text unknown)."""
    picks = draw(st.lists(st.sampled_from(NAMES[ruleset]), max_size=2))
    return {
        "bonus": draw(st.integers(-5, 15)),
        "target": draw(st.integers(-2, 30)),
        "mods": draw(st.integers(-6, 6)),
        "level": draw(st.integers(0, 12)),
        "roll": draw(st.integers(1, 20)),
        "follow_roll": draw(st.none() | st.integers(1, 20)),
        "chart_roll": draw(st.none() | st.integers(1, 4)),
        "dice": draw(st.sampled_from(DICE)),
        "damage_roll": draw(st.none() | st.integers(1, 8)),
        "damage_bonus": draw(st.integers(-2, 3)),
        "picks": ", ".join(picks),
    }


def inputs_of(ruleset: str, cells: dict) -> tuple[CalculatorInputs, bool]:
    """The calculator's inputs for the same cells, and whether the Picks text reads."""
    read = log_picks.row_picks(load_ruleset(ruleset), cells["picks"])
    numbers = {k: cells[k] for k in ("bonus", "target", "mods", "level", "roll", "follow_roll", "dice")}
    more = {k: cells[k] for k in ("chart_roll", "damage_roll", "damage_bonus")}
    found = CalculatorInputs(**numbers, **more, choices=read.choices, toggles=read.toggles)
    return found, not read.unknown


def as_cells(cells: dict) -> dict:
    """The cells as xlwings hands them over: numbers as floats, an empty cell as None, text as str."""
    return {k: float(v) if isinstance(v, int) else v for k, v in cells.items()}


@pytest.mark.parametrize("ruleset", GENERIC)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_attack_functions_say_what_the_calculator_says(ruleset: str, data: st.DataObject):
    cells = data.draw(typed_attack(ruleset))
    inputs, readable = inputs_of(ruleset, cells)
    c = as_cells(cells)
    b, t, m, lv, roll, picks = (c[k] for k in ("bonus", "target", "mods", "level", "roll", "picks"))
    follow, chart = c["follow_roll"], c["chart_roll"]
    got = {
        "need": shared.d20_need(ruleset, b, t, m, picks),
        "result": shared.d20_result(ruleset, roll, b, t, m, lv, follow, picks),
        "hit": shared.d20_hit_chance(ruleset, b, t, m, lv, picks),
        "chances": [shared.d20_chance(ruleset, o, b, t, m, lv, picks) for o in d20.OUTCOMES],
        "effect": shared.d20_effect(ruleset, roll, b, t, m, lv, follow, chart, picks),
    }
    if not readable:
        assert set(map(str, [*got.values()][:3])) == {log_picks.UNKNOWN}
        return
    before = attack_outputs(load_ruleset(ruleset), CalculatorInputs(**{**inputs.__dict__, "roll": None}))
    after = attack_outputs(load_ruleset(ruleset), inputs)
    if str(before["ATTACK_RESULT"]).startswith("#"):  # a pick rules the attack out: it says why,
        assert {got["need"], got["result"], got["effect"]} == {before["ATTACK_RESULT"]}
        certain_miss = [float(outcome == d20.MISS) for outcome in d20.OUTCOMES]
        assert (got["hit"], got["chances"]) == (0, certain_miss)  # and has no chance of anything
        return
    assert got["need"] == before["ATTACK_NEED"]
    assert got["hit"] == float(before["ATTACK_HIT_CHANCE"])
    assert got["result"] == after["ATTACK_RESULT"]
    exact = dict(zip(d20.OUTCOMES, got["chances"], strict=True))
    assert exact[d20.HIT] + exact[d20.CRITICAL] == pytest.approx(got["hit"], abs=1e-12)
    assert exact[d20.CRITICAL] == float(before["ATTACK_CRIT_CHANCE"])
    assert exact[d20.FUMBLE] == float(before["ATTACK_FUMBLE_CHANCE"])
    assert sum(exact.values()) == pytest.approx(1, abs=1e-12)
    if str(after["ATTACK_RESULT"]).startswith("#"):
        assert got["effect"] == after["ATTACK_RESULT"]
    else:
        words = [str(after.get(n, "")) for n in (EFFECT, "ATTACK_CHART_EFFECT")]
        messages = [w[w.index("#") :] for w in words if "#" in w]  # a chart roll off its die
        assert got["effect"] == (messages[0] if messages else "; ".join(w for w in words if w))


@pytest.mark.parametrize("ruleset", GENERIC)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=HEALTH)
@given(data=st.data())
def test_the_damage_is_the_calculator_s(ruleset: str, data: st.DataObject):
    cells = data.draw(typed_attack(ruleset))
    inputs, readable = inputs_of(ruleset, cells)
    c = as_cells(cells)
    got = shared.d20_damage(
        ruleset,
        *(c[k] for k in ("roll", "bonus", "target", "dice", "damage_roll", "mods", "follow_roll")),
        None,
        *(c[k] for k in ("level", "damage_bonus", "picks")),
    )
    if not readable:
        assert got == log_picks.UNKNOWN
        return
    found = attack_outputs(load_ruleset(ruleset), inputs)
    want = found["ATTACK_RESULT"] if str(found["ATTACK_RESULT"]).startswith("#") else found["ATTACK_DAMAGE"]
    assert got == want


@pytest.mark.parametrize("ruleset", GENERIC)
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=HEALTH)
@given(data=st.data(), hp=st.integers(1, 25), attacks=st.integers(0, 3))
def test_the_odds_are_the_calculator_s_and_add_up_over_the_round(
    ruleset: str, data: st.DataObject, hp: int, attacks: int
):
    cells = data.draw(typed_attack(ruleset))
    inputs, readable = inputs_of(ruleset, cells)
    head = (ruleset, float(cells["bonus"]), float(cells["target"]), cells["dice"])
    tail = (float(cells["mods"]), float(cells["damage_bonus"]), float(cells["level"]), cells["picks"])
    expected = shared.d20_expected_damage(*head, float(attacks), *tail)
    kill = shared.d20_kill_chance(*head, float(hp), float(attacks), *tail)
    at_least = shared.d20_damage_chance_at_least(*head, float(hp), float(attacks), *tail)
    if not readable:
        assert {expected, kill, at_least} == {log_picks.UNKNOWN}
        return
    one = attack_outputs(load_ruleset(ruleset), CalculatorInputs(**{**inputs.__dict__, "hp": hp}))
    assert shared.d20_expected_damage(*head, 1.0, *tail) == float(one["ATTACK_EXPECTED_DAMAGE"])
    assert expected == pytest.approx(attacks * float(one["ATTACK_EXPECTED_DAMAGE"]), abs=1e-9)
    assert shared.d20_kill_chance(*head, float(hp), 1.0, *tail) == float(one["ATTACK_KILL_CHANCE"])
    assert kill == at_least  # a target of hp hit points drops once the attacks deal at least hp

    def one_at_least(amount: int) -> float:
        return 1.0 if amount <= 0 else shared.d20_damage_chance_at_least(*head, float(amount), 1.0, *tail)

    # two attacks by hand: the first deals exactly a, the second at least hp - a
    exactly = {a: one_at_least(a) - one_at_least(a + 1) for a in range(hp)}
    two = one_at_least(hp) + sum(p * one_at_least(hp - a) for a, p in exactly.items())
    assert shared.d20_kill_chance(*head, float(hp), 2.0, *tail) == pytest.approx(two, abs=1e-9)
