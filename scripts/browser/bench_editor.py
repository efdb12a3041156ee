"""Dragging a slider in the editor, measured in headless Chromium (scripts/bench-editor runs this).

Imports one 24 MP photo (made here: 6000×4000, fractal noise in colour with fine grain, JPEG q92, kept in
.build/bench-editor/), opens it in the editor at 1440×900, and for each slider (Adjust's Exposure, Shadows
and Warmth, then a look's Intensity in Filters) drags the slider's thumb for 5 s with real mouse events
(DevTools' Input.dispatchMouseEvent: press on the thumb, a move every 16 ms along a back-and-forth path of
about 1 to 2 px a move, release), as a person drags.

Measured in the page, with the app unchanged (hooks installed with DevTools, outside the app's code):
- every `input` event of the slider: its `timeStamp`, and that of the pointermove that caused it;
- every preview request (`fetch` of POST /preview): the number of `input` events handled when it went out
  (its request reflects that input and every earlier one: the app builds the recipe from the state at
  that moment), its Resource Timing entry, the blob, the object URL the app made of it, the preview
  image's `load`, and its paint: the first animation frame after `load`, timed after that frame's
  rendering steps (a message posted from requestAnimationFrame);
- every blend the editor draws on its `editor-blend` canvas while a slider is dragged (drawImage, hooked the
  same way): it reflects every input handled when it is drawn, and is painted at the next animation frame
  unless a newer blend is drawn first; keyframe requests (fetch with priority 'low') are counted apart and
  are never a painted preview;
- an input's latency: from its `timeStamp` to the first paint of a preview (an exact render or a blend)
  that reflects it or a later input.

Definitions printed with the table:
- dropped input: an `input` event that no painted preview ever reflects (neither it nor a later input is
  shown) by 2 s after the release, or any input at all when the last exact render painted does not show the
  slider's final value. A drag with no dropped input ends with the exact render of its last value on screen.
- the last blend against the exact render that replaces it, when both show the last value.
- moves coalesced: mouse moves sent that reached the page as no pointermove of their own (Chromium merges
  moves that arrive within one frame; many of them mean a busy main thread).
- server: the preview render time the server records itself (`sepia_render_duration_seconds{kind="preview"}`
  in GET /metrics, its mean over the drag), and Resource Timing's requestStart → responseStart per request.
Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "browser"))

from sepia_browser import CANVAS_AGAINST_IMAGE, Browser, Server, sepia_binary, stop_server, tid  # noqa: E402

PHOTO_CACHE = REPO / ".build" / "bench-editor" / "photo-24mp.jpg"

# Installed with DevTools once the editor is open; records nothing until __drag.on is true.
INSTRUMENT = r"""
(() => {
  if (window.__drag) return;
  const d = window.__drag = {on: false, seq: 0, inputs: [], requests: [], blends: [], keyframes: [], moves: 0};
  let lastMove = null;
  document.addEventListener('pointermove', (e) => { if (d.on) { d.moves++; lastMove = e.timeStamp; } }, true);
  document.addEventListener('input', (e) => {
    const t = e.target;
    if (!d.on || !(t instanceof HTMLInputElement) || t.type !== 'range') return;
    d.seq++;
    d.inputs.push({seq: d.seq, t: e.timeStamp, move: lastMove, value: Number(t.value)});
  }, true);
  const blobs = new WeakMap();
  const urls = new Map();
  const originalFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    const p = originalFetch.apply(this, arguments);
    if (!d.on || !/\/preview$/.test(url.split('?')[0])) return p;
    if (init && init.priority === 'low') {  // a keyframe: shown only through blends
      const k = {fetch: performance.now()};
      d.keyframes.push(k);
      return p.then((resp) => { k.headers = performance.now(); return resp; }, (e) => { k.error = String(e && e.name); throw e; });
    }
    const slider = document.querySelector('input[type=range][data-bench-dragging]');
    const r = {tag: d.seq, value: slider ? Number(slider.value) : null, fetch: performance.now()};
    d.requests.push(r);
    return p.then((resp) => {
      r.headers = performance.now();
      const blob = resp.blob.bind(resp);
      resp.blob = () => blob().then((b) => { r.body = performance.now(); r.bytes = b.size; blobs.set(b, r); return b; });
      return resp;
    }, (e) => { r.error = String(e && e.name); throw e; });
  };
  const create = URL.createObjectURL;
  URL.createObjectURL = function (obj) {
    const u = create.call(URL, obj);
    const r = blobs.get(obj);
    if (r) { r.url = performance.now(); urls.set(u, r); }
    return u;
  };
  document.addEventListener('load', (e) => {
    const img = e.target;
    if (!(img instanceof HTMLImageElement) || img.dataset.testid !== 'editor-preview') return;
    const r = urls.get(img.getAttribute('src'));
    if (!r || r.load) return;
    r.load = performance.now();
    requestAnimationFrame(() => {
      r.frame = performance.now();
      const mc = new MessageChannel();
      mc.port1.onmessage = () => { if (urls.get(img.getAttribute('src')) === r) r.painted = performance.now(); else r.replaced = true; };
      mc.port2.postMessage(0);
    });
  }, true);
  // A blend painted on the editor's canvas while a slider is dragged reflects every input handled so far
  // (it is drawn in the input's handler, or when the keyframe it waited for arrives).
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  let drawing = null;
  CanvasRenderingContext2D.prototype.drawImage = function () {
    const result = draw.apply(this, arguments);
    if (d.on && !drawing && this.canvas.dataset && this.canvas.dataset.testid === 'editor-blend') {
      const b = drawing = {tag: d.seq, drawn: performance.now()};
      d.blends.push(b);
      Promise.resolve().then(() => { drawing = null; });
      requestAnimationFrame(() => {
        b.frame = performance.now();
        const mc = new MessageChannel();
        mc.port1.onmessage = () => { if (d.blends[d.blends.length - 1] === b) b.painted = performance.now(); else b.replaced = true; };
        mc.port2.postMessage(0);
      });
    }
    return result;
  };
  // After the app's own load listeners on the preview (registered before this one): what they took.
  const preview = document.querySelector('[data-testid="editor-preview"]');
  preview.addEventListener('load', () => { const r = urls.get(preview.getAttribute('src')); if (r && r.load && r.handled == null) r.handled = performance.now(); });
})();
"""

# Whether the last blend painted shows the last input (then it is compared with the exact render that
# replaced it: sepia_browser.CANVAS_AGAINST_IMAGE).
LAST_BLEND_IS_LAST_INPUT = """
const d = window.__drag;
const last = d.blends[d.blends.length - 1];
return !!last && d.inputs.length > 0 && last.tag >= d.inputs[d.inputs.length - 1].seq;
"""

RESOURCES = """
return performance.getEntriesByType('resource').filter((e) => /\\/preview$/.test(e.name.split('?')[0]))
  .map((e) => ({start: e.startTime, requestStart: e.requestStart, responseStart: e.responseStart, responseEnd: e.responseEnd}));
