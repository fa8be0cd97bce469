"""The players' map (digest section 8, HD-8): files in JSON or YAML, validation, warnings, the EXAMPLE map."""
from __future__ import annotations

import json

import pytest

from companion.engine import RuleError
from engines.house_divided import ENGINE
from engines.house_divided.example import EXAMPLE_MAP, LABEL, example_setup
from engines.house_divided.gamemap import (
    load_map_file,
    map_from_data,
    map_warnings,
    parse_map_text,
)
from tests.engines.house_divided.support import box, line, setup

GOOD = {"boxes": [box("A", "CSA", 2, port=True), box("B"), box("C", "USA", 1)],
        "lines": [line("A", "B"), line("B", "C", "river"), line("A", "C", "road"), line("A", "B", "river")]}

YAML = """
boxes:
  - {id: A, name: Alpha, alignment: CSA, rp: 2, port: true}
  - {id: B}
  - {id: C, alignment: USA, rp: 1, x: 1.5, y: -2}
lines:
  - {from: A, to: B, type: rail}
  - {from: B, to: C, type: river}
"""


@pytest.mark.rule("HD-8")
def test_a_map_from_json_and_yaml_files(tmp_path):
    """Digest section 8: the map loads from JSON (stdlib) or YAML (PyYAML, installed with bokeh)."""
    (tmp_path / "map.json").write_text(json.dumps(GOOD), encoding="utf-8")
    (tmp_path / "map.yaml").write_text(YAML, encoding="utf-8")
    from_json = load_map_file(tmp_path / "map.json")
    assert [b.id for b in from_json.boxes] == ["A", "B", "C"] and len(from_json.lines) == 4
    from_yaml = load_map_file(tmp_path / "map.yaml")
    assert from_yaml.box("A").name == "Alpha" and from_yaml.box("C").x == 1.5
    assert from_yaml.box("B").alignment == "neutral"
    assert map_from_data(from_json.to_data()) == from_json
    graph = from_json.graph
    assert graph.number_of_edges("A", "B") == 2  # a multigraph: rail and river between the same boxes
    (tmp_path / "map.txt").write_text("{}", encoding="utf-8")
    with pytest.raises(RuleError, match="json, .yaml or .yml"):
        load_map_file(tmp_path / "map.txt")


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("fault, words", [
    ({"lines": GOOD["lines"] + [line("C", "Q")]}, "dangling"),
    ({"boxes": GOOD["boxes"] + [box("B")]}, "listed twice"),
    ({"boxes": [dict(GOOD["boxes"][0], rp=-2), *GOOD["boxes"][1:]]}, "'rp'"),
], ids=["dangling-line", "duplicate-box", "bad-field"])
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_faulty_map_file_is_refused(tmp_path, fault, words, suffix):
    """Digest section 8: a file with a dangling line, a duplicate box or a bad field is refused, saying why."""
    path = tmp_path / f"map{suffix}"
    path.write_text(json.dumps({**GOOD, **fault}), encoding="utf-8")  # JSON is also YAML
    with pytest.raises(RuleError, match=words) as caught:
        load_map_file(path)
    assert caught.value.rule == "HD-8"


def refused(data) -> str:
    with pytest.raises(RuleError) as caught:
        map_from_data(data)
    assert caught.value.rule == "HD-8"
    return caught.value.message


@pytest.mark.rule("HD-8")
def test_a_dangling_line_is_refused():
    message = refused({**GOOD, "lines": GOOD["lines"] + [line("C", "Q")]})
    assert "dangling" in message and "'Q'" in message and "Line 5" in message


@pytest.mark.rule("HD-8")
def test_a_duplicate_box_is_refused():
    assert "'B' is listed twice" in refused({**GOOD, "boxes": GOOD["boxes"] + [box("B", "USA")]})


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("field, value, words", [
    ("alignment", "Union", "'alignment' must be one of USA, CSA, neutral"),
    ("rp", -1, "'rp'"),
    ("rp", 1.5, "'rp'"),
    ("rp", "two", "'rp'"),
    ("port", "yes", "'port' is yes or no"),
    ("fort", 1, "'fort' is yes or no"),
    ("alignmnet", "CSA", "unknown field 'alignmnet'"),
    ("x", 3, "give both 'x' and 'y'"),
    ("name", "", "'name'"),
])
def test_a_bad_box_field_is_refused(field, value, words):
    boxes = [dict(GOOD["boxes"][0], **{field: value}), *GOOD["boxes"][1:]]
    assert words in refused({**GOOD, "boxes": boxes})


