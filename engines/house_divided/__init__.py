"""A House Divided (GDW 1981/1989, Frank Chadwick), the advanced rules: the American Civil War 1861-65 in
up to 40 monthly turns, Union against Confederacy, on a point-to-point map the players describe.

Every roll is one d6. The source is a Japanese translation of the advanced rules only: the basic game's
numbers, the map and the leader ratings are the players' entries. Digest: ../shared/rules/house_divided.md
(prefix HD); the source text wins any disagreement.
"""
from companion.engine import Engine, Procedure

from . import anytime, battle_steps, movement, turn_end, turn_start  # noqa: F401  (they register the actions)
from .actions import actions as ACTIONS
from .battle_command import battle_command_inputs, battle_command_odds, resolve_battle_command
from .border_states import border_state_inputs, border_state_odds, resolve_border_state
from .command import marches_inputs, marches_odds, resolve_marches
from .desertion import desertion_inputs, desertion_odds, resolve_desertion
from .example import example_setup
from .fire import fire_inputs, fire_odds, resolve_fire
from .garrison import garrison_inputs, garrison_odds, resolve_garrison
from .intervention import fi_return_inputs, fi_return_odds, resolve_fi_return
from .morale import morale_inputs, morale_odds, resolve_morale
from .options import OPTIONS
from .rally import rally_inputs, rally_odds, resolve_rally
from .rules import RULES, SIDES
from .state import new_state, state_from_dict
from .washington import resolve_washington, washington_inputs, washington_odds

PROCEDURES = (
    Procedure("marches", resolve_marches, marches_odds, marches_inputs, ("HD-4.1", "HD-5.2")),
    Procedure("battle_command", resolve_battle_command, battle_command_odds, battle_command_inputs,
              ("HD-4.2", "HD-5.6")),
    Procedure("fire", resolve_fire, fire_odds, fire_inputs, ("HD-4.10", "HD-4.3")),
    Procedure("morale", resolve_morale, morale_odds, morale_inputs, ("HD-4.4",)),
    Procedure("rally", resolve_rally, rally_odds, rally_inputs, ("HD-4.5",)),
    Procedure("desertion", resolve_desertion, desertion_odds, desertion_inputs, ("HD-4.6",)),
    Procedure("washington", resolve_washington, washington_odds, washington_inputs, ("HD-4.7", "HD-5.10")),
    Procedure("border_state", resolve_border_state, border_state_odds, border_state_inputs, ("HD-4.8",)),
    Procedure("fi_return", resolve_fi_return, fi_return_odds, fi_return_inputs, ("HD-4.9",)),
    Procedure("garrison", resolve_garrison, garrison_odds, garrison_inputs, ("HD-4.11",)),
)

ENGINE = Engine(
    slug="house_divided",
    title="A House Divided (advanced rules)",
    players="2 (Union and Confederacy)",
    sides=SIDES,
    rules=RULES,
    options=OPTIONS,
    procedures=PROCEDURES,
    actions=ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    example_setup=example_setup,
    summary="The Civil War in 40 turns: command by year, battle days, morale, desertion, supply on your map.",
)
