"""Edit presets: Save as Preset in the editor (a look at reduced intensity and two adjustments), the
preset in the filter strip with its own tile, applied from there to another photo and saved, a name in use
replaced after asking, Manage Presets to delete it; Apply Preset to five selected photos at once, each
keeping its own geometry; the controls on a phone."""

import pytest
from selenium.webdriver.common.keys import Keys

from sepia_browser import tid
from test_adjust import same_step, set_adjust, shown_values, step_for
from test_editor import choose, open_editor, open_editor_from_photo, pressed, set_intensity, wait_preview_settled

NAME = "Warm Noir"


@pytest.fixture
def no_presets(browser_api):
    """Starts and ends without presets (they are the user's, shared by every test of the session)."""
    def clear():
        for p in browser_api.json("GET", "/api/v1/presets")["presets"]:
            browser_api.json("DELETE", f"/api/v1/presets/{p['id']}", expect=(204,))
    clear()
    yield
    clear()


def presets(api):
    return api.json("GET", "/api/v1/presets")["presets"]


def sliders_of(api):
    return {s["id"]: s for section in api.json("GET", "/api/v1/filters/adjustments")["sections"] for s in section["adjustments"]}


def preset_tiles(b):
    return b.js("""return [...document.querySelectorAll('[data-testid="preset-tile"]')].map((t) => ({
        id: t.dataset.presetId, name: t.dataset.name, text: t.querySelector('.tile-name').textContent,
        image: getComputedStyle(t.querySelector('.tile-img')).backgroundImage,
        size: t.querySelector('.tile-img').style.backgroundSize, position: t.querySelector('.tile-img').style.backgroundPosition,
        failed: t.querySelector('.tile-img').classList.contains('failed')}));""")


def wait_preset_tiles(b, names):
    b.wait(lambda: [t["name"] for t in preset_tiles(b)] == names
           and (not names or b.js("return !!document.querySelector('[data-testid=\"preset-group\"].loaded')")),
           f"the presets {names} in the strip")
    return preset_tiles(b)


def save_as_preset(b, name, opener=None):
    b.click(opener or tid("save-preset"))
    dialog = b.wait_visible(tid("preset-name-dialog"))
    assert "Save as Preset" in dialog.text
    b.type(tid("prompt-input"), name)
    b.click(tid("prompt-ok"))


def expected_steps(sliders, positions, look_filter, intensity):
    steps = [step_for(s, positions[key]) for key, s in sliders.items() if positions.get(key)]
    steps.append({"filter": look_filter, "parameters": {}, "intensity": intensity})
    return steps


def assert_same_steps(got, want):
    assert len(got) == len(want) and all(map(same_step, got, want)), (got, want)


def leave_editor(b):
    b.click(tid("cancel-edit"))
    b.wait(lambda: b.visible(tid("discard-dialog")) or not b.visible(tid("editor")), "the editor to close or ask")
    if b.visible(tid("discard-dialog")):
        b.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    b.wait_gone(tid("editor"))


