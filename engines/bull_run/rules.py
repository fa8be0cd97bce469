"""Battle at Bull Run: every table and constant of the rules, tagged with its rule ID.

Digest: ../shared/rules/bull_run.md (prefix BR); the Japanese source text wins any disagreement.
Nothing else in the engine hard-codes a table value.
"""
from __future__ import annotations

from companion.engine import DieTable

UNION, CSA = "UNION", "CSA"
SIDES = (UNION, CSA)
NORTH, SOUTH = "north", "south"

RULES = {
    "BR-2.4": "Play sheet: unit table and SP track",
    "BR-3.0": "Victory conditions",
    "BR-3.0a": "Union victory: hold the O&A 'To Manassas' hex",
    "BR-3.0b": "CSA victory: hold Centerville",
    "BR-3.0c": "Victory by destroying the enemy",
    "BR-4.0": "Setup",
    "BR-5.1": "Sequence of play",
    "BR-6.0": "Initiative",
    "BR-7.0": "Reinforcements",
    "BR-8.1": "Movement allowance and terrain costs",
    "BR-8.2": "Stacking and zones of control",
    "BR-8.3": "Beauregard's confusion",
    "BR-8.4a": "CSA flank awareness",
    "BR-8.4b": "Finding Farm Ford",
    "BR-8.4c": "No CSA move west of Stone Bridge until aware",
    "BR-8.4d": "No Union crossing at Farm Ford until found",
    "BR-9.0": "Solitaire: CSA action table",
    "BR-9.1": "Solitaire: CSA orders A-E",
    "BR-9.2": "Solitaire: CSA attacks",
    "BR-9.3": "Solitaire: target choice",
    "BR-9.4": "Solitaire: hits on Union units",
    "BR-9.5": "Solitaire: CSA advance and retreat",
    "BR-10": "Combat",
    "BR-10.1": "Combat procedure",
    "BR-10.2": "Combat initiative and McDowell's hesitation",
    "BR-10.3": "Allocating hits",
    "BR-10.4": "Fire: the combat results table",
    "BR-10.5": "Combat die modifiers",
    "BR-11.1": "Retreat check",
    "BR-11.2": "Advance after retreat",
    "BR-12.0": "Victory table",
}

# BR-5.1: 15 turns of about 30 minutes, from 08:30.
TURNS = 15
FIRST_TURN_MINUTES = 8 * 60 + 30
TURN_MINUTES = 30


def _faces(result_of) -> dict[int, object]:
    return {face: result_of(face) for face in range(1, 7)}


# BR-6.0: 1-3 Union, 4-6 CSA.
INITIATIVE = DieTable("BR-6.0", _faces(lambda f: UNION if f <= 3 else CSA), "Initiative")

# BR-8.3: a grey (Beauregard) unit crosses Bull Run northward on 5-6.
BEAUREGARD_CROSSING = DieTable("BR-8.3", _faces(lambda f: f >= 5), "Beauregard's confusion")

# BR-8.4a: the CSA scouts warn of the flank march on 5-6.
SCOUTS = DieTable("BR-8.4a", _faces(lambda f: f >= 5), "Flank awareness")

# BR-8.4b: the Union finds Farm Ford on 5-6.
FARM_FORD = DieTable("BR-8.4b", _faces(lambda f: f >= 5), "Farm Ford")

# BR-10.2: a Union stack south of Bull Run attacks only on 5-6.
HESITATION = DieTable("BR-10.2", _faces(lambda f: f >= 5), "McDowell's hesitation")

# BR-11.1: 4-6 the stack retreats one hex, 1-3 it stays.
RETREAT_CHECK = DieTable("BR-11.1", _faces(lambda f: f >= 4), "Retreat check")

