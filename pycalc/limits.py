"""The limits of what a cell function accepts, in one place (the README's "Limits of the UDFs").

Each keeps every call well inside 50 ms and every result exact in a cell's double; past a limit a
function answers with a '#...' message naming it.
"""

from pycalc.grid_limits import MAX_DICE, MAX_SIDES

WHOLE_NUMBER = 1_000_000_000  # any whole-number argument: -1e9 to 1e9
DICE_COUNT = 1000  # dice in one expression (dice_max, dice_mean, falling damage text)
DICE_SIDES = 1000
DICE_MODIFIER = 1_000_000
# The exact odds take what the .xlsx's native dice grid takes: 8 dice of at most 12 sides (8d12).
ODDS_DICE_COUNT = MAX_DICE
ODDS_DICE_SIDES = MAX_SIDES
ATTACKS = 10  # attacks in one round for the odds
HIT_POINTS = 200  # hit points or damage amounts for the odds (kill chance, chance of at least)
EXACT_IN_A_CELL = 2**53  # the largest whole number a cell's double holds exactly
FALLING_FEET = 100_000
RANGE_ROWS = 1000  # rows of a range passed to an array function (strike_results)