"""


# ---------------------------------------------------------------------------------------------- the photo


def make_photo(path: Path, width: int = 6000, height: int = 4000, seed: int = 24) -> Path:
    """A 24 MP photo with detail at every scale: octaves of smooth colour noise, light grain, JPEG q92."""
    if path.exists():
        return path
    import random

    from PIL import Image, ImageChops, ImageFilter

    rnd = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    img = None
    # Large soft shapes carry most of the picture; each finer octave weighs less, as in a photo.
    for cells, weight in ((4, 1.0), (12, 0.45), (36, 0.3), (108, 0.2), (324, 0.12), (972, 0.07)):
        rows = max(2, cells * height // width)
        small = Image.frombytes("RGB", (cells, rows), bytes(rnd.randrange(256) for _ in range(3 * cells * rows)))
        layer = small.resize((width, height), Image.Resampling.BICUBIC)
        img = layer if img is None else Image.blend(img, layer, weight / (1 + weight))
    img = img.filter(ImageFilter.UnsharpMask(3, 120, 1))
    grain = Image.merge("RGB", [Image.effect_noise((width, height), 6)] * 3)
    img = ImageChops.overlay(img, grain)
    tmp = path.with_suffix(".tmp.jpg")
    img.save(tmp, "JPEG", quality=92)
    tmp.replace(path)
    return path


# ---------------------------------------------------------------------------------------------- metrics


def preview_metrics(base: str) -> dict:
    """The server's own preview render time so far: sum and count of sepia_render_duration_seconds{kind="preview"}."""
    text = urllib.request.urlopen(base + "/metrics", timeout=30).read().decode()
    out = {"sum": 0.0, "count": 0}
    for line in text.splitlines():
        m = re.match(r'sepia_render_duration_seconds_(sum|count)\{[^}]*kind="preview"[^}]*\}\s+([0-9.eE+-]+)', line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


# ---------------------------------------------------------------------------------------------- dragging


def thumb_x(rect: dict, value: float) -> float:
    """Where the thumb's centre is for `value` (Chromium: the 20 px thumb travels the width less its own)."""
    frac = (value - rect["min"]) / (rect["max"] - rect["min"])
    return rect["left"] + 10 + frac * (rect["width"] - 20)


def slider_rect(b: Browser, css: str) -> dict:
    return b.js("""const s = document.querySelector(arguments[0]);
s.scrollIntoView({block: 'center'});
const r = s.getBoundingClientRect();
return {left: r.left, width: r.width, y: r.top + r.height / 2, min: Number(s.min), max: Number(s.max), value: Number(s.value)};""", css)


class DevTools:
    """A DevTools connection of our own to the page, for mouse events sent without waiting for their answer
    (chromedriver's execute_cdp_cmd waits for each: a busy page would slow the hand down)."""

    def __init__(self, b: Browser):
        import json
        import threading

        import websocket  # websocket-client, which Selenium depends on

        self.json = json
        address = b.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        targets = json.load(urllib.request.urlopen(f"http://{address}/json", timeout=10))
        page = next(t for t in targets if t.get("type") == "page" and t.get("url", "").startswith(b.base))
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], suppress_origin=True, timeout=30)
        self.sent = 0
        self.answered = 0
        self.errors: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                message = self.json.loads(self.ws.recv())
            except Exception:
                return
            if "id" in message:
                self.answered += 1
                if "error" in message:
                    self.errors.append(str(message["error"]))

    def mouse(self, kind: str, x: float, y: float, buttons: int):
        self.sent += 1
        self.ws.send(self.json.dumps({"id": self.sent, "method": "Input.dispatchMouseEvent", "params": {
            "type": kind, "x": x, "y": y, "button": "left" if kind != "mouseMoved" or buttons else "none",
            "buttons": buttons, "clickCount": 1 if kind != "mouseMoved" else 0, "pointerType": "mouse"}}))

    def drain(self, timeout: float = 30):
        end = time.monotonic() + timeout
        while self.answered < self.sent and time.monotonic() < end:
            time.sleep(0.01)
        if self.errors:
            raise RuntimeError(f"DevTools refused mouse events: {self.errors[:3]}")

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


