"""What the companion does for an event card's effect (GC-11, digest section 10 "hooks").

The card texts are the players' to read; each event is entered with the effect the companion applies
(rules.EFFECTS), or "none" when the players apply its text themselves. Precedence (GC-6A.2): a person's
special rule beats an event, so a defection cannot move a person that never changes camp.
"""
from __future__ import annotations

from dataclasses import replace

from companion.spec import Barred

from .cards import EventCard
from .civil_war import nation_camp, outbreak
from .fortress import tidy_posts, vacate
from .rules import ALLIANCE, EMPIRE, ENDED, EVENT, GRAND, NATION, RIVAL
from .state import ACTION, GameState, OrderRoll
from .table import remove_persons

EFFECT_RULES = {"ragnarok": ("GC-5", "GC-7.4"), "civil_war": ("GC-8.1", "GC-8.3"), "invasion": ("GC-7.4", "GC-11"),
                "amritsar": ("GC-7.4", "GC-11", "GC-5"), "ceasefire": ("GC-9.13",), "defection": ("GC-6A.2",)}


def rules_of(card: EventCard) -> tuple[str, ...]:
    return EFFECT_RULES.get(card.effect, ("GC-11",))


def possible_targets(state: GameState, card: EventCard) -> list[str]:
    """The persons an Inquiry (an admiral in play) or a defection (a person in play of the Empire or the Alliance
    who may change camp, GC-6A.2) may name."""
    if card.effect == "inquiry":
        return [p.card for p in state.in_play if state.person(p.card).admiral]
    if card.effect == "defection":
        return [p.card for p in state.in_play if not state.person(p.card).never_changes_camp
                and NATION[p.camp] in (EMPIRE, ALLIANCE)]
    return []


def with_prerequisite(state: GameState, cards) -> list[str]:
    """The event cards (of the turn's-card kind) among these that print a prerequisite: the players may say it
    does not hold now (GC-6A.1)."""
    return [c for c in cards if not state.is_person(c) and state.event(c).kind == EVENT and state.event(c).prerequisite]


def usable(state: GameState, card: str, unmet: tuple[str, ...] = ()) -> bool:
    """GC-6A.1: can the card be used as the turn's card now? A person always; an event card unless its printed
    prerequisite does not hold (`unmet`, the players' reading) or it has nobody to name; never a battle-support
    or response card (they are not the turn's card)."""
    if state.is_person(card):
        return True
    event = state.event(card)
    if event.kind != EVENT or card in unmet:
        return False
    return event.effect not in ("inquiry", "defection") or bool(possible_targets(state, event))


def target_choices(state: GameState, card: EventCard) -> list:
    """The persons the card may name now, and those a rule bars: a person who never changes camp (his special
    rule beats the event, GC-6A.2), and a person of Fezzan (no enemy camp to defect to)."""
    found: list = possible_targets(state, card)
    if card.effect == "defection":
        for p in state.in_play:
            if state.person(p.card).never_changes_camp:
                found.append(Barred(p.card, p.card, "GC-6A.2", "never changes camp: his special rule beats the event"))
            elif NATION[p.camp] not in (EMPIRE, ALLIANCE):
                found.append(Barred(p.card, p.card, "GC-6A.2", "of Fezzan: there is no enemy camp to defect to"))
    return found


def _outbreak_text(before: GameState, after: GameState) -> str:
    """Who joins the rebels, and the wars over at once (Q32) with the persons they cost."""
    cards = [p.card for p in before.in_play] + [c for hand in before.hands for c in hand]
    joining = [c for c in cards if before.is_person(c) and before.person(c).rebel_camp]
    text = f"civil war in both nations; joining the rebels: {', '.join(joining) or 'nobody'}"
    over = [n for n in (EMPIRE, ALLIANCE) if after.civil_war[n] == ENDED]
    if over:
        lost = [c for c in after.destroyed if c not in before.destroyed]
        where = " and the ".join(over)
        text += f"; over at once in the {where} (a side without fleets): {', '.join(lost) or 'nobody'} destroyed"
    return text


def apply(state: GameState, card: EventCard, user: str, target: str = "") -> tuple[GameState, str]:
    """The effect of an event used (or forced) by `user`, naming `target` (one of `target_choices`); the card
    itself is moved by the caller."""
    effect = card.effect
    if effect == "ragnarok":
        return replace(state, ragnarok=True), "Ragnarok: +1 to every order roll from now on"
    if effect == "civil_war":
        return outbreak(state), _outbreak_text(state, outbreak(state))
    if effect == "invasion":
        return replace(state, invasion=card.size), f"every sortie is {card.size} fleets while the Invasion lasts"
    if effect == "amritsar":
        order = OrderRoll(0, 7, GRAND, True, card.name)
        text = "the Invasion ends; total war: a forced sortie of 2d6 fleets"
        return replace(state, invasion=0, order=order, phase=ACTION), text
    if effect == "ceasefire":
        last = state.players[state.right_of(state.seat(user))]
        return replace(state, ceasefire_by=user, last_turn=last), f"the round completes: {last} takes the last turn"
    if effect == "frontier_duty":
        return vacate(state), "the commander and the garrison lose their posts"
    if effect == "iserlohn_capture":
        posted = state.fortress.posted
        return remove_persons(state, posted, "event"), f"deemed destroyed: {', '.join(posted) or 'nobody was posted'}"
    if effect == "inquiry":
        return state.with_placed(replace(state.placed(target), absent=True)), f"{target} is absent from battles"
    if effect == "defection":
        camp = nation_camp(state, RIVAL[state.nation_of(target)])
        moved = state.with_placed(replace(state.placed(target), camp=camp))
        return tidy_posts(moved), f"{target} defects to {camp}"
    return state, "the players apply its text"
