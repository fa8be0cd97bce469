"""Read-only views of a game for a dashboard: the game's flags, the battle board, the map with control and supply,
the border states, and the exact odds of the roll about to be made. Every number comes from the rules modules."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from companion.engine import RuleError
from companion.odds import Dist, fractions, mean, p_at_least

from . import battle as fight
from . import victory
from .actions import actions
from .battle_command import battle_command_odds, fire_limit, half_carry
from .battle_steps import command_input, desertion_inputs_of, fire_input
from .border_states import border_state_odds, joined_within, modifiers
from .command import MarchInput, marches_odds
from .desertion import DesertionCheck, losses_odds
from .fire import fire_odds
from .intervention import ReturnInput, fi_eliminated, fi_return_odds
from .morale import MoraleCheck, any_routs, morale_value
from .rules import BORDER_STATES, COMMAND_TABLE, CSA, FIRE_CAP, GARRISON_HITS, GRADES, RICHMOND, SIDE_NAME, SIDES, USA, \
    WASHINGTON, YEARS
from .state import ELIMINATED, JOINED, ON_MAP, TRIED, GameState
from .supply import IN_SUPPLY, LONE, supply_report
from .turn_start import border_input
from .washington import mm_after_odds


def flags(state: GameState) -> list[str]:
    """The game as it stands, in short phrases: the player turn, the marches (HD-4.1, HD-5.2), who holds
    Washington and Richmond, the border states joined (HD-5.8), intervention (HD-5.9), basic fire (HD-4.10), and
    the basic game's victory conditions that hold while that victory is off (A26)."""
    found = [f"{state.turn_label}: {SIDE_NAME[state.side]} player turn"]
    if state.marches_left is not None:
        found.append(f"marches left {state.marches_left}" + (
            f" (die {state.march_die}: {command_row(state)[state.march_die]} marches)" if state.march_die else ""))
    for role, name in ((WASHINGTON, "Washington"), (RICHMOND, "Richmond")):
        box = state.game_map.role(role)
        found.append(f"{name}: {SIDE_NAME.get(state.controller(box), 'nobody')}" if box else f"{name}: not on the map")
    joined = [BORDER_STATES[c][0] for c, v in state.border.items() if v == JOINED]
    found += ["border states joined: " + ", ".join(joined)] if joined else []
    found += ["foreign intervention"] if state.fi_triggered else []
    found.append("basic fire " + ("configured" if state.basic.filled else "unconfigured (HD-4.10)"))
    held = [c.text for c in victory.conditions(state) if c.holds]
    if held and not state.options["basic_victory"]:
        found.append("basic-game victory, off in this game, for information: " + "; ".join(held))
    return found


@dataclass(frozen=True)
class SideBoard:
    side: str
    command: int | None       # C of the day (HD-4.2)
    carry_next: int           # what C adds to tomorrow's roll: ceil(X/2)
    fire_limit: int           # HD-5.6
    leaders: tuple[str, ...]
    leader_rating: int        # L, also the points to split each round (HD-4.3)
    active: tuple[str, ...]
    routed: tuple[str, ...]
    reduced: tuple[str, ...]
    eliminated: tuple[str, ...]
    garrison_hits: int | None  # HD-4.11; None: no garrison
    hits_due: int


@dataclass(frozen=True)
class BattleBoard:
    box: str
    round: int
    day: int
    attacker: str
    step: str                 # command, fire, hits, morale, between, desertion
    step_side: str
    sides: tuple[SideBoard, SideBoard]
    contained: bool
    over: bool
    winner: str


