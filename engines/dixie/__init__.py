"""Dixie: Gettysburg (Columbia Games; rules version 1.0): a two-player card battle, CSA against USA, with
brigade and battery cards fighting over two lines of three positions across the Middle Ground.

Players use their own cards and dice; the companion tracks the battlefield, resolves every procedure by
the rules and shows exact odds. Digest: ../shared/rules/dixie.md (prefix DX); the Japanese source text wins
any disagreement.
"""
from companion.engine import Engine, Procedure

from . import combat_step, movement_step  # noqa: F401  (register the actions of the combat and Movement steps)
from .actions import actions as ACTIONS
from .counter_battery import (
    counter_battery_inputs,
    counter_battery_odds,
    resolve_counter_battery,
)
from .disorder import disorder_inputs, disorder_odds, resolve_disorder
from .enfilade import enfilade_inputs, enfilade_odds, resolve_enfilade
from .example import example_setup
from .fire import fire_inputs, fire_odds, resolve_fire
from .fire_effect import fire_effect_inputs, fire_effect_odds, resolve_fire_effect
from .flank import flank_inputs, flank_odds, resolve_flank
from .leaders import leader_check_inputs, leader_check_odds, resolve_leader_check
from .melee import (
    melee_inputs,
    melee_odds,
    melee_round_inputs,
    melee_round_odds,
    resolve_melee,
    resolve_melee_round,
)
from .morale import morale_inputs, morale_odds, resolve_morale
from .options import OPTIONS
from .rules import RULES, SIDES
from .state import new_state, state_from_dict
from .support import resolve_support, support_inputs, support_odds

PROCEDURES = (
    Procedure("morale", resolve_morale, morale_odds, morale_inputs, ("DX-6.0",)),
    Procedure("leader_check", resolve_leader_check, leader_check_odds, leader_check_inputs, ("DX-11.3",)),
    Procedure("fire", resolve_fire, fire_odds, fire_inputs, ("DX-7.1", "DX-7.2", "DX-11.3")),
    Procedure("fire_effect", resolve_fire_effect, fire_effect_odds, fire_effect_inputs,
              ("DX-7.3", "DX-6.0", "DX-11.3", "DX-13.6")),
    Procedure("disorder", resolve_disorder, disorder_odds, disorder_inputs, ("DX-8.3a",)),
    Procedure("melee_round", resolve_melee_round, melee_round_odds, melee_round_inputs, ("DX-13.1",)),
    Procedure("melee", resolve_melee, melee_odds, melee_inputs, ("DX-13.1",)),
    Procedure("enfilade", resolve_enfilade, enfilade_odds, enfilade_inputs, ("DX-13.2",)),
    Procedure("flank_attack", resolve_flank, flank_odds, flank_inputs, ("DX-13.3",)),
    Procedure("counter_battery", resolve_counter_battery, counter_battery_odds, counter_battery_inputs,
              ("DX-13.4",)),
    Procedure("artillery_support", resolve_support, support_odds, support_inputs, ("DX-13.5",)),
)

ENGINE = Engine(
    slug="dixie",
    title="Dixie: Gettysburg",
    players="2",
    sides=SIDES,
    rules=RULES,
    options=OPTIONS,
    procedures=PROCEDURES,
    actions=ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    example_setup=example_setup,
    summary="Gettysburg, July 1863: brigade and battery cards over two lines of three positions; "
            "morale, fire and melee with d6.",
)
