"""The row of choice buttons: each option's text and value."""
from __future__ import annotations

from companion.ui.choice import TapChoice, pairs


def test_a_mapping_names_its_values_and_a_list_shows_itself():
    assert pairs({"Union": "USA", "CSA": "CSA"}) == [["Union", "USA"], ["CSA", "CSA"]]
    assert pairs(range(3)) == [["0", 0], ["1", 1], ["2", 2]]
    assert pairs([1861, 1862]) == [["1861", 1861], ["1862", 1862]]


def test_a_choice_keeps_its_options_label_and_value():
    choice = TapChoice({"Union": "USA", "CSA": "CSA"}, label="Side", value="USA")
    seen = []
    choice.param.watch(lambda e: seen.append(e.new), "value")
    choice.value = "CSA"
    assert (choice.options, choice.label, seen) == ([["Union", "USA"], ["CSA", "CSA"]], "Side", ["CSA"])
