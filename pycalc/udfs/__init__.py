"""Excel user-defined functions (xlwings): ``UDF Modules = pycalc.udfs`` gives Excel all of them.

Excel sees each function under its Python name (case-insensitive). Arguments arrive as xlwings
delivers them: numbers as floats, empty cells as None, ranges as lists. A bad argument returns a
short text starting with '#' that says what is wrong; no function raises into Excel. The modules
only use ``import xlwings as xw`` with ``xw.func/arg/ret`` and pure-Python dependencies, so they also
serve xlwings Lite.

One module per ruleset and per subsystem of it, one for what the rulesets share, one for reading
cells, one for reading a d20 attack, one for the odds:

- ``cells``: reading cell values (numbers, fractions, text, TRUE/FALSE, ranges, a picker's row), the
  limits, the '#...' messages, the arguments' docs (``arg_docs``);
- ``d20_attack``: a d20 attack read from the cells (its numbers, its result, a target that cannot be
  attacked), the same for every d20 ruleset; it declares no UDF of its own;
- ``d20_odds``: the words of the odds functions' common arguments; it declares no UDF of its own;
- ``shared``: the attack of every d20 ruleset (its Attack calculator is the generic one): d20_need,
  d20_result, d20_hit_chance, d20_chance, d20_effect, d20_damage and the odds (d20_expected_damage,
  d20_damage_chance_at_least, d20_kill_chance), d20_check; crit_effect, fumble_effect; modifier, hp_state (the
  Encounter's hit point states of any ruleset), dice_*;
- ``surprise``: surprise_range, surprise_chance, surprise_outcome: a die for each side, of any ruleset
  whose encounter block has ``surprise:`` (osr, bfrpg, the GM's own);
- ``spelljammer``: strike_*, stun, wounds, defending, casting, shooting, and the d100 odds;
- ``bfrpg`` and ``combat17``: what each ruleset's functions share (they declare none);
- ``<id>_<subsystem>`` (``osr_grappling``, ``bfrpg_joust``...): one of its subsystems' functions, over the
  engine module of the same name (``pycalc.rulesets.osr_grappling``).
"""

from pycalc.udfs.bfrpg_joust import *  # noqa: F403
from pycalc.udfs.bfrpg_parry import *  # noqa: F403
from pycalc.udfs.cnc_falling import *  # noqa: F403
from pycalc.udfs.cnc_moves import *  # noqa: F403
from pycalc.udfs.cnc_special_ac import *  # noqa: F403
from pycalc.udfs.cnc_subdual import *  # noqa: F403
from pycalc.udfs.combat17_brawling import *  # noqa: F403
from pycalc.udfs.combat17_missiles import *  # noqa: F403
from pycalc.udfs.combat17_subdual import *  # noqa: F403
from pycalc.udfs.osr_grappling import *  # noqa: F403
from pycalc.udfs.osr_mass_combat import *  # noqa: F403
from pycalc.udfs.osr_normal_men import *  # noqa: F403
from pycalc.udfs.osr_saves import *  # noqa: F403
from pycalc.udfs.shared import *  # noqa: F403
from pycalc.udfs.spelljammer import *  # noqa: F403
from pycalc.udfs.surprise import *  # noqa: F403
