"""灰に硝煙と青き天 -南北戦争- (shownanrocketiaz, 2023): two players, four rounds over the eight border
states of 1862, and a push-your-luck dice combat where the largest set of equal faces wins.

Digest: ../shared/rules/border_states.md (prefix BS); the Japanese source text wins any disagreement.
"""
from companion.engine import Engine, Procedure, no_inputs

from . import battle, manoeuvre, round  # noqa: F401 (each registers its actions)
from .example import example_setup
from .initiative import initiative_inputs, initiative_odds, resolve_initiative
from .optimal import prepare
from .options import OPTIONS
from .recruitment import recruit_inputs, recruit_odds, resolve_recruit
from .registry import actions as ACTIONS
from .retreat import resolve_retreat, retreat_odds
from .rules import RULES, SIDES
from .state import new_state, state_from_dict
from .throw import resolve_throw, throw_inputs, throw_odds


PROCEDURES = (
    Procedure("initiative", resolve_initiative, initiative_odds, initiative_inputs, ("BS-INIT", "BS-VAR.2")),
    Procedure("retreat", resolve_retreat, retreat_odds, no_inputs, ("BS-RET",)),
    Procedure("recruit", resolve_recruit, recruit_odds, recruit_inputs, ("BS-REC",)),
    Procedure("throw", resolve_throw, throw_odds, throw_inputs, ("BS-CMB",)),
)

ENGINE = Engine(
    slug="border_states",
    title="灰に硝煙と青き天 -南北戦争-",
    players="2",
    sides=SIDES,
    rules=RULES,
    options=OPTIONS,
    procedures=PROCEDURES,
    actions=ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    example_setup=example_setup,
    summary="1862, after Second Bull Run: four rounds over eight border states; the largest set of equal dice wins.",
    prepare=prepare,
)