def battle_board(state: GameState) -> BattleBoard | None:
    """The battle under way: round and day counter, command, fire limit and its carry, leaders, units."""
    battle = state.battle
    if battle is None:
        return None
    boards = []
    for bside in battle.sides:
        units = [state.unit(n) for n in bside.units]
        boards.append(SideBoard(
            bside.side, bside.command, half_carry(bside.carried) if bside.carried is not None else 0,
            fight.limit(state, battle, bside.side), bside.leaders, fight.leaders_rating(state, bside),
            tuple(u.name for u in fight.active(state, bside)), bside.routed,
            tuple(u.name for u in units if u.reduced and u.status == ON_MAP),
            tuple(u.name for u in units if u.status == ELIMINATED),
            None if bside.garrison is None else min(bside.garrison, GARRISON_HITS), bside.hits_due))
    step = fight.due(state)
    return BattleBoard(battle.box, battle.round, battle.day, battle.attacker, step.kind, step.side, tuple(boards),
                       battle.contained, battle.over, battle.winner)


@dataclass(frozen=True)
class BoxView:
    id: str
    name: str
    x: float
    y: float
    controller: str
    units: dict[str, int]      # side -> units on the map there
    leaders: tuple[str, ...]
    supply: str                # the phasing side's status there: lone, in supply, out of supply, foraged, or ""
    reason: str
    landed: bool
    contained: bool


def map_view(state: GameState) -> list[BoxView]:
    """Every box with its controller, units, and the phasing side's supply status (HD-5.1)."""
    report = supply_report(state)
    where = state.game_map.positions
    views = []
    for b in state.game_map.boxes:
        stack = report.of(b.id)
        x, y = where[b.id]
        views.append(BoxView(b.id, b.name, x, y, state.controller(b.id),
                             {side: len(state.units_in(b.id, side)) for side in SIDES},
                             tuple(l.name for l in state.leaders if l.status == ON_MAP and l.box == b.id),
                             stack.status if stack else "", stack.reason if stack else "",
                             state.landed_port(b.id), b.id in state.contained))
    return views


def box_at(state: GameState, x: float | None, y: float | None) -> str | None:
    """The box drawn nearest a point of the map (a tap), if the point is within an eighth or so of the drawing's
    size from it; None otherwise."""
    where = state.game_map.positions
    if x is None or y is None or not where:
        return None
    box, gap = min(((b, math.dist(p, (x, y))) for b, p in where.items()), key=lambda t: t[1])
    reach = 0.12 * max(max(p[i] for p in where.values()) - min(p[i] for p in where.values()) for i in (0, 1))
    return box if gap <= reach else None


def box_text(state: GameState, box_id: str) -> str:
    """One box as the players described it, and what is on it now (lines of plain text)."""
    view = next(v for v in map_view(state) if v.id == box_id)
    box = state.game_map.box(box_id)
    facts = [f"shield {box.alignment}", f"{box.rp} RP", "port" if box.port else "", "fort" if box.fort else "",
             "taken by landing" if view.landed else "", "contained (HD-5.4)" if view.contained else ""]
    units = "; ".join(f"{SIDE_NAME[s]}: " + ", ".join(u.name for u in state.units_in(box_id, s))
                      for s in SIDES if view.units[s])
    return (f"{box.name} ({box_id}{', ' + box.state if box.state else ''}): held by "
            f"{SIDE_NAME.get(view.controller, 'nobody')}; {', '.join(f for f in facts if f)}.\nUnits: {units or 'none'}"
            + (f"; leaders: {', '.join(view.leaders)}" if view.leaders else "")
            + (f"\nSupply: {view.supply}: {view.reason}" if view.supply else ""))


@dataclass(frozen=True)
class BorderView:
    """A border state now (HD-4.8): whether it may roll and why not, and its chances if it may."""

    name: str
    status: str                     # open, joined (HD-5.8), tried once; rolled this turn
    refusal: str                    # why it may not roll now ("": it may, at the start of a CSA turn)
    modifiers: str = ""             # each modifier with its reason
    needed: int = 0                 # the d6 plus the modifiers must be more than this
    chance: Fraction = Fraction(0)  # P(support) on a roll now
    within: tuple[Fraction, ...] = ()  # P(joined within n CSA turns), this turn's modifiers held


