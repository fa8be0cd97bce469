"""Galactic Chess Game: the battle once both sides are set (GC-6B.4-6B.7): each opportunity's engagement or
retreat, the throws that follow (the strike back, the free attack, the Double-Headed Snake's extra strikes),
the roll-offs, battle-support cards, Fortress vs Fortress, and the end of the battle with its VP.

- GC-6B.4: the next opportunity is the highest strategy's; a cross-side tie with equal SC strategies is
  rolled off first (GC-6B.4r). GC-6B.5: the actor engages a present enemy unit (Reinhard never the fortress,
  GC-7.34); GC-6B.6: or retreats; GC-7.33: it may pass only when the fortress is all the enemy has left.
- GC-6B.5 / Q19: any player may play a battle-support card on a roll, one per engagement (by option one a
  side); its signed modifier is read off the card. The cards offered are every hand's: a device shows only
  its own player's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.dice import Dice
from companion.engine import Result, RuleError, Step
from companion.spec import NOT_ASKED, Barred, Choice, Pick, number, one_of, some_of

from . import battle as fight
from . import civil_war
from .actions import actions, add_vp, award_text, in_phase, lead
from .battle import FORTRESS, BattleRules, sc_to_choose
from .duel import ACTOR, TARGET, opening, other, outcome_of, resolve_strike, strike_of, strikes_back
from .fortress import fall, tidy_posts
from .retreat import DESTROYED as SHOT_DOWN
from .retreat import RETREATED, STAYS, RetreatRollInput, resolve_retreat_roll
from .rolloff import RollOffInput, resolve_roll_off
from .rules import IN_BATTLE_EFFECTS, MAX_MODIFIER, SNAKE_ATTACKERS, SUPPORT
from .sortie import camp_of_side
from .state import BATTLE, END, GameState, Pending, Sortie
from .table import from_hand, remove_persons, to_discard

PENDING_RULES = {"strike_back": "GC-6B.5", "free_attack": "GC-6B.6", "extra_attack": "GC-11"}


def rules_of_battle(state: GameState, s: Sortie) -> BattleRules:
    o = state.options
    return BattleRules(s.civil_war, s.deemed, o["fortress_counts"], o["fortress_sc"], o["sc_on_departure"],
                       o["fortress_free_attack"], o["ground_vp"], o["escaped_block_bonus"], o["rolloff_scope"])


def sc_ties(state: GameState, s: Sortie) -> dict[int, tuple[int, ...]]:
    return {side: c for side, c in sc_to_choose(s.units, s.field, rules_of_battle(state, s)).items() if len(c) > 1}


def settled(state: GameState, s: Sortie) -> Sortie:
    field, _ = fight.settle_sc(s.units, s.field, rules_of_battle(state, s))
    return replace(s, field=field)


def at_stage(*stages: str, rule: str = "GC-6B") -> Callable[[GameState], None]:
    """The `when` of a battle action of these stages (attack -> nominate -> defence -> fight)."""
    def when(state: GameState) -> None:
        in_phase(BATTLE, rule=rule)(state)
        if state.sortie.stage not in stages:
            raise RuleError(rule, f"The battle is at its {state.sortie.stage} step")
    return when


def between_opportunities(state: GameState, rule: str) -> None:
    """In the fight, no throw waiting on an earlier one and no SC to choose."""
    at_stage("fight", rule=rule)(state)
    s = state.sortie
    if s.pending is not None:
        raise RuleError(PENDING_RULES[s.pending.kind], f"First the {s.pending.kind.replace('_', ' ')}")
    if sc_ties(state, s):
        raise RuleError("GC-6B.2", "First choose the SC")


def opportunity(state: GameState) -> fight.Opportunity:
    s = state.sortie
    return fight.opportunity(s.units, s.field, rules_of_battle(state, s))


def next_actors(state: GameState) -> tuple[int, ...]:
    """GC-6B.4: the units that may take the next opportunity; none while a throw waits, an SC is to be chosen, or
    once the battle is over."""
    s = state.sortie
    if s.stage != "fight" or s.pending is not None or sc_ties(state, s) or fight.finished(s.units, s.field.status):
        return ()
    return opportunity(state).actors


def opportunity_open(rule: str) -> Callable[[GameState], None]:
    """The `when` of an opportunity's move: between opportunities, with no roll-off due first (GC-6B.4r)."""
    def when(state: GameState) -> None:
        between_opportunities(state, rule)
        if opportunity(state).roll_off:
            raise RuleError("GC-6B.4r", "Units of both sides tie for the next opportunity and the SCs' strategies "
                                        "are equal: the SCs roll off first")
    return when


