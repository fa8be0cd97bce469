"""The rules assistant on a page: every rule chip opens its clause; the Rules tab searches the rulebook.

`RuleDialog` sends the game's rulebook (its clauses as HTML, with the readings this session's options
choose) to the page once; a tap on any element with `data-rule="<ID>"` (a chip in the log, a step, an
error, the options) opens the clause in a dialog drawn in the browser, with links to the clauses it refers
to, and closing it leaves the page as it was. `chip(rule)` writes such a chip for an HTML pane. `RulesPage`
is the Rules tab: search by word or ID, the results with their text, and the clause tree by section.
"""
from __future__ import annotations

import html
import re
from functools import cache

import panel as pn
import panel_material_ui as pmui
import param
from panel.custom import JSComponent
from panel.pane import Markdown

from ..engine import Engine
from ..rulebook import Clause, Rulebook, load
from .text import escape

RULE_ID = re.compile(r"\b[A-Z]{1,3}-[0-9A-Z][0-9A-Za-z.]*[0-9A-Za-z]\b")  # BR-10.4, BS-D.3, GC-6B.4r, HD-A26
CHIP_CSS = """
.rule { display: inline-block; border: 1px solid rgba(128,128,128,.6); border-radius: 12px; padding: 2px 8px;
        margin-left: 4px; font-size: 14px; cursor: pointer; background: transparent; color: inherit;
        min-height: 28px; line-height: 22px; }
.rule:hover, .rule:focus { background: rgba(0,114,178,.15); }
"""
CLAUSE_CSS = """
.clause h3 { font-size: 18px; margin: 6px 0; }
.clause p, .clause li { font-size: 16px; line-height: 1.45; }
.clause table { border-collapse: collapse; margin: 8px 0; font-size: 15px; }
.clause td, .clause th { border: 1px solid rgba(128,128,128,.5); padding: 4px 8px; text-align: center; }
.clause .reading { font-size: 15px; background: rgba(230,159,0,.18); border-radius: 6px; padding: 6px 8px; }
.clause .section { font-size: 14px; opacity: .7; }
.rules-tree summary { font-size: 17px; min-height: 48px; line-height: 48px; cursor: pointer; }
.rules-tree li { font-size: 16px; margin: 6px 0; }
"""


def chip(rule: str, title: str = "") -> str:
    """A rule ID as a chip a tap opens (HTML for an HTML pane)."""
    label = f' title="{escape(title)}"' if title else ""
    return (f'<button type="button" class="rule" data-rule="{escape(rule)}"{label} '
            f'aria-label="Rule {escape(rule)}">{escape(rule)}</button>')


@cache
def _markdown(text: str) -> str:
    """A clause's text as HTML, made once a server: every page's rule dialog sends the whole rulebook, and the
    texts are those of the rulebooks shipped with the games (the cache holds no more than them)."""
    return Markdown._get_parser("markdown-it", ()).render(text)


def readings(engine: Engine, options: dict, rule: str) -> list[str]:
    """What this session's options read for a rule: "<option>: <the choice made>"."""
    found = []
    for option in engine.options:
        if option.rule == rule and option.key in options:
            value = options[option.key]
            chosen = next((label for v, label in option.choices if type(v) is type(value) and v == value), None)
            found.append(f"{option.label}: {chosen if chosen is not None else value}")
    return found


def clause_html(clause: Clause, reading: list[str] = ()) -> str:
    """A clause for a page: its title, section, text with its tables, this session's readings, its references."""
    see = "".join(chip(ref) for ref in clause.see)
    how = "".join(f"<div class='reading'>This game: {html.escape(r)}</div>" for r in reading)
    return (f"<div class='clause'><div class='section'>{html.escape(clause.section)}</div>"
            f"<h3>{html.escape(clause.id)} {html.escape(clause.title)}</h3>{_markdown(clause.text)}{how}"
            + (f"<p>See also: {see}</p>" if see else "") + "</div>")


