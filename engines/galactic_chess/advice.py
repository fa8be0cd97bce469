"""Advice before committing (digest section 8): the odds a player asks for at the table.

- `order_advice`: P(forced sortie) and the chance of each sortie size (GC-5).
- `duel_matrix`: for two lists of fleets (`camp_fleets`), who strikes first and each side's chance to destroy
  the other in one duel (GC-6B.5).
- `target_advice`: for the unit whose opportunity it is, each legal target's duel odds and the chance its
  side wins the battle with the rest played by a stated policy (exact, or an estimate beyond the
  digest's size), and the same for retreating (GC-6B.5, GC-6B.6).
- `retreat_advice`, `plot_advice`, `post_advice`: closed forms (GC-6B.6, GC-6A.32/33a, GC-7.12/7.21).
- `waiting_strikes`: the throw that waits on an earlier one, each striker's chance (GC-6B.5, GC-6B.6, GC-11).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from companion.engine import RuleError
from companion.odds import fractions
from companion.quoting import quote

from . import battle as fight
from .duel import ACTOR, DuelInput, DuelOutcome, Fighter, duel_table, first_striker, hit_chance
from .fighting import rules_of_battle, sc_ties, striking_back
from .fortress import COMMANDER, POST_MOVES, garrison_modifier, needs_plot
from .interval import Estimate
from .order import OrderInput, forced_odds, sortie_size_odds
from .outlook import EXACT_MAX_UNITS, TRIALS, BattleInput, Model, Outlook, after_move, read
from .plotting import plot_targets
from .plots import PlotInput, PlotRollInput, plot_chance, plot_odds
from .policy import ENGAGE, GREEDY_KILL, RETREAT, Move, pick_shooter
from .retreat import DESTROYED, RETREATED, retreat_chance, retreat_table
from .state import BATTLE, GameState

Chance = Fraction | Estimate


@dataclass(frozen=True)
class OrderAdvice:
    forced: Fraction
    sizes: dict[int, Fraction]      # fleets -> chance (a grand offensive spread over 2..12)
    mean: Fraction


def order_advice(state: GameState) -> OrderAdvice:
    """GC-5 before the roll: with Ragnarok +1, with the Invasion its fixed size."""
    inputs = OrderInput(state.ragnarok, state.invasion)
    sizes = fractions(sortie_size_odds(inputs))
    return OrderAdvice(forced_odds(inputs), sizes, sum((k * p for k, p in sizes.items()), Fraction(0)))


@dataclass(frozen=True)
class DuelCell:
    mine: str
    theirs: str
    first: str                      # "mine", "theirs" or "both" (equal strategy)
    kill: Fraction                  # P(mine destroys theirs), whichever of the two engages
    loss: Fraction                  # P(theirs destroys mine)
    both: Fraction


def duel_cell(mine: tuple[str, Fighter], theirs: tuple[str, Fighter]) -> DuelCell:
    inputs = DuelInput(mine[1], theirs[1])
    odds = duel_table(inputs)
    first = {None: "both", ACTOR: "mine"}.get(first_striker(inputs), "theirs")
    kill = sum((p for o, p in odds.items() if o.target_destroyed), Fraction(0))
    loss = sum((p for o, p in odds.items() if o.actor_destroyed), Fraction(0))
    return DuelCell(mine[0], theirs[0], first, kill, loss, odds.get(DuelOutcome(True, True), Fraction(0)))


def duel_matrix(mine: Sequence[tuple[str, Fighter]], theirs: Sequence[tuple[str, Fighter]]) -> list[list[DuelCell]]:
    """One row per fleet of mine, one cell per enemy fleet: who strikes first and who kills whom. The
    duel's odds do not depend on who engages (GC-6B.5), so one matrix serves both sides."""
    return [[duel_cell(m, t) for t in theirs] for m in mine]


def camp_fleets(state: GameState, camp: str) -> list[tuple[str, Fighter]]:
    """A camp's fleets for a duel matrix: those present in the battle being fought, else its admirals in play
    (absent ones too: the matrix is about their cards)."""
    s = state.sortie
    if state.phase == BATTLE and s and s.stage == "fight" and camp in (s.attacker, s.defender):
        side = fight.ATTACKER if camp == s.attacker else fight.DEFENDER
        return [(s.units[i].name, s.units[i].fighter) for i in fight.present(s.units, s.field.status, side)]
    persons = [state.person(p.card) for p in state.in_camp(camp)]
    return [(p.name, Fighter(p.strategy, p.attack, p.defence)) for p in persons if p.admiral]