def pending_open(kind: str) -> Callable[[GameState], None]:
    """The `when` of a throw that waits on an earlier one."""
    rule = PENDING_RULES[kind]
    why = {"strike_back": "No duel is waiting for a strike back",
           "free_attack": "No failed retreat is waiting for a free attack",
           "extra_attack": "No extra attacker of a Double-Headed Snake is waiting to strike"}[kind]

    def when(state: GameState) -> None:
        at_stage("fight", rule=rule)(state)
        pending = state.sortie.pending
        if pending is None or pending.kind != kind:
            raise RuleError(rule, why)
    return when


def unit_index(s: Sortie, name: str) -> int:
    return next(i for i, u in enumerate(s.units) if u.name == name)


def names(s: Sortie, units) -> list[str]:
    return [s.units[i].name for i in units]


# --- battle-support cards (GC-6B.5, Q19) --------------------------------------------------------------------

def plain_support(event) -> bool:
    """A battle-support card that modifies a roll (not one of the battle cards with a step of their own)."""
    return event.kind == SUPPORT and event.effect not in IN_BATTLE_EFFECTS


def held(state: GameState, test: Callable) -> list[str]:
    """The event cards of every hand that pass the test: the cards offered for a free play by whoever holds one
    (each device shows only its own player's)."""
    return [c for hand in state.hands for c in hand if not state.is_person(c) and test(state.event(c))]


def _support_spent(state: GameState, s: Sortie, side: int | None) -> bool:
    """Q19: a battle-support card is played in this engagement already (in all, or by option on this side)."""
    return any(x == side or side is None or state.options["support_limit"] == "total" for x in s.support)


def support_choices(side_of: Callable[[GameState, Sortie, dict], int] | None = None):
    """GC-6B.5: a battle-support card of anyone's hand on the roll, or "" for none; barred once this engagement
    has had its card (Q19). `side_of` gives the side the roll favours (None for the engagement itself, when no
    card has been played yet)."""
    def choices(state: GameState, chosen) -> list:
        s = state.sortie
        spent = _support_spent(state, s, side_of(state, s, chosen) if side_of else None)
        return [Choice("", "none"), *(Barred(c, c, "GC-11", "Only one battle-support card per engagement")
                                      if spent else c for c in held(state, plain_support))]
    return choices


def _modifier_choices(state: GameState, chosen):
    """GC-6B.5: the card's signed modifier, as printed; asked only with a card."""
    return range(-MAX_MODIFIER, MAX_MODIFIER + 1) if chosen["support"] else NOT_ASKED


def modifier_param():
    return number("modifier", "The card's modifier (signed, as printed)", "GC-11", _modifier_choices, default=0)


def support_param(side_of=None):
    return one_of("support", "Battle-support card on this roll (any player's)", "GC-11", support_choices(side_of),
                  default="", secret=True)


def play_support(state: GameState, s: Sortie, card: str, side: int, modifier: int) -> tuple[Sortie, GameState, str]:
    """A battle-support card (or the Double-Headed Snake) played on a roll that favours `side`: it counts for
    Q19 if it is of the battle-support kind, and goes from its holder's hand to the discard. Returns the sortie,
    the state and a note for the log."""
    if not card:
        return s, state, ""
    holder, event = state.holder(card), state.event(card)
    if event.kind == SUPPORT:
        s = replace(s, support=s.support + (side,))
    new = to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card)
    shown = f", {modifier:+d}" if modifier or event.effect != "double_snake" else ""
    return s, new, f" ({holder} plays {card}{shown})"


# --- the end of an opportunity and of the battle -------------------------------------------------------------

def losses(state: GameState, s: Sortie, pairs: list[tuple[int, int | None]]) -> GameState:
    """Persons destroyed leave play at once; a destroyed fortress changes hands at once, to the destroyer's camp,
    with its unsortied commander/garrison deemed destroyed (GC-7.35, Q25). With no destroying unit (a card's
    check), the enemy side's camp takes the fortress and a fallen Reinhard counts as removed by an event (Q29)."""
    for victim, killer in pairs:
        camp = s.units[killer].camp if killer is not None else camp_of_side(s, 1 - s.units[victim].side)
        how = camp if killer is not None else "event"
        if s.units[victim].kind == FORTRESS:
            lost = [n for n in state.fortress.posted if n not in {u.name for u in s.units}]
            state = fall(remove_persons(state, lost, how), camp)
        else:
            state = remove_persons(state, [s.units[victim].name], how)
    return state


