"""The pieces the browser tests and the browser benchmark share.

- Server: `sepia serve` on a library and data folder of its own, on a free loopback port; the setup link it
  prints is read from its standard output.
- Api: a small client of the HTTP API (docs/api.md) with a session cookie and its CSRF token, used to
  prepare what a test is not about and to check what the web app did.
- Browser: headless Chromium (Debian's chromium and chromium-driver) with its console log, a viewport of a
  given size, waits on `data-testid` hooks, and screenshots.
- Test photos: small distinct JPEGs drawn with Pillow, and downscaled copies of the sample photos in
  .build/testdata/photos for screens that should look like a photo library.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import random
import re
import signal
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter
from selenium import webdriver
from selenium.common.exceptions import (
    JavascriptException,
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
WEB_ROOT = REPO / "Sources" / "SepiaServer" / "Web"
SAMPLE_PHOTOS = REPO / ".build" / "testdata" / "photos"
SCREENSHOT_DIR = REPO / "docs" / "images"
PASSWORD = "correct horse battery staple"
USERNAME = "owner"
WAIT = float(os.environ.get("SEPIA_BROWSER_WAIT", "20"))
TRACE = os.environ.get("SEPIA_BROWSER_TRACE") == "1"  # print the waits that take over a second


def sepia_binary() -> Path:
    """The sepia binary under test: $SEPIA_BIN, else the debug build."""
    path = Path(os.environ.get("SEPIA_BIN", REPO / ".build" / "debug" / "sepia"))
    return path if path.is_absolute() else REPO / path


def photos_and_videos(photos: int, videos: int) -> str:
    """A view's count as the app says it (util.js's photosAndVideos): "12 photos, 16 videos", "1 video", "0 photos"."""
    def counted(n, noun):
        return f"{n:,} {noun}" + ("" if n == 1 else "s")
    return ", ".join(([counted(photos, "photo")] if photos or not videos else []) + ([counted(videos, "video")] if videos else []))


def tid(name: str, **attrs: str) -> str:
    """CSS selector of a data-testid hook, optionally with more attributes: tid('grid-cell', **{'data-asset-id': x})."""
    extra = "".join(f'[{k}="{v}"]' for k, v in attrs.items())
    return f'[data-testid="{name}"]{extra}'


# ---------------------------------------------------------------------------------------------- server


class Server:
    """`sepia serve` on its own library and data folder, on a free loopback port.

    The web app is served from the work tree (SEPIA_WEB_ROOT) unless SEPIA_BROWSER_BUNDLED_WEB=1, so the
    tests see the app as it is in the repository without a rebuild.
    """

    def __init__(self, workdir: Path, *, library: Path | None = None, name: str = "server"):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.library = Path(library) if library else self.workdir / "library"
        self.data = self.workdir / "data"
        self.name = name
        self.proc: subprocess.Popen | None = None
        self.base = ""
        self.setup_url: str | None = None
        self.setup_token: str | None = None
        self.exit_code: int | None = None

    def start(self, timeout: float = 60) -> "Server":
        binary = sepia_binary()
        if not binary.exists():
            raise RuntimeError(f"{binary} does not exist; build it first (swift build)")
        env = dict(os.environ)
        if os.environ.get("SEPIA_BROWSER_BUNDLED_WEB") != "1":
            env["SEPIA_WEB_ROOT"] = str(WEB_ROOT)
        self.out_path = self.workdir / f"{self.name}.out"
        self.log_path = self.workdir / f"{self.name}.log"
        out = open(self.out_path, "w")
        log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--library", str(self.library), "--data", str(self.data),
             "--host", "127.0.0.1", "--port", "0", "--log-level", "notice"],
            stdout=out, stderr=log, stdin=subprocess.DEVNULL, env=env, cwd=self.workdir,
        )
        out.close()
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.out_path.read_text()
            link = re.search(r"(http://127\.0\.0\.1:\d+)/setup\?token=([A-Za-z0-9_-]+)", text)
            served = re.search(r"at (http://127\.0\.0\.1:\d+)", text)
            if link:
                self.base, self.setup_token = link.group(1), link.group(2)
                self.setup_url = link.group(0)
                return self
            if served and "Stop it" in text:
                self.base = served.group(1)
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"sepia serve exited with {self.proc.returncode}:\n{text}\n{self.log_path.read_text()}")
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"sepia serve printed no address within {timeout} s")

    def create_owner(self, username: str = USERNAME, password: str = PASSWORD) -> "Api":
        """Creates the owner's account with the printed setup link (through the API) and signs in."""
        Api(self.base).json("POST", "/api/v1/setup", {"token": self.setup_token, "username": username, "password": password},
                            expect=(201,))
        return Api.sign_in(self.base, username, password)

    def stop(self) -> int | None:
        """SIGTERM, as an operator would; SIGKILL if it has not exited after 45 s. Returns the exit status."""
        if not self.proc:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(45)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.exit_code = self.proc.returncode
        return self.exit_code


def stop_server(s: Server) -> int | None:
    """Closes the windows on this server first (their change streams), then stops it; warns on a bad exit."""
    for b in list(LIVE_BROWSERS):
        if b.base == s.base:
            b.quit()
    code = s.stop()
    if code not in (0, None):
        print(f"\nwarning: sepia serve ({s.name}) exited with status {code} after SIGTERM; its log: {s.log_path}")
    return code


