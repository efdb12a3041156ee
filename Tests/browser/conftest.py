"""Fixtures of the browser tests.

One `sepia serve` (the debug build) runs for the whole session on a fresh library, with the owner's
account made from its printed setup link; one desktop Chromium window (1440×900, Chromium's fake camera
allowed) is signed in to it and reused, each test starting from a fresh page load. Modules that need a
state of their own (first-run setup, accessibility of the empty library, 2 000 photos, sample photos for
the screenshots) start their own server and window.

Every test fails on a JavaScript error in any open window's console (uncaught exceptions, unhandled
rejections, console.error, 5xx answers); HTTP 4xx answers that the app expects and explains are not errors.

SEPIA_SCREENSHOTS=1 saves docs/images/web-*.png during the run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sepia_browser import (
    LIVE_BROWSERS,
    SCREENSHOT_DIR,
    Api,
    Browser,
    Server,
    photo_bytes,
    sepia_binary,
    stop_server,
)

SCREENSHOTS = os.environ.get("SEPIA_SCREENSHOTS") == "1"


def pytest_configure(config):
    config.addinivalue_line("markers", "console_allows(pattern, ...): console errors matching these are expected")


def pytest_sessionstart(session):
    if not sepia_binary().exists():
        raise pytest.UsageError(f"{sepia_binary()} does not exist; build it first (swift build)")


# ------------------------------------------------------------------------------------ console errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    for b in list(LIVE_BROWSERS):
        b.drain_console()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    if item.get_closest_marker("xfail"):
        return result
    allow = []
    for m in item.iter_markers("console_allows"):
        allow += [re.compile(p) for p in m.args]
    problems = []
    for b in list(LIVE_BROWSERS):
        for msg in b.console_errors(allow):
            problems.append(f"[{b.label}] {msg}")
    if problems:
        raise AssertionError("JavaScript errors in the browser console:\n  " + "\n  ".join(problems))
    return result


# ------------------------------------------------------------------------------------ servers


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The session's server, with the owner's account created from the printed setup link."""
    s = Server(tmp_path_factory.mktemp("session"), name="session").start()
    s.create_owner()
    yield s
    stop_server(s)


@pytest.fixture(scope="session")
def owner(server) -> Api:
    """The owner's API session (not the browser's): prepares photos and albums a test is not about."""
    return Api.sign_in(server.base)


@pytest.fixture(scope="session")
def browser(server) -> Browser:
    """The desktop window, signed in through the sign-in page, with Chromium's fake camera allowed."""
    b = Browser(server.base, width=1440, height=900, label="desktop")
    b.sign_in()
    yield b
    b.quit()


@pytest.fixture
def app(browser) -> Browser:
    """The desktop window on a freshly loaded library."""
    browser.set_viewport(1440, 900)
    browser.open_app("#/library")
    return browser


@pytest.fixture(scope="session")
def browser_api(browser) -> Api:
    """The API with the browser's own session cookie."""
    return Api.from_browser(browser)


# ------------------------------------------------------------------------------------ photos


class PhotoMaker:
    """Distinct test photos: written to files (for the file picker) or uploaded through the API."""

    def __init__(self, folder: Path, api: Api):
        self.folder = folder
        self.api = api
        self.seed = 1000

    def next_seed(self) -> int:
        self.seed += 1
        return self.seed

    def file(self, name: str | None = None, size=(640, 480)) -> Path:
        seed = self.next_seed()
        path = self.folder / (name or f"photo-{seed}.jpg")
        path.write_bytes(photo_bytes(seed, size))
        return path

    def bytes(self, size=(640, 480)) -> bytes:
        return photo_bytes(self.next_seed(), size)

    def upload(self, count: int = 1, size=(640, 480), album: str | None = None) -> list[str]:
        ids = []
        for _ in range(count):
            seed = self.next_seed()
            ids.append(self.api.upload(photo_bytes(seed, size), f"photo-{seed}.jpg", album=album)["id"])
        return ids


@pytest.fixture(scope="session")
def photos(tmp_path_factory, owner) -> PhotoMaker:
    return PhotoMaker(tmp_path_factory.mktemp("photos"), owner)


# ------------------------------------------------------------------------------------ screenshots


@pytest.fixture(scope="session")
def screenshot():
    """screenshot(browser, 'web-library-desktop') saves docs/images/web-library-desktop.png when
    SEPIA_SCREENSHOTS=1; otherwise it does nothing."""
    def take(b: Browser, name: str):
        if SCREENSHOTS:
            b.screenshot(SCREENSHOT_DIR / f"{name}.png")
    return take
