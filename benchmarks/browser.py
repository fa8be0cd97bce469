"""The pages in a real browser (Debian's Chromium, Playwright), against a `companion serve` on loopback.

Each game gets a session of 200 events played by legal random choices. Measured in the page, from the tap
(`performance.now()` at the pointer going down) to the page showing the change, then to it settling (no
element added or removed for 300 ms): opening the game in progress from a fresh browser until it is usable
(its log and phase guide shown), the first opening of its odds tab and then of each of its other tabs (until the
tab's own page is shown, then settled: `odds_tab` and `tab`), an undo and a redo (the log, board and next step
redrawn, as for any confirmed action), and another tablet on the same game seeing that event. The baseline is
the same measurement on a minimal Panel page served the same way (`minimal_page.py`: one button updating one
HTML pane and one small bar plot). Then the load: 20 pages (5 tables of 4 tablets, each table on
its own game) tapping at once (with the share of the cores the server and the browser used meanwhile: here one
machine draws all 20 pages), the server's CPU per idle page, its memory before, during, after and after 20 more
pages opened and closed (what the server keeps after the first pages is reused, not grown).
A tap on a choice of the step shown (an option not chosen in one of its fields of buttons, e.g. another target; in a
choice of several, every other tap takes the last one back off) is measured to the odds numbers changed and to the
odds plot redrawn (the frame after the plot's data arrived), until 20 taps changed the numbers.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import tempfile
import time
from importlib import import_module
from pathlib import Path

from playwright.async_api import Page, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

import engines
from companion.dice import RandomDice
from companion.engine import RuleError
from companion.play import random_action
from companion.session import GameSession
from companion.spec import ONE_OF, SOME_OF
from companion.store import Store
from tests.browser.conftest import TABLET, Server, chromium

from .harness import line, number

EVENTS = 200
TAPS = 20          # taps measured per kind and game
OPENS = 8          # fresh browsers opening each game
TABLES, SEATS = 5, 4
QUIET_MS = 300     # the page has settled when no element came or went for this long
LIMIT_MS = 30_000  # a tap not answered within this is a lost click
IDLE_S = 20        # the server's CPU time is read over this long (it counts in 10 ms ticks)

# Helpers put in every page before its scripts run: a walk through the shadow roots Bokeh draws into, the time
# of the last tap, and a wait for a condition followed by the page settling (the ripple a Material button draws
# where it was tapped, which fades out over half a second, is not a change of the page).
IN_PAGE = """
const RIPPLE = '[class*="MuiTouchRipple-ripple"], [class*="MuiTouchRipple-ripple"] *';
window.__walk = (root, fn) => { for (const e of root.querySelectorAll('*')) { fn(e); if (e.shadowRoot) __walk(e.shadowRoot, fn); } };
// The document and every shadow root in it, found as they are added (never by walking the whole page at each frame:
// that measure would itself cost a game page of 3,000 elements several ms a frame); __dirty: changed since last read.
const ROOTS = new Set();
window.__dirty = true;
const OBSERVER = new MutationObserver(records => { window.__dirty = true;
  for (const r of records) for (const node of r.addedNodes) if (node.nodeType === 1) __track(node); });
window.__track = (node) => { for (const e of [node, ...node.querySelectorAll('*')]) if (e.shadowRoot && !ROOTS.has(e.shadowRoot)) {
  ROOTS.add(e.shadowRoot); OBSERVER.observe(e.shadowRoot, {childList: true, subtree: true, characterData: true}); __track(e.shadowRoot); } };
ROOTS.add(document); OBSERVER.observe(document, {childList: true, subtree: true, characterData: true});
window.__roots = () => [...ROOTS].filter(r => r === document || r.host.isConnected);
window.__find = (sel) => __roots().flatMap(r => [...r.querySelectorAll(sel)]);
window.__inside = (sel, inner) => { const out = []; for (const host of __find(sel)) { const add = e => { if (e.matches(inner)) out.push(e); };
  __walk(host, add); if (host.shadowRoot) __walk(host.shadowRoot, add); } return out; };
window.__text = (sel, shown) => __find(sel).filter(e => !shown || e.checkVisibility())
  .map(e => (e.shadowRoot ? e.shadowRoot.textContent : '') + e.textContent).join('|');