class RuleDialog(JSComponent):
    """The clause of any tapped rule chip on the page, in a dialog drawn in the browser."""

    clauses = param.Dict(default={}, doc="rule ID -> the clause's HTML")

    _stylesheets = [CHIP_CSS]
    _esm = """
    export function render({ model }) {
      const css = `
        .clause-dialog { position: fixed; inset: 0; background: rgba(0,0,0,.45); z-index: 10000; display: flex;
                       align-items: center; justify-content: center; }
        .clause-dialog .box { background: var(--mui-palette-background-paper, #fff); color: inherit; max-width: 720px;
                            width: 92vw; max-height: 84vh; overflow: auto; border-radius: 10px; padding: 16px 20px;
                            font-family: system-ui, sans-serif; color: #1d2330; }
        .clause-dialog .close { float: right; min-height: 48px; min-width: 96px; font-size: 16px; border-radius: 6px;
                              border: 1px solid #888; background: transparent; cursor: pointer; }
        .clause-dialog .back { min-height: 48px; font-size: 16px; margin-right: 8px; border-radius: 6px;
                             border: 1px solid #888; background: transparent; cursor: pointer; }
        .clause-dialog .rule { display: inline-block; border: 1px solid rgba(128,128,128,.6); border-radius: 12px;
                             padding: 2px 8px; margin-left: 4px; font-size: 14px; cursor: pointer; background: transparent;
                             min-height: 28px; }
        .clause-dialog table { border-collapse: collapse; } .clause-dialog td, .clause-dialog th {
                             border: 1px solid rgba(128,128,128,.5); padding: 4px 8px; text-align: center; }
        .clause-dialog .reading { background: rgba(230,159,0,.18); border-radius: 6px; padding: 6px 8px; }
        .clause-dialog p, .clause-dialog li { font-size: 16px; line-height: 1.45; }`;
      if (!document.getElementById('rule-dialog-style')) {
        const style = document.createElement('style');
        style.id = 'rule-dialog-style';
        style.textContent = css;
        document.head.appendChild(style);
      }
      const trail = [];
      const show = (rule) => {
        const text = model.clauses[rule];
        if (text === undefined) { return; }
        let dialog = document.querySelector('.clause-dialog');
        if (!dialog) {
          dialog = document.createElement('div');
          dialog.className = 'clause-dialog';
          dialog.setAttribute('role', 'dialog');
          dialog.addEventListener('click', (event) => { if (event.target === dialog) { close(); } });
          document.body.appendChild(dialog);
        }
        trail.push(rule);
        const back = trail.length > 1 ? '<button type="button" class="back">Back</button>' : '';
        dialog.innerHTML = `<div class="box">${back}<button type="button" class="close">Close</button>${text}</div>`;
        dialog.querySelector('.close').addEventListener('click', close);
        const previous = dialog.querySelector('.back');
        if (previous) { previous.addEventListener('click', () => { trail.pop(); show(trail.pop()); }); }
      };
      const close = () => {
        trail.length = 0;
        const dialog = document.querySelector('.clause-dialog');
        if (dialog) { dialog.remove(); }
      };
      if (!window.__ruleChips) {
        window.__ruleChips = true;
        document.addEventListener('click', (event) => {
          for (const node of event.composedPath()) {
            if (node && node.getAttribute && node.getAttribute('data-rule')) {
              event.preventDefault();
              event.stopPropagation();
              window.__showRule(node.getAttribute('data-rule'));
              return;
            }
          }
        }, true);
        document.addEventListener('keydown', (event) => { if (event.key === 'Escape') { window.__closeRule(); } });
      }
      window.__showRule = show;
      window.__closeRule = close;
    }
    """


def rule_dialog(engine: Engine, options: dict) -> RuleDialog:
    """The dialog of a game's rulebook, with the readings of this session's options."""
    book = load(engine.slug)
    return RuleDialog(clauses={cid: clause_html(c, readings(engine, options, cid)) for cid, c in book.clauses.items()},
                      height=0, width=0, margin=0, css_classes=["rule-dialog-host"])


class RulesPage(pn.viewable.Viewer):
    """The Rules tab: search by any word or ID; the results with their text; every clause by section."""

    def __init__(self, engine: Engine, options: dict, **params):
        super().__init__(**params)
        self.engine, self.options = engine, options
        self.book: Rulebook = load(engine.slug)
        self.query = pmui.TextInput(label="Search the rules (a word, a term, a rule ID)", size="large",
                                    sizing_mode="stretch_width", css_classes=["rules-search"])
        self.results = pn.pane.HTML(sizing_mode="stretch_width", stylesheets=[CHIP_CSS, CLAUSE_CSS],
                                    css_classes=["rules-results"])
        self.tree = pn.pane.HTML(self._tree(), sizing_mode="stretch_width", stylesheets=[CHIP_CSS, CLAUSE_CSS],
                                 css_classes=["rules-tree"])
        self.query.param.watch(lambda e: self.search(e.new), "value_input")

    def search(self, words: str) -> None:
        found = self.book.search(words or "")
        if not (words or "").strip():
            self.results.object = ""
            return
        self.results.object = (f"<p>{len(found)} clause{'s' * (len(found) != 1)} found</p>" + "".join(
            clause_html(c, readings(self.engine, self.options, c.id)) for c in found[:30]))

    def _tree(self) -> str:
        parts = []
        for section, clauses in self.book.sections:
            items = "".join(f"<li>{chip(c.id)} {html.escape(c.title)}</li>" for c in clauses)
            parts.append(f"<details><summary>{html.escape(section)}</summary><ul>{items}</ul></details>")
        return f"<h3>{html.escape(self.book.title)}</h3>{''.join(parts)}"

    def __panel__(self):
        return pn.Column(self.query, self.results, self.tree, sizing_mode="stretch_width", css_classes=["rules-page"])
