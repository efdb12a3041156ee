"""The Map in the web app, on a library of its own: two photos taken in Lisbon, one in Munich, one in Sydney and one
without a location, their coordinates in EXIF's GPS fields. As a person would: the Map from the sidebar loads Leaflet
from the server itself (/vendor/leaflet) and nothing from any other origin; it draws Natural Earth's countries as
the base map (land where Spain is, sea in the Atlantic, in the light and the dark theme's colours) with no tiles,
credits "Leaflet | Natural Earth", and is fitted to the photos: the Lisbon pair as one count of 2 exactly where
Lisbon is drawn, Munich and Sydney as their thumbnails where those cities are; the photos of the view are listed
beside it. Zoomed in on Lisbon, the list holds its two photos only; Enter on the count fans them out, Enter on one
opens it, and closing the photo comes back to it. Where the view holds more photos than the server lists, it
counts them in cells (here with the list's limit lowered to one), says to zoom in, and a cell zooms in when
chosen. Without the base map the markers are drawn on a plain sea under a calm note. At a phone's size nothing
overflows sideways; axe finds no serious violation on either size. Last, a server given a tile server draws its
tiles instead of the countries (they do not load: nothing listens there), credits it by its host, and an empty
library says that no photo has a location yet.
"""

from __future__ import annotations

import os

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import Browser, Server, photo_bytes, stop_server, tid, own_site
from test_accessibility import audit
from test_places import LISBON, MUNICH, located_photo

SYDNEY = (-33.8568, 151.2153)
MADRID = (40.4168, -3.7038)
MID_ATLANTIC = (35.0, -40.0)

# The map's settled state: Leaflet in, the view's markers drawn for where it rests.
IDLE = '.map-screen[data-state="idle"]'

# Every marker on the map as drawn: photos (their id and coordinates) and counts (how many), with where each is
# drawn against where the map puts its coordinates (container pixels).
MARKERS_JS = """
const map = window.sepiaMap;
const box = map.getContainer().getBoundingClientRect();
return [...document.querySelectorAll('.map-canvas .leaflet-marker-icon')].map((m) => {
  const r = m.getBoundingClientRect();
  return {kind: m.dataset.testid, id: m.dataset.assetId || null, count: Number(m.dataset.count || 1),
          lat: m.dataset.lat ? Number(m.dataset.lat) : null, lng: m.dataset.lng ? Number(m.dataset.lng) : null,
          x: r.left + r.width / 2 - box.left, y: r.top + r.height / 2 - box.top,
          tabIndex: m.tabIndex, role: m.getAttribute('role'), label: m.getAttribute('aria-label')};
});"""

# Where the map draws a place (container pixels).
PROJECT_JS = "const p = window.sepiaMap.latLngToContainerPoint(arguments[0]); return [p.x, p.y];"

# Whether a country's shape covers a place: its point in the shapes' own coordinates (Leaflet's layer points).
LAND_AT_JS = """
const p = window.sepiaMap.latLngToLayerPoint(arguments[0]);
return [...document.querySelectorAll('.map-canvas path.map-land')].some((path) => path.isPointInFill(new DOMPoint(p.x, p.y)));"""

# Whether what has the focus shows a ring a person sees.
RING_JS = "const s = getComputedStyle(document.activeElement); return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;"

# Makes the page's fetch rewrite some requests: `limit=1` added to the markers' (the server then counts them in
# cells), or the map's settings answered as a server without its base map would.
REWRITE_FETCH_JS = """
const mode = arguments[0];
const original = window.fetch;
window.fetch = function (input, init) {
  const url = String(input && input.url || input);
  if (mode === 'cells' && url.includes('/api/v1/map/markers')) return original.call(this, url + '&limit=1', init);
  if (mode === 'no-base-map' && url.endsWith('/api/v1/map'))
    return Promise.resolve(new Response(JSON.stringify({baseMap: false, tiles: null}), {headers: {'Content-Type': 'application/json'}}));
  return original.apply(this, arguments);
};"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own, with the five photos uploaded."""
    with own_site(tmp_path_factory, "map") as (s, api, b):
        ids = {
            "lisbon": [api.upload(located_photo(9201 + i, *LISBON), f"lisbon-{i}.jpg")["id"] for i in range(2)],
            "munich": [api.upload(located_photo(9203, *MUNICH), "munich.jpg")["id"]],
            "sydney": [api.upload(located_photo(9204, *SYDNEY), "sydney.jpg")["id"]],
            "nowhere": [api.upload(photo_bytes(9205), "nowhere.jpg")["id"]],
        }
        settings = api.json("GET", "/api/v1/map")
        assert settings == {"baseMap": True, "tiles": None} or settings == {"baseMap": True}, \
            f"the base map is installed (scripts/map-data) and no tile server named: {settings}"
        state = {"server": s, "api": api, "browser": b, "ids": ids}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