window.__elements = () => __roots().reduce((n, r) => n + r.querySelectorAll('*').length - r.querySelectorAll(RIPPLE).length, 0);
window.__tap = null;
document.addEventListener('pointerdown', () => { window.__tap = performance.now(); }, true);
window.__plotAt = null;  // the frame after a plot's data or figure last changed
window.__hookPlots = () => { for (const d of (window.Bokeh && Bokeh.documents) || []) { if (d.__hooked) continue;
  d.__hooked = true; d.on_change(ev => { if (/DataSource|Figure|Plot|Range/.test(String(ev.model)))
    requestAnimationFrame(() => { window.__plotAt = performance.now(); }); }); } };
window.__choices = () => { const off = []; for (const field of __inside('.phase-guide', '[class*="param-"]')) {
  const buttons = [], add = e => { if (e.matches('button[aria-pressed]') && !e.disabled) buttons.push(e); };
  __walk(field, add); if (field.shadowRoot) __walk(field.shadowRoot, add);
  if (buttons.length >= 2) off.push(...buttons.filter(b => b.getAttribute('aria-pressed') === 'false')); } return off; };
// A tap on a choice: an option not chosen, in turn; every other tap takes the last one back off when its field is a
// choice of several (class many), as a player weighing a fire taps a unit on and off.
window.__many = (e) => { for (let n = e; n; n = n.parentNode || n.host) if (n.classList && n.classList.contains('many'))
  return true; return false; };
window.__pick = (i) => { __hookPlots(); const last = window.__last;
  const again = i %% 2 === 1 && last && last.isConnected && !last.disabled && last.getAttribute('aria-pressed') === 'true'
    && __many(last);
  const off = again ? [last] : __choices(); if (!off.length) return false;
  window.__last = off[i %% off.length]; window.__tap = performance.now(); window.__last.click(); return true; };
window.__until = (cond, from, limit) => new Promise(resolve => {
  let shown = null, last = null, count = __elements();
  const tick = () => {
    const now = performance.now(), n = window.__dirty ? __elements() : count;
    window.__dirty = false;
    if (n !== count) { count = n; last = now; }
    if (shown === null && cond()) { shown = now; last = now; }
    if (shown !== null && now - last >= %(quiet)d) return resolve({shown: shown - from, settled: last - from, at: performance.timeOrigin + shown});
    if (now - from > limit) return resolve(shown === null ? null : {shown: shown - from, settled: last - from, at: performance.timeOrigin + shown});
    requestAnimationFrame(tick);
  };
  tick();
});
""" % {"quiet": QUIET_MS}

NEWEST = "(__find('ul.log > li')[0] || {}).textContent"  # the event log shows the newest event first
ODDS = "__text('.odds-numbers', true)"  # the numbers of the odds cards shown
TAB_PAGE = "(__find('.tab-page').find(e => e.checkVisibility()) || null)"  # the page of the tab shown
PLOTTED = "(__plotAt !== null && __plotAt > __tap) ? __plotAt - __tap : null"
DRAWN = "(window.Bokeh && Bokeh.documents.length > 0 && Bokeh.documents.every(d => d.is_idle))"
# Usable: the next step's controls shown, and taking taps (a game page takes none until the server knows it is drawn).
USABLE = f"() => {NEWEST} && __find('.phase-guide').length > 0 && __find('.drawing').length === 0"
BASELINE_USABLE = f"() => __text('.counter').includes('taps') && __find('canvas').length > 0 && {DRAWN}"


class MinimalServer(Server):
    """The baseline page, served by `pn.serve` as `companion serve` serves the games."""

    def command(self) -> list[str]:
        page = Path(__file__).with_name("minimal_page.py")
        return [sys.executable, "-c", f"import panel as pn; pn.serve({{'/': {str(page)!r}}}, address='127.0.0.1', "
                f"port={self.port}, show=False, threaded=False)"]


# Steps whose choices the page gives odds for: the benchmark's game is taken back to one of them.
ODDS_STEPS = {"bull_run": {"fire", "declare_attack"}, "dixie": {"fire", "declare_melee"},
              "border_states": {"supply", "recruit", "retreat", "bid"}, "house_divided": {"march", "fire"},
              "galactic_chess": {"engage", "plot", "roll_off", "sortie", "roll_order"}}


def played(folder: Path, slug: str, seed: int) -> str:
    """A game of the example setup with 200 events of legal random play (or to its end), saved in the server's
    folder, then undone (the undos are events too) back to a step the page gives odds for: one the page shows first
    with a field of choices, if the game had one, else one the page offers."""
    engine = engines.get(slug)
    session = GameSession.new(Store(folder), slug, engine.example_setup(), title=f"{EVENTS} events")
    rng = random.Random(seed)
    while len(session.events) < EVENTS and (action := random_action(engine.actions, session.state, rng)):
        session.act(action, RandomDice(rng=rng))
    due_now = import_module(f"engines.{slug}.guide").due_now
    undone, offered = 0, None
    while True:
        due = [d.action for d in due_now(session.state)[:1] if d.action in ODDS_STEPS[slug]]
        if due and choosable(engine.actions.specs[due[0]], session.state):
            break
        if offered is None and ODDS_STEPS[slug] & set(engine.actions.open(session.state)):
            offered = undone
        if not session.can_undo:
            for _ in range(undone - (offered or 0)):
                session.redo()
            break
        session.undo()
        undone += 1
    return session.id


def choosable(spec, state) -> bool:
    """Does a field of named options of the step offer two or more (fields whose options depend on an earlier one's
    value are not looked at)?"""
    for p in spec.params:
        if p.kind in (ONE_OF, SOME_OF):
            try:
                legal = p.legal(state, {})
            except (KeyError, RuleError):
                continue
            if legal is not None and len(legal.options) >= 2:
                return True
    return False


def cpu_ms(pid: int) -> float:
    """The process's CPU time so far (user and system), in ms (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(x for x in status.splitlines() if x.startswith("VmRSS")).split()[1]) / 1024


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


