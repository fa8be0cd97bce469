"""Words meant for developers that no page may show: ambiguity and question numbers (A3, Q12), test vectors
(TV-12), the digest, the source. An option says what it changes at the table, with its rule ID."""
from __future__ import annotations

import re

DEVELOPER_WORDS = re.compile(r"(?<![-\w/])(A\d{1,2}|Q\d{1,2}|TV-\d+|digest|the source(?! of))\b", re.IGNORECASE)
# A rule ID such as HD-A4 (an ambiguity the rules settle as an option) is the rule's name, and a supply source or
# "the source of" something is a game's word: neither is a developer word.
