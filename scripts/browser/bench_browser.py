"""The library grid with a large library, measured in headless Chromium (scripts/bench-browser runs this).

Builds a library of N tiny distinct photos (`sepia import` before the server starts, dates 5 hours apart),
then, in the browser, with the Performance API:
- the time from navigation start to the first thumbnail visible (an <img> in the grid, in the viewport,
  with complete && naturalWidth > 0), on cold loads (HTTP cache off) and a warm one;
- the element count of the whole document and of the grid at the top, in the middle and at the end while
  scrolling down in steps of 90 % of the view, the largest count seen at any stop, and how long the
  thumbnails in view took to appear after each jump.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "browser"))

from sepia_browser import Browser, Server, import_photos, make_tiny_library_folder, sepia_binary, stop_server, tid  # noqa: E402

# Installed before the page's own scripts (DevTools, so the page's CSP does not apply): records when the first
# grid thumbnail in the viewport has loaded.
FIRST_THUMBNAIL = """
(() => {
  const bench = window.__bench = {first: null};
  const visible = (img) => {
    if (!img.complete || !img.naturalWidth || !img.closest('[data-testid="grid"]')) return false;
    const r = img.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  };
  document.addEventListener('load', (e) => {
    if (bench.first == null && e.target.tagName === 'IMG' && visible(e.target)) bench.first = performance.now();
  }, true);
  const poll = () => {
    if (bench.first != null) return;
    for (const img of document.querySelectorAll('[data-testid="grid"] img')) {
      if (visible(img)) { bench.first = performance.now(); return; }
    }
    requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
})();
"""

COUNTS = """
const grid = document.querySelector('[data-testid="grid"]');
return {document: document.getElementsByTagName('*').length, grid: grid ? grid.getElementsByTagName('*').length : 0};
"""

THUMBNAILS_READY = """
const s = document.querySelector('[data-testid="grid-scroller"]').getBoundingClientRect();
const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')].filter((c) => {
  const r = c.getBoundingClientRect(); return r.bottom > s.top && r.top < s.bottom; });
return cells.length > 0 && cells.every((c) => { const i = c.querySelector('img'); return i && i.complete && i.naturalWidth > 0; });
"""


def first_thumbnail(b: Browser, cache: bool) -> float:
    b.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": not cache})
    b.load("/#/library")
    ms = b.wait(lambda: b.js("return window.__bench && window.__bench.first"), "the first thumbnail", timeout=180)
    b.wait(lambda: b.js(THUMBNAILS_READY), "the thumbnails in view", timeout=180)
    return ms


def scroll_and_count(b: Browser):
    scroller = b.find(tid("grid-scroller"))
    height, view = b.js("const s = arguments[0]; return [s.scrollHeight, s.clientHeight];", scroller)
    rows = {"top": b.js(COUNTS) | {"settle": 0.0}}
    stops = list(range(int(view * 0.9), height - view, int(view * 0.9))) + [height - view]
    middle = len(stops) // 2
    largest = rows["top"]["grid"]
    for n, position in enumerate(stops):
        b.js("arguments[0].scrollTop = arguments[1]", scroller, position)
        b.js("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        if n in (middle, len(stops) - 1):
            t = time.monotonic()
            b.wait(lambda: b.js(THUMBNAILS_READY), "the thumbnails in view", timeout=180)
            settle = (time.monotonic() - t) * 1000
            rows["middle" if n == middle else "end"] = b.js(COUNTS) | {"settle": settle}
        largest = max(largest, b.js(COUNTS)["grid"])
    return rows, largest, len(stops), height


def jumps(b: Browser):
    """From a fresh load at the top, straight to the middle, then straight to the end (a scrubber's jumps):
    how long until the thumbnails in view are there."""
    b.load("/#/library")
    b.wait(lambda: b.js(THUMBNAILS_READY), "the thumbnails in view", timeout=180)
    scroller = b.find(tid("grid-scroller"))
    out = {}
    for name, fraction in (("middle", 0.5), ("end", 1.0)):
        b.js("const s = arguments[0]; s.scrollTop = (s.scrollHeight - s.clientHeight) * arguments[1];", scroller, fraction)
        t = time.monotonic()
        b.js("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        b.wait(lambda: b.js(THUMBNAILS_READY), "the thumbnails in view", timeout=180)
        out[name] = (time.monotonic() - t) * 1000
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=10_000)
    parser.add_argument("--cold-loads", type=int, default=3)
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="sepia-bench-browser.") as tmp:
        work = Path(tmp)
        t = time.monotonic()
        make_tiny_library_folder(work / "photos", args.photos)
        made = time.monotonic() - t
        t = time.monotonic()
        summary = import_photos(work / "library", work / "photos", jobs=os.cpu_count() or 2)
        imported = time.monotonic() - t
        print(f"Library: {args.photos:,} photos made in {made:.0f} s, imported in {imported:.0f} s ({summary})", file=sys.stderr)

        server = Server(work, library=work / "library", name="bench").start()
        server.create_owner()
        b = Browser(server.base, width=args.width, height=args.height, camera="none", label="bench")
        try:
            b.sign_in()
            b.driver.execute_cdp_cmd("Network.enable", {})
            b.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_THUMBNAIL})
            cold = [first_thumbnail(b, cache=False) for _ in range(args.cold_loads)]
            warm = first_thumbnail(b, cache=True)
            total = b.text(tid("photo-count"))
            rows, largest, stops, height = scroll_and_count(b)
            b.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
            jumped = jumps(b)
        finally:
            b.quit()
            stop_server(server)

    print()
    print(f"Sepia web app, library grid with {total} ({sepia_binary().relative_to(REPO) if sepia_binary().is_relative_to(REPO) else sepia_binary()}, "
          f"headless Chromium {args.width}×{args.height}, {os.cpu_count()} cores)")
    print()
    print("| first thumbnail visible (from navigation start) | ms |")
    print("|---|---:|")
    print(f"| cold load, HTTP cache off (median of {len(cold)}: {', '.join(f'{c:.0f}' for c in cold)}) | {statistics.median(cold):.0f} |")
    print(f"| warm load (thumbnails cached) | {warm:.0f} |")
    print()
    print(f"| scrolling down ({stops} stops of 90 % of the view, grid {height:,} px high) | top | middle | end |")
    print("|---|---:|---:|---:|")
    print(f"| elements in the document | {rows['top']['document']} | {rows['middle']['document']} | {rows['end']['document']} |")
    print(f"| elements in the grid | {rows['top']['grid']} | {rows['middle']['grid']} | {rows['end']['grid']} |")
    print(f"| thumbnails in view complete after that stop (ms) | – | {rows['middle']['settle']:.0f} | {rows['end']['settle']:.0f} |")
    print(f"| thumbnails in view after a direct jump from the top, cache off (ms) | – | {jumped['middle']:.0f} | {jumped['end']:.0f} |")
    print()
    print(f"Most grid elements at any stop: {largest}.")


if __name__ == "__main__":
    main()