class Browser:
    """One Chromium; pages at tablet size with the in-page helpers, their JavaScript errors recorded."""

    def __init__(self, chromium_browser):
        self.chromium = chromium_browser
        self.errors: list[str] = []

    async def page(self, url: str) -> Page:
        context = await self.chromium.new_context(viewport=TABLET["landscape"])
        await context.add_init_script(IN_PAGE)
        page = await context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{url}: {exc}"))
        page.on("console", lambda msg: self.errors.append(f"{url}: {msg.text}") if msg.type == "error" else None)
        await page.goto(url, wait_until="commit")
        return page

    async def opened(self, url: str, usable: str) -> tuple[Page, float | None]:
        """A fresh browser opening the page; the time from navigation to usable, and the page."""
        page = await self.page(url)
        result = await page.evaluate(f"__until({usable}, 0, {LIMIT_MS})")
        return page, (result or {}).get("shown")

    @staticmethod
    async def close(page: Page) -> None:
        await page.context.close()


def changed(watched: str, before) -> str:
    return f"() => ({watched}) !== {json.dumps(before)}"


async def tap(page: Page, selector: str, watched: str) -> dict | None:
    """Tap a control; the page's times to show a change of `watched` (a JS expression) and to settle, and the
    absolute time it was shown; None for a tap not answered."""
    before = await page.evaluate(watched)
    await page.locator(selector).first.click()
    return await page.evaluate(f"__until({changed(watched, before)}, __tap, {LIMIT_MS})")


COUNTER = "__text('.counter')"


async def baseline(browser: Browser, url: str) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"open": [], "shown": [], "settled": [], "plot": []}
    for _ in range(OPENS):
        page, opened = await browser.opened(url, BASELINE_USABLE)
        times["open"].append(opened)
        await browser.close(page)
    page, _ = await browser.opened(url, BASELINE_USABLE)
    await page.evaluate("__hookPlots()")
    for _ in range(TAPS):
        result = await tap(page, ".tap button", COUNTER)
        times["shown"].append(result["shown"])
        times["settled"].append(result["settled"])
        if (plotted := await page.evaluate(PLOTTED)) is not None:
            times["plot"].append(plotted)
    await browser.close(page)
    return times


async def tab_opened(page: Page, tab) -> float | None:
    """A tab tapped for the first time: until its own page is shown, then settled."""
    await page.evaluate(f"window.__tabBefore = {TAB_PAGE}")
    await tab.click()
    filled = await page.evaluate(f"__until(() => ![window.__tabBefore, null].includes({TAB_PAGE}), __tap, {LIMIT_MS})")
    return filled and filled["settled"]


