"""Player and file text on a page is shown as itself: never markup, never script."""
from __future__ import annotations

import html
import re

import panel_material_ui as pmui
import pytest
from panel.pane import Markdown

from companion.ui.text import TAGS, Note, Text, escape, plain

HOSTILE = ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "[click](javascript:alert(1))",
           "**bold** _it_ `code` # head", "a & b < c > d", "Evans' Brigade (3 SP)", "1. first\n- item\n> quote",
           "![x](http://example.com/x.png)", "<a href='javascript:alert(1)'>x</a>", "&lt;script&gt;", "~~gone~~ | a |"]


@pytest.mark.parametrize("text", HOSTILE)
def test_plain_text_renders_as_itself_in_markdown(text):
    """The Markdown renderer of Material's Typography and Alert (markdown-it) makes of `plain(text)` only
    paragraphs and line breaks, with the text's own characters."""
    rendered = Markdown._get_parser("markdown-it", ()).render(plain(text))
    assert set(re.findall(r"<(\w+)", rendered)) <= {"p", "br"}, rendered
    shown = html.unescape(re.sub(r"<[^>]+>", "", rendered))
    assert shown.replace("\n", "").replace(" ", "") == text.replace("\n", "").replace(" ", "")


@pytest.mark.parametrize("variant", TAGS)
@pytest.mark.parametrize("text", HOSTILE)
def test_a_text_pane_shows_its_text_as_itself(text, variant):
    """What a `Text` pane puts on the page (its HTML, once the browser has decoded it for the wire) is one element
    of its variant's tag, with line breaks, holding the text's own characters."""
    page_html = html.unescape(Text(text, variant=variant)._transform_object(text)["object"])
    assert set(re.findall(r"<(\w+)", page_html)) <= {TAGS[variant], "br"}, page_html
    inner = re.fullmatch(rf'<{TAGS[variant]} class="{variant}">(.*)</{TAGS[variant]}>', page_html, re.S).group(1)
    assert html.unescape(inner.replace("<br>", "\n")) == text


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_has_no_tag(text):
    assert "<" not in escape(text) and ">" not in escape(text)
    assert html.unescape(escape(text)) == text


def test_a_notes_text_handed_back_by_the_page_is_not_taken():
    """A note's text as the page holds it (already rendered and escaped) coming back as a change from the page
    leaves the note as the server last wrote it; a plain Material alert would show it escaped twice."""
    echo = {"object": "&lt;p&gt;Iserlohn: defence must be a whole number&lt;/p&gt;\n", "title": "old"}
    note, alert = Note(object="6 persons: the cards are valid", title="Cards"), pmui.Alert(object="valid")
    note._process_events(dict(echo))
    alert._process_events(dict(echo))
    assert (note.object, note.title) == ("6 persons: the cards are valid", "Cards")
    assert alert.object == echo["object"]  # what the note is kept from
