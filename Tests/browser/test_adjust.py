"""The editor's Adjust panel (Photos' layout): Auto on a dark photo, Shadows and Warmth, a look at 40 %,
compare with the original, undo and redo, Save — and the saved version, the grid's thumbnail, a share
link's image and `sepia export` then show the same picture; a double-click puts a slider back to 0; the
panel at a phone's size; press and hold on a touch screen shows the original."""

import base64
import io
import math
import subprocess
import urllib.parse

import pytest
from PIL import Image, ImageEnhance
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import CANVAS_AGAINST_IMAGE, Api, photo_bytes, sepia_binary, tid
from test_editor import PIXEL_SHA, PIXELS, choose, open_editor, open_editor_from_photo, pressed, set_intensity, wait_preview_settled

# Every preview request's body, to find the one the compare view showed.
RECORD_PREVIEWS = """
if (!window.__previewBodies) {
  window.__previewBodies = [];
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (url.includes('/preview') && init && init.body) window.__previewBodies.push(JSON.parse(init.body));
    return original.apply(this, arguments);
  };
}
"""


def dark_photo(seed=4242, factor=0.3):
    """One of the suite's test photos, underexposed."""
    img = Image.open(io.BytesIO(photo_bytes(seed)))
    out = io.BytesIO()
    ImageEnhance.Brightness(img).enhance(factor).save(out, "JPEG", quality=90)
    return out.getvalue()


def brightness(b, css=None):
    css = css or tid("editor-preview")
    b.wait_image(css)
    p = b.js(PIXELS, css)
    return (p["r"] + p["g"] + p["b"]) / 3, p


def fmt(v):
    r = round(v * 100) / 100
    return "0.00" if r == 0 else f"{'+' if r > 0 else '−'}{abs(r):.2f}"


def set_adjust(b, key, value):
    """Moves an Adjust slider to `value` as a person's last input would (then lets go)."""
    b.js("""const s = document.querySelector(arguments[0]);
s.value = String(arguments[1]);
s.dispatchEvent(new Event('input', {bubbles: true}));
s.dispatchEvent(new Event('change', {bubbles: true}));""", tid(f"adjust-{key}"), value)


def shown_values(b):
    return b.js("""return Object.fromEntries([...document.querySelectorAll('[data-testid="adjust-panel"] input[type=range]')]
        .map((i) => [i.dataset.adjust, document.querySelector(`output[for="${i.id}"]`).textContent]));""")


def step_for(slider, p):
    """The step of an Adjust slider at position p, as GET /filters/adjustments describes it."""
    mapping = slider["positive"] if p > 0 else slider["negative"]
    t = abs(p)
    params = {}
    for key, ends in mapping["parameters"].items():
        a, z = ends["at0"], ends["at1"]
        params[key] = [x + (y - x) * t for x, y in zip(a, z)] if isinstance(a, list) else a + (z - a) * t
    return {"filter": mapping["filter"], "parameters": params}


def same_step(a, b):
    if a["filter"] != b["filter"] or set(a["parameters"]) != set(b["parameters"]) or a.get("intensity") != b.get("intensity"):
        return False
    for k, v in a["parameters"].items():
        w = b["parameters"][k]
        vs, ws = (v, w) if isinstance(v, list) else ([v], [w])
        if len(vs) != len(ws) or any(not math.isclose(x, y, abs_tol=1e-6) for x, y in zip(vs, ws)):
            return False
    return True


def small(data, square=False, side=32):
    """An image's pixels at side × side (its centred square first, as a `fill` thumbnail shows it)."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    if square:
        w, h = img.size
        s = min(w, h)
        img = img.crop(((w - s) // 2, (h - s) // 2, (w - s) // 2 + s, (h - s) // 2 + s))
    data = img.resize((side, side), Image.Resampling.BOX).tobytes()
    return [tuple(data[i:i + 3]) for i in range(0, len(data), 3)]


def difference(a, b):
    """Mean absolute difference of two small images, per channel, 0…255."""
    return sum(abs(x - y) for p, q in zip(a, b) for x, y in zip(p, q)) / (3 * len(a))


def mode_buttons(b):
    """The editor's mode buttons shown (Filters, Adjust, RAW, Crop & Straighten): each one's box within their row
    (which scrolls with the panel) and the row's height."""
    return b.js("""const row = document.querySelector('.editor-modes').getBoundingClientRect();
        return [...document.querySelectorAll('.editor-modes .btn')].filter((e) => e.offsetParent).map((e) => {
          const r = e.getBoundingClientRect();
          return {testid: e.dataset.testid, top: Math.round(r.top - row.top), left: Math.round(r.left - row.left),
                  width: Math.round(r.width), height: Math.round(r.height), row: Math.round(row.height)}; });""")


