"""A House Divided (advanced rules): every table and constant, tagged with its rule ID.

Digest: ../shared/rules/house_divided.md (prefix HD); the Japanese source text wins any disagreement.
Nothing else in the engine hard-codes a table value. Values the source lacks (the basic game's
combat strengths, the map, leader ratings, the MM track) are the players' entries, never set here.
"""
from __future__ import annotations

from companion.engine import DieTable

USA, CSA = "USA", "CSA"
SIDES = (USA, CSA)
SIDE_NAME = {USA: "Union", CSA: "CSA"}
NEUTRAL = "neutral"
ALIGNMENTS = (USA, CSA, NEUTRAL)  # the shield a box shows (digest section 8)

YEARS = (1861, 1862, 1863, 1864, 1865)
TURNS = 40  # HD-6.2: the CSA wins by surviving turn 40

INF, CAV = "inf", "cav"
ARMS = (INF, CAV)
MILITIA, VETERAN, CRACK = "militia", "veteran", "crack"
GRADES = (MILITIA, VETERAN, CRACK)  # the promotion order (HD-5.3)
FULL, REDUCED = "full", "reduced"
FACES = (FULL, REDUCED)

RAIL, RIVER, ROAD = "rail", "river", "road"
LINE_TYPES = (RAIL, RIVER, ROAD)
SUPPLY_LINES = (RAIL, RIVER)  # HD-5.1: supply runs on friendly rail and river lines (roads by option A18)

RULES = {
    "HD-2": "State to track",
    "HD-3": "Sequence of play",
    "HD-4.1": "Command Table: marches by die and year",
    "HD-4.2": "Battlefield command by day, with the half carry",
    "HD-4.3": "Leader firing bonus split",
    "HD-4.4": "Battlefield morale (rout)",
    "HD-4.5": "Rally",
    "HD-4.6": "Desertion and stragglers",
    "HD-4.7": "CSA capture of Washington",
    "HD-4.8": "Border-state support",
    "HD-4.9": "Return of foreign intervention units",
    "HD-4.10": "Basic fire (the players' basic rules)",
    "HD-4.11": "Coastal garrison",
    "HD-5.1": "Supply",
    "HD-5.2": "Marches",
    "HD-5.3": "Promotion",
    "HD-5.4": "Containment",
    "HD-5.5": "Entrenching in ports",
    "HD-5.6": "Firing limit",
    "HD-5.7": "Leaders",
    "HD-5.8": "Border states: one success per state",
    "HD-5.9": "Foreign intervention",
    "HD-5.10": "Washington: every capture",
    "HD-6.1": "Washington is not an automatic CSA win",
    "HD-6.2": "Basic-game victory (public sources)",
    "HD-6.3": "Victory re-checked after every MM change",
    "HD-8": "The players' map and its validation",
    "HD-A1": "The Command Table (not a morale table)",
    "HD-A2": "Battle command reads the same table as marches",
    "HD-A3": "The cap of 8 and the carried value",
    "HD-A4": "Leaders' rating in the carried value",
    "HD-A5": "When morale is checked",
    "HD-A6": "Desertion's -1 for units not routed when morale rules are off",
    "HD-A7": "Can routed units be hit",
    "HD-A8": "Grant and Sherman in desertion",
    "HD-A9": "Washington's rolled loss and the normal loss",
    "HD-A10": "Border-state year modifier",
    "HD-A11": "Foraging",
    "HD-A12": "Leaders and the 2-unit supply threshold",
    "HD-A13": "Coastal garrison strength, persistence and morale",
    "HD-A14": "Border states: once per success or one attempt",
    "HD-A15": "Foreign intervention condition 3",
    "HD-A16": "The raw march die",
    "HD-A17": "Supply sources",
    "HD-A18": "Friendly lines; road supply",
    "HD-A19": "Foreign intervention supply",
    "HD-A20": "Containment: whose entrenchment the attacker loses",
    "HD-A21": "Foreign intervention needs a battle win",
    "HD-A22": "Leader split: any split, or capped at 2 units (Lee 3)",
    "HD-A23": "Leaders moving alone; 2 march-moves a turn in all",
    "HD-A24": "Whose fort gives the morale -1",
    "HD-A25": "Militia morale by the game year or the year raised",
    "HD-A26": "Basic-game victory in the advanced game (off until switched on)",
    "HD-A27": "Supply from a box the side does not control",
}


# HD-4.1 (A1, A2): the Command Table as printed, "Union/Confederate" marches by die (rows) and year (columns).
COMMAND_ROWS = {
    1: ("2/2", "2/3", "2/3", "3/3", "3/2"),
    2: ("2/3", "2/3", "3/4", "3/3", "4/3"),
    3: ("2/3", "3/4", "3/4", "4/4", "4/3"),
    4: ("3/4", "3/4", "4/5", "4/4", "5/4"),
    5: ("3/4", "4/5", "4/5", "5/5", "5/4"),
    6: ("4/5", "4/5", "5/6", "5/5", "6/5"),
}
COMMAND_TABLE = {
    (year, side): DieTable("HD-4.1", {die: int(cells[column].split("/")[SIDES.index(side)])
                                      for die, cells in COMMAND_ROWS.items()},
                           f"Command Table {year} {SIDE_NAME[side]}")
    for column, year in enumerate(YEARS) for side in SIDES
}