def border_views(state: GameState, turns: int) -> list[BorderView]:
    """Each border state: its status, whether it may roll (all its cities CSA-held), its modifiers and odds."""
    found = []
    for code, (name, _) in BORDER_STATES.items():
        status = {JOINED: "joined (HD-5.8)", TRIED: "tried once"}.get(state.border.get(code), "open") + (
            ", rolled this turn" if code in state.border_rolled else "")
        try:
            inputs = border_input(state, code)
        except RuleError as exc:
            found.append(BorderView(name, status, str(exc)))
            continue
        found.append(BorderView(name, status, "", ", ".join(f"{why} {v:+d}" for why, v in modifiers(inputs)) or
                                "none", inputs.needed, fractions(border_state_odds(inputs)).get(True, Fraction(0)),
                                tuple(joined_within([inputs] * turns))))
    return found


def border_curves(state: GameState, turns: int) -> dict[str, list[tuple[int, Fraction]]]:
    """P(joined within n CSA turns), n = 1 to `turns`, of each border state that may roll, this turn's modifiers
    held (HD-4.8); none while the border-state rule is off."""
    return {v.name: [(n + 1, p) for n, p in enumerate(v.within)] for v in border_views(state, turns)
            if not v.refusal} if state.options["border_states"] else {}


def fi_units_text(state: GameState) -> str:
    """Where the FI units are (HD-5.9): each with its grade and arm, its box or eliminated."""
    return "; ".join(f"{u.name} ({u.grade} {u.arm}): {'eliminated' if u.status == ELIMINATED else u.box}"
                     for u in state.units if u.foreign) or "none yet"


def command_row(state: GameState, side: str | None = None) -> dict[int, int]:
    """This year's Command Table column for a side: die -> marches (HD-4.1)."""
    return dict(COMMAND_TABLE[(state.year, side or state.side)].results)


def march_odds(state: GameState) -> Dist:
    return marches_odds(MarchInput(state.year, state.side))


def next_command_odds(state: GameState, side: str) -> Dist:
    """The distribution of a side's command at its next roll in the battle under way (HD-4.2)."""
    return battle_command_odds(command_input(state, state.battle.of(side)))


def fire_preview(state: GameState, side: str | None = None, units: list | None = None,
                 bonus: dict | None = None) -> Dist:
    """The hits of the fire being prepared (HD-4.10, HD-4.3), checked as the fire action checks it; RuleError
    while the basic rules are unconfigured or the fire is not allowed now."""
    given = {k: v for k, v in (("side", side), ("units", units), ("bonus", bonus)) if v is not None}
    return fire_odds(fire_input(state, **actions.specs["fire"].check(state, given))[1])


def rout_chances(state: GameState) -> tuple[dict[str, Fraction], Fraction]:
    """P(rout) of each unit due to check morale now, and P(at least one of them routs) (HD-4.4)."""
    checks = fight.morale_checks_due(state, list(state.battle.sides))
    return {c.unit: c.chance for c in checks}, any_routs(checks)


def desertion_losses(state: GameState) -> Dist:
    """The number of units desertion will take after the battle just decided (HD-4.6)."""
    return losses_odds(desertion_inputs_of(state)[1].checks)


def border_odds(state: GameState, code: str) -> Dist:
    """The chance a border state joins on this roll (HD-4.8); RuleError if it may not roll now."""
    return border_state_odds(border_input(state, code))


def washington_mm_odds(state: GameState) -> Dist:
    """The Union MM after a CSA capture of Washington (HD-4.7, A9)."""
    return mm_after_odds(state.mm_usa, state.options["washington_loss"])


def fi_return_now(state: GameState) -> Dist:
    """How many eliminated FI units come back at this CSA recruitment (HD-4.9)."""
    return fi_return_odds(ReturnInput(len(fi_eliminated(state))))


def unit_odds(year: int) -> list[tuple[str, int, tuple[Fraction, ...]]]:
    """One unit of each grade in a year, no leader: its morale, P(rout) in the open and in a fort or entrenched
    (HD-4.4), P(desertion) when its side lost and it routed, lost and it did not, won and it did not (HD-4.6)."""
    return [(grade, morale_value(grade, year), (
        MoraleCheck("", grade, year).chance, MoraleCheck("", grade, year, True).chance,
        *(DesertionCheck("", grade, year, lost, routed).chance for lost, routed in ((True, True), (True, False),
                                                                                    (False, False)))))
            for grade in GRADES]


