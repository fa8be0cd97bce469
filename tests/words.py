"""Words meant for developers that no page may show: ambiguity and question numbers (A3, Q12), test vectors
(TV-12), the digest, the source. An option says what it changes at the table, with its rule ID."""
from __future__ import annotations

import re

DEVELOPER_WORDS = re.compile(r"(?<![-\w/])(A\d{1,2}|Q\d{1,2}|TV-\d+|digest|(?<!supply )(?<!\d )source(?! of))\b",
                             re.IGNORECASE)
# The source (the rulebook the digest was made from) is a developer word, bare ("the source says", "source text", "the
# source's example") or not. A rule ID such as HD-A4 (an ambiguity the rules settle as an option) is the rule's name,
# and a game's own sources are a game's word: a supply source, sources (a network's), "1 source" (a count of them),
# "the source of" something.