def fallen(s: Sortie, pairs) -> tuple[str, ...]:
    """GC-7.35 when the fortress is among the units destroyed."""
    return ("GC-7.35",) if any(s.units[v].kind == FORTRESS for v, _ in pairs) else ()


def sc_text(state: GameState, s: Sortie, side: int) -> str:
    tie = sc_ties(state, s).get(side)
    if tie:
        return f"SC to choose from {' or '.join(names(s, tie))}"
    sc = s.field.sc[side]
    return f"SC {s.units[sc].name}" if sc >= 0 else "no SC"


def _close(state: GameState, s: Sortie, field, actor: int, pairs: list[tuple[int, int]], awards, text: str,
           rules: tuple[str, ...], results: tuple[Result, ...]) -> Step:
    """The end of an opportunity: losses and VP, the actor has acted, SCs replaced, maybe the battle over."""
    state = add_vp(losses(state, s, pairs), awards)
    field, ties = fight.close(s.units, field, actor, rules_of_battle(state, s))
    s = replace(s, field=field, pending=None, support=(), begun=True)
    new = replace(state, sortie=s)
    text = f"{lead(state)}: {text}{award_text(awards)}"
    rules = tuple(dict.fromkeys(rules + fallen(s, pairs) + (("GC-6B.7",) if awards else ())))
    if not ties and fight.finished(s.units, field.status):
        return end_battle(new, text, rules, results)
    if ties:
        text += f"; {sc_text(new, s, next(iter(ties)))}"
    return Step(new, text, rules, results)


def end_battle(state: GameState, text: str, rules: tuple[str, ...], results: tuple[Result, ...] = ()) -> Step:
    """GC-6B.7: the annihilation bonus, then the civil wars and posts settle; the turn goes to its end check."""
    s = state.sortie
    awards = fight.bonus(s.units, s.field, rules_of_battle(state, s))
    new = civil_war.settle(tidy_posts(add_vp(state, awards)))
    new = replace(new, sortie=None, phase=END)
    fates = ", ".join(f"{u.name} {f}" for u, f in zip(s.units, fight.fates(s.field)))
    return Step(new, f"{text}{award_text(awards)}. The battle is over: {fates or 'nobody fought'}",
                tuple(dict.fromkeys(rules + ("GC-6B.7",))), results)


def over_if_finished(state: GameState, text: str, rules: tuple[str, ...]) -> Step:
    """A step between opportunities: the battle ends here if nobody is left to act or a side is gone."""
    s = state.sortie
    if not sc_ties(state, s) and fight.finished(s.units, s.field.status):
        return end_battle(state, text, rules)
    return Step(state, text, rules)


# --- GC-6B.4 the order: roll-offs ---------------------------------------------------------------------------

def _roll_off_open(state: GameState) -> None:
    between_opportunities(state, "GC-6B.4r")
    if not opportunity(state).roll_off:
        raise RuleError("GC-6B.4r", "No roll-off is needed for the next opportunity")


@actions("Roll off for the order", "GC-6B.4r", when=_roll_off_open)
def roll_off(state: GameState, dice: Dice) -> Step:
    """GC-6B.4r: units of both sides tie for the next opportunity and the SCs' strategies are equal: the SCs
    roll off (1d6 each, Q12); the winner decides the order of the tie at this strategy (Q12 (a); by option,
    every tie while the same SCs remain); a tie is rolled again."""
    s = state.sortie
    opp = opportunity(state)
    labels = tuple(s.units[i].name if i >= 0 else f"{fight.SIDE_NAMES[k]} (no SC)" for k, i in enumerate(s.field.sc))
    result = resolve_roll_off(RollOffInput(2, state.options["rolloff_dice"]), dice, labels)
    s = replace(s, begun=True)
    if len(result.outcome) == 1:
        s = replace(s, field=fight.with_rolloff(s.field, result.outcome[0], opp.strategy))
    return Step(replace(state, sortie=s), f"{lead(state)}: {result.summary}", result.rules, (result,))


# --- GC-6B.5 the engagement ----------------------------------------------------------------------------------

