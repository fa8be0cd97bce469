"""Galactic Chess Game: every table and constant of the rules, tagged with its rule ID.

Digest: ../shared/rules/galactic_chess.md (prefix GC); the Japanese source text wins any disagreement.
Nothing else in the engine hard-codes a table value. No card values are shipped: the players enter
their own cards (digest section 10).
"""
from __future__ import annotations

RULES = {
    "GC-3": "Setup",
    "GC-3.1": "Period decks, drawn in order 1 to 4",
    "GC-3.4": "Fortress commander at setup",
    "GC-4": "Turn sequence: order roll, action, end check",
    "GC-5": "Order roll and sortie size",
    "GC-6A": "Action: sortie, or draw then card or plot",
    "GC-6A.1": "Draw and the hand limit",
    "GC-6A.2": "Card use and precedence",
    "GC-6A.31": "Who may plot whom",
    "GC-6A.32": "Plot",
    "GC-6A.33a": "Counter-plot",
    "GC-6B": "Sortie and battle",
    "GC-6B.11": "Attacking and defending camps",
    "GC-6B.12": "Fleet allocation round the table",
    "GC-6B.13": "Air and ground units",
    "GC-6B.2": "Supreme commander",
    "GC-6B.3": "First defender and the fortress",
    "GC-6B.4": "Engagement order",
    "GC-6B.4r": "Order roll-off",
    "GC-6B.5": "Engagement: one duel",
    "GC-6B.6": "Retreat and the free attack",
    "GC-6B.7": "End of battle and victory points",
    "GC-7.4": "Corridor rule and when it is off",
    "GC-7.12": "Commander-post plot",
    "GC-7.21": "Garrison plots",
    "GC-7.33": "The fortress in battle",
    "GC-7.34": "Reinhard may not target the fortress",
    "GC-7.35": "The fortress destroyed: control and victory points",
    "GC-8.1": "Civil war outbreak",
    "GC-8.2": "Civil-war battles",
    "GC-8.3": "End of a civil war",
    "GC-9": "End check of the turn",
    "GC-9.0": "Game end: order of the conditions",
    "GC-9.11": "Reinhard destroyed",
    "GC-9.12": "Military collapse",
    "GC-9.13": "Baalat Treaty (ceasefire)",
    "GC-9.13r": "Ceasefire tie roll-off",
    "GC-9.2": "Final score and tie-breaks",
    "GC-10": "Negotiation",
    "GC-11": "Event cards",
    "GC-12": "Draft of the opening hands",
}

# GC-3 / digest section 1: 3 to 5 players, clockwise (the turn passes to the left).
MIN_PLAYERS, MAX_PLAYERS = 3, 5

# Camps and nations (digest glossary; GC-6A.31: Fezzan is its own nation, rebels count as their nation).
EMP, FPA, FEZ, NOBLE, MCSR = "EMP", "FPA", "FEZ", "NOBLE", "MCSR"
CAMPS = (EMP, FPA, FEZ, NOBLE, MCSR)
EMPIRE, ALLIANCE, FEZZAN = "Empire", "Alliance", "Fezzan"
NATION = {EMP: EMPIRE, NOBLE: EMPIRE, FPA: ALLIANCE, MCSR: ALLIANCE, FEZ: FEZZAN}
REGULAR = {EMPIRE: EMP, ALLIANCE: FPA, FEZZAN: FEZ}
REBEL = {EMPIRE: NOBLE, ALLIANCE: MCSR}          # GC-8.1: the rebel camp printed in brackets
RIVAL = {EMPIRE: ALLIANCE, ALLIANCE: EMPIRE}     # GC-6B.11: the enemy nation
CAMP_NAMES = {EMP: "Empire", FPA: "Alliance", FEZ: "Fezzan", NOBLE: "Noble coalition",
              MCSR: "Military Congress"}

# GC-8.1-8.3: the state of a nation's civil war.
PEACE, ONGOING, ENDED = "none", "ongoing", "over"

# GC-3.1: four period decks, drawn in order.
PERIODS = (1, 2, 3, 4)

# GC-3 (3.2): the deal; GC-6A.1: the hand limit after an action.
DEAL = 6
HAND_LIMIT = 6

# GC-5: the order roll. One d6 (+1 once Ragnarok has fired); an unmodified 6 forces the sortie.
ORDER_DIE = 6
FORCED_FACE = 6
RAGNAROK_MODIFIER = 1
GRAND = "2d6"            # the grand offensive: 2d6 fleets, rolled at the start of the sortie (Q2)
GRAND_DICE = 2
SORTIE_SIZE = {1: "1", 2: "1", 3: "1", 4: "2", 5: "3", 6: "3", 7: GRAND}
SORTIE_NAMES = {"1": "reconnaissance in force", "2": "small offensive", "3": "offensive",
                GRAND: "grand offensive"}

