"""RAW and TIFF photos: Add Photos takes a camera's RAW file and its JPEG of the same shot, which become one
item marked RAW+JPEG in the grid (and to screen readers); the detail view's Info tells which file is shown and
switches the pair to its RAW and back, as Photos' "Use RAW as Original" does; a TIFF scan is a photo like any
other.

The files are made at test time by scripts/testdata-raw (a DNG written with pidng and its JPEG with the same
capture time, a 16-bit TIFF), in .build/testdata/raw-tiff.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from sepia_browser import tid

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / ".build" / "testdata" / "raw-tiff"


@pytest.fixture(scope="module")
def raw_files() -> Path:
    if not (FIXTURES / "MANIFEST.json").exists():
        subprocess.run([str(ROOT / "scripts" / "testdata-raw"), "--quiet"], check=True)
    return FIXTURES


def named(api, name: str) -> dict:
    found = [a for a in api.assets(limit=500)["assets"] if a["originalFilename"] == name]
    assert len(found) == 1, f"{len(found)} items named {name}"
    return found[0]


def test_a_raw_and_its_jpeg_are_one_item_that_can_show_either(app, browser_api, raw_files, screenshot):
    jpeg, raw = raw_files / "pair" / "IMG_0001.JPG", raw_files / "pair" / "IMG_0001.DNG"
    scan = raw_files / "tiff" / "rgb16_lzw_pred2.tif"
    before = browser_api.assets(limit=1)["total"]
    accept = app.find(tid("file-input")).get_attribute("accept")
    assert ".dng" in accept and ".nef" in accept and ".tif" in accept, accept

    app.upload_files([jpeg, raw, scan])
    items = app.wait_uploads_finished(3, timeout=90)
    assert [i["state"] for i in items] == ["done"] * 3, items
    # The pair is one item; the scan another.
    assert browser_api.assets(limit=1)["total"] == before + 2
    pair = named(browser_api, "IMG_0001.JPG")
    assert "photoRAWPair" in pair["mediaSubtypes"] and pair["originalFormat"] == "jpeg", pair
    tiff = named(browser_api, "rgb16_lzw_pred2.tif")
    assert tiff["originalFormat"] == "tiff" and (tiff["width"], tiff["height"]) == (640, 427), tiff

    # Recently Added lists them first, whatever their capture dates (the pair's is in 2023).
    app.open_app("#/recents")
    app.wait_cell(pair["id"])
    app.wait_cell_thumbnail(pair["id"])
    app.wait_cell_thumbnail(tiff["id"])
    cell = app.js("""
        const c = document.querySelector(arguments[0]); const b = c.querySelector('.cell-raw');
        return {label: c.getAttribute('aria-label'), badge: b && b.textContent, hidden: b && b.getAttribute('aria-hidden')};""",
                  app.cell_css(pair["id"]))
    assert cell["badge"] == "RAW+JPEG" and cell["hidden"] == "true", cell
    assert cell["label"].startswith("RAW+JPEG photo, "), cell["label"]
    screenshot(app, "web-raw-grid")

    # Info says which file is shown, and switches the pair to its RAW.
    app.click(app.cell_css(pair["id"]))
    app.wait_visible(tid("detail"))
    if app.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        app.click(tid("detail-info"))
    app.wait(lambda: "Showing the JPEG" in app.text(tid("info-raw-pair")), "the info to say the JPEG is shown")
    screenshot(app, "web-raw-info")
    app.click(tid("info-use-raw"))
    app.wait_toast("The RAW is the original now")
    app.wait(lambda: browser_api.asset(pair["id"])["originalFormat"] == "raw", "the pair to show its RAW")
    app.wait(lambda: "Showing the RAW" in app.text(tid("info-raw-pair")), "the info to say the RAW is shown")
    assert app.text(tid("info-use-raw")) == "Use JPEG as Original"
    assert app.text(tid("info-file")) == "IMG_0001.DNG"
    # The RAW's development is what the detail view shows now: a picture, not a broken image.
    app.wait(lambda: app.js("""const i = document.querySelector('[data-testid="detail-image"]');
        return !!i && i.complete && i.naturalWidth > 0;"""), "the RAW's picture")
    resources = browser_api.json("GET", f"/api/v1/assets/{pair['id']}/resources")["resources"]
    assert sorted((r["type"], r["format"]) for r in resources) == [("alternatePhoto", "jpeg"), ("photo", "raw")], resources

    app.click(tid("info-use-raw"))
    app.wait(lambda: browser_api.asset(pair["id"])["originalFormat"] == "jpeg", "the pair to show its JPEG again")


def set_slider(app, testid: str, value: float) -> None:
    """Moves a range input as a drag ends: its value, then the input event the page listens to."""
    app.js("""const s = document.querySelector(arguments[0]); s.value = String(arguments[1]);
        s.dispatchEvent(new Event('input', {bubbles: true}));""", tid(testid), value)


def test_a_raw_photo_is_developed_in_the_editor(app, browser_api, raw_files, screenshot):
    from test_editor import PIXELS, open_editor, wait_preview_settled

    app.upload_files([raw_files / "raw" / "bggr_12bit.dng"])
    items = app.wait_uploads_finished(1, timeout=90)
    assert [i["state"] for i in items] == ["done"], items
    photo = named(browser_api, "bggr_12bit.dng")
    app.open_app("#/recents")
    open_editor(app, photo["id"])

    # The RAW mode is offered, starting from the camera's white balance.
    app.wait_visible(tid("raw-mode"))
    app.click(tid("raw-mode"))
    app.wait_visible(tid("raw-temperature"))
    history = browser_api.json("GET", f"/api/v1/assets/{photo['id']}/edit")
    as_shot = round(history["raw"]["asShotNeutralTemperature"])
    assert "as shot" in app.text(tid("raw-as-shot")), app.text(tid("raw-as-shot"))
    assert abs(float(app.find(tid("raw-temperature")).get_attribute("value")) - as_shot) <= 50
    before = app.js(PIXELS, tid("editor-preview"))
    src = app.find(tid("editor-preview")).get_attribute("src")

    # Warmer light, then a stop more: the preview turns warmer, then brighter.
    set_slider(app, "raw-temperature", min(12000, as_shot + 3000))
    chosen = float(app.find(tid("raw-temperature")).get_attribute("value"))  # on the slider's 50 K steps
    src = wait_preview_settled(app, src)
    warm = app.js(PIXELS, tid("editor-preview"))
    assert warm["r"] / max(1, warm["b"]) > before["r"] / max(1, before["b"]) * 1.05, (before, warm)
    set_slider(app, "raw-exposure", 1)
    src = wait_preview_settled(app, src)
    bright = app.js(PIXELS, tid("editor-preview"))
    assert bright["r"] + bright["g"] + bright["b"] > (warm["r"] + warm["g"] + warm["b"]) * 1.15, (warm, bright)
    assert "has-changes" in app.find(tid("raw-mode")).get_attribute("class")
    screenshot(app, "web-raw-editor")

    # At a phone's size every RAW control is on the screen, side by side with its label and value.
    app.set_viewport(375, 812, mobile=True)
    try:
        app.wait(lambda: app.js("return document.querySelector('.panel-raw').getBoundingClientRect().width <= 375"), "the panel to fit")
        boxes = app.js("""return [...document.querySelectorAll('.panel-raw input[type=range], .panel-raw .slider-value, .panel-raw .slider-label')]
            .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width]; });""")
        assert boxes and all(left >= 0 and right <= 375 and width > 0 for left, right, width in boxes), boxes
        assert min(w for _, _, w in boxes[0::3]) >= 100, boxes  # the sliders keep a usable length
        assert app.js("return document.documentElement.scrollWidth") <= 375
        # Filters, Adjust, RAW and Crop & Straighten
        modes = app.js("""return [...document.querySelectorAll('.editor-modes .btn')].filter((b) => !b.hidden)
            .map((b) => { const r = b.getBoundingClientRect(); return [r.left, r.right]; });""")
        assert len(modes) == 4 and all(left >= 0 and right <= 375 for left, right in modes), modes
        screenshot(app, "web-raw-editor-phone")
    finally:
        app.set_viewport(1440, 900)

    # Saved as the recipe's first step, CIRAWFilter, and read back into the sliders.
    app.click(tid("save-edit"))
    app.wait_toast("Saved")
    current = browser_api.json("GET", f"/api/v1/assets/{photo['id']}/edit")["current"]["recipe"]
    first = current["steps"][0]
    assert first["filter"] == "CIRAWFilter" and first["parameters"]["inputEV"] == 1, current
    assert first["parameters"]["inputNeutralTemperature"] == chosen, current
    app.wait_visible(tid("detail"))
    app.click(tid("detail-edit"))
    app.wait_visible(tid("editor"))
    app.wait_visible(tid("raw-mode"))
    app.click(tid("raw-mode"))
    app.wait(lambda: float(app.find(tid("raw-exposure")).get_attribute("value")) == 1, "the saved exposure")
    # Double-click puts the white balance back as shot.
    app.js("""document.querySelector(arguments[0]).dispatchEvent(new MouseEvent('dblclick', {bubbles: true}));""", tid("raw-temperature"))
    assert "as shot" in app.text(tid("raw-as-shot"))
    app.click(tid("cancel-edit"))
    app.wait_visible(tid("discard-dialog"))
    app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    app.wait_visible(tid("detail"))
