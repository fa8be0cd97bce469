"""Reading and touching at arm's length, measured in a real browser at both tablet sizes: on every game's setup page
(its example loaded), its started game, and the decisions with odds (Dixie's fire and melee, Bull Run's combat fire,
the border states' keep, Galactic Chess's duel), every text and control shown has the size a player across the table
needs, and the odds of the decision being prepared (the odds card's title and first row of numbers) are on screen
with the button that commits it.

What is measured (in the page, through every shadow root, with getComputedStyle and getBoundingClientRect): every
element shown (it has a box and is not visibility:hidden; one in a tab not opened, or display:none, has none),
scrolled into view or not:

- text: body text 16 px or more; secondary text (`SECONDARY`) 14 px or more; a rule chip (`button.rule`) 14 px or
  more. The size is the one drawn: the computed font size times the scale of any CSS transform (a field's label
  shrunk onto its outline). Not text: the outline's notch (`fieldset legend`, a copy of the field's label never
  drawn, which only keeps the gap in the outline) and an icon drawn by a font (`.material-icons`, `.MuiIcon-root`).
- controls: every button (`button`, role button or tab, any Material button base: toggles, tabs, icon buttons, a
  number field's steppers) 48 px tall and wide, but a rule chip (a link to a clause, sized by its text); a table's
  tick box (Tabulator's row selection) 32 px, and within its cell (not cut off).
- plots (Bokeh draws them on a canvas): each shown axis's tick labels 13 px or more, its label and each legend's
  labels 14 px or more, as the page's Bokeh document holds them; a size not in px or pt cannot be told and is
  reported.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from engines.border_states.example import EXAMPLE_DEPLOYMENT, example_board
from engines.dixie.example import example_cards
from engines.galactic_chess.example import example_setup
from tests.engines.border_states.test_golden import SCRIPT as BORDER_STATES
from tests.engines.bull_run.support import ROSTER
from tests.engines.bull_run.test_golden import SCRIPT as BULL_RUN
from tests.engines.dixie.test_golden import DEPLOYMENT
from tests.engines.dixie.test_golden import SCRIPT as DIXIE
from tests.engines.galactic_chess.test_golden import SCRIPT as GALACTIC_CHESS

from .conftest import TABLET
from .ui import SLOW, button, commit, odds, played, seat, step

pytestmark = pytest.mark.browser

BODY, SMALL, CHIP, TICKS, TAP, TICK = 16, 14, 14, 13, 48, 32   # px
SECONDARY = (
    "small",                      # HTML's own mark of a side note
    "span.caption",               # a caption (an odds card's note)
    ".MuiFormHelperText-root",    # a field's helper text
    ".MuiInputLabel-shrink",      # a filled-in field's label, on its outline
    ".tile .l", ".tile .exact",   # an odds number's label, its long exact fraction
    ".choice-label",              # what a row of choice buttons is for (the seat buttons)
    ".log .dice", ".log .hidden", ".log .detail",   # the log's dice tags, its hidden part, its detail lines
)

MEASURE = """([secondary, body, small, chip, tap, tick, ticks]) => {
  const found = [];
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const drawn = (el) => {      // the scale of the CSS transforms on the element and its parents
    let scale = 1;
    for (let e = el; e; e = e.parentElement) {
      const t = getComputedStyle(e).transform;
      if (t && t !== 'none') { const m = new DOMMatrix(t); scale *= Math.hypot(m.a, m.b); }
    }
    return scale;
  };
  const named = (el) => {
    const css = [...el.classList].filter((c) => !/^css-|^Mui(ButtonBase|Typography)-root$/.test(c)).slice(0, 3);
    const host = el.getRootNode().host;
    const where = host ? [...host.classList].filter((c) => !/^bk-|^mui-|^css-/.test(c)).slice(0, 2) : [];
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
    return `${el.tagName.toLowerCase()}${css.map((c) => '.' + c).join('')}` +
      (where.length ? ` in .${where.join('.')}` : '') + ` "${text.slice(0, 50)}"`;
  };
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) visit(el.shadowRoot);
      if (['STYLE', 'SCRIPT', 'TEMPLATE'].includes(el.tagName) || el.closest('svg') || !shown(el)) continue;
      const box = el.getBoundingClientRect();
      const chipped = el.matches('button.rule');
      if (el.matches('button, [role=button], [role=tab], .MuiButtonBase-root') && !chipped &&
          (box.width < tap - 0.5 || box.height < tap - 0.5))
        found.push(`${named(el)}: ${box.width.toFixed(0)} x ${box.height.toFixed(0)} px, under ${tap} px`);
      if (el.matches('.tabulator input[type=checkbox]')) {
        const cell = el.parentElement.getBoundingClientRect();   // its cell: a box wider than its cell is cut off
        const cut = box.left < cell.left - 0.5 || box.right > cell.right + 0.5;
        if (box.width < tick - 0.5 || box.height < tick - 0.5 || cut)
          found.push(`${named(el)}: ${box.width.toFixed(0)} x ${box.height.toFixed(0)} px` +
                     (cut ? ', cut off by its cell' : `, under ${tick} px`));
      }
      const text = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
      if (!text || el.closest('fieldset legend, .material-icons, .material-icons-outlined, .MuiIcon-root')) continue;
      const size = parseFloat(getComputedStyle(el).fontSize) * drawn(el);
      const [least, what] = chipped || el.closest('button.rule') ? [chip, 'rule chip'] :
        secondary.some((s) => el.closest(s)) ? [small, 'secondary text'] : [body, 'body text'];
      if (size < least - 0.05) found.push(`${named(el)}: ${what} ${size.toFixed(1)} px, under ${least} px`);
    }
  };
  visit(document);
  const px = (v) => {
    const m = /^([0-9.]+)(px|pt)$/.exec(v || '');
    return m ? parseFloat(m[1]) * (m[2] === 'pt' ? 4 / 3 : 1) : NaN;
  };
  const plotted = (model, field, least, what) => {
    const value = model[field];
    const size = px(value);
    if (!(size >= least - 0.05)) found.push(`plot ${model.type} ${what}: ${value}, under ${least} px or not in px/pt`);
  };
  for (const doc of (window.Bokeh?.documents ?? [])) {
    for (const model of doc.all_models) {
      if (model.visible === false) continue;
      if (model.major_label_text_font_size !== undefined)
        plotted(model, 'major_label_text_font_size', ticks, 'tick labels');
      if (model.axis_label_text_font_size !== undefined && model.axis_label)
        plotted(model, 'axis_label_text_font_size', small, 'axis label');
      if (model.label_text_font_size !== undefined) plotted(model, 'label_text_font_size', small, 'legend labels');
    }
  }
  return found;
}"""


def measured(page: Page, output_path: str, name: str) -> list[str]:
    """What is too small on the page at each tablet size (each with the size named), a screenshot of each saved."""
    folder = Path(output_path)
    folder.mkdir(parents=True, exist_ok=True)
    found = []
    for orientation, size in TABLET.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(1_000)          # the layout and the plots follow the new size
        page.screenshot(path=folder / f"{name}-{orientation}.png")
        found += [f"{name}, {orientation}: {o}" for o in page.evaluate(
            MEASURE, [list(SECONDARY), BODY, SMALL, CHIP, TAP, TICK, TICKS])]
    page.set_viewport_size(TABLET["landscape"])
    return sorted(set(found))


# --- every game's setup page and started game ---------------------------------------------------------------------

EXAMPLES = {   # the button loading the example, the note that says it is loaded, what the note says then
    "bull_run": ("Load the example roster", ".roster-note", "Example roster"),
    "dixie": ("Load the fictional example deck", ".cards-note", "Example (fictional)"),
    "border_states": ("Load the example board", ".board-note", "Example board"),
    "house_divided": ("Load the EXAMPLE (invented map and units)", ".review-note", "EXAMPLE map and units"),
    "galactic_chess": ("Load the example (fictional) cards", ".cards-note", "Example (fictional)"),
}


@pytest.mark.parametrize("slug", list(EXAMPLES))
def test_setup_and_game_pages_read_and_touched_at_arms_length(page, server, offline, output_path, slug):
    page.goto(f"{server.url}/{slug}")
    load, note, says = EXAMPLES[slug]
    button(page, load).click(timeout=SLOW)
    expect(page.locator(note).first).to_contain_text(says, timeout=SLOW)
    too_small = measured(page, output_path, f"{slug}-setup")
    button(page, "Start the game").click()
    expect(page.locator(".phase-guide .step").first).to_be_visible(timeout=SLOW)
    too_small += measured(page, output_path, f"{slug}-game")
    assert not too_small, f"{len(too_small)} too small:\n" + "\n".join(too_small)


# --- the odds beside the button that commits the decision ----------------------------------------------------------

IN_VIEW = """([card, tile, commit]) => {
  // where each is on the screen, and whether a finger at its middle and near its top left corner finds it (and not a
  // bar drawn over it): the odds card's title (its top left corner), the first row of its numbers, the commit button
  const deepest = (x, y) => {
    let e = document.elementFromPoint(x, y);
    while (e && e.shadowRoot) {
      const inner = e.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === e) break;
      e = inner;
    }
    return e;
  };
  const finds = (els, x, y) => {
    for (let e = deepest(x, y); e; e = e.parentElement || e.getRootNode().host) if (els.includes(e)) return true;
    return false;
  };
  const at = (els, middle) => {
    const rs = els.map((e) => e.getBoundingClientRect());
    const box = {top: Math.min(...rs.map((r) => r.top)), bottom: Math.max(...rs.map((r) => r.bottom)),
                 left: Math.min(...rs.map((r) => r.left)), right: Math.max(...rs.map((r) => r.right))};
    box.seen = rs.every((r) => finds(els, r.left + 12, r.top + 12) &&
                               (!middle || finds(els, (r.left + r.right) / 2, (r.top + r.bottom) / 2)));
    return box;
  };
  const top = tile.getBoundingClientRect().top;
  const row = [...tile.parentElement.children].filter((t) => Math.abs(t.getBoundingClientRect().top - top) < 2);
  return {card: at([card], false), numbers: at(row, true), commit: at([commit], true), width: innerWidth,
          height: innerHeight};
}"""


def together(page: Page, output_path: str, name: str) -> list[str]:
    """At each tablet size: the commit button scrolled into view, as a player does, then the page scrolled on (the
    finger on the button) as far as the button stays in view, to bring in the odds card's title and the first row of
    its numbers (the odds of this decision; a card may go on with more, e.g. the other choices ranked); what is then
    not wholly on the screen, or is under something else (the title bar)."""
    found = []
    for orientation, size in TABLET.items():
        page.set_viewport_size(size)
        page.wait_for_timeout(1_000)
        card, button_ = odds(page), commit(page)
        button_.scroll_into_view_if_needed()
        handles = [card.element_handle(), card.locator(".odds-numbers .tile").first.element_handle(),
                   button_.element_handle()]
        at = page.evaluate(IN_VIEW, handles)
        bar = page.locator("header").first.bounding_box()["height"]
        below = max(at["numbers"]["bottom"], at["commit"]["bottom"]) - at["height"]
        above = bar - min(at["card"]["top"], at["commit"]["top"])
        scroll = min(below, at["commit"]["top"] - bar) if below > 0 else \
            -min(above, at["height"] - at["commit"]["bottom"]) if above > 0 else 0
        if scroll:
            box = button_.bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            page.mouse.wheel(0, scroll)
            page.wait_for_timeout(500)
        page.screenshot(path=Path(output_path) / f"{name}-together-{orientation}.png")
        at = page.evaluate(IN_VIEW, handles)
        for what, whole in (("card", False), ("numbers", True), ("commit", True)):
            box = at[what]
            inside = box["top"] >= bar - 0.5 and box["left"] >= -0.5 and box["right"] <= at["width"] + 0.5 and \
                (box["bottom"] <= at["height"] + 0.5 if whole else box["top"] + 24 <= at["height"])
            if not (inside and box["seen"]):
                place = ", ".join(f"{k} {box[k]:.0f}" for k in ("top", "bottom", "left", "right"))
                found.append(f"{name}, {orientation} ({size['width']}x{size['height']}): {WHAT[what]} is not wholly on "
                             f"the screen below the title bar ({bar:.0f} px){'' if box['seen'] else ' or is covered'}: "
                             f"{place}")
    page.set_viewport_size(TABLET["landscape"])
    return found


WHAT = {"card": "the odds card's title", "numbers": "the first row of the odds card's numbers",
        "commit": "the commit button"}


DEPLOYED = [("deploy", (), {"card": c, "position": p}) for c, p in DEPLOYMENT.items()] + [("start_battle", (), {})]


def dixie_fire(page: Page, server) -> None:
    """The CSA's first turn (the golden transcript's deployment), its battery's long-range fire at USA-R prepared by
    tapping the card and the tile."""
    game = played(server, "dixie", {"cards": example_cards()}, DEPLOYED + list(DIXIE[:1]), {"custom_decks": False})
    page.goto(f"{server.url}/dixie?session={game}")
    seat(page, "CSA")
    step(page, "fire")
    page.locator(".battlefield [data-card='CSA-915']").first.click()
    page.locator(".battlefield [data-pos='USA-R']").first.click()
    expect(odds(page)).to_contain_text("Fire CSA-L -> USA-R (long", timeout=SLOW)


def dixie_melee(page: Page, server) -> None:
    """The USA's turn 2 of the golden transcript with melee on (DX-13.1): the CSA advanced into USA-L, the USA's
    melee there is declared."""
    game = played(server, "dixie", {"cards": example_cards()}, DEPLOYED + list(DIXIE[:10]),
                  {"custom_decks": False, "melee": True})
    page.goto(f"{server.url}/dixie?session={game}")
    seat(page, "USA")
    step(page, "declare_melee")
    expect(odds(page)).to_contain_text("Melee in USA-L", timeout=SLOW)


def bull_run_fire(page: Page, server) -> None:
    """Turn 2 of the golden transcript: Union 1 and 2 attack Evans' Brigade in the woods, the fire to roll."""
    game = played(server, "bull_run", {"roster": list(ROSTER)}, BULL_RUN[:23])
    page.goto(f"{server.url}/bull_run?session={game}")
    step(page, "fire")
    expect(odds(page)).to_contain_text("P(defender retreats)", timeout=SLOW)