async def game(browser: Browser, url: str) -> dict[str, list]:
    """Opens, each with the first opening of the odds tab and then of every other tab but the first; then choice
    taps; then undo and redo taps with a second tablet watching."""
    times: dict[str, list] = {k: [] for k in ("open", "odds_tab", "tab", "undo", "redo", "undo_settled", "redo_settled",
                                              "second_tablet", "choice_odds", "choice_plot",
                                              "lost")}  # lost: what was tapped and never answered
    for _ in range(OPENS):
        page, opened = await browser.opened(url, USABLE)
        times["open" if opened is not None else "lost"].append(opened or "open")
        tabs = await page.locator(".game-tabs [role=tab]").all()
        names = [await tab.inner_text() for tab in tabs]
        for i in sorted(range(1, len(tabs)), key=lambda i: not names[i].lower().startswith("odds")):
            settled = await tab_opened(page, tabs[i])
            what = "odds_tab" if names[i].lower().startswith("odds") else "tab"
            times[what if settled is not None else "lost"].append(settled or f"tab {names[i]}")
        await browser.close(page)
    page, _ = await browser.opened(url, USABLE)
    await choices(page, times)
    other, _ = await browser.opened(url, USABLE)
    first, then = ("undo", "redo") if await page.locator(".undo button").first.is_enabled() else ("redo", "undo")
    for i in range(TAPS * 2):
        what = first if i % 2 == 0 else then
        before = await other.evaluate(NEWEST)
        seen = asyncio.ensure_future(other.evaluate(f"__until({changed(NEWEST, before)}, performance.now(), {LIMIT_MS})"))
        result = await tap(page, f".{what} button", NEWEST)
        watched = await seen
        if result is None:
            times["lost"].append(what)
            continue
        times[what].append(result["shown"])
        times[f"{what}_settled"].append(result["settled"])
        if watched:
            times["second_tablet"].append(watched["at"] - (result["at"] - result["shown"]))
    await browser.close(page)
    await browser.close(other)
    return times


async def pick_listed(page: Page, i: int) -> bool:
    """A tap on an option not chosen in the step's first searchable list (a field with many choices)."""
    listed = page.locator(".phase-guide [class*='param-'] [role=combobox]:visible")
    if not await listed.count():
        return False
    await listed.first.click()  # (`__pick`, tried first, has hooked the plots)
    options = page.locator("[role=option]:not([aria-selected=true]):visible")
    try:
        await options.first.wait_for(timeout=3000)
    except PlaywrightTimeout:
        await page.keyboard.press("Escape")
        return False
    await options.nth(i % await options.count()).click()  # the page notes the time of the tap (pointerdown)
    return True


async def choices(page: Page, times: dict[str, list[float]]) -> None:
    """Taps on the step's fields (buttons, tapped on and off, else a searchable list), in turn, until TAPS of them
    changed the odds numbers (taps that change no number are not counted; at most three times as many taps): to the
    numbers changed and to the odds plot redrawn."""
    counted = 0
    for i in range(3 * TAPS):
        if counted == TAPS:
            return
        before = await page.evaluate(ODDS)
        if not await page.evaluate(f"__pick({i})") and not await pick_listed(page, i):
            return
        result = await page.evaluate(f"__until({changed(ODDS, before)}, __tap, 3000)")
        if result is not None:
            counted += 1
            times["choice_odds"].append(result["shown"])
            if (plotted := await page.evaluate(PLOTTED)) is not None:
                times["choice_plot"].append(plotted)


async def load(browser: Browser, server: Server, urls: list[str]) -> tuple[list[str], float]:
    """20 pages, 4 per game; in each round one tablet of every table taps at once (undo, then redo). The CPU the
    server and the browser used meanwhile (all on this machine's cores), and the server's memory: before, with the
    pages open, after they closed, and after 20 more were opened and closed (memory the server keeps for reuse)."""
    pid = server.proc.pid
    before = rss_mb(pid)
    tables = await open_all(browser, urls)
    await asyncio.sleep(5)
    start, cpu = time.monotonic(), cpu_ms(pid)
    await asyncio.sleep(IDLE_S)
    idle = (cpu_ms(pid) - cpu) / (time.monotonic() - start) / (TABLES * SEATS)
    during = rss_mb(pid)
    answered, lost = [], 0
    start, cpu, drawing = time.monotonic(), cpu_ms(pid), chromium_cpu_ms()
    for i in range(TAPS):
        what = "undo" if i % 2 == 0 else "redo"
        results = await asyncio.gather(*(tap(pages[i % SEATS], f".{what} button", NEWEST) for pages in tables))
        answered += [r["shown"] for r in results if r]
        lost += sum(r is None for r in results)
    wall = (time.monotonic() - start) * 1000
    server_share, browser_share = (cpu_ms(pid) - cpu) / wall, (chromium_cpu_ms() - drawing) / wall
    after = await close_all(browser, tables, pid)
    again = await close_all(browser, await open_all(browser, urls), pid)
    return [f"companion.browser_load_20_pages: tap p50 {number(percentile(answered, .5))} ms, "
            f"p95 {number(percentile(answered, .95))} ms, {lost} lost of {len(answered) + lost} taps; "
            f"while tapping the server used {server_share:.0%} of a core and the browser {browser_share:.0%} "
            f"(of {os.cpu_count()} cores); server CPU {number(idle)} ms per s per idle page; memory "
            f"{number(before)} MB before, {number(during)} MB with the pages open, {number(after)} MB after they "
            f"closed, {number(again)} MB after 20 more opened and closed"], idle


