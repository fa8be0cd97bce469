"""Dice sources: what they roll, how every roll is recorded, and how bad faces are refused."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import (
    ENTERED,
    RANDOM,
    SCRIPTED,
    DiceError,
    DiceExhausted,
    EnteredDice,
    ProbeDice,
    RandomDice,
    ReplayDice,
    Roll,
    ScriptedDice,
    parse_faces,
)
from tests.scale import examples

FACES = (3, 1, 6, 2)


@pytest.mark.parametrize("make, source", [
    (lambda: RandomDice(seed=7), RANDOM),
    (lambda: EnteredDice(FACES), ENTERED),
    (lambda: ScriptedDice(FACES), SCRIPTED),
], ids=["random", "entered", "scripted"])
def test_every_roll_is_recorded_with_its_source(make, source):
    dice = make()
    one = dice.d(6, "first")
    two = dice.roll(3, 6, "then three")
    assert dice.rolls == [Roll("first", 6, (one,), source), Roll("then three", 6, two, source)]
    assert all(1 <= f <= 6 for f in (one, *two))


def test_random_dice_follow_their_seed():
    rng = random.Random(11)
    expected = tuple(rng.randint(1, 8) for _ in range(5))
    assert RandomDice(seed=11).roll(5, 8) == expected
    assert RandomDice(rng=random.Random(11)).roll(5, 8) == expected


@pytest.mark.parametrize("cls", [EnteredDice, ScriptedDice])
def test_queued_dice_are_used_in_order(cls):
    dice = cls(FACES)
    assert dice.d() == 3
    assert dice.roll(2) == (1, 6)
    assert dice.unused() == 1
    assert dice.d() == 2
    assert dice.unused() == 0


@pytest.mark.parametrize("cls", [EnteredDice, ScriptedDice])
def test_asking_for_more_dice_than_given(cls):
    dice = cls((4,))
    message = "needs 2 d8 for the charge, but only 1 of the dice you gave are left"
    with pytest.raises(DiceExhausted, match=message) as err:
        dice.roll(2, 8, "the charge")
    assert err.value.sides == 8
    assert dice.rolls == [] and dice.unused() == 1


@pytest.mark.parametrize("faces, sides, message", [
    ((7,), 6, "7 is not a face of a d6: each die shows 1 to 6"),
    ((0,), 6, "0 is not a face of a d6"),
    ((-2,), 6, "-2 is not a face of a d6"),
    ((9,), 8, "9 is not a face of a d8"),
    (("four",), 6, "'four' is not a face of a d6"),
    ((2.5,), 6, "2.5 is not a face of a d6"),
    ((True,), 6, "True is not a face of a d6"),
], ids=["seven", "zero", "negative", "d8", "text", "fraction", "bool"])
def test_entered_dice_refuse_a_face_outside_the_die(faces, sides, message):
    dice = EnteredDice(faces)
    with pytest.raises(DiceError, match=message):
        dice.d(sides)
    assert dice.rolls == [] and dice.unused() == 1


def test_entered_dice_accept_every_face_of_the_die():
    assert EnteredDice(tuple(range(1, 9))).roll(8, 8) == tuple(range(1, 9))


@pytest.mark.parametrize("text, sides, count, faces", [
    ("4", 6, None, (4,)),
    ("4 2", 6, 2, (4, 2)),
    ("4,2", 6, None, (4, 2)),
    (" 6 ; 1 ,3 ", 6, 3, (6, 1, 3)),
    ("8", 8, 1, (8,)),
    ("+5", 6, 1, (5,)),
])
def test_parse_faces_reads_typed_dice(text, sides, count, faces):
    assert parse_faces(text, sides, count) == faces
    entered = EnteredDice(parse_faces(text, sides, count))
    assert entered.roll(len(faces), sides) == faces
    assert entered.rolls[0].source == ENTERED


@pytest.mark.parametrize("text, sides, count, message", [
    ("", 6, None, "Enter the die you rolled: whole numbers from 1 to 6"),
    ("   ", 6, 2, "Enter 2 dice you rolled"),
    (None, 6, 1, "Enter the die you rolled"),
    ("7", 6, None, "7 is not a face of a d6: each die shows 1 to 6"),
    ("0", 6, None, "0 is not a face of a d6"),
    ("-1", 6, None, "-1 is not a face of a d6"),
    ("9", 8, None, "9 is not a face of a d8"),
    ("four", 6, None, "'four' is not a die face: enter whole numbers from 1 to 6"),
    ("2.5", 6, None, "'2.5' is not a die face"),
    ("3 x", 6, 2, "'x' is not a die face"),
    ("4 2", 6, 1, "This roll takes 1 die; you entered 2"),
    ("4", 6, 2, "This roll takes 2 dice; you entered 1"),
], ids=["empty", "blank", "none", "seven", "zero", "negative", "d8", "word", "decimal", "mixed",
        "too-many", "too-few"])
def test_typed_dice_are_refused_with_a_clear_message(text, sides, count, message):
    with pytest.raises(DiceError, match=message):
        parse_faces(text, sides, count)
    with pytest.raises(DiceError, match=message):
        EnteredDice(parse_faces(text, sides, count))


@settings(max_examples=examples(5000), deadline=None)
@given(text=st.one_of(st.text(max_size=60), st.text(alphabet="0123456789 ,;+-\n\t.x", max_size=80),
                      st.builds(lambda d, n: d * n, st.sampled_from(["9", "1 ", "\ud800", "+"]), st.integers(1, 20_000))),
       sides=st.integers(2, 20), count=st.one_of(st.none(), st.integers(1, 16)))
def test_any_typed_text_is_faces_or_a_clear_refusal(text, sides, count):
    """Typed dice of any text (huge, numbers of thousands of digits, lone surrogates) give faces of the die or a
    DiceError with a short message, never another exception."""
    try:
        faces = parse_faces(text, sides, count)
    except DiceError as exc:
        assert len(str(exc)) < 200
    else:
        assert all(1 <= f <= sides for f in faces) and (count is None or len(faces) == count)


def test_replay_dice_keep_the_original_sources():
    recorded = (Roll("initiative", 6, (4,), ENTERED), Roll("fire", 6, (2, 5), RANDOM), Roll("d8", 8, (8,), SCRIPTED))
    dice = ReplayDice(recorded)
    assert dice.d(6, "initiative") == 4
    assert dice.roll(2, 6, "fire") == (2, 5)
    assert dice.d(8, "d8") == 8
    assert dice.rolls == list(recorded)
    assert dice.unused() == 0


def test_replay_dice_count_unused_and_missing_faces():
    dice = ReplayDice((Roll("a", 6, (1, 2), RANDOM),))
    assert dice.d() == 1 and dice.unused() == 1
    dice.d()
    with pytest.raises(DiceExhausted):
        dice.d()


def test_probe_dice_show_the_highest_face():
    probe = ProbeDice()
    assert probe.roll(2, 8, "x") == (8, 8)
    assert probe.rolls == [Roll("x", 8, (8, 8), SCRIPTED)]


def test_a_roll_round_trips_through_a_dict():
    roll = Roll("fire", 6, (6, 1), ENTERED)
    assert roll.to_dict() == {"label": "fire", "sides": 6, "faces": [6, 1], "source": ENTERED}
    assert Roll.from_dict(roll.to_dict()) == roll
    assert roll.text() == "6, 1"


@pytest.mark.parametrize("data", [
    {"label": "x", "sides": 6, "faces": [7], "source": RANDOM},
    {"label": "x", "sides": 6, "faces": [0], "source": RANDOM},
    {"label": "x", "sides": 6, "faces": [3], "source": "guessed"},
], ids=["face-high", "face-low", "source"])
def test_a_recorded_roll_that_cannot_be_is_refused(data):
    with pytest.raises(DiceError, match="not a valid recorded roll"):
        Roll.from_dict(data)