def battle_matrix(state: GameState, side: int) -> list[list[DuelCell]]:
    """The duel matrix of the battle on the table: the side's present units against the enemy's."""
    s = _sortie(state)
    camps = (s.attacker, s.defender)
    return duel_matrix(camp_fleets(state, camps[side]), camp_fleets(state, camps[1 - side]))


def _sortie(state: GameState):
    if state.phase != BATTLE or state.sortie.stage != "fight":
        raise RuleError("GC-6B", "There is no battle being fought")
    return state.sortie


@dataclass(frozen=True)
class TargetAdvice:
    move: str                       # "engage" or "retreat"
    target: str                     # the target engaged ("" for a retreat)
    first: str                      # who strikes first: "actor", "target" or "both"
    outcome: dict                   # the move's own outcome -> exact chance
    wins: Chance                    # P(the actor's side sweeps the enemy from the field and keeps a unit)
    loses: Chance                   # P(the enemy does so)
    ahead: Chance                   # P(the enemy loses more units than the actor's side)
    vp: Fraction | float            # expected VP of the actor's owner in this battle
    exact: bool

    @property
    def kill(self) -> Fraction:
        """P(the target destroyed); for a retreat, P(the unit gets away)."""
        if self.move == RETREAT:
            return self.outcome.get(RETREATED, Fraction(0))
        return sum((p for o, p in self.outcome.items() if o.target_destroyed), Fraction(0))

    @property
    def lost(self) -> Fraction:
        """P(the acting unit destroyed in this duel or retreat)."""
        if self.move == RETREAT:
            return self.outcome.get(DESTROYED, Fraction(0))
        return sum((p for o, p in self.outcome.items() if o.actor_destroyed), Fraction(0))


def _model(state: GameState, policy: str) -> tuple[Model, object]:
    s = _sortie(state)
    if s.pending is not None or sc_ties(state, s):
        raise RuleError("GC-6B.5", "Advice is given between opportunities")
    inputs = BattleInput(s.units, rules_of_battle(state, s), policy, s.field)
    return Model(inputs), s


def target_advice(state: GameState, actor: str, policy: str = GREEDY_KILL, trials: int = TRIALS,
                  seed: int = 0, exact_max: int = EXACT_MAX_UNITS) -> list[TargetAdvice]:
    """For the unit whose opportunity it is: each legal target, and retreating, with the exact odds of
    that duel or retreat and the chance the actor's side wins the battle, the rest played by `policy`
    (exact up to `exact_max` units, an estimate beyond)."""
    model, s = _model(state, policy)
    units, field = s.units, s.field
    opp = fight.opportunity(units, field, model.rules)
    if opp.roll_off:
        raise RuleError("GC-6B.4r", "The SCs roll off first: the winner decides who acts next")
    a = next((i for i in opp.actors if units[i].name == actor), None)
    if a is None:
        raise RuleError("GC-6B.4", f"{quote(actor)} does not have the next opportunity")
    side, owner = units[a].side, units[a].owner
    found = []
    for move in [Move(ENGAGE, t) for t in fight.targets(units, field.status, a)] + [Move(RETREAT)]:
        view: Outlook = read(model, after_move(model, field, a, move), trials, seed, exact_max)
        if move.kind == ENGAGE:
            inputs = fight.duel_input(units, a, move.target)
            first = {None: "both", ACTOR: "actor"}.get(first_striker(inputs), "target")
            own = duel_table(inputs)
            target = units[move.target].name
        else:
            shooter = pick_shooter(units, field, a, model.rules)
            own, first, target = retreat_table(fight.retreat_input(units, field, a, shooter)), "", ""
        found.append(TargetAdvice(move.kind, target, first, own, view.wins(side), view.wins(1 - side),
                                  view.ahead(side), view.vp(owner), view.exact))
    return found