def open_map(b: Browser, rewrite: str | None = None):
    """The Map from the sidebar, on a fresh page, once it has settled; `rewrite` as REWRITE_FETCH_JS takes it."""
    b.open_app("#/library")
    if rewrite:
        b.js(REWRITE_FETCH_JS, rewrite)
    b.click(tid("nav-map"))
    b.wait(lambda: b.driver.current_url.endswith("#/map"), "the Map view")
    settle(b)


def settle(b: Browser):
    b.wait_css(IDLE)
    b.next_frames(2)
    b.wait_css(IDLE)


def area_ids(b: Browser) -> list[str]:
    return b.js("return [...document.querySelectorAll('[data-testid=\"map-area-photo\"]')].map((a) => a.dataset.assetId)")


def near(a, b, px=3.0) -> bool:
    return abs(a[0] - b[0]) <= px and abs(a[1] - b[1]) <= px


# ------------------------------------------------------------------------------------ desktop


def test_the_map_draws_the_countries_and_the_photos_where_they_were_taken(site, b, screenshot):
    ids = site["ids"]
    open_map(b)
    assert b.text(tid("screen-title")) == "Map"
    assert b.text(tid("map-count")) == "4 photos with a location"
    assert b.find(tid("nav-map")).get_attribute("aria-current") == "page"

    # Leaflet came from the server itself, and nothing from anywhere else.
    resources = b.js("return performance.getEntriesByType('resource').map((e) => e.name)")
    for name in ("leaflet.js", "leaflet.markercluster.js", "leaflet.css", "MarkerCluster.css"):
        assert f"{b.base}/vendor/leaflet/{name}" in resources, (name, resources)
    elsewhere = [r for r in resources if not r.startswith(b.base + "/")]
    assert not elsewhere, f"requests to other origins: {elsewhere}"

    # The base map: the countries drawn (no tiles), land where Spain is and sea in the Atlantic, in the theme's colours.
    assert b.js("return document.querySelectorAll('.map-canvas path.map-land').length") > 150
    assert not b.present("img.leaflet-tile")
    assert b.js(LAND_AT_JS, MADRID), "Madrid is on land"
    assert not b.js(LAND_AT_JS, MID_ATLANTIC), "the middle of the Atlantic is sea"
    colours = "return [getComputedStyle(document.querySelector('path.map-land')).fill, getComputedStyle(document.querySelector('.map-canvas')).backgroundColor]"
    assert b.js(colours) == ["rgb(247, 245, 240)", "rgb(223, 232, 238)"]
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        assert b.js(colours) == ["rgb(43, 43, 46)", "rgb(20, 24, 28)"]
    finally:
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert b.text(".map-canvas .leaflet-control-attribution") == "Leaflet | Natural Earth"

    # Fitted to the photos: Lisbon's pair as one count of 2, Munich's and Sydney's thumbnails, each where the map
    # draws its city; the photo without a location is nowhere.
    markers = b.js(MARKERS_JS)
    assert sum(m["count"] for m in markers) == 4, markers
    lisbon, munich, sydney = (b.js(PROJECT_JS, list(p)) for p in (LISBON, MUNICH, SYDNEY))
    assert any(m["kind"] == "map-cluster" and m["count"] == 2 and near((m["x"], m["y"]), lisbon) for m in markers), (lisbon, markers)
    for place, (lat, lng), key in ((munich, MUNICH, "munich"), (sydney, SYDNEY, "sydney")):
        m = next((m for m in markers if m["id"] == ids[key][0]), None)
        assert m and m["kind"] == "map-photo" and near((m["x"], m["y"]), place), (key, place, markers)
        assert abs(m["lat"] - lat) < 1e-3 and abs(m["lng"] - lng) < 1e-3, m
    # Each marker is reached with Tab and says what it is; the map and its markers show where the keyboard is.
    for m in markers:
        assert m["tabIndex"] == 0 and m["role"] in ("link", "button") and m["label"], m
    canvas = b.find(tid("map"))
    assert canvas.get_attribute("tabindex") == "0" and canvas.get_attribute("aria-label")
    b.js("const t = document.querySelector('h1'); t.tabIndex = -1; t.focus()")
    ActionChains(b.driver).send_keys(Keys.TAB).perform()
    assert (b.focused() or {}).get("testid") == "map" and b.js(RING_JS), b.focused()
    ActionChains(b.driver).send_keys(Keys.TAB).perform()
    assert (b.focused() or {}).get("testid") in ("map-photo", "map-cluster") and b.js(RING_JS), b.focused()
    b.wait(lambda: b.js("return [...document.querySelectorAll('.map-photo img')].every((i) => i.complete && i.naturalWidth > 0)"),
           "the markers' thumbnails")

    # The view's photos beside the map: the four located ones.
    assert sorted(area_ids(b)) == sorted(ids["lisbon"] + ids["munich"] + ids["sydney"])
    assert b.text(tid("map-area-count")) == "4 photos"
    audit(b, "the Map")
    screenshot(b, "web-map-desktop")

    # Zoomed in on Lisbon: its two photos, and only those, beside the map.
    b.js("window.sepiaMap.setView(arguments[0], 12, {animate: false})", list(LISBON))
    b.wait(lambda: sorted(area_ids(b)) == sorted(ids["lisbon"]), "Lisbon's two photos beside the map")
    settle(b)
    assert b.text(tid("map-area-count")) == "2 photos"

    # The keyboard: Enter on the count fans the two photos out (they were taken at one spot), Enter on one opens it.
    b.js("document.querySelector('[data-testid=\"map-cluster\"]').focus()")
    b.driver.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait(lambda: len(b.find_all(tid("map-photo"))) == 2, "the two photos fanned out")
    first = b.find(tid("map-photo")).get_attribute("data-asset-id")
    b.js("arguments[0].focus()", b.find(tid("map-photo", **{"data-asset-id": first})))
    b.driver.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait(lambda: b.driver.current_url.endswith(f"#/photo/{first}"), "the photo opened from its marker")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-close"))
    b.wait_gone(tid("detail"))
    b.wait(lambda: b.driver.current_url.endswith("#/map"), "back on the Map")
    b.wait(lambda: (b.focused() or {}).get("testid") == "map-area-photo", "the keyboard on the photo's link")
    assert b.js("return document.activeElement.dataset.assetId") == first
    # The map kept its place (it stayed mounted under the photo).
    assert sorted(area_ids(b)) == sorted(ids["lisbon"])


