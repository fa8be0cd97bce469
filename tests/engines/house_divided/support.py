"""Shared set-up for the House Divided tests: a test map, test basic numbers and a table played through
the event log with scripted dice.

The basic-rules numbers below are invented for the tests (the source has none); they are not the game's.
"""
from __future__ import annotations

import copy
from typing import Any

from engines.house_divided import ENGINE
from engines.house_divided.basic import STRENGTH_KEYS
from engines.house_divided.example import example_setup
from engines.house_divided.state import Unit
from tests.engines.table import ReplayedTable

# Invented test numbers: strength = 1 + grade index, one less reduced; cavalry as infantry.
TEST_STRENGTH = {k: {"militia": 2, "veteran": 3, "crack": 4}[k.split("/")[1]] - (k.endswith("reduced"))
                 for k in STRENGTH_KEYS}
TEST_BASIC = {"strength": TEST_STRENGTH, "firing_order": "attacker_first", "entrenchment": "threshold"}


def offered(state, action: str, param: str, **chosen: Any) -> list | None:
    """The values the action's spec offers for `param` now, given the parameters chosen before it (None when it
    is not asked)."""
    legal = ENGINE.actions.specs[action].param(param).legal(state, chosen)
    return None if legal is None else list(legal.values)


def barred(state, action: str, param: str, **chosen: Any) -> dict:
    """The values the spec shows as barred for `param` now: {value: the rule that bars it}."""
    legal = ENGINE.actions.specs[action].param(param).legal(state, chosen)
    return {b.value: b.rule for b in legal.barred}


def box(id: str, alignment: str = "neutral", rp: int = 0, port: bool = False, fort: bool = False) -> dict:
    return {"id": id, "name": id, "alignment": alignment, "rp": rp, "port": port, "fort": fort}


def line(a: str, b: str, kind: str = "rail") -> dict:
    return {"from": a, "to": b, "type": kind}


def unit(name: str, side: str, where: str, grade: str = "militia", **more: Any) -> dict:
    return {"name": name, "side": side, "box": where, "grade": grade, **more}


def battle_setup(units: list[dict], leaders: list[dict] = (), **changes: Any) -> dict:
    """The example map and control with these units and leaders instead of the example's."""
    return setup(units=units, leaders=list(leaders), landed_ports=["P"], contained=[], **changes)


def setup(**changes: Any) -> dict:
    """The example setup with some fields replaced (deep copies, so tests never share data)."""
    data = example_setup()
    data.update(copy.deepcopy(changes))
    return data


class Table(ReplayedTable):
    """A game session replayed from its event log, with the dice of every action scripted."""

    engine = ENGINE

    def __init__(self, data: dict | None = None, **options: Any):
        super().__init__(data or setup(), **options)

    def unit(self, name: str) -> Unit:
        return self.state.unit(name)

    def to_movement(self, die: int = 3, *losses: str) -> None:
        """Supply (with the named units lost to it), then the march roll (or 2 marches with S2 off)."""
        if self.state.options["supply"]:
            self.do("check_supply")
        for name in losses:
            self.do("supply_loss", unit=name)
        self.do("end_start")
        if self.state.options["command"]:
            self.do("roll_marches", die)
        else:
            self.do("set_marches", count=2)

    def to_battles(self, die: int = 3) -> None:
        self.to_movement(die)
        self.do("end_movement")

    def pass_turn(self) -> None:
        """From the battle segment with nothing fought to the end of the player turn."""
        self.do("end_battles")
        self.do("end_promotion")
        self.do("end_player_turn")


def designated_map() -> dict:
    """A test map with every designated box: Washington, Richmond, the six border-state cities (Baltimore under
    the id BAL, designated), Europe; a Union and a CSA city of 2+ recruitment points each (FI, HD-5.9)."""
    boxes = [box("washington", "USA", 1), box("richmond", "CSA", 3), box("st_joseph", "neutral", 1),
             box("springfield", "neutral", 1), box("st_louis", "neutral", 2), box("bowling_green", "neutral", 1),
             box("louisville", "neutral", 1), box("BAL", "neutral", 2, port=True), box("europe"),
             box("NY", "USA", 3, port=True), box("PHL", "USA", 2), box("ATL", "CSA", 2),
             box("CHS", "CSA", 2, port=True)]
    lines = [line("washington", "BAL"), line("BAL", "PHL"), line("PHL", "NY"), line("washington", "richmond"),
             line("richmond", "ATL"), line("ATL", "CHS"), line("st_louis", "springfield"),
             line("springfield", "st_joseph"), line("st_louis", "louisville", "river"),
             line("louisville", "bowling_green"), line("bowling_green", "ATL")]
    return {"boxes": boxes, "lines": lines, "designated": {"baltimore": "BAL"}}


DESIGNATED_CONTROL = {"washington": "USA", "NY": "USA", "PHL": "USA", "BAL": "USA", "richmond": "CSA", "ATL": "CSA",
                      "CHS": "CSA", "st_joseph": "USA", "springfield": "USA", "st_louis": "USA",
                      "bowling_green": "CSA", "louisville": "USA"}


def designated_setup(control: dict | None = None, mm=(30, 28), **changes: Any) -> dict:
    """The designated test map with one unit a side, Union MM and CSA MM as given."""
    return {"map": designated_map(), "control": {**DESIGNATED_CONTROL, **(control or {})},
            "units": [unit("U1", "USA", "NY"), unit("C1", "CSA", "ATL")],
            "mm": {"USA": mm[0], "CSA": mm[1]}, **changes}