def targets(state: GameState, actor: str) -> list:
    """GC-6B.5: present enemy units (never an escaped one); the fortress barred to Reinhard (GC-7.34)."""
    s = state.sortie
    a = unit_index(s, actor)
    found = list(names(s, fight.targets(s.units, s.field.status, a)))
    if s.units[a].reinhard:
        found += [Barred(u.name, u.name, "GC-7.34", "Reinhard may not target the fortress")
                  for i, u in enumerate(s.units) if u.kind == FORTRESS and s.field.status[i] in fight.PRESENT
                  and u.side != s.units[a].side]
    return found


def _engage_actors(state: GameState, chosen) -> list:
    """GC-6B.4: the unit(s) whose opportunity it is; Reinhard facing only the fortress cannot engage (GC-7.34)."""
    s = state.sortie
    found = []
    for name in names(s, opportunity(state).actors):
        if fight.targets(s.units, s.field.status, unit_index(s, name)):
            found.append(name)
        else:
            found.append(Barred(name, name, "GC-7.34", "Reinhard may not target the fortress, all his enemy has left"))
    return found


def extra_attackers(s: Sortie, actor: int, target: int) -> list[str]:
    """GC-11 Double-Headed Snake: the units that may join the actor's attack on the target: each other present
    unit of the actor's side, never the fortress (it only strikes back, GC-7.33), never Reinhard against the
    fortress (GC-7.34)."""
    return [u.name for i, u in enumerate(s.units) if i != actor and u.side == s.units[actor].side
            and u.kind != FORTRESS and s.field.status[i] in fight.PRESENT
            and not (u.reinhard and s.units[target].kind == FORTRESS)]


def _joining(state: GameState, chosen) -> list[str]:
    s = state.sortie
    return extra_attackers(s, unit_index(s, chosen["actor"]), unit_index(s, chosen["target"]))


def _engage_support(state: GameState, chosen) -> list:
    """GC-6B.5: a battle-support card of anyone's hand on either roll of the duel, or the Double-Headed Snake
    (GC-11) when another unit of the actor's side can join the attack."""
    snakes = [c if _joining(state, chosen) else
              Barred(c, c, "GC-11", "no other unit of the actor's side can join this attack")
              for c in held(state, lambda e: e.effect == "double_snake")]
    return support_choices()(state, chosen) + snakes


def _is_snake(state: GameState, card: str) -> bool:
    return bool(card) and state.event(card).effect == "double_snake"


def _extra_choices(state: GameState, chosen):
    """GC-11: with the Double-Headed Snake, 1 or 2 units of the actor's side join the attack."""
    if not _is_snake(state, chosen["support"]):
        return NOT_ASKED
    return Pick(_joining(state, chosen), 1, SNAKE_ATTACKERS)


@actions("Engage", "GC-6B.5",
         one_of("actor", "Acting unit", "GC-6B.4", _engage_actors),
         one_of("target", "Target (a present enemy unit)", "GC-6B.5", lambda s, c: targets(s, c["actor"])),
         one_of("support", "Battle-support card on this duel (any player's)", "GC-11", _engage_support, default="",
                secret=True),
         one_of("support_for", "The card modifies the roll of", "GC-11",
                lambda s, c: [Choice(ACTOR, "the actor"), Choice(TARGET, "the target")] if c["support"] else NOT_ASKED,
                default=ACTOR),
         modifier_param(),
         some_of("extra", "Double-Headed Snake: the units joining the attack", "GC-11", _extra_choices, default=()),
         when=opportunity_open("GC-6B.5"))
