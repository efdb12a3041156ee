"""Places in the web app, on a library of its own: two photos taken in Lisbon, one in Munich and one without a
location, their coordinates in EXIF's GPS fields. The server places each located photo by the nearest city of
GeoNames' tables (Debian's libtimezonemap-data, which scripts/setup installs). Then, as a person would: Places from
the sidebar lists Portugal (two photos) before Germany (one), each with its city as a tile (its photo, its name, its
region when that is not the city's own name, its count); Lisbon's tile opens a page of exactly its two photos, titled
"Lisbon, Portugal"; a photo's Info says where it was taken, as a link back to the city; a country's heading opens the
country's photos; at a phone's size nothing overflows sideways; and axe finds no serious violation on the Places
view (desktop and phone) and a photo's Info (a city's page is the library's grid, which other tests audit). Last, a
server that cannot read the tables says why in the empty state.
"""

from __future__ import annotations

import io
import os

import pytest
from PIL import Image

from sepia_browser import Browser, Server, photo_bytes, stop_server, tid, own_site
from test_accessibility import audit

LISBON = (38.7139, -9.1394)
MUNICH = (48.1374, 11.5755)


def dms(value: float) -> tuple[float, float, float]:
    """A coordinate's absolute value as EXIF writes it: degrees, minutes and seconds (three rationals)."""
    value = abs(value)
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = round((value - degrees - minutes / 60) * 3600, 4)
    return float(degrees), float(minutes), seconds


