"""EXAMPLE (fictional) cards: an invented set to try the companion with, not the game's cards.

The rules texts give no card values (digest section 10): players enter their own sheets. Every name
here is made up ("Demo ..."), every value invented; the data says so wherever it appears. Roles mark
which invented person stands in for a person the rules name.
"""
from __future__ import annotations

LABEL = "Example (fictional): invented cards and values, not the game's; enter your own sheets to play"


def _person(name, period, camp, stars, s, a, d, plot=None, **extra) -> dict:
    return {"name": name, "period": period, "camp": camp, "stars": stars, "strategy": s, "attack": a,
            "defence": d, "plot": plot, "special": "Example (fictional) card", **extra}


def _event(name, period, kind, effect="none", **extra) -> dict:
    return {"name": name, "period": period, "kind": kind, "effect": effect, "text": "Example (fictional) card", **extra}


EXAMPLE_PERSONS = (
    _person("Demo Marshal Aurum", 1, "EMP", 3, 6, 3, 9, 7, role="reinhard", never_changes_camp=True),
    _person("Demo Admiral Basalt", 1, "EMP", 2, 5, 2, 9, 8, rebel_camp="NOBLE"),
    _person("Demo Admiral Cobalt", 1, "EMP", 2, 4, 2, 8, 9, counter_only=True, role="stockhausen"),
    _person("Demo Commodore Dune", 1, "EMP", 1, 3, 1, 7),
    _person("Demo Count Ember", 1, "EMP", 0, 1, 0, 3, 6, rebel_camp="NOBLE"),
    _person("Demo Lancer Flint", 1, "EMP", 0, 2, 2, 6, fights=True),
    _person("Demo Marshal Garnet", 1, "FPA", 3, 6, 2, 10, 8, counter_only=True, never_changes_camp=True),
    _person("Demo Admiral Harbor", 1, "FPA", 2, 5, 3, 8, 9),
    _person("Demo Admiral Indigo", 1, "FPA", 2, 4, 2, 9, rebel_camp="MCSR"),
    _person("Demo Commodore Jade", 1, "FPA", 1, 3, 1, 8),
    _person("Demo Senator Kestrel", 1, "FPA", 0, 1, 0, 2, 5),
    _person("Demo Trooper Lynx", 1, "FPA", 0, 3, 3, 7, fights=True),
    _person("Demo Governor Mica", 1, "FEZ", 0, 1, 0, 2, 4, role="rubinsky"),
    _person("Demo Admiral Nickel", 2, "EMP", 2, 5, 2, 8, 10, role="seeckt"),
    _person("Demo Admiral Opal", 2, "FPA", 2, 5, 2, 9),
    _person("Demo Captain Quartz", 2, "EMP", 1, 4, 2, 8, 9, role="kircheis"),
    _person("Demo Admiral Rust", 3, "EMP", 1, 4, 1, 8),
    _person("Demo Admiral Slate", 3, "FPA", 1, 4, 2, 7),
    _person("Demo Admiral Topaz", 4, "EMP", 2, 5, 3, 9),
    _person("Demo Admiral Umber", 4, "FPA", 2, 5, 2, 9),
)

EXAMPLE_EVENTS = (
    _event("Demo Support: Flanking Fire", 1, "battle_support"),
    _event("Demo Event: Turncoat", 1, "event", "defection"),
    _event("Demo Event: Rumours", 1, "event"),
    _event("Demo Event: Sibling Strife", 2, "forced", "civil_war"),
    _event("Demo Event: Long March", 2, "event", "invasion", size=3),
    _event("Demo Event: Total War", 2, "event", "amritsar",
           prerequisite="Example (fictional): the Long March is under way"),
    _event("Demo Response: Lifeboat 1", 2, "response", "escape"),
    _event("Demo Response: Lifeboat 2", 2, "response", "escape"),
    _event("Demo Event: Far Posting", 2, "event", "frontier_duty"),
    _event("Demo Event: Storm the Gate", 2, "event", "iserlohn_capture"),
    _event("Demo Response: Siege Guns", 2, "response", "fortress_vs_fortress"),
    _event("Demo Event: Uprising", 2, "event", "castrop"),
    _event("Demo Event: Hearing", 3, "event", "inquiry"),
    _event("Demo Event: Final Push", 3, "event", "ragnarok"),
    _event("Demo Event: Truce Talks", 4, "event", "ceasefire"),
    _event("Demo Support: Two Heads", 4, "battle_support", "double_snake"),
)

EXAMPLE_FORTRESS = {"strategy": 4, "attack": 4, "defence": 11}


def example_setup(players: tuple[str, ...] = ("Ann", "Ben", "Cat")) -> dict:
    return {"example": LABEL, "players": list(players), "persons": [dict(p) for p in EXAMPLE_PERSONS],
            "events": [dict(e) for e in EXAMPLE_EVENTS], "fortress": dict(EXAMPLE_FORTRESS)}