async def open_all(browser: Browser, urls: list[str]) -> list[list[Page]]:
    return [[(await browser.opened(url, USABLE))[0] for _ in range(SEATS)] for url in urls]


async def close_all(browser: Browser, tables: list[list[Page]], pid: int) -> float:
    """Close every page; the server's memory (MB) once it has dropped their sessions."""
    for pages in tables:
        for page in pages:
            await browser.close(page)
    await asyncio.sleep(40)  # the server drops a closed page's session after its unused lifetime
    return rss_mb(pid)


def chromium_cpu_ms() -> float:
    """The CPU time of every Chromium process on this machine so far, in ms (Linux)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and "chrom" in (entry / "comm").read_text():
                total += cpu_ms(int(entry.name))
        except OSError:
            continue
    return total


async def idle_baseline(browser: Browser, server: Server) -> float:
    pages = [(await browser.opened(server.url + "/", BASELINE_USABLE))[0] for _ in range(TABLES * SEATS)]
    await asyncio.sleep(5)
    start, cpu = time.monotonic(), cpu_ms(server.proc.pid)
    await asyncio.sleep(IDLE_S)
    idle = (cpu_ms(server.proc.pid) - cpu) / (time.monotonic() - start) / len(pages)
    for page in pages:
        await browser.close(page)
    return idle


def stats(slug: str, what: str, ours: list[float], base: list[float]) -> list[str]:
    if not ours or not base:
        return [f"{slug}.browser_{what}: not measured (no such control on this page, or no change it made)"]
    return [line(slug, f"browser_{what}_{name}", percentile(ours, p), percentile(base, p))
            for name, p in (("p50", .5), ("p95", .95))]


async def measure(folder: Path) -> None:
    servers = [Server(folder / "data", folder / "server.log"), MinimalServer(folder, folder / "baseline.log")]
    ours, minimal = servers
    ids = {slug: played(ours.data_dir, slug, seed) for seed, slug in enumerate(engines.GAMES)}
    try:
        for server in servers:
            server.start()
        async with async_playwright() as playwright:
            browser = Browser(await playwright.chromium.launch(**chromium()))
            base = await baseline(browser, minimal.url + "/")
            landing = []
            for _ in range(OPENS):
                page, opened = await browser.opened(ours.url + "/", "() => __find('.open-game').length > 0")
                landing.append(opened)
                await browser.close(page)
            for text in stats("companion", "landing", landing, base["open"]):
                print(text, flush=True)
            for slug, session in ids.items():
                times = await game(browser, f"{ours.url}/{slug}?session={session}")
                for what, against in (("open", "open"), ("choice_odds", "shown"), ("choice_plot", "plot"),
                                      ("odds_tab", "settled"), ("tab", "settled"), ("undo", "shown"),
                                      ("redo", "shown"), ("redo_settled", "settled"), ("second_tablet", "shown")):
                    for text in stats(slug, what, times[what], base[against]):
                        print(text, flush=True)
                if times["lost"]:
                    print(f"{slug}.browser_lost_taps: {len(times['lost'])} ({', '.join(times['lost'])})", flush=True)
            lines, idle = await load(browser, ours, [f"{ours.url}/{slug}?session={s}" for slug, s in ids.items()])
            idle_base = await idle_baseline(browser, minimal)
            print(*lines, sep="\n", flush=True)
            print(line("companion", "browser_idle_cpu_per_page", idle, idle_base).replace(" ms,", " ms per s,", 2))
            errors = browser.errors
            print(f"companion.browser_javascript_errors: {len(errors)}" + (f" ({errors[:3]})" if errors else ""))
    finally:
        for server in servers:
            server.stop()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(Path(folder)))


if __name__ == "__main__":
    main()
