"""灰に硝煙と青き天: every table and constant of the rules, tagged with its rule ID.

Digest: ../shared/rules/border_states.md (prefix BS; the IDs are the digest's, keyed to the source's
■/◆ headings); the Japanese source text wins any disagreement. What the source does not give (the
board's adjacency and values, the tracks, commander and card texts) is the players' board file.
"""
from __future__ import annotations

from companion.engine import DieTable

C, U = "C", "U"
SIDES = (C, U)
SIDE_NAME = {C: "CSA", U: "Union"}

RULES = {
    "BS-SETUP": "Setup and deployment",
    "BS-DRAW": "Draw phase",
    "BS-INIT": "Initiative phase",
    "BS-ACT": "Action phase",
    "BS-RET": "Retreat roll",
    "BS-CMB": "Combat phase",
    "BS-CARD": "One card per side in each combat",
    "BS-MOD": "Modified faces are clamped to 1-6",
    "BS-VIC": "Victory check",
    "BS-VIC.1": "Rounds 1-3: the CSA wins with 10 VP",
    "BS-VIC.2": "Round 4: the higher VP wins, ties to the Union",
    "BS-VIC.3": "Force cuts and stars on the damage track",
    "BS-SUP": "Supply phase",
    "BS-REC": "Recruitment phase",
    "BS-VAR.2": "Variant: a hidden supply-dice bid for initiative",
    "BS-D.1": "Placement limits",
    "BS-D.2": "Combat and control",
    "BS-D.3": "Maximum force",
    "BS-D.4": "Move",
    "BS-D.5": "Entrench",
    "BS-D.6": "Retreat",
    "BS-D.7": "Actions",
    "BS-D.8": "Supply dice",
    "BS-D.9": "Decks and hands",
    "BS-D.10": "Commander succession",
    "BS-D.11": "Removed units",
    "BS-D.12": "Public information",
}

ROUNDS = 4                                   # BS-SETUP: the round track
PHASES = ("draw", "initiative", "action", "combat", "victory", "supply", "recruit")

# BS-SETUP: deployment, the CSA first, alternating, into own-side border states.
DEPLOY = {C: 8, U: 7}
SUPPLY_START = {C: 16, U: 18}                # the variant: 18 and 20 (with a cap of 20)
SUPPLY_START_VARIANT = {C: 18, U: 20}

# The eight border states the source names (their sides, numbers and VP come from the board file).
EAST = ("West Virginia", "Maryland", "Virginia", "North Carolina")
WEST = ("Kentucky", "Tennessee", "Missouri", "Arkansas")
BORDER_STATES = EAST + WEST
HOME_STATES = {U: 6, C: 5}                   # the count of each side's home states

# BS-DRAW: 2 cards each; whoever controls North Carolina draws 1 more.
DRAW = 2
DRAW_BONUS_STATE = "North Carolina"
DRAW_BONUS = 1

# BS-D.1: placement limits.
HOME_LIMIT = 1
BORDER_LIMIT = 3

MAX_FORCE = 10                               # BS-D.3, less the force cut on the damage square (A7)

# BS-D.8 / BS-SUP: supply.
SUPPLY_CAP = 18                              # the variant: 20
SUPPLY_CAP_VARIANT = 20
SUPPLY_GAIN = {U: 6, C: 5}                   # as many as the side's home states
SUPPLY_BONUS_STATES = ("Kentucky", "Tennessee")  # +1 each to the side controlling it (A13)

# BS-CMB: combat dice.
ENTRENCH_BONUS = 1                           # CMB.2: +1 die in all for an entrenched defender
SUPPLY_PER_UNIT = 2                          # CMB.4: up to 2 supply dice per unit in the state
CARD_LIMIT = 1                               # BS-CARD: one card per side in each combat
FACE_MIN, FACE_MAX = 1, 6                    # BS-MOD

# BS-RET: 3-6 succeeds.
RETREAT = DieTable("BS-RET", {f: f >= 3 for f in range(1, 7)}, "Retreat")

# BS-VIC.1: the CSA wins at once with 10 VP in rounds 1-3.
SUDDEN_VP = 10

# BS-D.10: commander cards; U's second and third faces are unnamed in the source (A14).
COMMANDER_FACES = {C: 2, U: 4}
COMMANDER_NAMES = {C: ("Robert E. Lee", "Robert E. Lee (fatigued)"),
                   U: ("George B. McClellan", "Union commander 2", "Union commander 3", "Ulysses S. Grant")}

DICE_IN_BOX = 50                             # the about page: 50 dice are needed (A17)

# Card effects the companion applies (digest section 10); anything else is resolved by hand. MODIFY k changes a
# face by exactly the signed k printed; only MODIFY_EITHER k (a card that lets the player choose) takes +k or -k.
EFFECTS = ("ADD_STOCK_DICE", "ADD_FACE", "MODIFY", "MODIFY_EITHER", "COSTS_ACTION", "FREE_TEXT")
FACE_EFFECTS = ("ADD_FACE", "MODIFY", "MODIFY_EITHER")   # played on a throw, before the keep (BS-CARD)