def engage(state: GameState, dice: Dice, actor: str, target: str, support: str, support_for: str, modifier: int,
           extra: list) -> Step:
    """GC-6B.5: the acting unit picks a present enemy unit (never an escaped one; Reinhard never the fortress,
    GC-7.34) and they duel: the higher strategy strikes first and the other strikes back only if it survives (a
    separate throw: strike_back); equal strategy, both strike at once. Any player may play a battle-support card
    on either roll. With the Double-Headed Snake as the card (GC-11), up to 2 more units of the actor's side
    (`extra`) join the attack: after the duel each strikes the target once (separate throws: extra_attack),
    keeping its own opportunity."""
    s = state.sortie
    a, t = unit_index(s, actor), unit_index(s, target)
    joining = tuple(unit_index(s, n) for n in extra)
    favoured = s.units[a].side if support_for == ACTOR else s.units[t].side
    s, new, note = play_support(state, s, support, favoured, modifier)
    if joining:
        note += f": {' and '.join(names(s, joining))} join the attack"
    duel = fight.duel_input(s.units, a, t, modifier if support_for == ACTOR else 0,
                            modifier if support_for == TARGET else 0)
    who = {ACTOR: actor, TARGET: target}
    results, hits = [], {}
    for striker in opening(duel):
        results.append(resolve_strike(strike_of(duel, striker), dice, f"{who[striker]} strikes {who[other(striker)]}"))
        hits[striker] = results[-1].outcome
    text = f"{actor} engages {target}{note}: " + "; ".join(r.summary for r in results)
    back = strikes_back(duel, hits)
    rules = ("GC-6B.5",) + (("GC-11",) if joining else ())
    if back:
        pending = Pending("strike_back", a, t, duel.actor_modifier if back == ACTOR else duel.target_modifier, joining)
        return Step(replace(new, sortie=replace(s, pending=pending)),
                    f"{lead(state)}: {text}; {who[back]} strikes back next", rules, tuple(results))
    return _duel_done(new, s, a, t, hits, text, tuple(results), joining)


def _duel_done(state: GameState, s: Sortie, a: int, t: int, hits: dict[str, bool], text: str,
               results: tuple[Result, ...], extra: tuple[int, ...]) -> Step:
    """The duel's losses and VP; then the Double-Headed Snake's extra attackers, if the target still stands, or
    the end of the opportunity."""
    outcome = outcome_of(hits)
    field, awards = fight.apply_duel(s.units, s.field, a, t, outcome, rules_of_battle(state, s))
    pairs = ([(t, a)] if outcome.target_destroyed else []) + ([(a, t)] if outcome.actor_destroyed else [])
    lost = " and ".join(s.units[v].name for v, _ in pairs)
    text += f"; {lost} destroyed" if lost else "; nobody is destroyed"
    if extra and not outcome.target_destroyed:
        state = add_vp(losses(state, s, pairs), awards)
        s = replace(s, field=field, pending=Pending("extra_attack", a, t, 0, extra), begun=True)
        rules = ("GC-6B.5", "GC-11") + fallen(s, pairs) + (("GC-6B.7",) if awards else ())
        return Step(replace(state, sortie=s), f"{lead(state)}: {text}{award_text(awards)}; "
                                              f"{s.units[extra[0]].name} joins the attack next", rules, results)
    return _close(state, s, field, a, pairs, awards, text, ("GC-6B.5",) + (("GC-11",) if extra else ()), results)


def striking_back(s: Sortie) -> tuple[int, int]:
    """GC-6B.5: the unit that strikes back (the lower strategy of the duel waiting) and its victim."""
    p = s.pending
    return (p.actor, p.target) if s.units[p.actor].strategy < s.units[p.target].strategy else (p.target, p.actor)


def _striker_side(state: GameState, s: Sortie, chosen) -> int:
    """The side of the unit that strikes back."""
    return s.units[striking_back(s)[0]].side


@actions("Strike back", "GC-6B.5", support_param(_striker_side), modifier_param(),
         when=pending_open("strike_back"))
def strike_back(state: GameState, dice: Dice, support: str, modifier: int) -> Step:
    """GC-6B.5: the lower-strategy unit of the duel, having survived the first strike, strikes back."""
    s = state.sortie
    p = s.pending
    striker, victim = striking_back(s)
    back = ACTOR if striker == p.actor else TARGET
    s, new, note = play_support(state, s, support, s.units[striker].side, modifier)
    strike = fight.free_attack(s.units, striker, victim, p.modifier + modifier)
    result = resolve_strike(strike, dice, f"{s.units[striker].name} strikes back at {s.units[victim].name}")
    return _duel_done(new, s, p.actor, p.target, {other(back): False, back: result.outcome},
                      f"{result.summary}{note}", (result,), p.extra)


@actions("Double-Headed Snake: an extra attacker strikes", "GC-11",
         support_param(lambda state, s, chosen: s.units[s.pending.extra[0]].side), modifier_param(),
         when=pending_open("extra_attack"))