def test_many_photos_are_counted_in_cells_that_zoom_in(site, b):
    """With the markers' limit lowered to one photo, the server counts the view's photos in cells."""
    ids = site["ids"]
    open_map(b, rewrite="cells")
    cells = [m for m in b.js(MARKERS_JS) if m["kind"] == "map-cell"]
    assert cells and sum(c["count"] for c in cells) == 4, cells
    assert not b.present(tid("map-photo")), "no photo is drawn one by one"
    assert b.text(tid("map-area-note")) == "Zoom in to see the photos here."
    assert not area_ids(b)
    assert b.text(tid("map-area-count")) == "4 photos"
    for c in cells:
        assert c["role"] == "button" and c["label"].endswith("here, zoom in") and c["tabIndex"] == 0, c

    # Sydney's cell, chosen with the keyboard, zooms in until its one photo is listed.
    sydney = b.js(PROJECT_JS, list(SYDNEY))
    cell = min(cells, key=lambda c: (c["x"] - sydney[0]) ** 2 + (c["y"] - sydney[1]) ** 2)
    assert cell["count"] == 1, cells
    before = b.js("return window.sepiaMap.getZoom()")
    b.js("""const s = arguments[0];
            const cell = [...document.querySelectorAll('[data-testid="map-cell"]')].find((e) => {
              const r = e.getBoundingClientRect(), box = window.sepiaMap.getContainer().getBoundingClientRect();
              return Math.abs(r.left + r.width / 2 - box.left - s[0]) < 1 && Math.abs(r.top + r.height / 2 - box.top - s[1]) < 1; });
            cell.focus();""", [cell["x"], cell["y"]])
    b.driver.switch_to.active_element.send_keys(Keys.ENTER)
    b.wait(lambda: area_ids(b) == ids["sydney"], "Sydney's photo listed once zoomed in")
    assert b.js("return window.sepiaMap.getZoom()") > before
    settle(b)
    assert [m["id"] for m in b.js(MARKERS_JS)] == ids["sydney"]
    audit(b, "the Map's cells")