def test_save_a_preset_apply_it_from_the_strip_replace_it_and_delete_it(app, photos, browser_api, no_presets, screenshot):
    first, second = photos.upload(2)
    sliders = sliders_of(browser_api)
    app.open_app("#/library")
    open_editor(app, first)
    src = app.find(tid("editor-preview")).get_attribute("src")
    # With nothing to keep, there is no preset to save (and no request).
    app.click(tid("save-preset"))
    app.wait_toast("nothing to save as a preset")
    assert not app.visible(tid("preset-name-dialog"))

    # Two adjustments and Noir at 40 %.
    app.click(tid("adjust-mode"))
    app.wait_visible(tid("adjust-panel"))
    set_adjust(app, "exposure", 0.3)
    src = wait_preview_settled(app, src)
    set_adjust(app, "warmth", 0.4)
    src = wait_preview_settled(app, src)
    app.click(tid("filters-mode"))
    src = choose(app, "Noir", src)
    set_intensity(app, 0.4)
    src = wait_preview_settled(app, src)
    assert app.text(".panel-filters .slider-value") == "40%"

    # Save as Preset from the strip: the look and the adjustments, by name.
    assert [t["name"] for t in preset_tiles(app)] == []
    assert not app.visible(tid("manage-presets")), "Manage Presets with no presets"
    save_as_preset(app, NAME)
    app.wait_toast(f"Saved the preset “{NAME}”")
    app.wait_gone(tid("preset-name-dialog"))
    (saved,) = presets(browser_api)
    assert saved["name"] == NAME
    want = expected_steps(sliders, {"exposure": 0.3, "warmth": 0.4}, "CIPhotoEffectNoir", 0.4)
    assert_same_steps(saved["recipe"]["steps"], want)

    # Its tile in the strip: cut from the preset strip, whose header names the tiles.
    (tile,) = wait_preset_tiles(app, [NAME])
    assert tile["id"] == saved["id"] and tile["text"] == NAME and not tile["failed"]
    assert tile["image"].startswith('url("blob:') and tile["size"] == "100% 100%", tile
    strip = browser_api.call("GET", f"/api/v1/assets/{first}/preset-strip?size=80", headers={"Accept": "*/*"})
    assert strip.status == 200 and strip.headers.get("X-Sepia-Strip-Presets") == saved["id"], (strip.status, dict(strip.headers))
    assert strip.headers.get("Content-Type", "").startswith("image/jpeg")
    assert app.visible(tid("manage-presets"))
    group_label = app.js("return document.querySelector('[data-testid=\"preset-group\"]').getAttribute('aria-label')")
    assert group_label == "Presets"
    app.js("document.querySelector(arguments[0]).scrollIntoView({inline: 'center', block: 'nearest'})", tid("preset-tile"))
    screenshot(app, "web-editor-presets-desktop")
    leave_editor(app)
    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))

    # Applied to another photo from the strip: the sliders and the look follow; undo goes back; saved.
    open_editor(app, second)
    src = app.find(tid("editor-preview")).get_attribute("src")
    # The keyboard reaches it: arrows from the chosen look along the strip.
    none = app.find(tid("filter-tile", **{"data-name": "None"}))
    assert none.get_attribute("tabindex") == "0"
    app.js("arguments[0].focus()", none)
    none.send_keys(Keys.END)
    assert app.js("return document.activeElement.dataset.testid") == "manage-presets"
    app.js("return document.activeElement").send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    assert app.js("return document.activeElement.dataset.name") == NAME
    app.click(f'{tid("preset-tile", **{"data-name": NAME})}')
    app.wait_toast(f"Applied the preset “{NAME}”")
    app.wait(lambda: pressed(app) == ["Noir"] and app.text(".panel-filters .slider-value") == "40%", "the preset's look at 40 %")
    src = wait_preview_settled(app, src)
    values = shown_values(app)
    assert values["exposure"] == "+0.30" and values["warmth"] == "+0.40", values
    assert {k for k, v in values.items() if v != "0.00"} == {"exposure", "warmth"}
    app.click(tid("undo"))
    app.wait(lambda: pressed(app) == ["None"] and set(shown_values(app).values()) == {"0.00"}, "the preset undone in one step")
    app.click(tid("redo"))
    app.wait(lambda: pressed(app) == ["Noir"] and shown_values(app)["warmth"] == "+0.40", "the preset redone")
    wait_preview_settled(app)
    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.wait_visible(tid("detail"))
    assert_same_steps(browser_api.edit(second)["current"]["recipe"]["steps"], want)

    # The same name again asks to replace it (from the Adjust panel's button this time).
    app.click(tid("detail-edit"))
    app.wait_visible(tid("editor"))
    app.wait(lambda: app.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    src = wait_preview_settled(app)
    set_intensity(app, 0.7)
    wait_preview_settled(app, src)
    app.click(tid("adjust-mode"))
    save_as_preset(app, NAME, tid("adjust-save-preset"))
    dialog = app.wait_visible(tid("preset-replace-dialog"))
    assert f"Replace the preset “{NAME}”?" in dialog.text
    # Not replaced: back to the name, which can be changed; then replaced after all.
    app.click(f'{tid("preset-replace-dialog")} {tid("confirm-cancel")}')
    app.wait_visible(tid("preset-name-dialog"))
    assert app.find(tid("prompt-input")).get_attribute("value") == NAME
    app.click(tid("prompt-ok"))
    app.wait_visible(tid("preset-replace-dialog"))
    app.click(f'{tid("preset-replace-dialog")} {tid("confirm-ok")}')
    app.wait_toast(f"Replaced the preset “{NAME}”")
    (replaced,) = presets(browser_api)
    assert replaced["name"] == NAME
    assert_same_steps(replaced["recipe"]["steps"], expected_steps(sliders, {"exposure": 0.3, "warmth": 0.4}, "CIPhotoEffectNoir", 0.7))

    # Manage Presets: Delete, after asking.
    app.click(tid("filters-mode"))
    wait_preset_tiles(app, [NAME])
    app.click(tid("manage-presets"))
    dialog = app.wait_visible(tid("presets-dialog"))
    rows = app.find_all(tid("preset-row"))
    assert [r.get_attribute("data-preset-id") for r in rows] == [replaced["id"]]
    assert NAME in rows[0].text
    assert app.find(tid("preset-delete")).get_attribute("aria-label") == f"Delete the preset “{NAME}”"
    app.click(tid("preset-delete"))
    confirm = app.wait_visible(tid("preset-delete-dialog"))
    assert f"Delete the preset “{NAME}”?" in confirm.text
    app.click(f'{tid("preset-delete-dialog")} {tid("confirm-ok")}')
    app.wait_toast(f"Deleted the preset “{NAME}”")
    app.wait_visible(tid("preset-empty"))
    assert presets(browser_api) == []
    app.click(tid("presets-done"))
    app.wait_gone(tid("presets-dialog"))
    wait_preset_tiles(app, [])
    assert not app.visible(tid("manage-presets"))
    leave_editor(app)


def quarter_turn(w, h):
    return {"filter": "CIAffineTransform", "parameters": {"inputTransform": [0, 1, -1, 0, h, 0]}}


def test_apply_a_preset_to_five_selected_photos(app, photos, browser_api, no_presets):
    sliders = sliders_of(browser_api)
    look = [step_for(sliders["exposure"], 0.25), step_for(sliders["saturation"], -0.5),
            {"filter": "CIPhotoEffectNoir", "parameters": {}, "intensity": 0.6}]
    # Sent with a crop of another photo's: the server keeps only the portable steps.
    answer = browser_api.json("POST", "/api/v1/presets", {
        "name": "Faded", "replace": False,
        "recipe": {"formatIdentifier": "org.sepia.recipe", "formatVersion": "2",
                   "steps": [{"filter": "CICrop", "parameters": {"inputRectangle": [0, 0, 100, 100]}}, *look]}}, expect=(201,))
    assert_same_steps(answer["recipe"]["steps"], look)
    conflict = browser_api.call("POST", "/api/v1/presets", {"name": "Faded", "recipe": answer["recipe"]})
    assert conflict.status == 409, conflict.status
    other = browser_api.json("POST", "/api/v1/presets", {"name": "another", "recipe": {
        "formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": [step_for(sliders["exposure"], -0.2)]}}, expect=(201,))

    ids = photos.upload(5)
    # Each photo's own geometry stays: a quarter turn and a crop, a crop alone; a look of its own is replaced.
    geometry = {
        ids[0]: [quarter_turn(640, 480), {"filter": "CICrop", "parameters": {"inputRectangle": [10, 20, 300, 400]}}],
        ids[1]: [{"filter": "CICrop", "parameters": {"inputRectangle": [40, 30, 500, 400]}}],
    }
    own = {ids[2]: [{"filter": "CIPhotoEffectMono", "parameters": {}}]}
    for asset_id in ids[:3]:
        steps = geometry.get(asset_id, []) + own.get(asset_id, [])
        browser_api.json("PUT", f"/api/v1/assets/{asset_id}/edit", {"formatIdentifier": "org.sepia.recipe", "formatVersion": "1", "steps": steps})

    app.open_app("#/library")
    for asset_id in ids:
        app.wait_cell_thumbnail(asset_id)
    before = {i: app.cell_src(i) for i in ids}
    app.click(tid("selection-toggle"))
    app.wait_visible(tid("selection-bar"))
    for asset_id in ids:
        app.click(app.cell_css(asset_id))
    assert app.text(tid("selection-count")) == "5 selected"
    button = app.find(tid("selection-apply-preset"))
    assert button.get_attribute("aria-haspopup") == "menu" and button.get_attribute("aria-label") == "Apply Preset"
    app.click(tid("selection-apply-preset"))
    menu = app.wait_visible(tid("preset-menu"))
    items = app.find_all(tid("preset-menu-item"))
    assert [i.text for i in items] == ["another", "Faded"], "not sorted by name, case aside"
    assert button.get_attribute("aria-expanded") == "true"
    assert app.js("return document.activeElement.dataset.testid") == "preset-menu-item"
    assert menu.get_attribute("role") == "menu"
    app.click(tid("preset-menu-item", **{"data-preset-id": answer["id"]}))
    dialog = app.wait_visible(tid("preset-apply-dialog"))
    app.wait(lambda: "Applied “Faded” to 5 photos." in dialog.text, "the preset to be applied")
    assert app.find(tid("preset-apply-progress")).get_attribute("value") == "5"
    assert app.find(tid("preset-apply-errors")).text == ""

    for asset_id in ids:
        steps = browser_api.edit(asset_id)["current"]["recipe"]["steps"]
        assert_same_steps(steps, geometry.get(asset_id, []) + look)
        app.wait(lambda: app.cell_src(asset_id) != before[asset_id], "the thumbnail to change")
    assert other["id"] != answer["id"]
    app.wait_gone(tid("preset-apply-dialog"))  # it closes by itself when all went well
    app.click(tid("selection-done"))


def test_presets_on_a_phone(app, photos, browser_api, no_presets, screenshot):
    sliders = sliders_of(browser_api)
    browser_api.json("POST", "/api/v1/presets", {"name": "Morning", "recipe": {
        "formatIdentifier": "org.sepia.recipe", "formatVersion": "2",
        "steps": [step_for(sliders["warmth"], 0.5), {"filter": "CIPhotoEffectNoir", "parameters": {}, "intensity": 0.5}]}}, expect=(201,))
    (asset_id,) = photos.upload(1)
    app.set_viewport(375, 812, mobile=True)
    try:
        src = open_editor_from_photo(app, asset_id)
        wait_preset_tiles(app, ["Morning"])
        # Scrolled to, the preset, Save as Preset and Manage are on screen and a finger's size.
        for control in ("preset-tile", "save-preset", "manage-presets"):
            app.js("document.querySelector(arguments[0]).scrollIntoView({inline: 'center', block: 'nearest'})", tid(control))
            box = app.js("""const r = document.querySelector(arguments[0]).getBoundingClientRect();
                return [r.left, r.top, r.right, r.bottom, r.width, r.height, innerWidth, innerHeight];""", tid(control))
            assert box[0] >= -1 and box[2] <= box[6] + 1 and box[1] >= -1 and box[3] <= box[7] + 1, (control, box)
            assert box[4] >= 44 and box[5] >= 44, (control, box)
        assert app.js("return document.documentElement.scrollWidth <= innerWidth")
        app.click(tid("preset-tile"))
        app.wait(lambda: pressed(app) == ["Noir"], "the preset's look")
        wait_preview_settled(app, src)
        app.js("document.querySelector(arguments[0]).scrollIntoView({inline: 'center', block: 'nearest'})", tid("preset-tile"))
        screenshot(app, "web-editor-presets-phone")
        app.click(tid("manage-presets"))
        dialog = app.wait_visible(tid("presets-dialog"))
        r = dialog.rect
        assert r["x"] >= 0 and r["x"] + r["width"] <= 375 + 1, r
        assert app.find(tid("preset-delete")).rect["height"] >= 44
        app.click(tid("presets-done"))
        app.wait_gone(tid("presets-dialog"))
        # The Adjust panel's Save as Preset.
        app.click(tid("adjust-mode"))
        app.wait_visible(tid("adjust-save-preset"))
        assert app.find(tid("adjust-save-preset")).rect["height"] >= 44
        leave_editor(app)
        app.click(tid("detail-close"))
        app.wait_gone(tid("detail"))

        # Apply Preset from the selection bar.
        app.wait_cell_thumbnail(asset_id)
        app.click(tid("selection-toggle"))
        app.click(app.cell_css(asset_id))
        # On a phone Apply Preset is in the bar's More menu; its presets open from there.
        app.selection_action("apply-preset")
        menu = app.wait_visible(tid("preset-menu"))
        r = menu.rect
        assert r["x"] >= 0 and r["x"] + r["width"] <= 375 + 1 and r["y"] >= 0 and r["y"] + r["height"] <= 812 + 1, r
        app.click(tid("preset-menu-item"))
        dialog = app.wait_visible(tid("preset-apply-dialog"))
        app.wait(lambda: "Applied “Morning” to 1 photo." in dialog.text, "the preset to be applied")
        steps = browser_api.edit(asset_id)["current"]["recipe"]["steps"]
        assert [s["filter"] for s in steps] == ["CITemperatureAndTint", "CIPhotoEffectNoir"], steps
        app.wait_gone(tid("preset-apply-dialog"))
        app.click(tid("selection-done"))
    finally:
        app.set_viewport(1440, 900)