# GC-6A.32, GC-6A.33a, GC-7.12, GC-7.21, GC-6B.5, GC-6B.6: every other roll is 2d6.
TWO_DICE = 2
GARRISON_MAX = 3         # GC-7.21: fleets at Iserlohn, the commander included
GARRISON_BONUS = 2       # GC-7.21: the commander's player adds 2 to dispatch and release rolls (Q22)
P_SENSIBLE = (3, 12)     # digest section 2: warn when a plot value lies outside, the roll always/never works

# GC-6B.4r, GC-9.13r: roll-offs, 1d6 each by default (Q12), ties rolled again.
ROLL_OFF_DIE = 6

# GC-6B.7: victory points.
KILL_VP = 1              # an enemy admiral of another nation destroyed
FORTRESS_VP = 1          # the fortress, and each commander/garrison fleet deemed destroyed with it
BONUS_VP = 1             # the annihilation bonus to the surviving side's SC owner
BONUS_MIN_FLEETS = 2     # both sides committed at least this many fleets

# GC-9.12: a nation collapses with no admiral of this many stars in play.
COLLAPSE_STARS = 2

# GC-3.4: the fortress commander at setup, in this order of preference; Iserlohn starts Imperial (Q25).
COMMANDER_PREFERENCE = ("stockhausen", "seeckt")
FORTRESS_START = EMP

# Persons the rules name, as marked on the entered cards (digest section 10: real names are never shipped).
ROLES = {
    "": "no rule names this person",
    "reinhard": "Reinhard (GC-9.11 game end; GC-7.34 may not target the fortress)",
    "rubinsky": "Rubinsky (GC-6A.31 plots across nations; safe from plots before Ragnarok)",
    "kircheis": "Kircheis (GC-11 Castrop Rebellion)",
    "stockhausen": "Stockhausen (GC-3.4 first choice of fortress commander)",
    "seeckt": "Seeckt (GC-3.4 second choice of fortress commander)",
}

# Event cards (digest section 2, GC-11): kinds, and the effects the companion applies.
FORCED, EVENT, SUPPORT, RESPONSE = "forced", "event", "battle_support", "response"
EVENT_KINDS = (FORCED, EVENT, SUPPORT, RESPONSE)
EFFECTS = {
    "none": ("GC-11", "the players apply the card's text; the companion only moves the card"),
    "ragnarok": ("GC-5", "Ragnarok: +1 to every later order roll; the corridor rule is off (GC-7.4)"),
    "civil_war": ("GC-8.1", "Lippstadt War: civil war in both nations"),
    "invasion": ("GC-7.4", "Imperial Territory Invasion: the card's size for every sortie; corridor rule off"),
    "amritsar": ("GC-11", "Amritsar: ends the Invasion; total war, a forced sortie of 2d6 fleets"),
    "ceasefire": ("GC-9.13", "Ceasefire Order: the round completes, then the Baalat Treaty"),
    "escape": ("GC-11", "Escape Shuttle: an admiral leaves the battle, neither attacking nor attacked"),
    "frontier_duty": ("GC-11", "Frontier Duty: the commander and the garrison lose their posts"),
    "iserlohn_capture": ("GC-11", "Iserlohn Capture: the commander and the garrison are deemed destroyed"),
    "inquiry": ("GC-11", "Inquiry: an admiral is absent from battles until he returns"),
    "defection": ("GC-6A.2", "Defection: a person changes to the other nation's camp"),
    "castrop": ("GC-11", "Castrop Rebellion: once Kircheis has appeared, discard it and draw 1 at any time"),
    "fortress_vs_fortress": ("GC-11", "Fortress vs Fortress: resolved before the battle, once both sides and their "
                                      "SCs are set (sortie step 7)"),
    "double_snake": ("GC-11", "Double-Headed Snake: 2 more units join an engagement's attack, keeping their own "
                              "opportunities"),
}
TARGETED_EFFECTS = ("escape", "inquiry", "defection")   # need a person named when used
IN_BATTLE_EFFECTS = ("escape", "fortress_vs_fortress", "double_snake")   # played in a battle (response or support)
SNAKE_ATTACKERS = 2      # GC-11 Double-Headed Snake: the extra attackers
MAX_SORTIE = 12          # digest section 11: a sortie is 1..12 fleets (2d6 at most)
# GC-6B.5: a battle-support card's signed modifier, entered as printed. The texts give no range; a modifier
# beyond the span of a 2d6 roll (2..12) is taken for a typing error.
MAX_MODIFIER = 12