def drag(b: Browser, dev: DevTools, css: str, seconds: float, amplitude: float, period: float = 2.5, interval: float = 0.016) -> dict:
    """Presses the slider's thumb and moves it back and forth (±amplitude of its range around where it was,
    a full swing every `period` s) with a move every `interval` s for `seconds`, then lets go. The path
    follows the clock, as a hand does: a late move goes where the hand is by then."""
    rect = slider_rect(b, css)
    b.js("document.querySelector(arguments[0]).dataset.benchDragging = '1'", css)
    span = rect["max"] - rect["min"]
    start = rect["value"]
    lo, hi = rect["min"] + 0.02 * span, rect["max"] - 0.02 * span
    # Around where the thumb is, or as near as the swing fits in the track.
    start = min(hi - amplitude * span, max(lo + amplitude * span, start))

    def value_at(t: float) -> float:
        phase = (t / period) % 1.0
        tri = 4 * phase if phase < 0.25 else 2 - 4 * phase if phase < 0.75 else 4 * phase - 4
        return min(hi, max(lo, start + amplitude * span * tri))

    y = rect["y"]
    x0 = thumb_x(rect, rect["value"])
    dev.mouse("mouseMoved", x0, y, 0)
    dev.mouse("mousePressed", x0, y, 1)
    # From the thumb to the start of the path, as a hand does before the timed drag.
    for k in range(1, 11):
        dev.mouse("mouseMoved", x0 + (thumb_x(rect, start) - x0) * k / 10, y, 1)
    dev.drain()
    t0 = time.monotonic()
    sent = []
    k = 0
    while True:
        k += 1
        due = t0 + k * interval
        now = time.monotonic()
        if due > now:
            time.sleep(due - now)
        t = time.monotonic() - t0
        if t > seconds:
            break
        dev.mouse("mouseMoved", thumb_x(rect, value_at(t)), y, 1)
        sent.append(t)
    final_x = thumb_x(rect, value_at(sent[-1]))
    dev.mouse("mouseReleased", final_x, y, 0)
    dev.drain()
    b.js("delete document.querySelector(arguments[0]).dataset.benchDragging", css)
    gaps = [b2 - a for a, b2 in zip(sent, sent[1:])]
    return {"moves": len(sent) + 10, "interval": statistics.mean(gaps) * 1000 if gaps else 0, "max_gap": max(gaps) * 1000 if gaps else 0}


