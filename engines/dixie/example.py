"""EXAMPLE (fictional) battle decks for trying the companion: every card here is invented.

The rules text gives no card list and the 250 cards are not ours to ship; players enter their own cards.
These decks only have the sizes and musters of the basic game (DX-2.0, DX-2.2): 24 CSA cards and 30 USA
cards, 18 of each in the muster. Names, numbers (above the series' 1-250), values and effects are made up
and say so.
"""
from __future__ import annotations

LABEL = "Example (fictional): invented cards for trying the companion, not real Gettysburg card data"

# (type, name, fields) in dealing order: the first 18 of each side are its muster, the rest its reinforcement
# deck (DX-2.2). Numbers are given in order from 901 (CSA) and 951 (USA).


def _brigades(names) -> tuple:
    return tuple(("INF", f"Example Brigade {name}", dict(cv=cv, morale=grade, corps=corps, bp=3 * cv))
                 for name, cv, grade, corps in names)


CSA_CARDS = (
    ("LDR", "Gen. Example Grey", dict(attack=2, defense=1, stack_bonus=1, rank="army", corps="A", bp=20)),
    ("LDR", "Gen. Sample Ash", dict(attack=1, defense=2, stack_bonus=0, rank="corps", corps="I", bp=12)),
    ("LDR", "Col. Dummy Flint", dict(attack=1, defense=1, stack_bonus=0, rank="artillery", corps="I", bp=8)),
    *_brigades((("Alder", 4, "A", "I"), ("Birch", 3, "B", "I"), ("Cedar", 3, "A", "I"), ("Dogwood", 2, "B", "I"),
                ("Elm", 4, "B", "II"), ("Fir", 3, "C", "II"), ("Gum", 2, "A", "II"), ("Hazel", 3, "B", "II"),
                ("Ivy", 4, "C", "I"))),
    ("CAV", "Example Horse Kestrel", dict(cv=2, morale="A", corps="C", bp=7)),
    ("CAV", "Example Horse Lark", dict(cv=3, morale="B", corps="C", bp=9)),
    ("ART", "Example Battery Anvil", dict(cv=3, morale="B", fp_long=2, fp_short=3, corps="I", bp=10)),
    ("ART", "Example Battery Chisel", dict(cv=2, morale="A", fp_long=2, fp_short=2, corps="II", bp=7)),
    ("TER", "Example Woods", dict(codes="LC", kind="woods", modifiers="holder fire_in_cv -1; holder morale +1",
                                  text="Example effect: fire into these woods at the holder -1 CV, holder +1 morale")),
    ("TER", "Example Hill", dict(codes="R", kind="hill", modifiers="holder fire_cv +1",
                                 text="Example effect: the holder fires from the hill with +1 CV")),
    *_brigades((("Juniper", 2, "B", "II"), ("Larch", 3, "B", "I"), ("Maple", 1, "A", "II"))),
    ("ART", "Example Battery Bellows", dict(cv=2, morale="B", fp_long=1, fp_short=3, corps="II", bp=7)),
    ("ART", "Example Horse Battery Drill", dict(cv=1, morale="B", fp_long=1, fp_short=2, horse=True, corps="C",
                                                bp=5)),
    ("SPC", "Example Rally", dict(timing="own", modifiers="own morale +1",
                                  text="Example special: your units in the position +1 morale this turn", bp=4)),
)

USA_CARDS = (
    ("LDR", "Gen. Example Blue", dict(attack=1, defense=2, stack_bonus=1, rank="army", corps="A", bp=20)),
    ("LDR", "Gen. Sample Oak", dict(attack=2, defense=1, stack_bonus=0, rank="corps", corps="I", bp=12)),
    ("LDR", "Col. Dummy Spur", dict(attack=1, defense=1, stack_bonus=0, rank="cavalry", corps="C", bp=8)),
    *_brigades((("Aster", 4, "B", "I"), ("Bluebell", 3, "B", "I"), ("Clover", 3, "A", "I"), ("Daisy", 2, "C", "I"),
                ("Fern", 4, "A", "II"), ("Gorse", 3, "B", "II"), ("Heather", 2, "B", "II"), ("Iris", 3, "C", "II"),
                ("Jasmine", 4, "B", "III"), ("Lilac", 2, "A", "III"))),
    ("CAV", "Example Horse Falcon", dict(cv=2, morale="B", corps="C", bp=6)),
    ("ART", "Example Battery Easel", dict(cv=3, morale="B", fp_long=2, fp_short=3, corps="I", bp=10)),
    ("ART", "Example Battery Gavel", dict(cv=2, morale="B", fp_long=2, fp_short=2, corps="II", bp=7)),
    ("TER", "Example Ridge", dict(codes="C", kind="ridge", modifiers="holder morale +1",
                                  text="Example effect: the holder's units +1 morale")),
    ("TER", "Example Orchard", dict(codes="LR", kind="orchard", modifiers="holder fire_in_cv -1",
                                    text="Example effect: fire into the orchard at the holder -1 CV")),
    *_brigades((("Mallow", 3, "B", "III"), ("Nettle", 1, "B", "III"), ("Orchid", 3, "C", "I"),
                ("Poppy", 2, "B", "II"), ("Rose", 4, "B", "III"))),
    ("CAV", "Example Horse Gull", dict(cv=3, morale="A", corps="C", bp=9)),
    ("CAV", "Example Horse Heron", dict(cv=1, morale="B", corps="C", bp=3)),
    ("ART", "Example Battery Hinge", dict(cv=3, morale="A", fp_long=1, fp_short=3, corps="III", bp=9)),
    ("ART", "Example Battery Lathe", dict(cv=2, morale="C", fp_long=1, fp_short=2, corps="III", bp=5)),
    ("ART", "Example Horse Battery Mallet", dict(cv=2, morale="B", fp_long=1, fp_short=2, horse=True, corps="C",
                                                 bp=6)),
    ("TER", "Example Creek", dict(codes="L", kind="creek", modifiers="attacker morale -1",
                                  text="Example effect: units attacking here -1 morale")),
    ("SPC", "Example Volley", dict(timing="enemy", modifiers="own fire_cv +1",
                                   text="Example special: in the enemy turn your units here fire with +1 CV",
                                   bp=4)),
)

MUSTER = 18  # DX-2.2


def _rows(side: str, cards, first: int) -> list[dict]:
    rows = []
    for i, (kind, name, fields) in enumerate(cards):
        rows.append({"number": first + i, "side": side, "type": kind, "name": f"{name} (fictional)",
                     "pile": "muster" if i < MUSTER else "reinforcements", "day": 1 if i < MUSTER else 0,
                     **fields})
    return rows


def example_cards() -> list[dict]:
    return _rows("CSA", CSA_CARDS, 901) + _rows("USA", USA_CARDS, 951)


def example_setup() -> dict:
    return {"cards": example_cards(), "example": LABEL}
