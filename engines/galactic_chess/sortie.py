"""The sortie before the battle (GC-6B.11-6B.13, GC-6B.3, GC-7.4): which camps may fight, who may
declare what, in what order, the first defender and the fortress.

- GC-6B.11: the active player picks the attacking camp, any camp with an available fleet (Q6); the
  defender is the enemy camp: the other nation's regulars (or the rebels who won its civil war, Q40), or in
  a civil war the other camp of the same nation (Q33: a nation in civil war does not attack abroad; a
  nation that has ended its own may attack the other's regulars or rebels).
- GC-6B.12: starting with the active player (for the defence, the first defender), clockwise and
  lapping, each player with an available fleet declares at least one, up to the size left (Q7).
  Unavailable: absent persons, and with the corridor rule on, the commander and garrison when their
  camp attacks (7.31).
- GC-6B.13: air/ground units come only with the same player's fleet declaration and never count.
- GC-6B.3 (7.32): the attacker SC's owner nominates another player if one can defend; with the corridor
  rule on and Iserlohn held by the defenders, the player holding the commander (an absent or vacant
  commander: a garrison fleet's player). In that player's first declaration only, the fortress may come
  as a fleet, alone or with commander/garrison fleets (Q10: it counts toward the size). With the corridor
  rule off, it comes only when the commander's player is the first defender.
"""
from __future__ import annotations

from dataclasses import replace

from .battle import ATTACKER, DEFENDER, FLEET, FORTRESS, GROUND, BattleUnit
from .civil_war import nation_camp
from .fortress import commander_player, corridor_active, garrison_players
from .rules import ENDED, FEZZAN, NATION, ONGOING, REBEL, REGULAR, RIVAL
from .state import GameState, Sortie

FORTRESS_NAME = "Iserlohn Fortress"


def enemy_camps(state: GameState, camp: str) -> tuple[str, ...]:
    nation = NATION[camp]
    if nation == FEZZAN:
        return ()
    war, rival = state.civil_war, RIVAL[nation]
    home = (REBEL[nation] if camp == REGULAR[nation] else REGULAR[nation],) if war[nation] == ONGOING else ()
    if war[nation] == ONGOING:
        abroad = state.options["civil_war_abroad"]
    else:
        abroad = war[rival] != ONGOING or war[nation] == ENDED or state.options["civil_war_abroad"]
    if not abroad:
        return home
    rebels = (REBEL[rival],) if war[rival] == ONGOING and state.in_camp(REBEL[rival]) else ()
    return home + (nation_camp(state, rival),) + rebels


def declared(sortie: Sortie | None) -> set[str]:
    return {u.name for u in sortie.units} if sortie else set()


def fleets_available(state: GameState, player: str, camp: str, attacking: bool,
                     sortie: Sortie | None = None) -> list[str]:
    posted = set(state.fortress.posted) if attacking and corridor_active(state) else set()
    return [p.card for p in state.in_camp(camp, player)
            if state.person(p.card).admiral and not p.absent and p.card not in posted
            and p.card not in declared(sortie)]


def ground_available(state: GameState, player: str, camp: str, sortie: Sortie | None = None) -> list[str]:
    return [p.card for p in state.in_camp(camp, player)
            if state.person(p.card).fights and not p.absent and p.card not in declared(sortie)]


def sortie_camps(state: GameState) -> dict[str, tuple[str, ...]]:
    """The camps that may attack now, each with the camps it may attack (GC-6B.11, Q6)."""
    found = {}
    for camp in dict.fromkeys(p.camp for p in state.in_play):
        players = [state.player] if state.options["attack_camp"] == "own" else list(state.players)
        if any(fleets_available(state, player, camp, True) for player in players) and enemy_camps(state, camp):
            found[camp] = enemy_camps(state, camp)
    return found


def side_of(sortie: Sortie) -> int:
    return ATTACKER if sortie.stage == "attack" else DEFENDER


def camp_of_side(sortie: Sortie, side: int) -> str:
    return sortie.attacker if side == ATTACKER else sortie.defender


def fortress_may_join(state: GameState, sortie: Sortie, seat: int) -> bool:
    """GC-6B.3: only in the first defender's first declaration, for the camp holding Iserlohn."""
    if sortie.stage != "defence" or seat != sortie.first_defender or sortie.declarations[DEFENDER]:
        return False
    if sortie.defender != state.fortress.controller:
        return False
    return corridor_active(state) or commander_player(state) == state.players[seat]


def can_declare(state: GameState, sortie: Sortie, seat: int) -> bool:
    side = side_of(sortie)
    player = state.players[seat]
    return bool(fleets_available(state, player, camp_of_side(sortie, side), side == ATTACKER, sortie)) \
        or fortress_may_join(state, sortie, seat)


def committed_fleets(sortie: Sortie, side: int, fortress_counts: bool) -> int:
    return sum(1 for u in sortie.units if u.side == side
               and (u.kind == FLEET or (u.kind == FORTRESS and fortress_counts)))


def next_declarer(state: GameState, sortie: Sortie, start: int) -> int:
    """The seat that declares next from `start` clockwise, or -1 when the allocation is over."""
    side = side_of(sortie)
    if committed_fleets(sortie, side, state.options["fortress_counts"]) >= sortie.size:
        return -1
    n = len(state.players)
    return next((s % n for s in range(start, start + n) if can_declare(state, sortie, s % n)), -1)


def nominees(state: GameState, sortie: Sortie) -> list[str]:
    """The players the attacker SC's owner may name as first defender (GC-6B.3, 7.32)."""
    probe = lambda seat: can_declare(state, _as_first(sortie, seat), seat)
    able = [p for s, p in enumerate(state.players) if probe(s)]
    fortress = state.fortress
    if sortie.defender == fortress.controller and corridor_active(state):
        holder = commander_player(state)
        commander_here = fortress.commander and not state.placed(fortress.commander).absent
        duty = {holder} if commander_here else garrison_players(state) or {holder}
        able = [p for p in able if p in duty]
    sc = sortie.field.sc[ATTACKER]
    chooser = sortie.units[sc].owner if sc >= 0 else state.player
    others = [p for p in able if p != chooser]
    return others or able


def _as_first(sortie: Sortie, seat: int) -> Sortie:
    return replace(sortie, stage="defence", first_defender=seat, declarer=seat)


def battle_unit(state: GameState, name: str, side: int, declaration: int) -> BattleUnit:
    person = state.person(name)
    placed = state.placed(name)
    return BattleUnit(name, side, placed.owner, placed.camp, FLEET if person.admiral else GROUND, person.stars,
                      person.strategy, person.attack, person.defence, declaration, person.role == "reinhard")


def fortress_unit(state: GameState, player: str, declaration: int) -> BattleUnit:
    card = state.fortress.card
    return BattleUnit(FORTRESS_NAME, DEFENDER, player, state.fortress.controller, FORTRESS, 0, card.strategy,
                      card.attack, card.defence, declaration)


def deemed(state: GameState, sortie: Sortie) -> int:
    """GC-6B.7: the commander and garrison fleets that did not sortie, lost with the fortress."""
    return sum(1 for n in state.fortress.posted if n not in declared(sortie))