def battle_rows(state: GameState) -> list[tuple]:
    """The battle board by row: (what, its rule, the attacker's, the defender's): command C and the fire limit
    min(C, 8) (HD-4.2, HD-5.6), the carry ceil(X/2), tomorrow's fire limit (its mean and P(8), while the battle
    command goes on), leaders and their points (HD-4.3), the units by state, garrison hits (HD-4.11)."""
    board = battle_board(state)
    later = [next_command_odds(state, s.side).map(fire_limit) for s in board.sides] \
        if state.battle.command_day and state.options["battle_command"] else []

    def each(fn):
        return tuple(fn(s) for s in board.sides)

    def names(units):
        return ", ".join(units) or "-"
    return [("command C today", "HD-4.2", *each(lambda s: "-" if s.command is None else s.command)),
            (f"fire limit min(C, {FIRE_CAP})", "HD-5.6", *each(lambda s: s.fire_limit)),
            ("carry to tomorrow ⌈X/2⌉", "", *each(lambda s: f"+{s.carry_next}")),
            ("tomorrow's fire limit, expected", "", *([f"{float(mean(d)):.2f}" for d in later] or ["-", "-"])),
            (f"tomorrow: P({FIRE_CAP} units fire)", "",
             *([fractions(d).get(FIRE_CAP, Fraction(0)) for d in later] or ["-", "-"])),
            ("leaders (points to split each round)", "HD-4.3",
             *each(lambda s: f"{names(s.leaders)}: {s.leader_rating}" if s.leaders else "-")),
            ("able to fire", "", *each(lambda s: names(s.active))), ("routed", "HD-4.4", *each(lambda s: names(s.routed))),
            ("reduced", "", *each(lambda s: names(s.reduced))), ("eliminated", "", *each(lambda s: names(s.eliminated))),
            ("coastal garrison hits", "HD-4.11",
             *each(lambda s: "-" if s.garrison_hits is None else f"{s.garrison_hits} of {GARRISON_HITS}")),
            ("hits to place", "", *each(lambda s: s.hits_due))]


def command_table() -> list[tuple]:
    """The Command Table (HD-4.1) by die: the Union's and the CSA's marches in each year, as "Union/CSA"."""
    return [(d, *(f"{COMMAND_TABLE[(y, USA)].results[d]}/{COMMAND_TABLE[(y, CSA)].results[d]}" for y in YEARS))
            for d in range(1, 7)]


@dataclass(frozen=True)
class StepOdds:
    """The odds beside a step, as chosen so far: named numbers (a Fraction is a probability, a float a mean),
    and the distribution drawn (what its values count; with no numbers given, its mean and each chance are shown)
    or each outcome's chance; a note, a refusal instead of odds, a second side's distribution."""

    title: str
    numbers: tuple = ()
    dist: Dist | None = None
    what: str = ""
    outcomes: tuple = ()
    plot: str = ""
    note: str = ""
    second: Dist | None = None
    second_title: str = ""
    second_plot: str = ""

    def __post_init__(self):  # a distribution alone: its mean and each value's chance
        if self.dist is not None and not self.numbers:
            object.__setattr__(self, "numbers", ((f"expected {self.what}", float(mean(self.dist))), *(
                (f"P({k} {self.what})", p) for k, p in sorted(fractions(self.dist).items()))))


def _command(state: GameState, chosen) -> StepOdds:
    day, sides = state.battle.day, (state.battle.attacker, state.battle.sides[1].side)
    odds = {SIDE_NAME[side]: next_command_odds(state, side) for side in sides}
    numbers = [x for n, d in odds.items() for x in ((f"{n}: expected C", float(mean(d))), (
        f"{n}: P({FIRE_CAP} units fire)", fractions(d.map(fire_limit)).get(FIRE_CAP, Fraction(0))))]
    (first, d1), (other, d2) = odds.items()
    return StepOdds(f"Battle command, day {day} (HD-4.2)", tuple(numbers), d1, "C", plot=f"{first} command C, day {day}",
                    note="The attacker's die first. C = the table + half yesterday's C (rounded up) + leaders; min(C, 8) "
                         "units fire.", second=d2, second_title="Defender", second_plot=f"{other} command C, day {day}")


