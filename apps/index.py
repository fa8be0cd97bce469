"""The landing page: the five games, each with its saved sessions, and what the companion does."""
from __future__ import annotations

import html

import panel as pn
import panel_material_ui as pmui

import engines
from companion.store import Store
from companion.ui.text import Text
from companion.ui.theme import extension, page

INTRO = ("Keep your own cards, maps, counters and dice. The companion tracks the game, rolls dice for you or "
         "takes the dice you rolled, resolves every procedure exactly as the rules say (and shows which clause), "
         "and shows the exact odds of a choice before you commit to it.")


def game_card(slug: str, title: str, line: str, sessions: list[dict]) -> pmui.Card:
    engine = engines.get(slug)
    links = "".join(
        f'<li><a href="/{slug}?session={s["id"]}">{html.escape(s["title"])}</a> '
        f'<span class="meta">{s["events"]} events, last played {s["updated"].replace("T", " ")[:16]} UTC</span></li>'
        for s in sessions)
    saved = pn.pane.HTML(f'<ul class="saved">{links}</ul>' if links else "<p>No saved games yet.</p>",
                         sizing_mode="stretch_width", stylesheets=[
                             ".saved li { font-size: 17px; padding: 6px 0; } .saved a { font-weight: 600; } "
                             ".meta { opacity: .7; font-size: 14px; margin-left: 6px; }"])
    play = pmui.Button(label="New or saved game", href=f"/{slug}", variant="contained", color="primary",
                       css_classes=["open-game"], size="large", min_height=48)
    return pmui.Card(Text(f"{line}. {engine.summary}", variant="body1"), play, saved, title=title,
                     collapsible=False, sizing_mode="stretch_width", css_classes=["game", f"game-{slug}"])


def landing() -> pmui.Page:
    store = Store()
    cards = [game_card(slug, title, line, store.sessions(slug))
             for slug, title, line in engines.CATALOGUE]
    main = [Text(INTRO, variant="body1", css_classes=["intro"], sizing_mode="stretch_width"),
            pn.FlexBox(*cards, flex_wrap="wrap", sizing_mode="stretch_width",
                       styles={"gap": "16px"}),
            Text(f"Games are saved in {store.folder}", variant="caption")]
    return page("Table Companion", main)


if pn.state.served:
    extension()
    landing().servable(title="Table Companion")