def located_photo(seed: int, latitude: float, longitude: float) -> bytes:
    """A test photo whose EXIF GPS IFD (0x8825) holds this position, as a phone's camera writes it."""
    img = Image.open(io.BytesIO(photo_bytes(seed)))
    exif = Image.Exif()
    gps = exif.get_ifd(0x8825)
    gps.update({
        0: b"\x02\x03\x00\x00",                     # GPSVersionID 2.3
        1: "N" if latitude >= 0 else "S", 2: dms(latitude),
        3: "E" if longitude >= 0 else "W", 4: dms(longitude),
    })
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85, exif=exif)
    return out.getvalue()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own, with the four photos uploaded."""
    with own_site(tmp_path_factory, "places") as (s, api, b):
        ids = {
            "lisbon": [api.upload(located_photo(9101 + i, *LISBON), f"lisbon-{i}.jpg")["id"] for i in range(2)],
            "munich": [api.upload(located_photo(9103, *MUNICH), "munich.jpg")["id"]],
            "nowhere": [api.upload(photo_bytes(9104), "nowhere.jpg")["id"]],
        }
        state = {"server": s, "api": api, "browser": b, "ids": ids}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


@pytest.fixture(scope="module")
def cities(site) -> dict[str, int]:
    """Lisbon's and Munich's GeoNames ids, as the server lists them; first, that it placed the photos as expected."""
    listed = site["api"].json("GET", "/api/v1/places")["countries"]
    summary = [(c["countryCode"], c["assetCount"], [(x["city"], x["assetCount"]) for x in c["cities"]]) for c in listed]
    assert summary == [("PT", 2, [("Lisbon", 2)]), ("DE", 1, [("Munich", 1)])], summary
    return {x["city"].lower(): x["id"] for c in listed for x in c["cities"]}


def places_on_screen(b) -> list[dict]:
    """The Places view as drawn: each country with its name, count and cities (name, region, count, picture shown)."""
    return b.js("""return [...document.querySelectorAll('[data-testid="place-country"]')].map((c) => ({
        code: c.dataset.countryCode, name: c.querySelector('[data-testid="place-country-link"]').textContent,
        count: c.querySelector('[data-testid="place-country-count"]').textContent,
        cities: [...c.querySelectorAll('[data-testid="place-card"]')].map((a) => ({
          id: Number(a.dataset.placeId), name: a.querySelector('.place-name').textContent,
          region: a.querySelector('.place-region')?.textContent || null, count: a.querySelector('.place-count').textContent,
          picture: !!a.querySelector('img') && a.querySelector('img').complete && a.querySelector('img').naturalWidth > 0 }))}));""")


def expected_places(cities: dict[str, int], pictures: bool = True) -> list[dict]:
    return [
        {"code": "PT", "name": "Portugal", "count": "2 photos",
         "cities": [{"id": cities["lisbon"], "name": "Lisbon", "region": None, "count": "2 photos", "picture": pictures}]},
        {"code": "DE", "name": "Germany", "count": "1 photo",
         "cities": [{"id": cities["munich"], "name": "Munich", "region": "Bavaria", "count": "1 photo", "picture": pictures}]},
    ]


def open_info(b):
    if b.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        b.click(tid("detail-info"))
    b.wait_visible(tid("info-panel"))


# ------------------------------------------------------------------------------------ desktop


def test_places_lists_countries_then_a_city_shows_its_photos_and_info_names_it(site, cities, b, screenshot):
    lisbon, munich = site["ids"]["lisbon"], site["ids"]["munich"]

    # Places, from the sidebar: Portugal first (two photos), then Germany, each with its city and its picture.
    b.open_app("#/library")
    b.click(tid("nav-places"))
    b.wait(lambda: b.driver.current_url.endswith("#/places"), "the Places view")
    b.wait(lambda: places_on_screen(b) == expected_places(cities), "Portugal then Germany, with their cities and pictures")
    assert b.text(tid("screen-title")) == "Places"
    assert b.text(tid("places-count")) == "2 cities in 2 countries"
    assert b.find(tid("nav-places")).get_attribute("aria-current") == "page"
    audit(b, "Places")
    screenshot(b, "web-places-desktop")

    # Lisbon's tile: a page of exactly its two photos, under the city's name.
    b.click(tid("place-card", **{"data-place-id": str(cities["lisbon"])}))
    b.wait(lambda: b.driver.current_url.endswith(f"#/places/{cities['lisbon']}"), "Lisbon's page")
    b.wait(lambda: b.text(tid("screen-title")) == "Lisbon, Portugal", "the city's name in the title")
    b.wait(lambda: sorted(b.grid_cell_ids()) == sorted(lisbon), "Lisbon's two photos, and only those")
    b.wait(lambda: b.text(tid("photo-count")) == "2 photos", "the count")
    assert b.find(tid("nav-places")).get_attribute("aria-current") == "page", "Places stays the current section"
    assert not b.visible(tid("add-photos")), "photos are placed by their location, not added to a place"
    b.wait_cell_thumbnail(lisbon[0])

    # A photo of it: Info says where it was taken (no "Lisbon, Lisbon"), over the coordinates; previous and next stay
    # among the city's photos.
    first = b.grid_cell_ids()[0]
    b.click(b.cell_css(first))
    b.wait_image(tid("detail-image"))
    assert b.driver.current_url.endswith(f"#/photo/{first}?place={cities['lisbon']}")
    open_info(b)
    b.wait(lambda: b.present(tid("info-place-name")) and b.text(tid("info-place-name")) == "Lisbon, Portugal", "the place in Info")
    assert b.find(tid("info-place-name")).get_attribute("href").endswith(f"#/places/{cities['lisbon']}")
    assert "38.71390° N, 9.13940° W" in b.text(tid("info-place")), b.text(tid("info-place"))
    audit(b, "a photo's Info with its place")

    # The place's link leads back to the city's photos.
    b.click(tid("info-place-name"))
    b.wait_gone(tid("detail"))
    b.wait(lambda: b.driver.current_url.endswith(f"#/places/{cities['lisbon']}"), "Lisbon's page again")
    assert b.text(tid("screen-title")) == "Lisbon, Portugal"

    # Back to Places, then a country's heading: Germany's photos; Munich's Info names its region.
    b.click(tid("place-back"))
    b.wait_visible(tid("places-list"))
    b.click(f'{tid("place-country", **{"data-country-code": "DE"})} {tid("place-country-link")}')
    b.wait(lambda: b.driver.current_url.endswith("#/places/country/DE"), "Germany's page")
    b.wait(lambda: b.text(tid("screen-title")) == "Germany", "the country's name in the title")
    b.wait(lambda: b.grid_cell_ids() == munich, "Munich's photo")
    b.click(b.cell_css(munich[0]))
    b.wait_image(tid("detail-image"))
    open_info(b)
    b.wait(lambda: b.present(tid("info-place-name")) and b.text(tid("info-place-name")) == "Munich, Bavaria, Germany", "Munich in Info")

    # A photo without a location has no place (and no coordinates) in Info.
    b.open_app(f"#/photo/{site['ids']['nowhere'][0]}")
    b.wait_image(tid("detail-image"))
    open_info(b)
    b.wait_visible(tid("info-file"))
    assert not b.present(tid("info-place-name")) and not b.present(tid("info-place"))


# ------------------------------------------------------------------------------------ phone


def test_places_and_a_city_on_a_phone(site, cities, b, screenshot):
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        # Places is in the menu (the tab bar keeps its five sections).
        b.click(tid("menu-button"))
        b.wait(lambda: b.seen(tid("nav-places")).get("inside"), "Places in the menu")
        b.click(tid("nav-places"))
        b.wait(lambda: places_on_screen(b) == expected_places(cities), "the places on the phone")
        b.assert_no_sideways_overflow()
        assert b.js("const p = document.querySelector('.places-page'); return p.scrollWidth <= p.clientWidth")
        for css in (tid("place-card", **{"data-place-id": str(cities["lisbon"])}), tid("place-card", **{"data-place-id": str(cities["munich"])})):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        audit(b, "Places on a phone")
        screenshot(b, "web-places-phone")

        b.click(tid("place-card", **{"data-place-id": str(cities["lisbon"])}))
        b.wait(lambda: b.text(tid("screen-title")) == "Lisbon, Portugal", "Lisbon's page on the phone")
        b.wait(lambda: sorted(b.grid_cell_ids()) == sorted(site["ids"]["lisbon"]), "Lisbon's photos on the phone")
        b.assert_no_sideways_overflow()
        for css in (tid("screen-title"), tid("place-back")):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
    finally:
        b.set_viewport(1440, 900)


# ------------------------------------------------------------------------------------ no tables


def test_the_empty_state_says_why_places_cannot_be_found(tmp_path_factory):
    """A server whose GeoNames folder is missing: Places is empty and says why, calmly."""
    before = os.environ.get("SEPIA_GEONAMES")
    os.environ["SEPIA_GEONAMES"] = str(tmp_path_factory.mktemp("no-geonames") / "missing")
    try:
        s = Server(tmp_path_factory.mktemp("places-missing"), name="places-missing").start()
    finally:
        if before is None:
            os.environ.pop("SEPIA_GEONAMES")
        else:
            os.environ["SEPIA_GEONAMES"] = before
    b = None
    try:
        api = s.create_owner()
        problem = api.json("GET", "/api/v1/places/status")["problem"]
        assert problem, "the server says why it cannot place photos"
        b = Browser(s.base, width=1440, height=900, label="places-missing")
        # The owner's API session, handed to the window as its cookie: the sign-in page is another test's.
        b.load("/favicon.svg")
        b.driver.add_cookie({"name": "sepia_session", "value": api.cookie, "path": "/", "httpOnly": True, "sameSite": "Strict"})
        b.open_app("#/places")
        b.wait(lambda: b.visible(tid("places-problem")), "the reason in the empty state")
        empty = b.text(tid("empty-state"))
        assert "No places yet" in empty and "placed by the nearest city" in empty, empty
        assert b.text(tid("places-problem")) == problem
        assert not b.present(f'{tid("empty-state")}[role="alert"]'), "a missing table is no alarm"
        audit(b, "Places without GeoNames' tables")
    finally:
        if b:
            b.quit()
        stop_server(s)