def _fire(state: GameState, chosen) -> StepOdds:
    side = chosen.get("side") or battle_board(state).step_side
    title = f"{SIDE_NAME[side]} fire, round {state.battle.round} (HD-4.10)"
    try:
        d = fire_preview(state, side, chosen.get("units"), chosen.get("bonus"))
    except RuleError as exc:
        return StepOdds(title, note=str(exc))
    return StepOdds(title, (("expected hits", float(mean(d))), ("P(at least 1 hit)", p_at_least(d, 1))), d,
                    "hits", plot=f"Hits of {len(chosen.get('units') or [])} units firing")


def _morale(state: GameState, chosen) -> StepOdds:
    chances, any_rout = rout_chances(state)
    return StepOdds("Morale checks (HD-4.4)", (("P(at least one routs)", any_rout), *(
        (f"P({u} routs)", p) for u, p in chances.items())), outcomes=tuple(chances.items()),
        plot="P(rout) of each flipped unit", note="A unit routs when its d6 (-1 in a fort or entrenched) is greater "
                                                  "than its morale.")


def _border(state: GameState, chosen) -> StepOdds:
    name = BORDER_STATES.get(chosen.get("border_state"), ("",))[0]
    view = next((v for v in border_views(state, 1) if v.name == name), None)
    if view is None or view.refusal:
        return StepOdds("Border-state support (HD-4.8)", note=view.refusal if view else "")
    return StepOdds(f"{view.name} support (HD-4.8)", (("P(one militia joins)", view.chance),),
                    outcomes=(("joins", view.chance), ("no support", 1 - view.chance)), plot="This roll",
                    note=f"Modifiers: {view.modifiers}; the d6 plus modifiers must be more than {view.needed}.")


def _supply(state: GameState, chosen) -> StepOdds:
    report = supply_report(state)
    return StepOdds(f"{SIDE_NAME[state.side]} supply now (HD-5.1)", (
        ("stacks of 2+ units", sum(x.status != LONE for x in report.stacks)),
        ("in supply", sum(x.status == IN_SUPPLY for x in report.stacks)),
        ("must lose a unit", ", ".join(b for b in report.losses if b not in chosen.get("foraged", ())) or "none")),
        note="The Map tab shows each stack's supply line, or why there is none.")


STEP_ODDS = {
    "fire": _fire, "record_fire": _fire, "battle_command": _command, "morale_checks": _morale,
    "border_state_roll": _border, "check_supply": _supply,
    "roll_marches": lambda s, _: StepOdds(f"Marches this turn, {SIDE_NAME[s.side]} {s.year} (HD-4.1)", dist=march_odds(s),
                                          what="marches"),
    "desertion_checks": lambda s, _: StepOdds(
        "Desertion after the battle (HD-4.6)", dist=desertion_losses(s), what="units lost", note="+1 if its side lost, "
        "-1 if not routed, minus the friendly leaders' rating; more than its morale deserts."),
    "washington_loss": lambda s, _: StepOdds(
        f"Washington has fallen (HD-4.7): Union MM now {s.mm_usa}", dist=washington_mm_odds(s), what="Union MM",
        note="The loss is the d6, a 1 counting as 2; not a CSA win (HD-6.1)."),
    "fi_return_rolls": lambda s, _: StepOdds("FI return rolls (HD-4.9)", dist=fi_return_now(s), what="FI units back",
                                             note="Each returns on 5-6."),
}


def step_odds(state: GameState, action: str, chosen) -> StepOdds | None:
    """The odds beside a step as chosen so far (HD-4.1 to HD-5.1); None for a step with nothing to roll."""
    odds = STEP_ODDS.get(action)
    return odds(state, chosen) if odds else None