@contextlib.contextmanager
def own_site(tmp_path_factory, name: str):
    """A server of its own, its owner's API client and a desktop window signed in to it, as (server, api,
    browser); the window and the server are stopped afterwards, also when what the caller sets up fails."""
    s = Server(tmp_path_factory.mktemp(name), name=name).start()
    try:
        api = s.create_owner()
        b = Browser(s.base, width=1440, height=900, label=name)
        b.sign_in()
        yield s, api, b
    finally:
        stop_server(s)


def import_photos(library: Path, folder: Path, jobs: int = 2) -> str:
    """`sepia import FOLDER --library LIBRARY` (before the server starts); returns its summary line."""
    result = subprocess.run([str(sepia_binary()), "import", str(folder), "--library", str(library), "--jobs", str(jobs)],
                            capture_output=True, text=True, check=True)
    return result.stdout.strip().splitlines()[0] if result.stdout.strip() else ""


# ---------------------------------------------------------------------------------------------- API


class ApiError(AssertionError):
    pass


class Response:
    def __init__(self, status: int, headers, body: bytes):
        self.status = status
        self.headers = headers
        self.body = body

    def json(self):
        return json.loads(self.body) if self.body else None


class Api:
    """A client of the HTTP API with a session cookie (and its CSRF token for state-changing requests)."""

    def __init__(self, base: str, cookie: str | None = None, csrf: str | None = None):
        self.base = base
        self.cookie = cookie
        self.csrf = csrf

    @classmethod
    def sign_in(cls, base: str, username: str = USERNAME, password: str = PASSWORD) -> "Api":
        api = cls(base)
        r = api.call("POST", "/api/v1/session", {"username": username, "password": password})
        if r.status != 200:
            raise ApiError(f"sign-in failed: {r.status} {r.body[:300]!r}")
        cookie = r.headers.get("Set-Cookie", "")
        m = re.search(r"sepia_session=([^;]+)", cookie)
        api.cookie = m.group(1) if m else None
        api.csrf = r.json()["csrfToken"]
        return api

    @classmethod
    def from_browser(cls, browser: "Browser") -> "Api":
        """The browser's own session: its sepia_session cookie, and the CSRF token GET /session gives for it."""
        cookie = browser.driver.get_cookie("sepia_session")
        if not cookie:
            raise ApiError("the browser has no sepia_session cookie")
        api = cls(browser.base, cookie["value"])
        api.csrf = api.json("GET", "/api/v1/session").get("csrfToken")
        return api

    def call(self, method: str, path: str, body=None, *, raw: bytes | None = None, headers: dict | None = None,
             timeout: float = 60) -> Response:
        h = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        elif raw is not None:
            data = raw
            h["Content-Type"] = "application/octet-stream"
        if self.cookie:
            h["Cookie"] = f"sepia_session={self.cookie}"
        if self.csrf and method in ("POST", "PUT", "PATCH", "DELETE"):
            h["X-CSRF-Token"] = self.csrf
        h.update(headers or {})
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=h)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return Response(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as e:
            return Response(e.code, e.headers, e.read())

    def json(self, method: str, path: str, body=None, *, expect=(200,), **kw):
        r = self.call(method, path, body, **kw)
        if r.status not in expect:
            raise ApiError(f"{method} {path} answered {r.status}, expected {expect}: {r.body[:500]!r}")
        return r.json()

    # Shortcuts
    def upload(self, data: bytes | Path, filename: str | None = None, album: str | None = None) -> dict:
        if isinstance(data, Path):
            filename = filename or data.name
            data = data.read_bytes()
        q = {"filename": filename or "photo.jpg"}
        if album:
            q["album"] = album
        r = self.call("POST", "/api/v1/assets?" + urllib.parse.urlencode(q), raw=data)
        if r.status not in (200, 201):
            raise ApiError(f"upload of {filename} answered {r.status}: {r.body[:300]!r}")
        return r.json()

    def asset(self, asset_id: str) -> dict:
        return self.json("GET", f"/api/v1/assets/{asset_id}")

    def edit(self, asset_id: str) -> dict:
        return self.json("GET", f"/api/v1/assets/{asset_id}/edit")

    def assets(self, **params) -> dict:
        return self.json("GET", "/api/v1/assets?" + urllib.parse.urlencode(params))

    def album_ids(self, album_id: str) -> list[str]:
        return [a["id"] for a in self.assets(album=album_id, limit=500)["assets"]]

    def albums(self) -> list[dict]:
        return self.json("GET", "/api/v1/albums")["albums"]

    def create_album(self, title: str, ids: list[str] | None = None) -> dict:
        album = self.json("POST", "/api/v1/albums", {"title": title}, expect=(201,))
        if ids:
            album = self.json("POST", f"/api/v1/albums/{album['id']}/assets", {"ids": ids})
        return album

    def catalog(self) -> list[dict]:
        return self.json("GET", "/api/v1/filters/catalog")["items"]

    def preview(self, asset_id: str, recipe: dict, size: str) -> bytes:
        r = self.call("POST", f"/api/v1/assets/{asset_id}/preview", {"recipe": recipe, "size": size, "format": "jpeg"},
                      headers={"Accept": "*/*"})
        if r.status != 200:
            raise ApiError(f"preview answered {r.status}: {r.body[:300]!r}")
        return r.body


# ---------------------------------------------------------------------------------------------- browser

# Console entries that are not errors of the app: HTTP answers the app expects and handles (401 from the
# session check on the sign-in page, 415 for a refused upload, 404 for a revoked share link, …). A 5xx or
# any JavaScript error (uncaught exception, unhandled rejection, console.error) is reported.
EXPECTED_CONSOLE = [
    re.compile(r"Failed to load resource: the server responded with a status of 4\d\d"),
]

LIVE_BROWSERS: list["Browser"] = []


def chromium_paths() -> tuple[str, str]:
    return os.environ.get("CHROMIUM", "/usr/bin/chromium"), os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")


# Logs every fetch of the page in window.__requests (see Browser.record_requests). An answer counts as read
# when its body has been (a clone of it), so the app's own reading of it comes right after.
RECORD_REQUESTS_JS = """
if (!window.__requests) {
  window.__requests = [];
  const original = window.fetch;
  window.fetch = function (input, init) {
    const entry = {method: ((init && init.method) || 'GET').toUpperCase(), url: String(input && input.url || input),
                   start: performance.now(), end: null, status: null, aborted: false};
    window.__requests.push(entry);
    return original.apply(this, arguments).then(async (response) => {
      try { await response.clone().arrayBuffer(); } catch (e) { entry.aborted = e && e.name === 'AbortError'; }
      entry.status = response.status;
      entry.end = performance.now();
      return response;
    }, (e) => { entry.end = performance.now(); entry.aborted = !!e && e.name === 'AbortError'; throw e; });
  };
}"""


# Whether a person sees an element (argument: its CSS selector, the first one shown): its box inside the
# viewport, and the element itself (or something inside it) on top at its centre.
SEEN_JS = """
const el = [...document.querySelectorAll(arguments[0])].find((e) => e.getClientRects().length > 0);
if (!el) return {shown: false};
const r = el.getBoundingClientRect();
// A disabled button lets the pointer through (pointer-events: none): for this look it takes it.
const before = el.style.pointerEvents;
el.style.pointerEvents = 'auto';
const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
el.style.pointerEvents = before;
const inside = r.left >= -0.5 && r.top >= -0.5 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
const cs = getComputedStyle(el);
return {shown: cs.visibility !== 'hidden' && Number(cs.opacity) > 0 && r.width > 0 && r.height > 0, inside,
        onTop: !!top && (top === el || el.contains(top)),
        coveredBy: top && !(top === el || el.contains(top)) ? (top.dataset.testid || top.className || top.tagName) : null,
        box: [r.left, r.top, r.right, r.bottom], text: el.innerText.trim()};"""


# The selection bar's box, whether it (or a part of it) scrolls sideways, and its controls that are shown.
SELECTION_BAR_JS = """
const bar = document.querySelector('[data-testid="selection-bar"]');
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const parts = [bar, ...bar.querySelectorAll('*')];
return {bar: box(bar),
        scrolls: parts.some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') || bar.scrollWidth > bar.clientWidth + 1,
        controls: [...bar.querySelectorAll('[data-testid]')].filter((e) => e.getClientRects().length > 0)
          .map((e) => ({testid: e.dataset.testid, box: box(e), text: e.innerText.trim()}))};"""


# True when no finite animation is running on the element or any of its ancestors (an endless one, such as
# a spinner's, never settles and is not one the element moves with).
# A canvas's pixels against an image's of the same size (arguments: their CSS selectors): the absolute
# difference of every channel of every pixel, in levels of 255 ({mean, p99, max}); null if the sizes differ.
CANVAS_AGAINST_IMAGE = """
const canvas = document.querySelector(arguments[0]);
const img = document.querySelector(arguments[1]);
if (img.naturalWidth !== canvas.width || img.naturalHeight !== canvas.height) return null;
const a = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
const work = document.createElement('canvas');
work.width = canvas.width; work.height = canvas.height;
const g = work.getContext('2d');
g.drawImage(img, 0, 0);
const b = g.getImageData(0, 0, work.width, work.height).data;
const counts = new Uint32Array(256);
let sum = 0, n = 0;
for (let i = 0; i < a.length; i += 4) for (let c = 0; c < 3; c++) { const e = Math.abs(a[i + c] - b[i + c]); counts[e]++; sum += e; n++; }
let p99 = 0, seen = 0;
while (p99 < 255 && (seen += counts[p99]) < 0.99 * n) p99++;
let max = 255;
while (max > 0 && !counts[max]) max--;
return {mean: sum / n, p99, max};
"""


SETTLED_JS = """
const el = arguments[0];
// What moves or resizes an element (its own or an ancestor's): a colour, a shadow or an opacity fading in place
// changes nothing about where a click lands, and a hovered link's background may be fading whenever a list is drawn
// again under the pointer.
const MOVING = /^(transform|translate|scale|rotate|top|left|right|bottom|inset|width|height|margin|padding|all)/;
const moves = (a) => {
  if (a.transitionProperty) return MOVING.test(a.transitionProperty);
  const frames = a.effect.getKeyframes?.() || [];
  return frames.some((f) => Object.keys(f).some((p) => MOVING.test(p.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()))));
};
return document.getAnimations().every((a) => {
  const target = a.effect?.target;
  if (!target || !(target === el || target.contains(el)) || a.playState !== 'running') return true;
  return a.effect.getComputedTiming().iterations === Infinity || !moves(a);
});"""

# The animations that keep an element from settling, for the message of a click that waited for it in vain.
MOVING_ANIMATIONS_JS = """
const el = arguments[0];
return document.getAnimations().filter((a) => {
  const target = a.effect?.target;
  return target && (target === el || target.contains(el)) && a.playState === 'running';
}).map((a) => `${a.constructor.name} ${a.transitionProperty || a.animationName || ''} on `
  + `${a.effect.target.tagName.toLowerCase()}.${[...a.effect.target.classList].join('.')} `
  + `at ${Math.round(a.currentTime)} ms of ${a.effect.getComputedTiming().endTime} ms`).join('; ');"""


class Browser:
    """A headless Chromium window with helpers for the app's data-testid hooks."""

    def __init__(self, base: str, *, width: int = 1440, height: int = 900, mobile: bool = False,
                 camera: str = "fake", auto_allow_camera: bool = True, prefs: dict | None = None, label: str = "browser"):
        binary, driver_path = chromium_paths()
        options = webdriver.ChromeOptions()
        options.binary_location = binary
        args = ["--headless=new", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                # No back/forward cache: a page kept there keeps its change stream open, and after a few fresh
                # loads those streams take all six connections Chromium allows to one host.
                "--disable-sync", "--disable-features=Translate,MediaRouter,OptimizationHints,BackForwardCache",
                "--lang=en-US", "--force-device-scale-factor=1", f"--window-size={width},{height}",
                "--password-store=basic", "--disable-search-engine-choice-screen",
                # A desktop with a mouse (headless Chromium otherwise reports no hover and no fine pointer);
                # phone viewports turn on touch emulation, which reports a coarse pointer without hover.
                "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")
        if camera == "fake":
            args.append("--use-fake-device-for-media-stream")
            if auto_allow_camera:
                args.append("--use-fake-ui-for-media-stream")
        for a in args:
            options.add_argument(a)
        if prefs:
            options.add_experimental_option("prefs", prefs)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"} if os.environ.get("PERFLOG") else {"browser": "ALL"})
        self.driver = webdriver.Chrome(options=options, service=Service(driver_path))
        self.driver.set_script_timeout(60)
        self.base = base
        self.label = label
        self.console_log: list[dict] = []
        self.set_viewport(width, height, mobile=mobile)
        LIVE_BROWSERS.append(self)

    # ----- lifecycle
    def quit(self):
        if self in LIVE_BROWSERS:
            LIVE_BROWSERS.remove(self)
        try:
            self.driver.quit()
        except Exception:
            pass

    def set_viewport(self, width: int, height: int, *, mobile: bool = False, scale: float = 1):
        """The page's viewport, exactly (window chrome aside), as a phone or a desktop."""
        self.width, self.height = width, height
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile,
            "screenWidth": width, "screenHeight": height,
        })
        self.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5} if mobile else {"enabled": False})

    def set_camera_permission(self, setting: str):
        """'granted', 'denied' or 'prompt' for this origin, as the browser's site settings would. When a page of
        the origin is open, waits until it reads the new setting: the browser applies it asynchronously, and a
        page loaded at once could still read the old one."""
        self.driver.execute_cdp_cmd("Browser.setPermission", {
            "permission": {"name": "camera"}, "setting": setting, "origin": self.base})
        if self.driver.current_url.startswith(self.base):
            self.wait(lambda: self.driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "navigator.permissions.query({name: 'camera'}).then((p) => done(p.state), () => done(null));") == setting,
                f"the page to read the camera permission as {setting}", timeout=10)

    # ----- navigation
    def load(self, path_and_hash: str = "/#/library"):
        """A fresh page load (not a hash change), so every test starts from a newly booted app."""
        self.driver.get("about:blank")
        self.driver.get(self.base + path_and_hash)

    def open_app(self, route: str = "#/library"):
        self.load("/" + route)
        self.wait_css("main#main")
        if route.startswith("#/library") or route in ("#/favorites", "#/recents", "#/edited", "#/hidden"):
            self.wait_library()

    def go(self, route: str):
        """An in-app navigation (hash change), as following a link does."""
        self.js("location.hash = arguments[0]", route)

    def sign_in(self, username: str = USERNAME, password: str = PASSWORD):
        self.load("/login")
        self.type(tid("login-username"), username)
        self.type(tid("login-password"), password)
        self.click(tid("login-submit"))
        self.wait(lambda: "#/library" in self.driver.current_url and self.present(tid("screen-title")), "the library after sign-in")

    # ----- elements
    def find(self, css: str, within=None):
        return (within or self.driver).find_element(By.CSS_SELECTOR, css)

    def find_all(self, css: str, within=None):
        return (within or self.driver).find_elements(By.CSS_SELECTOR, css)

    def present(self, css: str) -> bool:
        return bool(self.find_all(css))

    def visible(self, css: str) -> bool:
        try:
            return any(e.is_displayed() for e in self.find_all(css))
        except StaleElementReferenceException:
            return False

    def text(self, css: str) -> str:
        """The text of the first visible element matching `css`, found and read in one poll: the app may draw it
        again between the two (a list refreshed by a change)."""
        def f():
            for e in self.find_all(css):
                if e.is_displayed():
                    return (e.text,)
            return None
        return self.wait(f, f"{css} to be visible")[0]

    def click(self, css: str, timeout: float | None = None):
        # The app may re-render the element between finding it and clicking it (a list refreshed by a change
        # that just landed); a person would click the new one, so find it again. A stale element is refused
        # before any click is sent, so a retry never clicks twice.
        for attempt in range(3):
            def enabled():
                for e in self.find_all(css):
                    if e.is_displayed():
                        return e if e.is_enabled() else None
                return None
            self.wait_visible(css, timeout)
            el = self.wait(enabled, f"{css} to be enabled", timeout)
            try:
                self.js("arguments[0].scrollIntoView({block: 'nearest', inline: 'nearest'})", el)
                # WebDriver clicks at the point where the element is when the click is sent: in a dialog still
                # popping open (a scale animation), that point is no longer the button when it lands. A person
                # aims at a button that has stopped moving, so wait for that.
                try:
                    self.wait(lambda: self.js(SETTLED_JS, el), f"{css} to stop moving", timeout)
                except AssertionError as e:
                    raise AssertionError(f"{e}; running: {self.js(MOVING_ANIMATIONS_JS, el)}") from None
                el.click()
                return el
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
        return el

    def hover(self, css: str):
        """Moves the mouse over an element (controls that show on hover)."""
        from selenium.webdriver.common.action_chains import ActionChains
        ActionChains(self.driver).move_to_element(self.wait_visible(css)).perform()

    def type(self, css: str, text: str, clear: bool = True):
        el = self.wait_visible(css)
        if clear:
            el.clear()
        el.send_keys(text)
        return el

    # ----- waits
    def page_state(self) -> str:
        """What the page shows, for a failure message: the screens' states, the text in view and the last
        console errors."""
        try:
            state = self.js("""
                const states = [...document.querySelectorAll('[data-state]')].map((e) => e.dataset.state);
                const text = (document.body?.innerText || '').replace(/\\s+/g, ' ').trim().slice(0, 300);
                return `states [${states.join(', ')}], text "${text}"`;""")
        except Exception as e:  # the page itself may be what failed
            state = f"page state unavailable ({type(e).__name__})"
        self.drain_console()
        errors = [entry.get("message", "") for entry in self.console_log if entry.get("level") == "SEVERE"]
        return state + (f", console errors {errors[-3:]}" if errors else "")

    def wait(self, condition, what: str = "a condition", timeout: float | None = None):
        """Waits for `condition()` to be truthy and returns it; fails naming `what`."""
        start = time.monotonic()
        try:
            return WebDriverWait(self.driver, timeout or WAIT, poll_frequency=0.1,
                                 ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(
                lambda _d: condition())
        except TimeoutException:
            raise AssertionError(f"timed out after {timeout or WAIT:.0f} s waiting for {what} "
                                 f"(at {self.driver.current_url}); {self.page_state()}") from None
        finally:
            if TRACE and time.monotonic() - start > 1:
                print(f"  [{self.label}] {time.monotonic() - start:.1f} s waiting for {what}")

    def wait_css(self, css: str, timeout: float | None = None):
        # One lookup per poll: the element may go between two (the grid re-rendering as a change lands).
        return self.wait(lambda: next(iter(self.find_all(css)), None), f"{css} to exist", timeout)

    def wait_visible(self, css: str, timeout: float | None = None):
        def f():
            for e in self.find_all(css):
                if e.is_displayed():
                    return e
            return None
        return self.wait(f, f"{css} to be visible", timeout)

    def wait_gone(self, css: str, timeout: float | None = None):
        self.wait(lambda: not self.visible(css), f"{css} to go away", timeout)

    def wait_library(self, timeout: float | None = None):
        """The library screen has loaded its layout: photos, or the empty state."""
        self.wait(lambda: self.js("""
            const c = document.querySelector('[data-testid="photo-count"]');
            return !!(c && c.textContent.trim()) || !!document.querySelector('[data-testid="empty-state"]');"""),
            "the photo count or the empty state", timeout)

    def wait_cell(self, asset_id: str, timeout: float | None = None):
        return self.wait_css(tid("grid-cell", **{"data-asset-id": asset_id}), timeout)

    def scroll_to_cell(self, asset_id: str, timeout: float | None = None):
        """Waits for an item's cell, scrolling the grid a screen at a time while it is not drawn (the grid draws the
        rows near the view only: an item taken long ago is far down a large library), from the top again at the end."""
        css = self.cell_css(asset_id)

        def drawn():
            if self.js("return !!document.querySelector(arguments[0])", css):
                return True
            self.js("""const s = document.querySelector('[data-testid="grid-scroller"]');
                if (s) s.scrollTop = s.scrollTop + s.clientHeight >= s.scrollHeight - 1 ? 0 : s.scrollTop + s.clientHeight * 0.8;""")
            return False
        self.wait(drawn, f"{css} to be drawn", timeout)
        self.js("document.querySelector(arguments[0]).scrollIntoView({block: 'nearest'})", css)
        return self.find(css)

    def cell_css(self, asset_id: str) -> str:
        return tid("grid-cell", **{"data-asset-id": asset_id})

    def cell_src(self, asset_id: str) -> str | None:
        return self.js("const c = document.querySelector(arguments[0]); return c && c.querySelector('img') ? c.querySelector('img').getAttribute('src') : null;",
                       self.cell_css(asset_id))

    def image_loaded(self, css: str) -> bool:
        return bool(self.js("const i = document.querySelector(arguments[0]); return !!(i && i.complete && i.naturalWidth > 0);", css))

    def wait_image(self, css: str, timeout: float | None = None):
        self.wait(lambda: self.image_loaded(css), f"the image {css} to load", timeout)

    def wait_cell_thumbnail(self, asset_id: str, timeout: float | None = None):
        css = self.cell_css(asset_id) + " img"
        self.wait(lambda: self.image_loaded(css), f"the thumbnail of {asset_id}", timeout)

    def press(self, *keys):
        """Keys pressed on whatever has the focus, as a person presses them."""
        chain = ActionChains(self.driver)
        for k in keys:
            chain.send_keys(k)
        chain.perform()

    def assert_no_sideways_overflow(self):
        """Nothing on the page is wider than the window: a person at this size never scrolls sideways."""
        width = self.js("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the page is {width[0]} px wide in a {width[1]} px window"

    # ----- script
    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    def js_async(self, script: str, *args):
        """Runs `script` as an async function body; its return value comes back."""
        wrapper = ("const done = arguments[arguments.length - 1];"
                   "(async () => {" + script + "})(...Array.from(arguments).slice(0, -1))"
                   ".then((v) => done({ok: v}), (e) => done({error: String(e && e.stack || e)}));")
        result = self.driver.execute_async_script(wrapper, *args)
        if "error" in result:
            raise JavascriptException(result["error"])
        return result.get("ok")

    # ----- console
    def drain_console(self) -> list[dict]:
        try:
            entries = self.driver.get_log("browser")
        except Exception:
            entries = []
        self.console_log.extend(entries)
        return entries

    def console_errors(self, allow: list[re.Pattern] = ()) -> list[str]:
        errors = []
        for e in self.drain_console():
            if e.get("level") != "SEVERE":
                continue
            msg = e.get("message", "")
            if any(p.search(msg) for p in EXPECTED_CONSOLE) or any(p.search(msg) for p in allow):
                continue
            errors.append(msg)
        return errors

    # ----- screenshots
    def screenshot(self, path: Path, max_bytes: int = 600_000):
        """A PNG of the viewport; over max_bytes, its colours are rounded (7, then 6 bits a channel, which
        photos hide well) and, as a last resort, reduced to a palette."""
        from PIL import ImageOps

        img = Image.open(io.BytesIO(self.driver.get_screenshot_as_png())).convert("RGB")
        candidates = [lambda: img, lambda: ImageOps.posterize(img, 7), lambda: ImageOps.posterize(img, 6),
                      lambda: img.quantize(256, method=Image.Quantize.MEDIANCUT)]
        for make in candidates:
            out = io.BytesIO()
            make().save(out, "PNG", optimize=True)
            if out.tell() <= max_bytes:
                break
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(out.getvalue())
        return path

    # ----- page helpers
    def upload_files(self, paths: list[Path]):
        """Sends files to the app's file input, as choosing them in the file picker does."""
        inp = self.wait_css(tid("file-input"))
        inp.send_keys("\n".join(str(p) for p in paths))

    def drop_file(self, data: bytes, name: str, mime: str = "image/jpeg", target_css: str = '[data-testid="grid-scroller"]'):
        """Drags a file over the page and drops it: real dragenter/dragover/drop events whose DataTransfer holds a
        File built in the page from the bytes. Returns what the page saw of the overlay while dragging."""
        return self.js("""
            const [b64, name, mime, css] = arguments;
            const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const file = new File([bytes], name, {type: mime, lastModified: Date.now()});
            const dt = new DataTransfer();
            dt.items.add(file);
            const target = document.querySelector(css) || document.body;
            const r = target.getBoundingClientRect();
            const at = {clientX: r.left + r.width / 2, clientY: r.top + Math.min(r.height / 2, 200)};
            const fire = (type) => target.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, composed: true, dataTransfer: dt, ...at}));
            fire('dragenter');
            const over = fire('dragover');
            const overlay = document.querySelector('[data-testid="drop-overlay"]');
            const seen = {overlayShown: !!overlay && !overlay.hidden, overlayText: overlay ? overlay.textContent : '', dragoverAccepted: !over};
            const dropped = !fire('drop');
            seen.dropAccepted = dropped;
            seen.overlayHiddenAfterDrop = !overlay || overlay.hidden;
            return seen;
        """, base64.b64encode(data).decode(), name, mime, target_css)

    def upload_items(self) -> list[dict]:
        return self.js("""
            return [...document.querySelectorAll('[data-testid="upload-item"]')].map((li) => ({
              name: li.querySelector('.upload-name')?.textContent, state: li.dataset.state,
              status: li.querySelector('.upload-status')?.textContent,
              link: li.querySelector('a')?.getAttribute('href') || null,
              duplicateLink: li.querySelector('[data-testid="upload-duplicate-link"]')?.getAttribute('href') || null,
              role: li.querySelector('.upload-status')?.getAttribute('role') || null }));""")

    def wait_uploads_finished(self, count: int, timeout: float | None = None) -> list[dict]:
        def f():
            items = self.upload_items()
            if len(items) >= count and all(i["state"] not in ("waiting", "uploading") for i in items):
                return items
            return None
        return self.wait(f, f"{count} uploads to finish", timeout)

    def grid_cell_ids(self) -> list[str]:
        """Asset ids of the grid cells in the DOM, in grid order."""
        return self.js("""return [...document.querySelectorAll('[data-testid="grid-cell"]')]
            .sort((a, b) => Number(a.dataset.g) - Number(b.dataset.g)).map((c) => c.dataset.assetId);""")

    def wait_grid_still(self, quiet: float = 0.4, timeout: float | None = None):
        """Waits until the grid's DOM has not changed for `quiet` seconds (live refreshes re-render rows)."""
        self.js("""
            const g = document.querySelector('[data-testid="grid"]');
            window.__gridChanged = performance.now();
            if (window.__gridObserver) window.__gridObserver.disconnect();
            window.__gridObserver = new MutationObserver(() => { window.__gridChanged = performance.now(); });
            if (g) window.__gridObserver.observe(g, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-key', 'src']});""")
        self.wait(lambda: self.js("return performance.now() - window.__gridChanged") > quiet * 1000, "the grid to settle", timeout)

    def record_requests(self):
        """From now on (until the next page load), every request the app makes with fetch is logged in the page:
        its method, URL, when it started and when its answer had been read, and whether it was cancelled."""
        self.js(RECORD_REQUESTS_JS)

    def requests(self, method: str | None = None, contains: str = "") -> list[dict]:
        """The requests logged since record_requests(), oldest first: {method, url, start, end, status, aborted}."""
        return [r for r in self.js("return window.__requests || []")
                if (method is None or r["method"] == method) and contains in r["url"]]

    def wait_answered(self, method: str, contains: str, after: float = 0, timeout: float | None = None) -> dict:
        """Waits until a request started after `after` (performance.now() ms) has been answered and the page has
        handled the answer (two animation frames later); returns it."""
        def f():
            return next((r for r in self.requests(method, contains) if r["start"] > after and r["end"] is not None), None)
        r = self.wait(f, f"a {method} of {contains} to be answered", timeout)
        self.next_frames()
        return r

    def next_frames(self, n: int = 2):
        """Waits until the page has drawn `n` more frames (what a handled answer changed is on screen)."""
        self.js_async("for (let i = 0; i < arguments[0]; i++) await new Promise((r) => requestAnimationFrame(r));", n)

    def now(self) -> float:
        return self.js("return performance.now()")

    def focused(self) -> dict | None:
        """What has the keyboard's focus: its data-testid, tag and value."""
        return self.js("""const e = document.activeElement; return e && e !== document.body
            ? {testid: e.dataset.testid || null, tag: e.tagName, value: 'value' in e ? e.value : null} : null;""")

    def seen(self, css: str) -> dict:
        """Whether a person sees the element: shown, inside the viewport and on top at its centre (not covered
        by something else), with its box and text."""
        return self.js(SEEN_JS, css)

    def selection_bar_fits(self) -> dict:
        """Checks that the selection bar fits as a person sees it: in the viewport, not scrolled sideways, each of
        its controls inside it, shown whole on top (nothing drawn over it) and clear of the others. Returns
        {'shown': [data-testid of its controls, in order], 'more': the actions in its More menu, 'labels': the
        controls' visible text}."""
        layout = self.js(SELECTION_BAR_JS)
        bar = layout["bar"]
        assert bar[0] >= -0.5 and bar[1] >= -0.5 and bar[2] <= self.width + 0.5 and bar[3] <= self.height + 0.5, f"the bar is off screen: {layout}"
        assert not layout["scrolls"], f"the bar scrolls sideways: {layout}"
        controls = layout["controls"]
        for c in controls:
            seen = self.seen(tid(c["testid"]))
            assert seen["shown"] and seen["inside"] and seen["onTop"], f"{c['testid']} is not seen whole: {seen}"
            b = c["box"]
            assert b[0] >= bar[0] - 0.5 and b[2] <= bar[2] + 0.5 and b[1] >= bar[1] - 0.5 and b[3] <= bar[3] + 0.5, \
                f"{c['testid']} {b} leaves the bar {bar}"
        for i, c in enumerate(controls):
            for d in controls[i + 1:]:
                a, b = c["box"], d["box"]
                assert not (a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5), \
                    f"{c['testid']} {a} overlaps {d['testid']} {b}"
        more = []
        if any(c["testid"] == "selection-more" for c in controls):
            self.click(tid("selection-more"))
            menu = self.wait_visible(tid("selection-more-menu"))
            seen = self.seen(tid("selection-more-menu"))
            assert seen["inside"], f"the More menu leaves the screen: {seen}"
            more = [e.get_attribute("data-testid").removeprefix("selection-more-") for e in self.find_all("[role=menuitem]", menu)]
            ActionChains(self.driver).send_keys(Keys.ESCAPE).perform()
            self.wait_gone(tid("selection-more-menu"))
        return {"shown": [c["testid"] for c in controls], "more": more, "labels": {c["testid"]: c["text"] for c in controls}}

    def selection_action(self, action: str):
        """Chooses a selection bar's action (`delete`, `apply-preset`, …): its button, or through More when the
        bar has moved it there."""
        if self.visible(tid(f"selection-{action}")):
            return self.click(tid(f"selection-{action}"))
        self.click(tid("selection-more"))
        self.wait_visible(tid("selection-more-menu"))
        return self.click(tid(f"selection-more-{action}"))

    def toast_texts(self) -> list[str]:
        return self.js("return [...document.querySelectorAll('.toast')].map((t) => t.querySelector('.toast-text')?.textContent || '')")

    def wait_toast(self, pattern: str, timeout: float | None = None) -> str:
        rx = re.compile(pattern)
        return self.wait(lambda: next((t for t in self.toast_texts() if rx.search(t)), None), f"a message matching {pattern!r}", timeout)


# ---------------------------------------------------------------------------------------------- photos


def photo_bytes(seed: int, size: tuple[int, int] = (640, 480), quality: int = 85) -> bytes:
    """A small, distinct JPEG: a sky, a sun and hills, their colours and shapes chosen by `seed`."""
    rnd = random.Random(seed)
    w, h = size
    top = tuple(rnd.randrange(40, 200) for _ in range(3))
    bottom = tuple(rnd.randrange(120, 255) for _ in range(3))
    img = Image.new("RGB", (1, 64))
    for y in range(64):
        t = y / 63
        img.putpixel((0, y), tuple(int(top[i] * (1 - t) + bottom[i] * t) for i in range(3)))
    img = img.resize((w, h), Image.Resampling.BILINEAR)
    d = ImageDraw.Draw(img)
    r = rnd.randrange(h // 10, h // 5)
    cx, cy = rnd.randrange(r, w - r), rnd.randrange(r, h // 2)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=tuple(rnd.randrange(200, 256) for _ in range(2)) + (rnd.randrange(0, 120),))
    for layer in range(3):
        base_y = int(h * (0.55 + 0.13 * layer))
        pts = [(0, h)]
        for x in range(0, w + 40, 40):
            pts.append((x, base_y + rnd.randrange(-h // 10, h // 10)))
        pts.append((w, h))
        shade = 40 + 50 * layer
        d.polygon(pts, fill=(rnd.randrange(0, 80), shade + rnd.randrange(0, 60), rnd.randrange(0, 60)))
    # The seed written in pixels, so that two seeds never give the same file.
    for bit in range(32):
        on = (seed >> bit) & 1
        d.rectangle([4 + bit * 6, 4, 8 + bit * 6, 8], fill=(255, 255, 255) if on else (0, 0, 0))
    img = img.filter(ImageFilter.SMOOTH)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=quality)
    return out.getvalue()


def tiny_photo_bytes(index: int) -> bytes:
    """A 48×32 JPEG for large libraries: a colour from the index and the index written as black/white blocks."""
    img = Image.new("RGB", (48, 32), ((index * 37) % 256, (index * 91) % 256, (index * 53) % 256))
    d = ImageDraw.Draw(img)
    for bit in range(16):
        x, y = (bit % 8) * 6, 16 + (bit // 8) * 8
        d.rectangle([x, y, x + 5, y + 7], fill=(255, 255, 255) if (index >> bit) & 1 else (0, 0, 0))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=90)
    return out.getvalue()


def make_tiny_library_folder(folder: Path, count: int, *, hours_apart: float = 5.0) -> Path:
    """`count` distinct tiny JPEGs whose file dates go back `hours_apart` hours each (many months)."""
    folder.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for i in range(count):
        p = folder / f"IMG_{i:05d}.jpg"
        p.write_bytes(tiny_photo_bytes(i))
        t = now - i * hours_apart * 3600
        os.utime(p, (t, t))
    return folder


# Sample photos for screens that should look like a library (the documentation's screenshots): the real
# pictures of .build/testdata/photos (not the 100-px test squares), plus a few crops of the larger
# ones, with their capture dates moved into two recent months so that the grid shows full sections.
SAMPLES = ["iptc-orientation-3.jpg", "flower-orientation-6.jpg", "fujifilm-w3.jpg", "fujifilm-w3.jpg",
           "xmp_test.jpg", "ultrahdr.jpg", "iptc.jpg", "date-2038.jpg",
           "flower.jpg", "no-date.jpg"]
SAMPLE_CROPS = [("fujifilm-w3.jpg", (0.45, 0.05, 1.0, 0.75)), ("iptc-orientation-3.jpg", (0.0, 0.0, 0.6, 0.7)),
                ("iptc.jpg", (0.1, 0.35, 0.9, 1.0)), ("flower.jpg", (0.2, 0.1, 0.8, 0.9)),
                ("xmp_test.jpg", (0.0, 0.0, 0.65, 0.75)), ("flower-orientation-6.jpg", (0.3, 0.0, 1.0, 1.0))]


def sample_photos(dest: Path, max_side: int = 800, start: tuple[int, int, int] = (2024, 7, 28), days_apart: int = 3) -> list[Path]:
    """Downscaled copies (≤ max_side px) of the sample photos and some crops, camera EXIF kept, dates set."""
    import datetime

    from PIL import ImageFile

    # The corpus's ultrahdr.jpg is cut short (on purpose, for the decoders' tests); what is there is enough here.
    ImageFile.LOAD_TRUNCATED_IMAGES = True
    dest.mkdir(parents=True, exist_ok=True)
    jobs = [(name, None) for name in SAMPLES] + SAMPLE_CROPS
    day = datetime.datetime(*start, 17, 30)
    out = []
    for n, (name, box) in enumerate(jobs):
        img = Image.open(SAMPLE_PHOTOS / name)
        exif = img.getexif()
        if box is None:
            img.draft("RGB", (max_side, max_side))
        img = img.convert("RGB")
        if box:
            w, h = img.size
            img = img.crop((int(box[0] * w), int(box[1] * h), int(box[2] * w), int(box[3] * h)))
        img.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
        when = (day - datetime.timedelta(days=n * days_apart, hours=n * 5 % 11)).strftime("%Y:%m:%d %H:%M:%S")
        exif[306] = when
        ifd = exif.get_ifd(0x8769)
        ifd[36867] = when
        ifd[36868] = when
        for offset_tag in (36880, 36881, 36882):
            ifd.pop(offset_tag, None)
        target = dest / (f"crop-{n}-{name}" if box else name)
        img.save(target, "JPEG", quality=88, exif=exif)
        out.append(target)
    return out