def settle(b: Browser, timeout: float = 10.0):
    """Until the last input's preview has been painted (or nothing more is in flight for a while)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done = b.js("""const d = window.__drag;
const last = d.requests[d.requests.length - 1];
const busy = !document.querySelector('[data-testid="preview-busy"]').hidden;
return !busy && (!last || last.painted != null || last.error != null || last.replaced) && (!last || last.tag >= d.seq);""")
        if done:
            time.sleep(0.3)
            return
        time.sleep(0.05)


def measure(b: Browser, dev: DevTools, server: Server, name: str, css: str, seconds: float, amplitude: float) -> dict:
    settle(b)
    b.js("""const d = window.__drag; d.seq = 0; d.inputs = []; d.requests = []; d.blends = []; d.keyframes = []; d.moves = 0; d.on = true;
performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000);""")
    before = preview_metrics(server.base)
    moved = drag(b, dev, css, seconds, amplitude)
    time.sleep(0.05)
    settle(b)
    time.sleep(2.0)  # the definition of a dropped input: nothing reflecting it painted 2 s after the release
    after = preview_metrics(server.base)
    data = b.js("window.__drag.on = false; return {inputs: window.__drag.inputs, requests: window.__drag.requests, blends: window.__drag.blends, "
                "keyframes: window.__drag.keyframes, moves: window.__drag.moves, final: Number(document.querySelector(arguments[0]).value)};", css)
    data["blend_error"] = b.js(CANVAS_AGAINST_IMAGE, tid("editor-blend"), tid("editor-preview")) if b.js(LAST_BLEND_IS_LAST_INPUT) else None
    resources = b.js(RESOURCES)
    return analyse(name, data, resources, moved, before, after, seconds)


def analyse(name, data, resources, moved, before, after, seconds) -> dict:
    inputs, requests, blends = data["inputs"], data["requests"], data["blends"]
    exact = [r for r in requests if r.get("painted") is not None]
    painted = sorted(exact + [b for b in blends if b.get("painted") is not None], key=lambda r: r["painted"])
    # Match each request to its Resource Timing entry (same order; the nearest start).
    for r in requests:
        near = min(resources, key=lambda e: abs(e["start"] - r["fetch"]), default=None)
        if near and abs(near["start"] - r["fetch"]) < 5:
            r["rt"] = near
    latency, from_move, dropped, exact_latency = [], [], 0, []
    for i in inputs:
        exact_shown = next((r for r in exact if r["tag"] >= i["seq"]), None)
        if exact_shown is not None:
            exact_latency.append(exact_shown["painted"] - i["t"])
        shown = next((r for r in painted if r["tag"] >= i["seq"]), None)
        if shown is None:
            dropped += 1
            continue
        latency.append(shown["painted"] - i["t"])
        if i.get("move") is not None:
            from_move.append(shown["painted"] - i["move"])
    # The last value on screen at the end is an exact render (a blend is replaced by one at the release).
    last = max(exact, key=lambda r: r["painted"]) if exact else None
    final_shown = bool(last and inputs and last["tag"] >= inputs[-1]["seq"])
    if inputs and not final_shown:
        dropped = len(inputs)  # the last value never shown: the whole drag counts as dropped
    # Stages of the painted previews.
    stage = {k: [] for k in ("wait", "server", "download", "to_load", "handlers", "to_frame", "frame", "to_paint", "total")}
    by_seq = {i["seq"]: i for i in inputs}
    for r in exact:
        newest = by_seq.get(r["tag"])
        if newest:
            stage["wait"].append(r["fetch"] - newest["t"])
            stage["total"].append(r["painted"] - newest["t"])
        if r.get("rt") and r["rt"]["requestStart"] > 0:
            stage["server"].append(r["rt"]["responseStart"] - r["rt"]["requestStart"])
            stage["download"].append(r["rt"]["responseEnd"] - r["rt"]["responseStart"])
        if r.get("body") is not None and r.get("load") is not None:
            stage["to_load"].append(r["load"] - r["body"])
            stage["to_paint"].append(r["painted"] - r["load"])
            if r.get("handled") is not None:
                stage["handlers"].append(r["handled"] - r["load"])
            stage["to_frame"].append(r["frame"] - r["load"])
            stage["frame"].append(r["painted"] - r["frame"])
    n = after["count"] - before["count"]
    server_mean = (after["sum"] - before["sum"]) / n * 1000 if n else float("nan")
    return {
        "name": name, "moves": moved["moves"], "interval": moved["interval"], "max_gap": moved["max_gap"],
        "received": data["moves"], "inputs": len(inputs), "requests": len(requests), "painted": len(painted),
        "exact_painted": len(exact), "blends_painted": len(painted) - len(exact), "keyframes": len(data["keyframes"]),
        "exact_last": exact_latency[-1] if exact_latency and len(exact_latency) == len(inputs) else float("nan"),
        "blend_error": data.get("blend_error"),
        "errors": sum(1 for r in requests if r.get("error")), "dropped": dropped, "final_shown": final_shown,
        "p50": pct(latency, 0.5), "p95": pct(latency, 0.95), "max": max(latency, default=float("nan")),
        "move_p95": pct(from_move, 0.95), "over100": sum(1 for v in latency if v > 100),
        "server_mean": server_mean, "server_count": n, "fps": len(painted) / seconds,
        "bytes": statistics.median([r["bytes"] for r in painted if r.get("bytes")]) if painted else 0,
        "stage": stage,
    }


# ---------------------------------------------------------------------------------------------- main


def open_editor(b: Browser, asset_id: str):
    b.load(f"/#/photo/{asset_id}")
    b.wait_visible(tid("detail"), timeout=120)
    b.click(tid("detail-edit"))
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip", timeout=180)
    wait_preview(b)


def wait_preview(b: Browser, timeout: float = 180):
    b.wait(lambda: b.js("""const i = document.querySelector('[data-testid="editor-preview"]');