def battle_outlook(state: GameState, policy: str = GREEDY_KILL, trials: int = TRIALS, seed: int = 0,
                   exact_max: int = EXACT_MAX_UNITS) -> Outlook:
    """The rest of the battle on the table played by the policy: exact, or an estimate beyond `exact_max` units
    (the digest's size by default)."""
    model, s = _model(state, policy)
    return read(model, {(model.first(), model.zero()): 1}, trials, seed, exact_max)


def waiting_strikes(state: GameState) -> list[tuple[str, str, Fraction]]:
    """The throw that waits on an earlier one, before it is rolled: the strike back of the duel's lower strategy
    (GC-6B.5), the Double-Headed Snake's next extra attacker (GC-11), or the free attack on the unit whose retreat
    failed, by each unit the enemy SC may pick (GC-6B.6). Each as (striker, victim, the chance the victim is
    destroyed)."""
    s = _sortie(state)
    p, units = s.pending, s.units
    if p is None:
        raise RuleError("GC-6B.5", "No throw is waiting")
    if p.kind == "strike_back":
        pairs = [(*striking_back(s), p.modifier)]
    elif p.kind == "extra_attack":
        pairs = [(p.extra[0], p.target, 0)]
    else:
        pairs = [(k, p.actor, 0) for k in fight.shooters(units, s.field.status, p.actor, rules_of_battle(state, s))]
    return [(units[k].name, units[v].name, hit_chance(fight.free_attack(units, k, v, m))) for k, v, m in pairs]


@dataclass(frozen=True)
class RetreatAdvice:
    threshold: int
    retreats: Fraction
    shooter: str                    # the enemy unit most likely to hit, as the enemy SC would pick
    destroyed: Fraction
    stays: Fraction


def retreat_advice(state: GameState, actor: str) -> RetreatAdvice:
    """GC-6B.6: r(T), and P(destroyed) = (1 - r(T)) q(D - A) with the enemy's best free attack."""
    s = _sortie(state)
    units = s.units
    a = next((i for i, u in enumerate(units) if u.name == actor and s.field.status[i] in fight.PRESENT), None)
    if a is None:
        raise RuleError("GC-6B.6", f"{quote(actor)} is not present in the battle")
    shooter = pick_shooter(units, s.field, a, rules_of_battle(state, s))
    inputs = fight.retreat_input(units, s.field, a, shooter)
    odds = retreat_table(inputs)
    lost, away = odds.get(DESTROYED, Fraction(0)), odds.get(RETREATED, Fraction(0))
    name = units[shooter].name if shooter is not None else ""
    return RetreatAdvice(inputs.roll.threshold, retreat_chance(inputs.roll), name, lost, 1 - lost - away)


def plot_advice(state: GameState, plotter: str, target: str) -> dict[str, Fraction]:
    """GC-6A.32/33a: P(target destroyed) = q(P_p); P(plotter destroyed) = (1 - q(P_p)) q(P_t)."""
    if not isinstance(plotter, str) or not state.placed(plotter) or not state.person(plotter).may_plot \
            or target not in plot_targets(state, plotter):
        raise RuleError("GC-6A.31", f"{quote(plotter)} cannot plot against {quote(target)}")
    return fractions(plot_odds(PlotInput(state.person(plotter).plot, state.person(target).plot)))


def post_advice(state: GameState, move: str, plotter: str = "") -> Fraction:
    """GC-7.12 / GC-7.21: the chance a post move succeeds: certain for a vacant commander post or a dispatch to a
    free garrison slot (no plot, no roll, no plotter); else the plotter's roll, 2d6 (+2 for the commander's
    player on garrison rolls, Q22) >= his value."""
    if move not in POST_MOVES:
        raise RuleError("GC-7.21", f"A post move is one of {', '.join(POST_MOVES)}, not {quote(move)}")
    if not needs_plot(state, move):
        return Fraction(1)
    placed = state.placed(plotter) if isinstance(plotter, str) else None
    if not placed or not state.person(plotter).may_plot:
        raise RuleError("GC-6A.31", f"{quote(plotter)} cannot plot")
    bonus = garrison_modifier(state, placed.owner, move == COMMANDER)
    return plot_chance(PlotRollInput(state.person(plotter).plot, bonus))

