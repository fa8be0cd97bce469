"""Battle at Bull Run (White Dog Games, 2009): First Bull Run, 21 July 1861, in 15 half-hour turns.

Solitaire (the human Union against the CSA action table) or two players; every roll is one d6.
Digest: ../shared/rules/bull_run.md (prefix BR); the source text wins any disagreement.
"""
from companion.engine import Engine, Procedure, no_inputs

from . import attacks  # noqa: F401  (registers the combat actions)
from .actions import actions as ACTIONS
from .combat import (
    attack_sequence_odds,
    combat_inputs,
    combat_odds,
    resolve_attack_sequence,
    resolve_combat,
    sequence_inputs,
)
from .crossing import crossing_odds, resolve_crossing
from .example import example_setup
from .fire import fire_inputs, fire_odds, resolve_fire
from .flank import awareness_inputs, awareness_odds, farm_ford_odds, resolve_awareness, resolve_farm_ford
from .hesitation import hesitation_inputs, hesitation_odds, resolve_hesitation
from .initiative import initiative_odds, resolve_initiative
from .options import OPTIONS
from .retreat import resolve_retreat_check, retreat_check_odds
from .rules import RULES, SIDES
from .solitaire import action_inputs, action_odds, resolve_action
from .state import new_state, state_from_dict


PROCEDURES = (
    Procedure("initiative", resolve_initiative, initiative_odds, no_inputs, ("BR-6.0",)),
    Procedure("beauregard_crossing", resolve_crossing, crossing_odds, no_inputs, ("BR-8.3",)),
    Procedure("flank_awareness", resolve_awareness, awareness_odds, awareness_inputs, ("BR-8.4a",)),
    Procedure("farm_ford", resolve_farm_ford, farm_ford_odds, no_inputs, ("BR-8.4b",)),
    Procedure("csa_action", resolve_action, action_odds, action_inputs, ("BR-9.0",)),
    Procedure("hesitation", resolve_hesitation, hesitation_odds, hesitation_inputs, ("BR-10.2",)),
    Procedure("fire", resolve_fire, fire_odds, fire_inputs, ("BR-10.4", "BR-10.5")),
    Procedure("retreat_check", resolve_retreat_check, retreat_check_odds, no_inputs, ("BR-11.1",)),
    Procedure("combat", resolve_combat, combat_odds, combat_inputs, ("BR-10.1", "BR-11.1")),
    Procedure("attack_sequence", resolve_attack_sequence, attack_sequence_odds, sequence_inputs,
              ("BR-10.1", "BR-11.1")),
)

ENGINE = Engine(
    slug="bull_run",
    title="Battle at Bull Run",
    players="1 (solitaire, against the CSA action table) or 2",
    sides=SIDES,
    rules=RULES,
    options=OPTIONS,
    procedures=PROCEDURES,
    actions=ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    example_setup=example_setup,
    summary="First Bull Run, 21 July 1861: 15 half-hour turns, brigades in SP, one d6 for every roll.",
)
