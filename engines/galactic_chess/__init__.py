"""Galactic Chess Game, "heroic history" v2.01 (doujin circle SOLGER, 2012): a 3-5 player card game of
fleet battles between the Empire and the Alliance, each player building cliques in both camps.

Players enter their own printed cards; every roll is a d6 (the order roll, roll-offs) or 2d6.
Digest: ../shared/rules/galactic_chess.md (prefix GC); the Japanese source text wins any disagreement.
"""
from companion.engine import Engine, Procedure, no_inputs

from . import allocation, fighting, plotting, responses  # noqa: F401  (register the plot, battle and free actions)
from .actions import actions as ACTIONS
from .duel import (
    duel_inputs,
    duel_odds,
    resolve_duel,
    resolve_strike,
    strike_inputs,
    strike_odds,
)
from .example import example_setup
from .options import OPTIONS
from .order import (
    grand_offensive_odds,
    order_inputs,
    order_roll_odds,
    resolve_grand_offensive,
    resolve_order_roll,
    resolve_sortie_size,
    sortie_size_odds,
)
from .outlook import BATTLE_RULES, battle_inputs, battle_odds, resolve_battle
from .plots import (
    plot_inputs,
    plot_odds,
    plot_roll_inputs,
    plot_roll_odds,
    resolve_plot,
    resolve_plot_roll,
)
from .retreat import (
    resolve_retreat,
    resolve_retreat_roll,
    retreat_inputs,
    retreat_odds,
    retreat_roll_inputs,
    retreat_roll_odds,
)
from .rolloff import resolve_roll_off, roll_off_inputs, roll_off_odds
from .rules import RULES
from .state import new_state, state_from_dict

PROCEDURES = (
    Procedure("order_roll", resolve_order_roll, order_roll_odds, order_inputs, ("GC-5",)),
    Procedure("grand_offensive", resolve_grand_offensive, grand_offensive_odds, no_inputs, ("GC-5",)),
    Procedure("sortie_size", resolve_sortie_size, sortie_size_odds, order_inputs, ("GC-5",)),
    Procedure("strike", resolve_strike, strike_odds, strike_inputs, ("GC-6B.5",)),
    Procedure("duel", resolve_duel, duel_odds, duel_inputs, ("GC-6B.5",)),
    Procedure("retreat_roll", resolve_retreat_roll, retreat_roll_odds, retreat_roll_inputs, ("GC-6B.6",)),
    Procedure("retreat", resolve_retreat, retreat_odds, retreat_inputs, ("GC-6B.6",)),
    Procedure("plot_roll", resolve_plot_roll, plot_roll_odds, plot_roll_inputs,
              ("GC-6A.32", "GC-6A.33a", "GC-7.12", "GC-7.21")),
    Procedure("plot", resolve_plot, plot_odds, plot_inputs, ("GC-6A.32", "GC-6A.33a")),
    Procedure("roll_off", resolve_roll_off, roll_off_odds, roll_off_inputs, ("GC-6B.4r", "GC-9.13r")),
    Procedure("battle", resolve_battle, battle_odds, battle_inputs, BATTLE_RULES),
)

ENGINE = Engine(
    slug="galactic_chess",
    title="Galactic Chess Game",
    players="3 to 5",
    sides=("EMP", "FPA", "FEZ", "NOBLE", "MCSR"),
    rules=RULES,
    options=OPTIONS,
    procedures=PROCEDURES,
    actions=ACTIONS,
    new_state=new_state,
    state_from_dict=state_from_dict,
    example_setup=example_setup,
    summary="Fleet battles between Empire and Alliance: order rolls, sorties, duels, plots, Iserlohn, civil war.",
)