def open_adjust(b, asset_id):
    open_editor(b, asset_id)
    b.click(tid("adjust-mode"))
    b.wait_visible(tid("adjust-panel"))
    assert b.find(tid("adjust-mode")).get_attribute("aria-pressed") == "true"
    assert b.find(tid("filters-mode")).get_attribute("aria-pressed") == "false"
    # The panel narrowed the stage: the preview of the new size.
    wait_preview_settled(b)


@pytest.mark.parametrize("size", ["1440x900", "375x812"])
def test_auto_shadows_warmth_noir_compare_undo_redo_and_save(app, owner, browser_api, server, tmp_path, size):
    """The issue's walkthrough, at a desktop's size and at a phone's."""
    width, height = map(int, size.split("x"))
    if width < 760:
        app.set_viewport(width, height, mobile=True)
    try:
        # A photo of its own at each size (the same bytes would be the photo the other run edited).
        walkthrough(app, owner, browser_api, server, tmp_path, dark_photo(seed=4242 + width))
    finally:
        app.set_viewport(1440, 900)


def walkthrough(app, owner, browser_api, server, tmp_path, photo):
    asset_id = owner.upload(photo, "dark-evening.jpg")["id"]
    app.wait_cell_thumbnail(asset_id)
    original_src = app.cell_src(asset_id)
    panel = browser_api.json("GET", "/api/v1/filters/adjustments")
    sliders = [s for section in panel["sections"] for s in section["adjustments"]]
    open_adjust(app, asset_id)
    app.js(RECORD_PREVIEWS)
    src = app.find(tid("editor-preview")).get_attribute("src")
    # The four sections, every slider labelled, at 0.
    headings = app.js("return [...document.querySelectorAll('.adjust-heading')].map((h) => h.textContent)")
    assert headings == [s["title"] for s in panel["sections"]], headings
    assert set(shown_values(app).values()) == {"0.00"}
    assert len(shown_values(app)) == len(sliders) == 19
    dark, _ = brightness(app)
    app.wait(lambda: app.find(tid("histogram")).get_attribute("data-mean"), "the histogram")
    dark_histogram = float(app.find(tid("histogram")).get_attribute("data-mean"))
    assert dark < 60, f"the test photo is not dark ({dark:.0f})"
    assert not app.find(tid("undo")).is_enabled()

    # Auto: the sliders the server names move, the others stay at 0, and the photo gets brighter.
    app.click(tid("adjust-auto"))
    src = wait_preview_settled(app, src)
    auto = browser_api.json("POST", f"/api/v1/assets/{asset_id}/auto-adjust",
                            {"recipe": {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": []}})["adjustments"]
    assert auto.get("exposure", 0) > 0, auto
    app.wait(lambda: shown_values(app) == {s["id"]: fmt(auto.get(s["id"], 0)) for s in sliders}, "the sliders to show Auto's answer")
    after_auto, _ = brightness(app)
    assert after_auto > dark + 10, f"Auto did not brighten the photo: {dark:.1f} → {after_auto:.1f}"
    app.wait(lambda: float(app.find(tid("histogram")).get_attribute("data-mean")) > dark_histogram + 10, "the histogram to follow")
    assert app.find(tid("undo")).is_enabled() and app.find(tid("save-edit")).is_enabled()

    # Lower Shadows, then warm it: the preview gets redder against blue.
    shadows = round(max(-1.0, auto.get("shadows", 0) - 0.4), 2)
    set_adjust(app, "shadows", shadows)
    src = wait_preview_settled(app, src)
    assert app.text(tid("adjust-shadows-value")) == fmt(shadows)
    _, before_warm = brightness(app)
    set_adjust(app, "warmth", 0.5)
    src = wait_preview_settled(app, src)
    assert app.text(tid("adjust-warmth-value")) == "+0.50"
    _, warm = brightness(app)
    assert warm["r"] - warm["b"] > before_warm["r"] - before_warm["b"] + 3, (before_warm, warm)

    # Noir at 40 %.
    app.click(tid("filters-mode"))
    app.wait_visible(tid("filter-strip"))
    src = choose(app, "Noir", src)
    set_intensity(app, 0.4)
    src = wait_preview_settled(app, src)
    assert app.text(".panel-filters .slider-value") == "40%"

    # Hold to compare: the original (no edit), then the edit again.
    app.click(tid("adjust-mode"))
    preview = app.find(tid("editor-preview"))
    ActionChains(app.driver).click_and_hold(preview).perform()
    app.wait(lambda: app.visible(tid("original-badge")) and app.visible(tid("editor-original"))
             and app.image_loaded(tid("editor-original")), "the original while held")
    assert app.text(tid("original-badge")) == "Original"
    assert not preview.is_displayed()
    empty = [r for r in app.js("return window.__previewBodies") if r["recipe"]["steps"] == []][-1]
    shown = app.js_async(PIXEL_SHA, tid("editor-original"), None)
    expected = browser_api.preview(asset_id, empty["recipe"], empty["size"])
    assert shown == app.js_async(PIXEL_SHA, None, "data:image/jpeg;base64," + base64.b64encode(expected).decode()), \
        "the compare view does not show the original"
    original_mean, _ = brightness(app, tid("editor-original"))
    assert abs(original_mean - dark) < 8, (original_mean, dark)
    ActionChains(app.driver).release().perform()
    app.wait(lambda: not app.visible(tid("original-badge")) and preview.is_displayed(), "the edit after letting go")
    assert not app.visible(tid("editor-original"))
    # The \ key does the same while held.
    ActionChains(app.driver).key_down("\\").perform()
    app.wait(lambda: app.visible(tid("original-badge")) and app.visible(tid("editor-original")), "the original while \\ is held")
    ActionChains(app.driver).key_up("\\").perform()
    app.wait(lambda: not app.visible(tid("original-badge")), "the edit after \\")
    assert not app.find(tid("save-edit")).get_attribute("disabled")

    # Undo two steps (40 %, then Noir), redo one (Noir at 100 %); the sliders stay as they were.
    app.click(tid("filters-mode"))
    app.click(tid("undo"))
    app.wait(lambda: pressed(app) == ["Noir"] and app.text(".panel-filters .slider-value") == "100%", "Noir back at 100 %")
    ActionChains(app.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    app.wait(lambda: pressed(app) == ["None"], "Noir undone")
    values = shown_values(app)
    assert values["warmth"] == "+0.50" and values["shadows"] == fmt(shadows), values
    src = wait_preview_settled(app, src)
    ActionChains(app.driver).key_down(Keys.CONTROL).key_down(Keys.SHIFT).send_keys("z").key_up(Keys.SHIFT).key_up(Keys.CONTROL).perform()
    app.wait(lambda: pressed(app) == ["Noir"] and app.text(".panel-filters .slider-value") == "100%", "Noir redone")
    assert app.find(tid("redo")).is_enabled()
    src = wait_preview_settled(app, src)
    # A new change after an undo drops what could be redone.
    set_intensity(app, 0.4)
    src = wait_preview_settled(app, src)
    assert not app.find(tid("redo")).is_enabled()

    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.wait_visible(tid("detail"))
    recipe = browser_api.edit(asset_id)["current"]["recipe"]
    positions = {**auto, "shadows": shadows, "warmth": 0.5}
    expected_steps = [step_for(s, positions[s["id"]]) for s in sliders if positions.get(s["id"])]
    expected_steps.append({"filter": "CIPhotoEffectNoir", "parameters": {}, "intensity": 0.4})
    assert recipe["formatVersion"] == "2", recipe
    assert len(recipe["steps"]) == len(expected_steps) and all(map(same_step, recipe["steps"], expected_steps)), \
        (recipe["steps"], expected_steps)

    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    app.wait(lambda: app.cell_src(asset_id) != original_src, "the grid's thumbnail to change")
    app.wait_cell_thumbnail(asset_id)

    # Opened again, the editor reads the sliders and the look back.
    open_adjust(app, asset_id)
    assert pressed(app) == ["Noir"]
    assert shown_values(app) == {s["id"]: fmt(positions.get(s["id"], 0)) for s in sliders}
    assert not app.find(tid("save-edit")).is_enabled()

    # The saved version, the grid's thumbnail, a share link's image and `sepia export` show the same picture.
    saved = browser_api.call("GET", f"/api/v1/assets/{asset_id}/current", headers={"Accept": "*/*"})
    assert saved.status == 200, saved.status
    saved_small, saved_square = small(saved.body), small(saved.body, square=True)
    assert difference(saved_small, small(photo)) > 10, "the saved version is the original"
    thumb_src = app.cell_src(asset_id)  # the library stays under the editor
    thumb = browser_api.call("GET", thumb_src, headers={"Accept": "*/*"})
    assert thumb.status == 200 and "mode=fill" in thumb_src, (thumb.status, thumb_src)
    assert difference(small(thumb.body), saved_square) <= 3, f"the grid's thumbnail differs: {difference(small(thumb.body), saved_square):.2f}"
    share = browser_api.json("POST", "/api/v1/shares", {"assetID": asset_id}, expect=(201,))
    token = urllib.parse.urlparse(share["url"]).path.rsplit("/", 1)[-1]
    shared = Api(browser_api.base).call("GET", f"/api/v1/shared/{token}/assets/{asset_id}/image?size=1024x1024&mode=fit", headers={"Accept": "*/*"})
    assert shared.status == 200, shared.status
    assert difference(small(shared.body), saved_small) <= 3, f"the share link's image differs: {difference(small(shared.body), saved_small):.2f}"
    out = tmp_path / "export"
    subprocess.run([str(sepia_binary()), "export", asset_id, "--out-dir", str(out), "--no-sidecars", "--library", str(server.library)],
                   check=True, capture_output=True, text=True, timeout=120)
    (exported,) = [p for p in out.iterdir() if p.suffix.lower() in (".jpg", ".jpeg")]
    assert difference(small(exported.read_bytes()), saved_small) <= 3, f"`sepia export` differs: {difference(small(exported.read_bytes()), saved_small):.2f}"
    browser_api.json("DELETE", f"/api/v1/shares/{share['id']}", expect=(204,))


def test_double_click_puts_a_slider_back_to_0_in_one_step(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    open_adjust(app, asset_id)
    src = app.find(tid("editor-preview")).get_attribute("src")
    slider = app.find(tid("adjust-exposure"))
    slider.send_keys(Keys.ARROW_RIGHT * 3)
    app.wait(lambda: app.text(tid("adjust-exposure-value")) == "+0.03", "the keys to move Exposure")
    set_adjust(app, "exposure", 0.5)
    src = wait_preview_settled(app, src)
    assert app.text(tid("adjust-exposure-value")) == "+0.50"
    assert app.find(tid("save-edit")).is_enabled()
    # The double-click lands away from the middle: its two clicks move the slider before it resets it.
    ActionChains(app.driver).move_to_element_with_offset(slider, slider.size["width"] // 4, 0).double_click().perform()
    app.wait(lambda: app.text(tid("adjust-exposure-value")) == "0.00", "Exposure back at 0")
    assert slider.get_attribute("aria-valuetext") == "0.00"
    wait_preview_settled(app, src)
    assert not app.find(tid("save-edit")).is_enabled(), "a reset to 0 leaves nothing to save"
    # One undo brings back +0.50, not where the clicks put it.
    app.click(tid("undo"))
    app.wait(lambda: app.text(tid("adjust-exposure-value")) == "+0.50", "the undo to bring back +0.50")
    app.click(tid("undo"))
    app.wait(lambda: app.text(tid("adjust-exposure-value")) == "+0.03", "each key press is a step")
    # The editor's shortcuts still work from a slider: C opens crop mode, Escape closes it.
    slider.send_keys("c")
    assert not app.visible(tid("crop-box")), "C on a slider opened crop mode"
    app.click(tid("cancel-edit"))
    app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    app.wait_gone(tid("editor"))


# Records preview requests: the keyframes (priority 'low') and the others, and each blend drawn.
RECORD_DRAG = """
if (!window.__dragLog) {
  const log = window.__dragLog = {keyframes: [], exact: [], blends: 0};
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (url.includes('/preview') && init && init.body) (init.priority === 'low' ? log.keyframes : log.exact).push(JSON.parse(init.body));
    return original.apply(this, arguments);
  };
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function () {
    if (this.canvas.dataset && this.canvas.dataset.testid === 'editor-blend') log.blends++;
    return draw.apply(this, arguments);
  };
}
"""

def test_dragging_a_slider_paints_blends_of_keyframes_then_the_exact_render(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    open_adjust(app, asset_id)
    src = wait_preview_settled(app)
    app.wait(lambda: app.find(tid("histogram")).get_attribute("data-mean"), "the histogram")
    mean_before = float(app.find(tid("histogram")).get_attribute("data-mean"))
    app.js(RECORD_DRAG)
    slider = app.find(tid("adjust-exposure"))
    # Press on the thumb (Exposure is at 0, the track's middle) and drag to the right in small steps.
    hand = ActionChains(app.driver, duration=16)
    hand.move_to_element(slider).click_and_hold()
    for _ in range(12):
        hand.move_by_offset(2, 0)
    hand.perform()
    # Each input is painted from keyframes: exact renders of Exposure at multiples of 0.1, fetched at a low priority.
    app.wait(lambda: app.js("return window.__dragLog.blends > 0 && !document.querySelector(arguments[0]).hidden;", tid("editor-blend")),
             "a blend to be painted while the slider is held")
    log = app.js("return window.__dragLog;")
    assert log["keyframes"], "no keyframe was fetched"
    # The histogram follows the blends: brighter as Exposure goes up.
    app.wait(lambda: float(app.find(tid("histogram")).get_attribute("data-mean")) > mean_before + 2, "the histogram to follow the drag")
    for body in log["keyframes"]:
        steps = body["recipe"]["steps"]
        ev = next((st["parameters"]["inputEV"] for st in steps if st["filter"] == "CIExposureAdjust"), 0.0)
        assert math.isclose(ev / 2 * 10, round(ev / 2 * 10), abs_tol=1e-6), f"a keyframe off the grid: {steps}"
    ActionChains(app.driver).release().perform()
    value = float(slider.get_attribute("value"))
    assert value > 0.05, f"the drag did not move Exposure: {value}"
    # The release asks for the exact render of the last value; once it is shown, the blend is hidden.
    wait_preview_settled(app, src)
    app.wait(lambda: app.js("return document.querySelector(arguments[0]).hidden;", tid("editor-blend")), "the blend to give way to the exact render")
    last = app.js("return window.__dragLog.exact[window.__dragLog.exact.length - 1];")
    (step,) = [st for st in last["recipe"]["steps"] if st["filter"] == "CIExposureAdjust"]
    assert math.isclose(step["parameters"]["inputEV"], 2 * value, abs_tol=1e-6), (step, value)
    # The last blend showed the same value as the exact render, within what two JPEG encodings differ by.
    difference_to_exact = app.js(CANVAS_AGAINST_IMAGE, tid("editor-blend"), tid("editor-preview"))
    assert difference_to_exact is not None and difference_to_exact["mean"] < 3, f"the last blend differs from the exact render by {difference_to_exact}"
    # The drag is one step of the history.
    app.click(tid("undo"))
    app.wait(lambda: app.text(tid("adjust-exposure-value")) == "0.00", "one undo to bring Exposure back to 0")


def test_adjust_panel_on_a_phone(app, photos):
    (asset_id,) = photos.upload(1)
    app.set_viewport(375, 812, mobile=True)
    try:
        open_editor_from_photo(app, asset_id)
        app.click(tid("adjust-mode"))
        app.wait_visible(tid("adjust-panel"))
        modes = mode_buttons(app)
        assert len({m["top"] for m in modes}) == 1, f"the modes take two rows: {modes}"
        geometry = app.js("""
            const r = (css) => { const b = document.querySelector(css).getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height}; };
            const p = document.querySelector('[data-testid="editor-panel"]');
            return {page: [document.documentElement.scrollWidth, innerWidth], panel: [p.scrollWidth, p.clientWidth, p.scrollHeight, p.clientHeight],
                    stage: r('[data-testid="editor-stage"]'), panelBox: r('[data-testid="editor-panel"]'), h: innerHeight,
                    small: [...p.querySelectorAll('input[type=range], button')].filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
                      .map((e) => e.dataset.testid || e.textContent)};""")
        assert geometry["page"][0] <= geometry["page"][1], f"the page overflows sideways: {geometry['page']}"
        assert geometry["panel"][0] <= geometry["panel"][1], f"the panel overflows sideways: {geometry['panel']}"
        assert geometry["panel"][2] > geometry["panel"][3], "the panel does not scroll"
        assert geometry["stage"]["height"] >= 200 and geometry["stage"]["bottom"] <= geometry["panelBox"]["top"] + 1, geometry
        assert geometry["panelBox"]["bottom"] <= geometry["h"] + 1, geometry
        assert geometry["small"] == [], f"touch targets under 44 px high: {geometry['small']}"
        # The last slider, scrolled to, is on screen inside the panel and works.
        app.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", tid("adjust-vignette"))
        box = app.js("""const s = document.querySelector(arguments[0]).getBoundingClientRect();
            const p = document.querySelector('[data-testid="editor-panel"]').getBoundingClientRect();
            return [s.top >= p.top - 1 && s.bottom <= p.bottom + 1 && s.left >= 0 && s.right <= innerWidth, p.scrollTop];""", tid("adjust-vignette"))
        assert box[0], box
        assert app.find(tid("editor-stage")).is_displayed()
        src = app.find(tid("editor-preview")).get_attribute("src")
        app.find(tid("adjust-vignette")).send_keys(Keys.ARROW_LEFT * 20)
        app.wait(lambda: app.text(tid("adjust-vignette-value")) == "−0.20", "the keys to move Vignette")
        wait_preview_settled(app, src)
        # Adjust is marked as changed, and the modes stay where they were, on one row: nothing jumps.
        assert "has-changes" in app.find(tid("adjust-mode")).get_attribute("class")
        assert mode_buttons(app) == modes, f"the modes moved when Adjust was marked: {modes} → {mode_buttons(app)}"
        assert app.find(tid("save-edit")).is_enabled()
        assert app.js("return document.documentElement.scrollWidth <= innerWidth")
        app.click(tid("cancel-edit"))
        app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
        app.wait_gone(tid("editor"))
    finally:
        app.set_viewport(1440, 900)


def test_press_and_hold_on_a_touch_screen_shows_the_original(app, photos):
    """A finger held on the photo shows the original (touch events, as a phone sends them); lifted, the edit."""
    (asset_id,) = photos.upload(1)
    app.set_viewport(375, 812, mobile=True)
    try:
        src = open_editor_from_photo(app, asset_id)
        src = choose(app, "Noir", src)
        edited, edited_pixels = brightness(app)
        assert edited_pixels["chroma"] < 3, edited_pixels
        box = app.js("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
                     tid("editor-preview"))
        point = [{"x": box[0], "y": box[1], "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
        app.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
        try:
            app.wait(lambda: app.visible(tid("original-badge")) and app.visible(tid("editor-original"))
                     and app.image_loaded(tid("editor-original")), "the original while the finger is held")
            # Still shown a second later (a long press is not the browser's image menu, nor a cancel).
            app.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": point})
            app.js("return new Promise((r) => setTimeout(r, 1000))")
            assert app.visible(tid("original-badge")) and app.visible(tid("editor-original"))
            assert not app.find(tid("editor-preview")).is_displayed()
            _, original = brightness(app, tid("editor-original"))
            assert original["chroma"] > edited_pixels["chroma"] + 5, (original, edited_pixels)
        finally:
            app.driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        app.wait(lambda: not app.visible(tid("original-badge")) and app.find(tid("editor-preview")).is_displayed(), "the edit after lifting the finger")
        assert not app.visible(tid("editor-original"))
        after, _ = brightness(app)
        assert abs(after - edited) < 1
        app.click(tid("cancel-edit"))
        app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
        app.wait_gone(tid("editor"))
    finally:
        app.set_viewport(1440, 900)
