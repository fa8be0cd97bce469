"""One layout of the page per message from the server, not one per component it changed.

Bokeh lays out the whole page (every component's size read back, each read making the browser lay out the page
again) for each component changed or resized (bokeh/bokeh#14287). A tap on a choice of a Dixie game page laid it out
20-27 times: 2,000-3,100 sizes read, 100-180 ms of the tablet's main thread. `Relayout`, put on the page, makes
Bokeh lay it out once per message (after its last change, before the browser draws) and once per frame for the
components resized in it: 7-10 times and 50-80 ms for the same tap."""
from __future__ import annotations

from panel.custom import JSComponent


class Relayout(JSComponent):
    """Nothing to see: its script, run as the page is built (before its first layout), changes how Bokeh's
    layouts (`LayoutDOMView`) ask for a layout of the page. Without that class (another Bokeh), it changes nothing."""

    _esm = """
    const Layout = window.Bokeh?.require?.("models/layouts/layout_dom")?.LayoutDOMView
    const proto = Layout?.prototype
    if (proto && proto.invalidate_layout && proto._after_resize && !proto.__once) {
      proto.__once = true
      const top = (view) => { let root = view; while (root.parent instanceof Layout) root = root.parent; return root }
      const once = (queue, when, lay) => function () {
        const root = top(this)
        if (queue.has(root)) return
        queue.add(root)
        when(() => { queue.delete(root); if (!root.is_destroyed) lay(root) })
      }
      // A change: the layout once the message's last change is in (a microtask: before the browser draws).
      const relaid = (root) => { root.update_layout(); root.compute_layout() }
      proto.invalidate_layout = once(new Set(), queueMicrotask, relaid)
      // A component resized: the layout at the next frame, with every other one resized meanwhile.
      const resized = once(new Set(), requestAnimationFrame, (root) => root.compute_layout())
      const after_resize = proto._after_resize
      proto._after_resize = function () {
        return this.is_layout_root && !this._was_built ? after_resize.call(this) : resized.call(this)
      }
    }
    export function render() {}
    """