def extra_attack(state: GameState, dice: Dice, support: str, modifier: int) -> Step:
    """GC-11 Double-Headed Snake: the next extra attacker strikes the engaged target once (2d6 + attack >= defence,
    GC-6B.5's roll), with no strike back; it keeps its own opportunity. The actor's opportunity ends with the
    last of them, or when the target falls."""
    s = state.sortie
    p = s.pending
    k, rest = p.extra[0], p.extra[1:]
    s, new, note = play_support(state, s, support, s.units[k].side, modifier)
    victim = s.units[p.target].name
    result = resolve_strike(fight.free_attack(s.units, k, p.target, modifier), dice,
                            f"{s.units[k].name} joins the attack on {victim}")
    text = f"{result.summary}{note}"
    if result.outcome:
        field, awards = fight.destroy(s.units, s.field, p.target, k, rules_of_battle(state, s))
        return _close(new, s, field, p.actor, [(p.target, k)], awards, f"{text}; {victim} destroyed",
                      ("GC-11", "GC-6B.5"), (result,))
    if rest:
        s = replace(s, pending=replace(p, extra=rest))
        return Step(replace(new, sortie=s), f"{lead(state)}: {text}; {s.units[rest[0]].name} joins the attack next",
                    ("GC-11",), (result,))
    return _close(new, s, s.field, p.actor, [], (), text, ("GC-11",), (result,))


# --- GC-6B.6 the retreat and its free attack, GC-7.33 passing -------------------------------------------------

@actions("Retreat", "GC-6B.6",
         one_of("actor", "Retreating unit", "GC-6B.4", lambda s, c: names(s.sortie, opportunity(s).actors)),
         support_param(lambda state, s, chosen: s.units[unit_index(s, chosen["actor"])].side), modifier_param(),
         when=opportunity_open("GC-6B.6"))
def retreat(state: GameState, dice: Dice, actor: str, support: str, modifier: int) -> Step:
    """GC-6B.6: instead of engaging, 2d6 <= own strategy + the SC's (twice its own for the SC) leaves the
    battle; a failure lets the enemy SC pick a unit for one free attack (a separate throw: free_attack)."""
    s = state.sortie
    a = unit_index(s, actor)
    s, new, note = play_support(state, s, support, s.units[a].side, modifier)
    t = fight.retreat_terms(s.units, s.field, a)
    result = resolve_retreat_roll(RetreatRollInput(t.total, modifier, t), dice, f"{actor} retreats")
    if result.outcome:
        field, awards = fight.apply_retreat(s.units, s.field, a, RETREATED, None, rules_of_battle(state, s))
        return _close(new, s, field, a, [], awards, f"{result.summary}{note}", ("GC-6B.6",), (result,))
    if not fight.shooters(s.units, s.field.status, a, rules_of_battle(state, s)):
        return _close(new, s, s.field, a, [], (), f"{result.summary}{note}; no enemy unit can make the free attack",
                      ("GC-6B.6",), (result,))
    s = replace(s, pending=Pending("free_attack", a))
    return Step(replace(new, sortie=s), f"{lead(state)}: {result.summary}{note}; the enemy SC picks a unit for the "
                                       "free attack", ("GC-6B.6",), (result,))


def _shooters(state: GameState, chosen) -> list[str]:
    """GC-6B.6: the present enemy units the enemy SC may pick for the free attack (never the fortress, Q15)."""
    s = state.sortie
    return names(s, fight.shooters(s.units, s.field.status, s.pending.actor, rules_of_battle(state, s)))


@actions("Free attack on the retreating unit", "GC-6B.6",
         one_of("shooter", "Unit making the free attack (the enemy SC picks)", "GC-6B.6", _shooters, default=""),
         support_param(lambda state, s, chosen: s.units[unit_index(s, chosen["shooter"])].side), modifier_param(),
         when=pending_open("free_attack"))
def free_attack(state: GameState, dice: Dice, shooter: str, support: str, modifier: int) -> Step:
    """GC-6B.6: after a failed retreat, the unit the enemy SC picks (never the fortress, Q15) attacks the
    retreater once, with no return roll; a survivor stays in the battle."""
    s = state.sortie
    p = s.pending
    k = unit_index(s, shooter)
    s, new, note = play_support(state, s, support, s.units[k].side, modifier)
    result = resolve_strike(fight.free_attack(s.units, k, p.actor, modifier), dice,
                            f"Free attack by {shooter} on {s.units[p.actor].name}")
    outcome = SHOT_DOWN if result.outcome else STAYS
    field, awards = fight.apply_retreat(s.units, s.field, p.actor, outcome, k, rules_of_battle(state, s))
    tail = f"; {s.units[p.actor].name} is destroyed" if result.outcome else f"; {s.units[p.actor].name} stays"
    pairs = [(p.actor, k)] if result.outcome else []
    return _close(new, s, field, p.actor, pairs, awards, f"{result.summary}{note}{tail}", ("GC-6B.6",), (result,))


