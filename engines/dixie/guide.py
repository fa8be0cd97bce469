"""The step guide: what is due now in the sequence of play (DX-5.0: morale -> combat -> movement ->
reinforcement, one position finished before the next, DX-7.0), in plain words, naming no face-down card; and what a
side may do when it chooses (DX-12.0)."""
from __future__ import annotations

from companion.engine import Due

from .actions import actions
from .combat_step import ready_melees, waiting_melee
from .command import designation_due
from .firepower import firing_options
from .flow import duty, morale_due
from .state import (
    COMBAT,
    DEPLOY,
    DUSK,
    MORALE,
    MOVEMENT,
    NIGHT,
    OVER,
    REINFORCEMENT,
    STEP_NAMES,
    GameState,
    public,
)
from .view import seen_specs


def phase_title(state: GameState) -> str:
    if state.step == OVER:
        return f"Game over: {state.victory.text}"
    if state.step == DEPLOY:
        return "Deployment: both sides place their muster"
    if state.step in (DUSK, NIGHT):
        return f"Night after day {state.day}"
    day = f", day {state.day}" if state.options["historical"] else ""
    return f"Turn {state.turn}{day}: {state.active} {STEP_NAMES[state.step]}"


def due_now(state: GameState) -> list[Due]:
    """The steps open now, the required one first."""
    if state.step == OVER:
        return []
    must = duty(state)
    if must:
        return [Due(must.action, must.action.replace("_", " ").capitalize(), must.text, must.rule)]
    steps = {DEPLOY: _deploy, MORALE: _morale, COMBAT: _combat, MOVEMENT: _movement, REINFORCEMENT: _reinforce,
             DUSK: _night, NIGHT: _night}[state.step](state)
    if designation_due(state, state.active):
        steps.append(Due("designate", "Designate an army commander",
                         "With Meade absent, one of the wing commanders present must be designated.", "DX-13.7"))
    return steps


def _deploy(state: GameState) -> list[Due]:
    steps = [Due("deploy", "Deploy the muster", "Each side places cards into its own positions: units face-down, "
                 "terrain in its printed position, leaders and specials face-up.", "DX-3.2")]
    if state.options["decoys"]:
        steps.append(Due("place_decoy", "Place decoys", "Leaders, specials and terrain may go face-down.", "DX-13.6"))
    return steps + [Due("start_battle", "Start the battle", "Stacking is checked; the CSA takes turn 1.", "DX-3.1")]


def _morale(state: GameState) -> list[Due]:
    leaders, units = morale_due(state, state.active)
    if leaders:
        names = ", ".join(f"{public(c)} ({c.hits})" for c in leaders)
        return [Due("check_leader", "Leader checks first", f"One die per hit, a 6 kills: {names}.", "DX-11.3"),
                Due("morale_step", "Roll the whole morale step", "Leaders first, then units.", "DX-6.0")]
    if units:
        names = ", ".join(f"{public(c)} ({c.hits})" for c in units)
        return [Due("check_morale", "Morale checks", f"One die per hit against morale: {names}.", "DX-6.0"),
                Due("morale_step", "Roll the whole morale step", "Every unit holding hits.", "DX-6.0")]
    if state.day_ending:
        return [Due("end_day", "End of the day", "Attacking units disengage; then the night.", "DX-14.0")]
    return [Due("end_morale", "End the morale step", "No hits to check.", "DX-5.0")]


def _combat(state: GameState) -> list[Due]:
    waiting = waiting_melee(state)
    if waiting:
        who = waiting.initiator if waiting.stage == "choice" else "The opponent"
        return [Due("melee_choice", f"Melee in {waiting.position}: fight on?",
                    f"{who}: fight round 2, or disengage.", "DX-13.1")]
    ready = ready_melees(state)
    if ready:
        m = next(m for m in state.melees if m.position == ready[0])
        return [Due("melee_round", f"Melee in {m.position}", f"Round {m.rounds + 1}: both sides roll at once.",
                    "DX-13.1")]
    steps = []
    engaged = [p for p in state.positions if state.engaged(p)]
    if state.options["melee"] and not state.combat_at and engaged:
        steps.append(Due("declare_melee", "Declare melees", f"Before any fire, in {', '.join(engaged)}.", "DX-13.1"))
    options = firing_options(state)
    if options:
        now = state.combat_at[-1] if state.combat_at else ""
        lead = f"Finish {now} before starting another; " if now else ""
        text = lead + "; ".join(f"{o} -> {t} ({kind})" for o, t, kind in options)
        steps.append(Due("fire", "Fire", text, "DX-7.0"))
    return steps + [Due("end_combat", "End the combat step", "Then movement.", "DX-5.0")]


def _movement(state: GameState) -> list[Due]:
    steps = [Due("move", "Move", "One move per card (cavalry and leaders two); across the Middle Ground or to and "
                 "from the reserve.", "DX-8.0")]
    if firing_options(state):
        steps.append(Due("fire", "Horse artillery fires", "Horse artillery that has moved may fire now.", "DX-7.2"))
    steps.append(Due("play_terrain", "Play terrain", "From the reserve into an unengaged own-line position.",
                     "DX-10.2"))
    if state.options["flank_attack"]:
        steps.append(Due("flank_attack", "Flank attack", "Reserve cards into a flank position.", "DX-13.3"))
    if state.options["decoys"]:
        steps.append(Due("reveal_decoy", "Reveal a decoy", "Or place one from the reserve.", "DX-13.6"))
    return steps + [Due("end_movement", "End movement", "Stacking is checked; engaged cards are revealed.",
                        "DX-3.1")]


def _reinforce(state: GameState) -> list[Due]:
    return [Due("reinforce", "Draw reinforcements", f"{state.active} draws into its reserve.", "DX-9.0")]


def _night(state: GameState) -> list[Due]:
    if len(state.night_done) < 2:
        return [Due("night_draw", "Night draw", "N cards into the reserve, the next R6 set aside.", "DX-14.0")]
    return [Due("deploy", "Night deployment", "Reserve cards into own positions within the limits.", "DX-14.0"),
            Due("start_day", "Start the day", "The CSA takes the first turn.", "DX-14.0")]


def free_steps(state: GameState, viewer: str) -> list[Due]:
    """DX-12.0: a special is played when its owner chooses, in its own turn or, if so printed, the enemy's: offered
    to a side's page while one of its specials may be played (the table page sees no reserve: never)."""
    spec = seen_specs({"play_special": actions.specs["play_special"]}, viewer)["play_special"]
    if not spec.is_open(state):
        return []
    return [Due("play_special", "Play a special card", "From your reserve onto any position: at most 2 specials a "
                "position each phase, and different cards.", "DX-12.0")]