def border_states_keep(page: Page, server) -> None:
    """The golden transcript's first throw in Maryland (4 4 4 2 1): the CSA's take of 4, 4, 4 tapped in."""
    setup = {"board": example_board(), "deployment": EXAMPLE_DEPLOYMENT, "commanders": {"C": "Virginia",
                                                                                       "U": "Maryland"}}
    game = played(server, "border_states", setup, BORDER_STATES[:17])
    page.goto(f"{server.url}/border_states?session={game}")
    form = step(page, "keep")
    for _ in range(3):
        form.locator(".param-confirm").get_by_role("button", name="4", exact=True).click()
    expect(commit(page)).to_be_visible(timeout=SLOW)
    expect(odds(page)).to_contain_text("confirm 4,4,4", timeout=SLOW)


def galactic_chess_duel(page: Page, server) -> None:
    """The golden transcript's battle: Demo Marshal Aurum won the roll-off and engages Demo Marshal Garnet."""
    game = played(server, "galactic_chess", example_setup(), GALACTIC_CHESS[:15])
    page.goto(f"{server.url}/galactic_chess?session={game}")
    form = step(page, "engage")
    form.locator(".param-target").get_by_role("button", name="Demo Marshal Garnet", exact=True).click()
    expect(odds(page)).to_contain_text("Demo Marshal Aurum engages Demo Marshal Garnet", timeout=SLOW)


DECISIONS = {"dixie-fire": dixie_fire, "dixie-melee": dixie_melee, "bull_run-fire": bull_run_fire,
             "border_states-keep": border_states_keep, "galactic_chess-duel": galactic_chess_duel}


@pytest.mark.parametrize("decision", list(DECISIONS))
def test_the_odds_are_on_screen_with_the_button_that_commits(page, server, offline, output_path, decision):
    """The decision's form filled in: its odds card (title and first numbers) and its commit button are on the screen
    at once at both sizes; the page then, with its plots drawn, reads at arm's length too."""
    DECISIONS[decision](page, server)
    apart = together(page, output_path, decision)
    too_small = measured(page, output_path, decision)
    assert not apart + too_small, "\n".join(apart + too_small)