# BR-9.0: the solitaire CSA action table; the column is the count of Union units south of Bull Run.
ACTION_COLUMNS = ("none", "1-3", "4+")
ACTION_TABLE = {
    "none": DieTable("BR-9.0", {1: "A", 2: "A", 3: "A", 4: "A", 5: "B", 6: "B"}, "CSA action"),
    "1-3": DieTable("BR-9.0", _faces(lambda f: "C"), "CSA action"),
    "4+": DieTable("BR-9.0", {1: "D", 2: "D", 3: "E", 4: "E", 5: "E", 6: "E"}, "CSA action"),
}

# BR-9.1: the orders, in plain words, with the units each one names.
ORDERS = {
    "A": ("Attack on Centerville",
          "Bonham, Jones and Ewell cross Bull Run and take Centerville, attacking any Union stack in the way.",
          ("Bonham", "Jones", "Ewell")),
    "B": ("Hold in place",
          "CSA units stay where they are; units already across Bull Run carry on with their task.",
          ()),
    "C": ("Reinforcements attack a ford",
          "Order A, plus Bee and Bartow (reinforcements) attack either ford; units already across Bull Run "
          "carry on with their task.",
          ("Bonham", "Jones", "Ewell", "Bee", "Bartow")),
    "D": ("Counterattack",
          "If Sudley Ford has been crossed, Evans and Cocke go to Henry Hill. All reserves (Bartow, Bee, "
          "Jackson, Smith) are committed against the Union incursion south of Bull Run. An attack on "
          "Centerville under way and not blocked goes on, but no new units are sent to it. Hold defensive "
          "positions; attack only with numerical superiority.",
          ("Evans", "Cocke", "Bartow", "Bee", "Jackson", "Smith")),
    "E": ("General counterattack",
          "Order D, plus: the units attacking Centerville return south of Bull Run to join the "
          "counterattack; Holmes and Ewell guard the western fords; Longstreet's large brigade is committed.",
          ("Evans", "Cocke", "Bartow", "Bee", "Jackson", "Smith", "Holmes", "Ewell", "Longstreet")),
}

# BR-10.4: the combat results table. Column = the firing stack's SP total; row = the modified roll.
CRT_COLUMNS = ((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12))
CRT_HITS = {  # modified roll -> hits per column; "<1" is every roll below 1
    "<1": (0, 0, 0, 0, 0, 0),
    1: (0, 0, 0, 0, 0, 1),
    2: (0, 0, 0, 0, 1, 1),
    3: (0, 0, 0, 1, 1, 1),  # the 11-12 cell as printed (A17)
    4: (0, 0, 1, 1, 2, 2),
    5: (0, 1, 1, 2, 2, 3),
    6: (1, 1, 2, 2, 3, 3),
}
CRT_RULE = "BR-10.4"
MAX_SP_ON_TABLE = 12  # BR-10.4: a total above 12 is off the table (A16)

# BR-10.5: modifiers to the firing roll.
DEFENSIVE_TERRAIN = ("hill", "woods")  # -1 when the target stack is in one of these (a town gives nothing)
TARGET_TERRAINS = ("clear", "town", "hill", "woods")
TERRAIN_MODIFIER = -1
FORD_MODIFIER = -2  # the attack is across a Bull Run ford
MODIFIER_RULE = "BR-10.5"

# BR-8.1: movement allowance and terrain costs (reconstructed, A1; None = may not enter).
MOVEMENT_ALLOWANCE = 4
TERRAIN_COSTS = {"clear": 2, "road": 1, "creek": None, "ford": 2, "bridge": 2, "town": 1, "hill": 2, "woods": 3}

# BR-8.2: at most 2 units per hex; a stack fights as one.
STACK_LIMIT = 2

# BR-12.0: D = Union SP lost - CSA SP lost.
VICTORY_TABLE = (
    (10, None, "CSA victory"),
    (5, 9, "CSA marginal victory"),
    (-4, 4, "Draw"),
    (-9, -5, "Union marginal victory"),
    (None, -10, "Union victory"),
)
VICTORY_RULE = "BR-12.0"

# BR-10 / play sheet: the expected size of the counter mix (a warning only, BR-2.4 and digest section 10).
COUNTERS = 25