# HD-4.10: a unit hits on a d6 at or under its combat strength, so strengths run 0..6.
MAX_STRENGTH = 6

# HD-5.2: a unit uses at most 2 marches per turn; a player turn has 0..6 marches (digest section 2).
UNIT_MARCHES = 2
MAX_MARCHES = 6

# HD-4.2 / HD-5.6: 4 rounds a day; at most 8 units of a side fire in a round.
ROUNDS_PER_DAY = 4
FIRE_CAP = 8

# HD-4.4: morale values, and -1 to the check in a fort or entrenched.
MORALE = {CRACK: 5, VETERAN: 4}
MILITIA_MORALE = {1861: 2}  # militia in 1861
MILITIA_MORALE_LATER = 3    # militia from 1862
SHELTER_MODIFIER = -1

# HD-4.6: desertion modifiers.
LOST_MODIFIER = 1       # the unit's side lost the battle
STEADY_MODIFIER = -1    # the unit is not routed

# HD-4.7: the Union MM loss on a CSA capture of Washington is the die, at least 2; a recapture gives 1.
WASHINGTON_MIN_LOSS = 2
WASHINGTON_RECAPTURE = 1
NORMAL_CITY_LOSS = 1    # Washington's 1 recruitment point: the normal loss A9 (b) adds

# HD-4.8: border states, their recruitment cities (designated map ids) and the number to beat.
BORDER_STATES = {
    "MO": ("Missouri", ("st_joseph", "springfield", "st_louis")),
    "KY": ("Kentucky", ("bowling_green", "louisville")),
    "MD": ("Maryland", ("baltimore",)),
}
BORDER_REQUIRED = {"MO": 3, "KY": 1, "MD": 6}  # Kentucky's 1 looks suspicious: an editable option
MAX_REQUIRED = 12                               # an edited number to beat stays within 0..12
CLOSE_GAP, CLOSE_MODIFIER = 5, 1     # |MM_USA - MM_CSA| <= 5: +1
WIDE_GAP, WIDE_MODIFIER = 10, -1     # |MM_USA - MM_CSA| > 10: -1
FIRST_YEAR_MODIFIER = 1              # a roll in 1861
WASHINGTON_MODIFIER = 1              # the CSA controls Washington
RICHMOND_MODIFIER = -1               # the USA controls Richmond
LATE_YEAR_MODIFIER = {1863: -1, 1864: -2, 1865: -3}  # A10: as the source's example gives

# HD-4.9: an eliminated FI unit returns to Europe on 5-6.
FI_RETURN = DieTable("HD-4.9", {face: face >= 5 for face in range(1, 7)}, "FI unit returns")

# HD-5.9: the three conditions.
FI_MM_GAP = 3
FI_CITY_RP = 2
FI_UNIT_COUNT = 4
# The four FI counters as Emrich's v3.1 advanced rules list them (digest section 10); the setup may change them.
FI_UNITS_V31 = ((INF, VETERAN), (INF, VETERAN), (INF, CRACK), (CAV, CRACK))

# HD-4.11: the coastal garrison counts as one unit, always entrenched, removed after 2 hits.
GARRISON = "Garrison"
GARRISON_HITS = 2

# HD-5.1: a box with 2 or more units needs a supply line to 2 sources; a lone unit is always in supply.
STACK_THRESHOLD = 2
SOURCES_NEEDED = 2

# HD-5.7: the three leaders; a leader makes at most 2 march-moves a turn, with units or alone (A23).
LEADERS = {"Lee": CSA, "Grant": USA, "Sherman": USA}
LEADER_MARCH_MOVES = 2
# HD-4.3, A22 (b): the parenthesis read as a cap on the units a leader's points go on: 2, Lee 3.
SPLIT_UNITS = 2
SPLIT_UNITS_OF = {"Lee": 3}

# Digest section 8: the designated boxes the rules name (map role -> default box id). Fort Monroe and
# Pensacola count as ports the Union took by landing whenever the Union holds them (HD-5.4).
WASHINGTON, RICHMOND, EUROPE = "washington", "richmond", "europe"
FORT_MONROE, PENSACOLA = "fort_monroe", "pensacola"
LANDED_FORTS = (FORT_MONROE, PENSACOLA)
DESIGNATED = (WASHINGTON, RICHMOND, EUROPE, *LANDED_FORTS,
              *(c for _, cities in BORDER_STATES.values() for c in cities))
