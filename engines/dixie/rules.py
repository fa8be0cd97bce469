"""Dixie: Gettysburg: every table and constant of the rules, tagged with its rule ID.

Digest: ../shared/rules/dixie.md (prefix DX); the Japanese source text wins any disagreement.
Nothing else in the engine hard-codes a table value.
"""
from __future__ import annotations

from companion.engine import DieTable

CSA, USA = "CSA", "USA"
SIDES = (CSA, USA)  # DX-5.0: the CSA takes the first turn of the game
FIRST_SIDE = CSA

RULES = {
    "DX-1.0": "Cards and their printed fields",
    "DX-2.0": "Battle deck",
    "DX-2.1": "No duplicate card numbers",
    "DX-2.2": "Muster and reinforcement deck",
    "DX-3.1": "Stacking limit",
    "DX-3.2": "Deployment",
    "DX-3.3": "Terrain deployment",
    "DX-4.0": "Victory: occupy enemy-line positions",
    "DX-5.0": "Battle turn: morale, combat, movement, reinforcement",
    "DX-6.0": "Morale checks",
    "DX-7.0": "Combat: firing cards, one position at a time",
    "DX-7.1": "Combat value: one die per CV",
    "DX-7.2": "Firepower by arm and range",
    "DX-7.3": "Hits, levelled by the owner",
    "DX-8.0": "Movement",
    "DX-8.1": "Advance (engaging)",
    "DX-8.2": "Disengage",
    "DX-8.3a": "Disorder",
    "DX-8.3b": "Cavalry and leader double moves",
    "DX-9.0": "Reinforcements",
    "DX-10.2": "Playing terrain",
    "DX-10.3": "Terrain effects serve the holder",
    "DX-11.0a": "Terrain: up to two per position",
    "DX-11.1a": "Terrain and stacking",
    "DX-11.0b": "Leaders",
    "DX-11.1b": "Leader morale command",
    "DX-11.2": "Leader stack command",
    "DX-11.3": "Leader hits and the leader death check",
    "DX-12.0": "Special cards",
    "DX-13.1": "Melee (advanced)",
    "DX-13.2": "Enfilade (advanced)",
    "DX-13.3": "Flank attack (advanced)",
    "DX-13.4": "Counter-battery (advanced)",
    "DX-13.5": "Artillery support (advanced)",
    "DX-13.6": "Decoys (advanced)",
    "DX-13.7": "Corps command (advanced)",
    "DX-13.8": "Extended line (advanced)",
    "DX-13.9": "Custom battle decks (advanced)",
    "DX-14.0": "Historical three-day battle",
}

# DX-1.0: the card types and the unit arms among them.
INF, CAV, ART, LDR, TER, SPC = "INF", "CAV", "ART", "LDR", "TER", "SPC"
TYPES = (INF, CAV, ART, LDR, TER, SPC)
UNITS = (INF, CAV, ART)
ARM_NAMES = {INF: "infantry", CAV: "cavalry", ART: "artillery"}
CV_RANGE = (1, 4)  # DX-7.1: units have CV 1-4

# DX-6.0: morale = CV + the code's modifier. Other letters need a modifier entered by the players (A18).
MORALE_CODES = {"A": 1, "B": 0, "C": -1}
NATURAL_PASS, NATURAL_FAIL = 1, 6  # DX-6.0: a natural 1 always passes, a natural 6 always fails

# DX-7.2: firepower F (a die <= F hits) by arm and situation.
INF_F = 2
CAV_F = {"attacking": 1, "defending": 3}
USUAL_ART_F = {"fp_long": (1, 2), "fp_short": (2, 3)}  # printed long / short range; other values only warn
F_RANGE = (1, 3)  # DX-7.2: there are F1, F2 and F3 and no other firepower (digest section 10)
HORSE_ARTILLERY = 3  # DX-7.2: the Gettysburg set has 3 horse artillery cards

# DX-13.1: melee firepower by arm.
MELEE_F = {INF: 3, CAV: 3, ART: 1}

# DX-13.2: enfilade firepower by the line the firer stands in, whatever its arm.
ENFILADE_F = {"own": 1, "enemy": 2}