def test_without_the_base_map_the_photos_are_drawn_on_a_plain_sea(site, b):
    open_map(b, rewrite="no-base-map")
    note = b.text(tid("map-note"))
    assert "base map is not installed" in note and "scripts/setup" in note, note
    assert not b.present("path.map-land") and not b.present("img.leaflet-tile")
    assert sum(m["count"] for m in b.js(MARKERS_JS)) == 4
    assert b.text(".map-canvas .leaflet-control-attribution") == "Leaflet"
    assert not b.present(f'{tid("map-note")}[role="alert"]'), "a missing base map is no alarm"
    audit(b, "the Map without its base map")


# ------------------------------------------------------------------------------------ phone


def test_the_map_on_a_phone(site, b, screenshot):
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        b.click(tid("menu-button"))
        b.wait(lambda: b.seen(tid("nav-map")).get("inside"), "the Map in the menu")
        b.click(tid("nav-map"))
        settle(b)
        b.assert_no_sideways_overflow()
        for css in (tid("map"), tid("map-area"), tid("screen-title")):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"], (css, seen)
        assert b.js("const a = document.querySelector('[data-testid=\"map-area\"]'); return a.scrollWidth <= a.clientWidth")
        assert sorted(area_ids(b)) == sorted(site["ids"]["lisbon"] + site["ids"]["munich"] + site["ids"]["sydney"])
        assert sum(m["count"] for m in b.js(MARKERS_JS)) == 4
        audit(b, "the Map on a phone")
        screenshot(b, "web-map-phone")
    finally:
        b.set_viewport(1440, 900)


# ------------------------------------------------------------------------------------ a tile server, no photos


@pytest.mark.console_allows(r"http://127\.0\.0\.1:9/")
def test_a_tile_server_draws_the_base_map_and_an_empty_library_says_so(tmp_path_factory):
    """A server started with a tile URL (nothing listens there: the tiles fail to load, which is fine here)."""
    before = os.environ.get("SEPIA_MAP_TILES")
    os.environ["SEPIA_MAP_TILES"] = "http://127.0.0.1:9/{z}/{x}/{y}.png"
    try:
        s = Server(tmp_path_factory.mktemp("map-tiles"), name="map-tiles").start()
    finally:
        if before is None:
            os.environ.pop("SEPIA_MAP_TILES")
        else:
            os.environ["SEPIA_MAP_TILES"] = before
    b = None
    try:
        api = s.create_owner()
        assert api.json("GET", "/api/v1/map")["tiles"] == "http://127.0.0.1:9/{z}/{x}/{y}.png"
        b = Browser(s.base, width=1440, height=900, label="map-tiles")
        # The owner's API session, handed to the window as its cookie: the sign-in page is another test's.
        b.load("/favicon.svg")
        b.driver.add_cookie({"name": "sepia_session", "value": api.cookie, "path": "/", "httpOnly": True, "sameSite": "Strict"})
        b.open_app("#/map")
        settle(b)
        b.wait(lambda: b.present("img.leaflet-tile"), "the tiles' images")
        sources = b.js("return [...document.querySelectorAll('img.leaflet-tile')].map((i) => i.src)")
        assert all(src.startswith("http://127.0.0.1:9/") and src.endswith(".png") for src in sources), sources
        assert not b.present("path.map-land"), "no country shapes under the tiles"
        assert b.text(".map-canvas .leaflet-control-attribution") == "Leaflet | Tiles: 127.0.0.1:9"

        empty = b.text(tid("empty-state"))
        assert "No photos with a location yet" in empty, empty
        assert not b.visible(tid("map-area")) and not b.present(tid("map-photo"))
        audit(b, "the Map of an empty library")
    finally:
        if b:
            b.quit()
        stop_server(s)
