"""How large a dice expression the workbooks' native dice grid takes (a sheet size, not a rule).

The engine needs the same limits and message as the sheet, so that both say the same for dice the
.xlsx cannot compute natively; the UDFs take the same (pycalc.limits)."""

MAX_DICE = 8
MAX_SIDES = 12
BEYOND_GRID = f"#DICE? NdS+M with up to {MAX_DICE} dice of up to {MAX_SIDES} sides"


def fits_grid(count: int, sides: int) -> bool:
    """The grid takes ``count`` dice of ``sides`` sides."""
    return 1 <= count <= MAX_DICE and 1 <= sides <= MAX_SIDES


def beyond_grid_formula(prefix: str) -> str:
    """The same message as a formula over the grid's named limits."""
    return f'"#DICE? NdS+M with up to "&{prefix}_MAX_DICE&" dice of up to "&{prefix}_MAX_SIDES&" sides"'
