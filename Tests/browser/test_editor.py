"""The Photo Filter editor: the strip of every catalog entry, filters, the Intensity slider and its preview
scheduler, crop and straighten, Save, Revert to Original; Copy and Paste Edits onto other photos."""

import base64
import math
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import tid

PIXELS = """
const img = document.querySelector(arguments[0]);
if (!img.complete || !img.naturalWidth) throw new Error(`${arguments[0]} is still loading: its pixels cannot be read yet`);
const c = document.createElement('canvas');
c.width = 48; c.height = 48;
const g = c.getContext('2d');
g.drawImage(img, 0, 0, 48, 48);
const d = g.getImageData(0, 0, 48, 48).data;
let r = 0, gr = 0, b = 0, chroma = 0;
for (let i = 0; i < d.length; i += 4) { r += d[i]; gr += d[i + 1]; b += d[i + 2]; chroma += Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]); }
const n = d.length / 4;
return {r: r / n, g: gr / n, b: b / n, chroma: chroma / n, w: img.naturalWidth, h: img.naturalHeight};
"""

# A digest of an image's decoded pixels at its natural size: the preview is a blob: URL that the page's
# CSP does not let fetch() read, so images are compared by what the browser decoded.
PIXEL_SHA = """
const [css, dataURL] = arguments;
let img = css ? document.querySelector(css) : null;
if (dataURL) { img = new Image(); img.src = dataURL; await img.decode(); }
const c = document.createElement('canvas');
c.width = img.naturalWidth; c.height = img.naturalHeight;
const g = c.getContext('2d');
g.drawImage(img, 0, 0);
const hash = await crypto.subtle.digest('SHA-256', g.getImageData(0, 0, c.width, c.height).data);
return [...new Uint8Array(hash)].map((x) => x.toString(16).padStart(2, '0')).join('');
"""


def open_editor(b, asset_id):
    """From the library, as a person: the photo, then Edit."""
    b.wait_cell(asset_id)
    b.click(b.cell_css(asset_id))
    b.wait_visible(tid("detail"))
    b.click(tid("detail-edit"))
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    wait_preview_settled(b)


def open_editor_from_photo(b, asset_id):
    """From the photo's own page (a link to it, as on a phone): its image, then Edit; the settled preview's src."""
    b.open_app(f"#/photo/{asset_id}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-edit"))
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    return wait_preview_settled(b)


def wait_preview_settled(b, previous_src=None):
    # Two frames first: a layout the last action changed (a panel opened) has then told the stage it was resized,
    # and the new preview that asks for is announced (data-resizing, then the busy badge).
    b.js_async("await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));")

    def settled():
        if b.js("return document.querySelector(arguments[0]).hasAttribute('data-resizing')", tid("editor-stage")):
            return False
        busy = b.find(tid("preview-busy"))
        if busy.is_displayed():
            return False
        src = b.find(tid("editor-preview")).get_attribute("src") or ""
        if previous_src is not None and src == previous_src:
            return False
        return src.startswith("blob:") and b.image_loaded(tid("editor-preview"))
    b.wait(settled, "the preview to render")
    return b.find(tid("editor-preview")).get_attribute("src")


def pressed(b):
    return b.js("""return [...document.querySelectorAll('[data-testid="filter-tile"]')]
        .filter((t) => t.getAttribute('aria-pressed') === 'true').map((t) => t.dataset.name);""")


def choose(b, name, previous_src):
    b.click(tid("filter-tile", **{"data-name": name}))
    b.wait(lambda: pressed(b) == [name], f"{name} to be the one pressed")
    return wait_preview_settled(b, previous_src)


def set_intensity(b, value):
    """Moves the Intensity slider to `value` (0…1) as a person's last input would."""
    b.js("""const s = document.querySelector('[data-testid="intensity"]');
const min = Number(s.min), max = Number(s.max);
s.value = String(min + (max - min) * arguments[0]);
s.dispatchEvent(new Event('input', {bubbles: true}));
s.dispatchEvent(new Event('change', {bubbles: true}));""", value)