# DX-13.3: the flank-attack check adds these to CV + code.
FLANK_MORALE = {INF: 0, CAV: 1, ART: -1}

# DX-11.3: each natural 6 of enemy fire into a leader's position is a leader hit; a 6 on a leader check kills.
LEADER_HIT_FACE = 6
LEADER_DEATH = DieTable("DX-11.3", {f: f == 6 for f in range(1, 7)}, "Leader check")


def support_table(f: int) -> DieTable:
    """DX-13.5: a long-range die into an engaged position: <= F enemy hit, 5 friendly hit, 6 enemy leader hit."""
    return DieTable("DX-13.5", {face: "enemy" if face <= f else "friendly" if face == 5 else
                                "leader" if face == 6 else "none" for face in range(1, 7)},
                    f"Artillery support F{f}")


SUPPORT_OUTCOMES = ("enemy", "friendly", "leader", "none")

# DX-3.1 / DX-11.0a / DX-11.0b / DX-11.2 / DX-12.0: stacking and what a position may hold.
STACK_LIMIT = 4
MAX_TERRAIN = 2
MAX_LEADERS = 1          # per side and position (A4)
STACK_BONUS = (0, 1, 2)
MAX_SPECIALS = 2         # per position and phase, different cards
MOST_UNITS = STACK_LIMIT + max(STACK_BONUS) * (MAX_LEADERS + MAX_SPECIALS)  # a side's units in one position, at most

# Not a rule: the most dice the companion takes in one throw (a whole position's fire, a leader's checks), far
# above any table's (10 units of CV 4, an artillery leader's +1, printed modifiers); a runaway number is refused
# by name instead of rolled.
MOST_DICE = 100

# DX-2.0 / DX-2.2 / DX-13.8 / DX-14.0: battle decks and musters by mode, and reinforcement draws (DX-9.0).
DECK_SIZE = {"basic": {CSA: 24, USA: 30}, "extended": {CSA: 40, USA: 50}, "historical": {CSA: 48, USA: 60}}
MUSTER = {"basic": 18, "extended": 30, "historical": 18}
DRAWS = {"basic": {CSA: 1, USA: 2}, "extended": {CSA: 1, USA: 2}, "historical": {CSA: 1, USA: 1}}

# DX-13.9: battle-point budgets for custom decks, by line width.
BP_BUDGET = {3: {CSA: 270, USA: 300}, 5: {CSA: 450, USA: 500}}

# DX-14.0: per-day flow: (muster or night draw, reinforcement deck) by day and side.
DAY_FLOW = {1: {CSA: (18, 6), USA: (18, 6)}, 2: {CSA: (6, 6), USA: (12, 6)}, 3: {CSA: (6, 6), USA: (12, 6)}}
DAYS = 3

# DX-3.0 / DX-13.8: the positions of a line, from the line owner's left, and the victory count (DX-4.0).
SLOTS = {3: ("L", "C", "R"), 5: ("1", "2", "3", "4", "5")}
TO_WIN = {3: 2, 5: 3}
TERRAIN_CODES = ("L", "C", "R")
CODE_IN_FIVE = {"L": "1", "C": "3", "R": "5"}  # DX-13.8: where a printed code sits in a 5-position line

# DX-13.6: the cards that may be placed face-down as decoys.
DECOY_TYPES = (LDR, SPC, TER)

# DX-8.3b: cavalry and leaders may move twice; horse artillery never (DX-7.2).
MAX_MOVES = {INF: 1, CAV: 2, ART: 1, LDR: 2}

# DX-13.7: leader ranks (digest section 10).
RANKS = ("army", "wing", "corps", "division", "cavalry", "artillery")

# DX-10.3 / DX-12.0: structured modifiers printed on terrain and special cards.
MODIFIER_KINDS = ("morale", "fire_cv", "fire_in_cv", "enfilade_in_cv")
TERRAIN_SIDES = ("holder", "attacker", "both")
SPECIAL_SIDES = ("own", "enemy", "both")
SPECIAL_TIMING = ("own", "enemy")
