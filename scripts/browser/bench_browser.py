"""The library grid with a large library, measured in headless Chromium (scripts/bench-browser runs this).

Builds a library of N tiny distinct photos (`sepia import` before the server starts, dates 5 hours apart),
then, in the browser, with the Performance API:
- the time from navigation start to the first thumbnail visible (an <img> in the grid, in the viewport,
  with complete && naturalWidth > 0), on cold loads (HTTP cache off) and a warm one;
- the element count of the whole document and of the grid at the top, in the middle and at the end while
  scrolling down in steps of 90 % of the view, the largest count seen at any stop, and how long the
  thumbnails in view took to appear after each jump.
Prints a Markdown table.

With --people, the People view instead: a library of photos with faces (johns/ chips pasted into 1 MP photos by
scripts/bench/face_photos.py, imported with `sepia import`) is given 10 000 faces of 300 people through the
library's API (Benchmarks' PeopleLibrary: the chips' boxes, made-up prints, grouped as indexing groups them, 30
people named), then the time to People's first screen (every person card in the viewport with its face crop
loaded: complete && naturalWidth > 0) and to its first face crop, cold (HTTP cache off; the first load is also the
server's first: no face crop made yet) and warm: People loaded as a page, from navigation start; and People opened
from the library's grid (a new page, its first thumbnails shown), from the moment its link is followed. Target
(issue 36): 300 ms.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "Tests" / "browser"))

from sepia_browser import Browser, Server, import_photos, make_tiny_library_folder, sepia_binary, stop_server, tid  # noqa: E402

sys.path.insert(0, str(REPO / "scripts" / "bench"))
import face_photos  # noqa: E402

# The program that records the faces (Benchmarks/Benchmarks/PeopleLibrary), which scripts/bench-browser builds.
PEOPLE_LIBRARY = Path(os.environ.get("PEOPLE_LIBRARY_BIN", REPO / "Benchmarks" / ".build" / "release" / "PeopleLibrary"))

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


# Records when People's first face crop has loaded, and when every person card in the viewport has its face:
# window.__watchPeople(t0) starts watching, times counted from t0 (performance.now()'s clock); a new document starts
# at once, from navigation start.
FIRST_SCREEN_OF_PEOPLE = """
(() => {
  window.__watchPeople = (t0) => {
    const bench = window.__bench = {listed: null, first: null, screen: null, cards: 0, t0};
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
    };
    const check = () => {
      if (bench.screen != null) return;
      const cards = [...document.querySelectorAll('[data-testid="person-card"]')].filter(inView);
      if (bench.listed == null && cards.length) bench.listed = performance.now() - t0;
      const faces = cards.map((c) => c.querySelector('img.person-face')).filter(Boolean);
      const loaded = faces.filter((i) => i.complete && i.naturalWidth > 0);
      if (bench.first == null && loaded.length) bench.first = performance.now() - t0;
      if (faces.length && loaded.length === faces.length) { bench.screen = performance.now() - t0; bench.cards = cards.length; }
    };
    document.addEventListener('load', (e) => { if (e.target.tagName === 'IMG') check(); }, true);
    const poll = () => { check(); if (bench.screen == null) requestAnimationFrame(poll); };
    requestAnimationFrame(poll);
  };
  // The requests made since t0 that the first screen waits on, as [what, start, first byte, end] from t0.
  window.__peopleRequests = () => {
    const t0 = window.__bench.t0;
    return performance.getEntriesByType('resource').filter((e) => e.startTime >= t0 - 1)
      .map((e) => [new URL(e.name).pathname.replace(/faces\/[^/]+/, 'faces/…'), e.startTime - t0, e.responseStart - t0, e.responseEnd - t0]);
  };
  if (location.hash.startsWith('#/people')) window.__watchPeople(0);
})();
"""


# Whether the page has made no request for 300 ms, and none is still loading.
NETWORK_QUIET = """
const entries = performance.getEntriesByType('resource');
const last = entries.reduce((t, e) => Math.max(t, e.responseEnd || e.startTime), 0);
const images = [...document.images].filter((i) => i.src && !i.complete && i.loading !== 'lazy');
return performance.now() - last > 300 && images.length === 0;
"""


def timeline(b: Browser) -> str:
    """Where a first screen's time went: when the list was drawn, and each request it waited on (start, first byte,
    end, in ms from the same moment)."""
    listed = b.js("return window.__bench.listed")
    requests = b.js("return window.__peopleRequests()")
    faces = [r for r in requests if "/faces/" in r[0]]
    files = [r for r in requests if "/api/" not in r[0]]
    others = [f"{r[0]} {r[1]:.0f}→{r[2]:.0f}→{r[3]:.0f}" for r in requests if "/api/" in r[0] and "/faces/" not in r[0]]
    parts = []
    if files:
        parts.append(f"{len(files)} files of the app {min(r[1] for r in files):.0f}→{max(r[3] for r in files):.0f}")
    parts += others + [f"list drawn {listed:.0f}" if listed is not None else "list not drawn"]
    if faces:
        parts.append(f"{len(faces)} face pictures {min(r[1] for r in faces):.0f}→{max(r[3] for r in faces):.0f}")
    return "; ".join(parts)


def first_screen_of_people(b: Browser, cache: bool) -> tuple[float, float, int, str]:
    """People loaded as a page, from navigation start."""
    b.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": not cache})
    b.load("/#/people")
    screen = b.wait(lambda: b.js("return window.__bench && window.__bench.screen"), "People's first screen", timeout=180)
    return b.js("return window.__bench.first"), screen, b.js("return window.__bench.cards"), timeline(b)


def people_opened_in_app(b: Browser, cache: bool) -> tuple[float, float, int, str]:
    """People opened from the library's grid (a new page, its first thumbnails shown), as its sidebar link opens
    it: from the moment the link is followed."""
    b.driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": not cache})
    b.load("/#/library")
    b.wait_library()
    # The grid asks for more thumbnails than its first screen shows (the rows below it): People is opened once they
    # have all come, so that its requests do not queue behind the grid's.
    b.wait(lambda: b.js(NETWORK_QUIET), "the grid's requests to end", timeout=60)
    b.js("window.__watchPeople(performance.now()); location.hash = '#/people';")
    screen = b.wait(lambda: b.js("return window.__bench && window.__bench.screen"), "People's first screen", timeout=180)
    return b.js("return window.__bench.first"), screen, b.js("return window.__bench.cards"), timeline(b)


def wait_for_jobs(base: str, limit: float) -> str:
    """Waits until the server's job queue is empty (`sepia_jobs_waiting` in /metrics), at most `limit` seconds."""
    end = time.monotonic() + limit
    last = "?"
    while time.monotonic() < end:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
            text = r.read().decode()
        found = re.search(r"^sepia_jobs_waiting(?:\{[^}]*\})? ([0-9.e+]+)$", text, re.M)
        last = found.group(1) if found else "no sepia_jobs_waiting in /metrics"
        if found and float(found.group(1)) == 0:
            return "0 waiting"
        time.sleep(2)
    return f"still {last} waiting after {limit:.0f} s"


