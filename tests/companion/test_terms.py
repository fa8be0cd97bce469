"""A number kept with its parts (companion.terms): the number is their sum, and the text says each part."""
from __future__ import annotations

import pytest

from companion.engine import RuleError
from companion.terms import Terms, check_sum

MORALE = Terms((("CV", 3), ("grade B", 0), ("terrain", 1), ("leader", 2)))


def test_the_number_is_the_sum_of_its_parts_and_the_text_names_each():
    assert MORALE.total == 6 and MORALE.said() == "6 = CV 3 + grade B 0 + terrain +1 + leader +2"
    assert Terms((("CV", 3), ("woods", -1))).said() == "2 = CV 3 − woods 1"
    assert Terms((("strategy", 8), ("the SC's strategy", 3), ("card", -1))).summed() == \
        "strategy 8 + the SC's strategy 3 − card 1"
    assert Terms((("hill", -1), ("ford", -2))).listed() == "hill −1, ford −2"
    assert Terms((("hill", -1), ("ford", -2))).said() == "−3 = hill −1 − ford 2"
    assert Terms().plus("Ragnarok", 1).after("the die") == "the die + Ragnarok +1"


def test_parts_that_do_not_add_up_to_the_number_are_refused():
    check_sum(object(), "made_of", 6, MORALE, "T-1")
    check_sum(object(), "made_of", 5, None, "T-1")
    with pytest.raises(RuleError) as caught:
        check_sum(object(), "made_of", 5, MORALE, "T-1")
    assert "'made_of' adds up to 6, not 5" in caught.value.message