return document.querySelector('[data-testid="preview-busy"]').hidden && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0;"""),
           "the preview", timeout=timeout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each slider is dragged")
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--sliders", default="exposure,shadows,warmth,intensity",
                        help="Adjust slider ids, and 'intensity' for the look's Intensity in Filters")
    parser.add_argument("--look", default="Chrome", help="the look whose Intensity is dragged (a filter tile's name)")
    parser.add_argument("--photo", type=Path, help="a photo to use instead of the generated 24 MP one")
    args = parser.parse_args()

    photo = args.photo or make_photo(PHOTO_CACHE)
    results = []
    with tempfile.TemporaryDirectory(prefix="sepia-bench-editor.") as tmp:
        server = Server(Path(tmp), name="bench").start()
        api = server.create_owner()
        asset = api.upload(photo, "photo-24mp.jpg")
        b = Browser(server.base, width=args.width, height=args.height, camera="none", label="bench")
        opened: list[DevTools] = []
        try:
            b.sign_in()
            open_editor(b, asset["id"])
            b.js(INSTRUMENT)
            dev = DevTools(b)
            opened.append(dev)
            size = None
            sliders = [s.strip() for s in args.sliders.split(",") if s.strip()]
            adjust = [s for s in sliders if s != "intensity"]
            if adjust:
                b.click(tid("adjust-mode"))
                b.wait_visible(tid("adjust-panel"))
                time.sleep(0.5)  # the stage narrows: a new preview for its size
                wait_preview(b)
                # Warm-up, not counted: the first drag's previews make the source at this size.
                drag(b, dev, tid(f"adjust-{adjust[0]}"), 1.0, 0.2)
                settle(b)
                for key in adjust:
                    results.append(measure(b, dev, server, key.capitalize(), tid(f"adjust-{key}"), args.seconds, 0.3))
                    size = size or b.js("const i = document.querySelector('[data-testid=\"editor-preview\"]'); return [i.naturalWidth, i.naturalHeight, Math.round(i.getBoundingClientRect().width), Math.round(i.getBoundingClientRect().height)]")
            if "intensity" in sliders:
                b.click(tid("filters-mode"))
                b.wait_visible(tid("filter-strip"))
                b.click(tid("filter-tile", **{"data-name": args.look}))
                time.sleep(0.5)
                wait_preview(b)
                drag(b, dev, tid("intensity"), 1.0, 0.2)
                settle(b)
                results.append(measure(b, dev, server, f"{args.look} Intensity", tid("intensity"), args.seconds, 0.4))
                fsize = b.js("const i = document.querySelector('[data-testid=\"editor-preview\"]'); return [i.naturalWidth, i.naturalHeight]")
            else:
                fsize = None
        finally:
            for dev in opened:
                dev.close()
            b.quit()
            stop_server(server)

    binary = sepia_binary()
    shown = binary.relative_to(REPO) if binary.is_relative_to(REPO) else binary
    print()
    print(f"Sepia editor, dragging a slider for {args.seconds:g} s on a 24 MP photo ({shown}, headless Chromium "
          f"{args.width}×{args.height}, {os.cpu_count()} cores)" + (f"; previews {size[0]}×{size[1]} in Adjust" if size else "")
          + (f", {fsize[0]}×{fsize[1]} in Filters" if fsize else ""))
    print()
    print("| slider | moves sent (every ms) | inputs | previews requested / painted | painted per s | p50 ms | p95 ms | max ms | "
          "p95 from the mouse move | inputs over 100 ms | dropped inputs | last value shown | server render ms (mean) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in results:
        print(f"| {r['name']} | {r['moves']} ({r['interval']:.1f}) | {r['inputs']} | {r['requests']} / {r['painted']} | {r['fps']:.1f} | "
              f"{r['p50']:.0f} | {r['p95']:.0f} | {r['max']:.0f} | {r['move_p95']:.0f} | {r['over100']} | {r['dropped']} | "
              f"{'yes' if r['final_shown'] else 'no'} | {r['server_mean']:.1f} |")
    print()
    print("Blends and exact renders (a blend of two keyframes is painted for an input at once; the exact render of the "
          "value follows on a pause or the release):")
    print()
    print("| slider | painted: blends / exact | keyframes fetched | last input → its exact render painted, ms | "
          "last blend against the exact render: mean / p99 / max difference (levels of 255) |")
    print("|---|---:|---:|---:|---|")
    for r in results:
        e = r["blend_error"]
        error = f"{e['mean']:.2f} / {e['p99']} / {e['max']}" if e else "no blend of the last value"
        print(f"| {r['name']} | {r['blends_painted']} / {r['exact_painted']} | {r['keyframes']} | {r['exact_last']:.0f} | {error} |")
    print()
    print("Where an exact preview's time goes (all sliders; from the newest input it reflects):")
    print()
    print("| stage | median ms | p95 ms |")
    print("|---|---:|---:|")
    labels = {"wait": "input → request sent (waiting for the one in flight)", "server": "request → first byte (server: render, encode)",
              "download": "first byte → last byte", "to_load": "blob → image loaded (object URL, decode for layout)",
              "handlers": "the app's load listeners (histogram)",
              "to_frame": "image loaded → next animation frame", "frame": "that frame's style, layout and paint",
              "to_paint": "image loaded → painted (load listeners, next frame)", "total": "input → painted"}
    for key, label in labels.items():
        values = [v for r in results for v in r["stage"][key]]
        print(f"| {label} | {pct(values, 0.5):.1f} | {pct(values, 0.95):.1f} |")
    print()
    coalesced = ", ".join(f"{r['name']} {max(0, r['moves'] - r['received'])}" for r in results)
    print(f"Median preview size: {statistics.median([r['bytes'] for r in results]) / 1024:.0f} KiB. "
          f"Moves coalesced by the browser: {coalesced}; "
          f"longest gap between two moves sent: {max(r['max_gap'] for r in results):.0f} ms.")


if __name__ == "__main__":
    main()