def _passers(state: GameState) -> list[str]:
    s = state.sortie
    return [n for n in names(s, opportunity(state).actors) if fight.may_pass(s.units, s.field.status, unit_index(s, n))]


def _pass_open(state: GameState) -> None:
    opportunity_open("GC-7.33")(state)
    if not _passers(state):
        raise RuleError("GC-7.33", "A unit passes only when the fortress is all the enemy has left")


@actions("Let the opportunity go", "GC-7.33",
         one_of("actor", "Unit facing only the fortress", "GC-7.33", lambda s, c: _passers(s)),
         when=_pass_open)
def pass_opportunity(state: GameState, dice: Dice, actor: str) -> Step:
    """GC-7.33: with only the fortress left on the enemy side, a unit may end its opportunity doing nothing."""
    s = state.sortie
    text = f"{actor} lets the opportunity go (only the fortress faces it)"
    return _close(state, s, s.field, unit_index(s, actor), [], (), text, ("GC-7.33",), ())


# --- GC-11 Fortress vs Fortress, before the battle ------------------------------------------------------------

def _before_the_battle(state: GameState) -> None:
    at_stage("fight", rule="GC-11")(state)
    s = state.sortie
    if s.begun or s.pending is not None or sc_ties(state, s):
        raise RuleError("GC-11", "Fortress vs Fortress is resolved before the battle: once both SCs are set, before "
                                 "the first opportunity")


def _present(state: GameState, chosen) -> list[str]:
    s = state.sortie
    return [u.name for i, u in enumerate(s.units) if s.field.status[i] in fight.PRESENT]


def _killers(state: GameState, chosen):
    """The unit whose roll destroyed them (its clique scores, GC-6B.7): a present unit of the other side, or ""
    when it was no unit's roll; not asked when nobody was destroyed."""
    s = state.sortie
    lost = {s.units[unit_index(s, n)].side for n in chosen["destroyed"]}
    if not lost:
        return NOT_ASKED
    return [Choice("", "no unit's roll"), *(n for n in _present(state, chosen)
                                            if lost == {1 - s.units[unit_index(s, n)].side})]


@actions("Fortress vs Fortress", "GC-11",
         one_of("card", "Fortress vs Fortress card (any player's)", "GC-11",
                lambda s, c: held(s, lambda e: e.effect == "fortress_vs_fortress"), secret=True),
         some_of("destroyed", "Units its check destroyed (as the card says)", "GC-11", _present, default=()),
         one_of("by", "Whose roll destroyed them (for the VP)", "GC-11", _killers, default=""),
         when=_before_the_battle)
def fortress_vs_fortress(state: GameState, dice: Dice, card: str, destroyed: list, by: str) -> Step:
    """GC-11 (sortie step 7): Fortress vs Fortress is resolved before the battle: once both sides and their SCs are
    set, before the first opportunity. Its holder plays it and the players resolve its printed text; they name the
    units its check destroyed (`destroyed`) and, when it was a unit's roll, that unit (`by`), whose clique scores as
    GC-6B.7 says. A fortress destroyed so changes hands at once (GC-7.35)."""
    s = state.sortie
    holder = state.holder(card)
    lost = tuple(unit_index(s, n) for n in destroyed)
    killer = unit_index(s, by) if by else None
    rules = rules_of_battle(state, s)
    field, awards = s.field, ()
    for i in lost:
        field = fight.set_status(field, i, fight.DESTROYED)
        awards += fight.kill_awards(s.units, i, killer, rules) if killer is not None else ()
    pairs = [(i, killer) for i in lost]
    new = add_vp(losses(to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card), s, pairs), awards)
    field, _ = fight.settle_sc(s.units, field, rules)
    s = replace(s, field=field)
    gone = ", ".join(names(s, lost))
    text = f"{lead(state)}: {holder} plays {card} before the battle: " + \
        (f"{gone} destroyed" + (f" by {by}'s roll" if killer is not None else "") if lost else "nobody is destroyed") + \
        award_text(awards)
    return over_if_finished(replace(new, sortie=s), text, ("GC-11",) + fallen(s, pairs) +
                            (("GC-6B.7",) if awards else ()))