def bench_people(args):
    if not PEOPLE_LIBRARY.exists():
        raise SystemExit(f"{PEOPLE_LIBRARY} does not exist; scripts/bench-browser --people builds it")
    # 1 to 5 faces a photo, 3 on average: enough photos for the faces asked for.
    count = math.ceil(args.faces / 2.9)
    folder = REPO / ".build" / "bench-faces" / f"people-{count}x1mp-seed3"
    t = time.monotonic()
    face_photos.make(str(folder), count, 1.0, seed=3, chips_only=True)
    made = time.monotonic() - t
    with tempfile.TemporaryDirectory(prefix="sepia-bench-people.") as tmp:
        work = Path(tmp)
        t = time.monotonic()
        summary = import_photos(work / "library", folder, jobs=os.cpu_count() or 2)
        imported = time.monotonic() - t
        t = time.monotonic()
        seeded = subprocess.run([str(PEOPLE_LIBRARY), str(work / "library"), str(folder / face_photos.MANIFEST), "--faces", str(args.faces),
                                 "--people", str(args.persons)], capture_output=True, text=True, check=True).stdout.strip()
        recorded = time.monotonic() - t
        print(f"Library: {count:,} photos made in {made:.0f} s, imported in {imported:.0f} s ({summary}); {seeded}, "
              f"recorded in {recorded:.0f} s", file=sys.stderr)

        server = Server(work, library=work / "library", name="bench").start()
        server.create_owner()
        # A library just imported has jobs to do (previews, the faces job's check of every item): measured once the
        # queue is empty, as a library in use is.
        t = time.monotonic()
        waiting = wait_for_jobs(server.base, limit=1800)
        print(f"The server's jobs: queue empty after {time.monotonic() - t:.0f} s ({waiting})", file=sys.stderr)
        b = Browser(server.base, width=args.width, height=args.height, camera="none", label="bench")
        try:
            b.sign_in()
            b.driver.execute_cdp_cmd("Network.enable", {})
            b.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FIRST_SCREEN_OF_PEOPLE})
            cold = [first_screen_of_people(b, cache=False) for _ in range(args.cold_loads)]
            # Warm: the first load fills the HTTP cache, the next ones are measured.
            first_screen_of_people(b, cache=True)
            warm = [first_screen_of_people(b, cache=True) for _ in range(args.cold_loads)]
            opened_cold = [people_opened_in_app(b, cache=False) for _ in range(args.cold_loads)]
            opened_warm = [people_opened_in_app(b, cache=True) for _ in range(args.cold_loads)]
            listed = b.text(tid("people-count"))
        finally:
            b.quit()
            stop_server(server)

    lines = []

    def emit(line=""):
        print(line)
        lines.append(line)

    binary = sepia_binary()
    emit()
    emit(f"Sepia web app, People with {seeded.split(':')[0]} ({listed} listed; "
         f"{binary.relative_to(REPO) if binary.is_relative_to(REPO) else binary}, headless Chromium {args.width}×{args.height}, "
         f"{os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end)")
    emit()
    emit(f"| People | first face crop, ms | first screen (its {cold[0][2]} cards' face crops), ms | target |")
    emit("|---|---:|---:|---|")

    def rows(samples, warm_samples, what, first_what):
        for n, (first, screen, *_) in enumerate(samples):
            label = f"{what}, cold {n + 1}, HTTP cache off" + (f" ({first_what})" if n == 0 and first_what else "")
            emit(f"| {label} | {first:.0f} | {screen:.0f} | {'met' if screen <= 300 else '**missed**'} (≤ 300 ms) |")
        for label, group in [(f"cold, median of {len(samples)}", samples), (f"warm (HTTP cache on), median of {len(warm_samples)}", warm_samples)]:
            screen = statistics.median(c[1] for c in group)
            spread = f" ({min(c[1] for c in group):.0f}–{max(c[1] for c in group):.0f})" if len(group) > 1 else ""
            emit(f"| {what}, {label} | {statistics.median(c[0] for c in group):.0f} | {screen:.0f}{spread} | "
                 f"{'met' if screen <= 300 else '**missed**'} (≤ 300 ms) |")

    rows(cold, warm, "loaded as a page, from navigation start", "the server's first: face crops made")
    rows(opened_cold, opened_warm, "opened from the library's grid, from the click", "")
    emit()
    emit("Where the time went (ms from the same moment: request start→first byte→end):")
    emit()
    for what, sample in [("page, cold 1", cold[0]), ("page, warm 1", warm[0]), ("from the grid, cold 1", opened_cold[0]),
                         ("from the grid, warm 1", opened_warm[0])]:
        emit(f"- {what}: {sample[3]}")
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")


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
    parser.add_argument("--people", action="store_true", help="measure the People view instead of the grid")
    parser.add_argument("--faces", type=int, default=10_000, help="with --people: the faces recorded")
    parser.add_argument("--persons", type=int, default=300, help="with --people: the people they are of")
    parser.add_argument("--markdown", help="with --people: also write the table to this file")
    args = parser.parse_args()
    if args.people:
        bench_people(args)
        return

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
        # A library just imported has jobs to do (previews, the faces job's check of every item): measured once the
        # queue is empty, as a library in use is.
        t = time.monotonic()
        waiting = wait_for_jobs(server.base, limit=1800)
        print(f"The server's jobs: queue empty after {time.monotonic() - t:.0f} s ({waiting})", file=sys.stderr)
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