@pytest.mark.rule("HD-8")
@pytest.mark.parametrize("bad, words", [
    ({"from": "A", "to": "B", "type": "canal"}, "'type' must be one of rail, river, road"),
    ({"from": "A", "to": "A", "type": "rail"}, "to itself"),
    ({"from": "A", "to": "B", "type": "rail", "length": 3}, "unknown field 'length'"),
    ({"from": "B", "to": "A", "type": "rail"}, "listed twice"),
    ({"to": "B", "type": "rail"}, "'from'"),
])
def test_a_bad_line_is_refused(bad, words):
    assert words in refused({**GOOD, "lines": GOOD["lines"] + [bad]})


@pytest.mark.rule("HD-8")
def test_other_refusals():
    assert "no boxes" in refused({"boxes": [], "lines": []})
    assert "not a role" in refused({**GOOD, "designated": {"atlanta": "A"}})
    assert "no box 'Z'" in refused({**GOOD, "designated": {"washington": "Z"}})
    assert "unknown field" in refused({**GOOD, "rivers": []})
    with pytest.raises(RuleError, match="not valid JSON"):
        parse_map_text("{boxes: [", "json")
    with pytest.raises(RuleError, match="not valid YAML"):
        parse_map_text("boxes: [", "yaml")


@pytest.mark.rule("HD-8")
def test_warnings_for_isolated_and_missing_designated_boxes():
    warnings = map_warnings(map_from_data({**GOOD, "boxes": GOOD["boxes"] + [box("D")]}))
    assert "Box 'D' has no line to any other box" in warnings
    assert any("washington" in w and "richmond" in w and "europe" in w for w in warnings)
    mapped = map_from_data({**GOOD, "designated": {"washington": "C"}})
    assert mapped.role("washington") == "C" and mapped.role("richmond") is None


@pytest.mark.rule("HD-8", "HD-2")
def test_the_example_is_labelled_everywhere():
    """Only the digest's small invented example ships, labelled as an example in the map, the setup and the
    state: about 10 boxes, 2+ ports, a contested box and an isolated source (TV-12)."""
    assert "EXAMPLE" in LABEL and EXAMPLE_MAP["label"] == LABEL and example_setup()["label"] == LABEL
    assert all(b["name"].startswith("Example") for b in EXAMPLE_MAP["boxes"])
    state = ENGINE.start(None, example_setup())
    assert state.label == LABEL and state.game_map.label == LABEL
    assert 9 <= len(state.game_map.boxes) <= 12 and sum(b.port for b in state.game_map.boxes) >= 2
    assert state.units_in("P", "USA") and state.units_in("P", "CSA")
    assert state.game_map.positions["A"] == (1.0, 0.0)
    laid_out = map_from_data(GOOD).positions
    assert set(laid_out) == {"A", "B", "C"} and laid_out == map_from_data(GOOD).positions


@pytest.mark.rule("HD-2", "HD-8")
@pytest.mark.parametrize("change, rule, words", [
    ({"units": [{"name": "X1", "side": "USA", "box": "nowhere"}]}, "HD-8", "no box 'nowhere'"),
    ({"units": [{"name": "X1", "side": "Union", "box": "A"}]}, "HD-2", "'side'"),
    ({"units": [{"name": "X1", "side": "USA", "box": "A", "grade": "elite"}]}, "HD-2", "'grade'"),
    ({"units": [{"name": "X1", "side": "USA", "box": "A"}, {"name": "X1", "side": "CSA", "box": "B"}]}, "HD-2",
     "appears twice"),
    ({"units": [{"name": "Garrison", "side": "CSA", "box": "A"}]}, "HD-2", "garrison"),
    ({"mm": {"USA": 30}}, "HD-2", "CSA MM"),
    ({"mm_track": 30}, "HD-2", "off a track"),
    ({"calendar": ["Jul 1861", "Aug 1860"]}, "HD-2", "1861 to 1865"),
    ({"calendar": ["Jul 1862", "Aug 1861"]}, "HD-2", "backwards"),
    ({"leaders": [{"name": "Jackson", "front": 2}]}, "HD-5.7", "'name'"),
    ({"leaders": [{"name": "Lee", "front": 3, "face": "back"}]}, "HD-5.7", "back face"),
    ({"contained": ["A"]}, "HD-5.4", "took by landing"),
    ({"landed_ports": ["A"]}, "HD-5.4", "not a port"),
    ({"control": {"A": "France"}}, "HD-2", "Control of A"),
    ({"fi_units": [{"arm": "inf", "grade": "crack"}]}, "HD-5.9", "4 units"),
    ({"colour": 1}, "HD-2", "unknown field"),
])
def test_a_bad_setup_is_refused(change, rule, words):
    with pytest.raises(RuleError) as caught:
        ENGINE.start(None, setup(**change))
    assert caught.value.rule == rule and words.lower() in caught.value.message.lower()


@pytest.mark.rule("HD-4.8")
def test_the_border_state_numbers_option_is_checked():
    with pytest.raises(RuleError) as caught:
        ENGINE.start({"border_required": {"MO": 3, "KY": 1}}, setup())
    assert caught.value.rule == "HD-4.8"