def rendered_by(entry):
    """What a catalog entry renders, whatever the slider: its filter and its preset parameters but the
    slider's keys."""
    keys = {s["key"] for s in entry.get("slider", [])}
    return entry["filter"], tuple(sorted((k, repr(v)) for k, v in entry.get("parameters", {}).items() if k not in keys))


def distinct(catalog):
    """The catalog entries the strip shows: each look once, the first entry that has it."""
    seen, out = set(), []
    for entry in catalog:
        if rendered_by(entry) not in seen:
            seen.add(rendered_by(entry))
            out.append(entry)
    return out


def strip_tiles(b):
    return b.js("""return [...document.querySelectorAll('[data-testid="filter-tile"]')].map((t) => ({
        name: t.dataset.name, index: Number(t.dataset.index), text: t.querySelector('.tile-name').textContent,
        pressed: t.getAttribute('aria-pressed'), image: getComputedStyle(t.querySelector('.tile-img')).backgroundImage,
        position: t.querySelector('.tile-img').style.backgroundPosition}));""")


def test_strip_shows_every_catalog_entry_with_its_name(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    catalog = browser_api.catalog()
    assert len(catalog) == 17
    shown = distinct(catalog)
    tiles = strip_tiles(app)
    assert [t["name"] for t in tiles] == [c["name"] for c in shown]
    assert [t["text"] for t in tiles] == [c["name"] for c in shown]
    assert [t["index"] for t in tiles] == [c["index"] for c in shown]
    assert [t["pressed"] for t in tiles] == ["true"] + ["false"] * (len(shown) - 1)
    assert all(t["image"].startswith('url("blob:') for t in tiles), tiles[0]["image"]
    assert len({t["position"] for t in tiles}) == len(shown), "tiles show the same part of the strip"
    # "None" has nothing to adjust, and says so.
    assert not app.find(tid("intensity")).is_enabled()
    assert app.text(tid("intensity-note")) == "Choose a filter below to adjust its intensity."
    assert not app.find(tid("save-edit")).is_enabled()
    assert not app.find(tid("revert")).is_enabled()


def test_each_filter_shows_once_in_the_strip(app, photos, browser_api):
    """LetsEat's "Sepia" and Instafilter's "Sepia Tone" are the same Core Image filter (CISepiaTone): two
    tiles that look alike and save the same recipe. The strip shows each filter once, under one name."""
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    catalog = {c["index"]: c for c in browser_api.catalog()}
    tiles = strip_tiles(app)
    looks = [rendered_by(catalog[t["index"]]) for t in tiles]
    assert len(set(looks)) == len(looks), \
        f"filters shown twice: {[t['name'] for t, k in zip(tiles, looks) if looks.count(k) > 1]}"
    assert len({t["name"].casefold() for t in tiles}) == len(tiles)
    # Every look of the catalog is still there.
    assert set(looks) == {rendered_by(c) for c in catalog.values()}
    sepia = [t["name"] for t in tiles if catalog[t["index"]]["filter"] == "CISepiaTone"]
    assert sepia == ["Sepia"], sepia


def test_filter_names_are_not_cut_off(app, photos):
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    cut = app.js("""return [...document.querySelectorAll('[data-testid="filter-tile"] .tile-name')]
        .filter((t) => t.scrollWidth > t.clientWidth + 1).map((t) => t.textContent);""")
    assert cut == [], f"names cut off in the strip: {cut}"


def test_three_filters_change_the_preview(app, photos):
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    src = app.find(tid("editor-preview")).get_attribute("src")
    original = app.js(PIXELS, tid("editor-preview"))
    assert original["chroma"] > 20, original

    seen = {}
    for name in ("Mono", "Noir", "Sepia"):
        src = choose(app, name, src)
        seen[name] = (src, app.js(PIXELS, tid("editor-preview")), app.js_async(PIXEL_SHA, tid("editor-preview"), None))
        assert app.find(tid("save-edit")).is_enabled(), "Save is off after choosing a filter"
    assert seen["Mono"][1]["chroma"] < 3, seen["Mono"][1]
    assert seen["Noir"][1]["chroma"] < 3, seen["Noir"][1]
    sepia = seen["Sepia"][1]
    assert sum(abs(sepia[k] - original[k]) for k in "rgb") > 10, (sepia, original)
    assert len({s[0] for s in seen.values()}) == 3, "the preview's URL did not change"
    assert len({s[2] for s in seen.values()}) == 3, "two filters gave the same preview"
    # Every look has an intensity: Mono starts whole, and at 40 % it keeps some of the colour.
    assert app.find(tid("intensity")).is_enabled()
    src = choose(app, "Mono", src)
    assert app.find(tid("intensity")).is_enabled(), "Mono's intensity slider is off"
    assert app.text(".slider-row .slider-value") == "100%"
    set_intensity(app, 0.4)
    src = wait_preview_settled(app, src)
    partial = app.js(PIXELS, tid("editor-preview"))
    assert seen["Mono"][1]["chroma"] + 5 < partial["chroma"] < original["chroma"] - 5, (partial, original)
    # Leaving with changes asks first.
    app.click(tid("cancel-edit"))
    dialog = app.wait_visible(tid("discard-dialog"))
    assert "Discard changes?" in dialog.text
    app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    app.wait_gone(tid("editor"))


INSTRUMENT = """
performance.setResourceTimingBufferSize(5000);
performance.clearResourceTimings();
const rec = window.__previews = {sent: [], spans: [], inFlight: 0, maxInFlight: 0, inputs: 0, keyframes: {sent: 0, inFlight: 0, maxInFlight: 0}};
document.querySelector('[data-testid="intensity"]').addEventListener('input', () => rec.inputs++);
if (!window.__fetchWrapped) {
  window.__fetchWrapped = true;
  const original = window.fetch;
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input.url;
    if (!url.includes('/preview')) return original.apply(this, arguments);
    // A keyframe of a drag (fetched at a low priority, shown only through blends) is counted apart.
    const r = init.priority === 'low' ? window.__previews.keyframes : window.__previews;
    r.inFlight++;
    r.maxInFlight = Math.max(r.maxInFlight, r.inFlight);
    if (r.keyframes) { r.sent.push(JSON.parse(init.body)); r.spans.push([performance.now(), null]); } else r.sent++;
    const span = r.spans ? r.spans[r.spans.length - 1] : null;
    // In flight until the app has read the body (it then starts the next one, if any).
    let ended = false;
    const end = () => { if (!ended) { ended = true; r.inFlight--; if (span) span[1] = performance.now(); } };
    return original.apply(this, arguments).then((res) => {
      for (const m of ['blob', 'text', 'json', 'arrayBuffer']) { const read = res[m].bind(res); res[m] = () => read().finally(end); }
      return res;
    }, (e) => { end(); throw e; });
  };
}
"""


def test_a_look_at_40_percent_is_saved_as_a_step_with_its_intensity(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    src = choose(app, "Noir", app.find(tid("editor-preview")).get_attribute("src"))
    set_intensity(app, 0.4)
    wait_preview_settled(app, src)
    assert app.text(".slider-row .slider-value") == "40%"
    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.wait_visible(tid("detail"))
    recipe = browser_api.edit(asset_id)["current"]["recipe"]
    assert recipe["formatVersion"] == "2", recipe
    assert recipe["steps"] == [{"filter": "CIPhotoEffectNoir", "parameters": {}, "intensity": 0.4}], recipe
    # Opened again, the editor shows Noir at 40 %.
    app.click(tid("detail-edit"))
    app.wait_visible(tid("editor"))
    app.wait(lambda: pressed(app) == ["Noir"], "Noir to be the one pressed")
    assert app.text(".slider-row .slider-value") == "40%"


def test_intensity_drag_keeps_one_preview_in_flight_and_ends_on_the_last_value(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    open_editor(app, asset_id)
    choose(app, "Sepia", app.find(tid("editor-preview")).get_attribute("src"))
    slider = app.find(tid("intensity"))
    assert slider.is_enabled()
    assert app.text(".slider-row .slider-value") == "100%"  # LetsEat's Sepia starts at its own intensity

    app.js(INSTRUMENT)
    width = slider.size["width"]
    actions = ActionChains(app.driver, duration=20)
    actions.move_to_element_with_offset(slider, -width // 2 + 4, 0).click_and_hold()
    for _ in range(24):
        actions.move_by_offset(max(2, width // 30), 0).pause(0.04)
    actions.release().perform()

    # Settled: nothing in flight, nothing pending, the badge gone.
    app.wait(lambda: app.js("return window.__previews.inFlight === 0 && window.__previews.sent.length > 0")
             and not app.find(tid("preview-busy")).is_displayed(), "the previews to finish")
    time.sleep(0.4)
    app.wait(lambda: app.js("return window.__previews.inFlight === 0") and not app.find(tid("preview-busy")).is_displayed(),
             "the last preview")
    rec = app.js("return window.__previews")
    value = float(slider.get_attribute("value"))
    assert value > 0.7, f"the drag did not move the slider (value {value})"
    assert rec["inputs"] >= 10, rec["inputs"]
    # While the hand moves, inputs are painted from keyframes (one fetched at a time); exact previews go out
    # one at a time too: for a pause, a value no keyframe is near yet, and the release.
    assert rec["keyframes"]["sent"] >= 2, rec["keyframes"]
    assert rec["keyframes"]["maxInFlight"] == 1, f"{rec['keyframes']['maxInFlight']} keyframes were fetched at once"
    assert rec["maxInFlight"] == 1, f"{rec['maxInFlight']} preview requests were in flight at once"
    for (s1, e1), (s2, _) in zip(rec["spans"], rec["spans"][1:]):
        assert s2 >= e1 - 1, f"a preview started at {s2:.0f} ms before the one before it ended at {e1:.0f} ms"

    # The last request is for the last value, and the picture shown is its answer.
    last = rec["sent"][-1]
    step = last["recipe"]["steps"][-1]
    assert step["filter"] == "CISepiaTone"
    assert math.isclose(step["parameters"]["inputIntensity"], value, abs_tol=1e-6), (step, value)
    assert app.text(".slider-row .slider-value") == f"{round(value * 100)}%"
    shown = app.js_async(PIXEL_SHA, tid("editor-preview"), None)
    expected = browser_api.preview(asset_id, last["recipe"], last["size"])
    rendered = app.js_async(PIXEL_SHA, None, "data:image/jpeg;base64," + base64.b64encode(expected).decode())
    assert shown == rendered, "the preview shown is not the render of the last slider value"


def test_crop_and_straighten_save_then_revert_to_original(app, photos, browser_api):
    (asset_id,) = photos.upload(1, size=(640, 480))
    app.open_app("#/library")
    app.wait_cell_thumbnail(asset_id)
    original_src = app.cell_src(asset_id)
    assert "v=original" in original_src
    open_editor(app, asset_id)
    src = choose(app, "Mono", app.find(tid("editor-preview")).get_attribute("src"))

    app.click(tid("crop-mode"))
    box = app.wait_visible(tid("crop-box"))
    assert app.find(tid("crop-mode")).get_attribute("aria-pressed") == "true"
    assert app.find(tid("aspect-free")).get_attribute("aria-pressed") == "true"
    app.click(tid("aspect-square"))
    assert app.find(tid("aspect-square")).get_attribute("aria-pressed") == "true"
    assert app.find(tid("aspect-free")).get_attribute("aria-pressed") == "false"
    app.wait(lambda: abs(box.size["width"] - box.size["height"]) <= 2, "a square crop box")
    assert "480 × 480 pixels" in box.get_attribute("aria-label")

    straighten = app.find(tid("straighten"))
    straighten.click()  # the middle: 0°
    straighten.send_keys(Keys.HOME)
    straighten.send_keys(Keys.ARROW_RIGHT * 30)
    angle = float(straighten.get_attribute("value"))
    app.wait(lambda: app.text(".panel-crop .slider-value") == f"{angle:+.1f}°", "the angle shown")
    assert angle != 0
    app.click(tid("crop-done"))
    app.wait_gone(tid("crop-box"))
    src = wait_preview_settled(app, src)
    shown = app.js(PIXELS, tid("editor-preview"))
    assert abs(shown["w"] - shown["h"]) <= 1, f"the cropped preview is {shown['w']}×{shown['h']}, not square"

    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.wait_visible(tid("detail"))
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{asset_id}"), "the photo after saving")
    asset = browser_api.asset(asset_id)
    assert asset["hasAdjustments"] and asset["width"] == asset["height"], asset
    steps = browser_api.edit(asset_id)["current"]["recipe"]["steps"]
    names = [s["filter"] for s in steps]
    assert names == ["CIStraightenFilter", "CICrop", "CIPhotoEffectMono"], names
    assert math.isclose(steps[0]["parameters"]["inputAngle"], math.radians(angle), abs_tol=1e-4)

    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    app.wait(lambda: app.cell_src(asset_id) != original_src, "the grid's thumbnail to change")
    edited_src = app.cell_src(asset_id)
    assert f"v={asset['version']}" in edited_src
    app.wait_cell_thumbnail(asset_id)

    # Revert to Original, confirmed.
    open_editor(app, asset_id)
    assert pressed(app) == ["Mono"]
    app.click(tid("revert"))
    dialog = app.wait_visible(tid("revert-dialog"))
    assert "Revert to Original?" in dialog.text
    assert app.text(f'{tid("revert-dialog")} {tid("confirm-ok")}') == "Revert to Original"
    app.click(f'{tid("revert-dialog")} {tid("confirm-ok")}')
    app.wait_toast("Reverted to the original")
    app.wait(lambda: pressed(app) == ["None"], "None to be chosen after the revert")
    assert not app.find(tid("revert")).is_enabled()
    app.click(tid("cancel-edit"))
    app.wait_gone(tid("editor"))
    asset = browser_api.asset(asset_id)
    assert not asset["hasAdjustments"] and (asset["width"], asset["height"]) == (640, 480)
    if app.visible(tid("detail")):
        app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    app.wait(lambda: app.cell_src(asset_id) == original_src, "the grid's thumbnail to change back")
    app.wait_cell_thumbnail(asset_id)


def test_copy_an_edit_and_paste_it_on_two_selected_photos(app, photos, browser_api):
    source, first, second = photos.upload(3)
    app.open_app("#/library")
    open_editor(app, source)
    choose(app, "Sepia", app.find(tid("editor-preview")).get_attribute("src"))
    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    look = [s for s in browser_api.edit(source)["current"]["recipe"]["steps"] if s["filter"] == "CISepiaTone"]
    assert look, "the edit was not saved"

    # Copy from the selection (one photo), then paste on two others.
    app.click(tid("selection-toggle"))
    app.wait_visible(tid("selection-bar"))
    assert app.text(tid("selection-count")) == "Select photos"
    app.click(app.cell_css(source))
    assert app.text(tid("selection-count")) == "1 selected"
    app.click(tid("selection-copy-edits"))
    app.wait_toast("Edits copied")
    app.click(app.cell_css(source))
    before = {i: app.cell_src(i) for i in (first, second)}
    app.click(app.cell_css(first))
    app.click(app.cell_css(second))
    assert app.text(tid("selection-count")) == "2 selected"
    assert not app.find(tid("selection-copy-edits")).is_enabled(), "Copy Edits works on one photo only"
    app.click(tid("selection-paste-edits"))
    dialog = app.wait_visible(tid("paste-dialog"))
    app.wait(lambda: "Pasted edits to 2 photos." in dialog.text, "the paste to finish")
    assert app.find(tid("paste-progress")).get_attribute("value") == "2"
    assert app.find(tid("paste-errors")).text == ""

    for asset_id in (first, second):
        edit = browser_api.edit(asset_id)
        steps = edit["current"]["recipe"]["steps"]
        assert steps == look, (asset_id, steps, look)
        app.wait(lambda: app.cell_src(asset_id) != before[asset_id], "the pasted photo's thumbnail to change")
