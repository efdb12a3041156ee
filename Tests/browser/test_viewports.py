"""The key flows at a phone's size (375×812, touch) and a desktop's (1440×900): the library, a photo, the
editor and the camera's prompt. Nothing may overflow sideways and the controls must be on screen.

A library of real sample photos of its own (imported with `sepia import` before the server starts), which
is also what the documentation's screenshots show (SEPIA_SCREENSHOTS=1).
"""

import pytest

from sepia_browser import Browser, Server, import_photos, sample_photos, stop_server, tid

SIZES = {"phone": (375, 812, True), "desktop": (1440, 900, False)}


@pytest.fixture(scope="module")
def gallery(tmp_path_factory):
    work = tmp_path_factory.mktemp("gallery")
    sample_photos(work / "photos")
    library = work / "library"
    import_photos(library, work / "photos")
    s = Server(work, library=library, name="gallery").start()
    api = s.create_owner()
    assets = api.assets(limit=100)["assets"]
    b = Browser(s.base, camera="fake", auto_allow_camera=False, label="gallery")
    b.sign_in()
    yield {"server": s, "browser": b, "api": api, "assets": assets}
    b.quit()
    stop_server(s)


@pytest.fixture(params=list(SIZES))
def view(request, gallery):
    name = request.param
    w, h, mobile = SIZES[name]
    b = gallery["browser"]
    b.set_viewport(w, h, mobile=mobile)
    yield name, b
    b.set_viewport(1440, 900)


def on_screen(b, css):
    r = b.js("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight];", css)
    left, top, right, bottom, w, h = r
    assert left >= -1 and top >= -1 and right <= w + 1 and bottom <= h + 1, f"{css} is off screen: {r}"


def wait_visible_thumbnails(b, at_least):
    b.wait(lambda: b.js("""
        const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')].filter((c) => {
          const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
        return cells.length >= arguments[0] && cells.every((c) => { const i = c.querySelector('img'); return i.complete && i.naturalWidth > 0; });""", at_least),
        f"at least {at_least} thumbnails on screen")


def test_library(view, gallery, screenshot):
    name, b = view
    b.open_app("#/library")
    wait_visible_thumbnails(b, 6)
    assert b.text(tid("photo-count")) == f"{len(gallery['assets'])} photos"
    b.assert_no_sideways_overflow()
    on_screen(b, tid("add-photos"))
    cells = b.find_all(tid("grid-cell"))
    sizes = {(round(c.size["width"]), round(c.size["height"])) for c in cells[:6]}
    assert all(abs(w - h) <= 1 for w, h in sizes), sizes
    cols = b.js("""const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')];
        const top = Math.min(...cells.map((c) => c.getBoundingClientRect().top));
        return cells.filter((c) => Math.abs(c.getBoundingClientRect().top - top) < 2).length;""")
    if name == "phone":
        assert cols >= 3, cols
        assert b.visible(".tabbar"), "no tab bar on the phone"
        assert [t.text for t in b.find_all(".tabbar .tab")] == ["Library", "Favorites", "People", "Albums", "Settings"]
        assert b.visible(tid("menu-button"))
        assert b.find(tid("sidebar")).rect["x"] + b.find(tid("sidebar")).rect["width"] <= 1 or not b.find(tid("sidebar")).is_displayed(), \
            "the sidebar takes room on the phone"
        screenshot(b, "web-library-phone")
        b.click(tid("menu-button"))
        b.wait(lambda: b.find(tid("nav-favorites")).is_displayed() and b.find(tid("sidebar")).rect["x"] >= -1, "the menu drawer")
        on_screen(b, tid("nav-favorites"))
        b.click(tid("nav-favorites"))
        b.wait(lambda: b.text(tid("screen-title")) == "Favorites", "Favorites from the drawer")
    else:
        assert cols >= 5, cols
        assert b.find(tid("sidebar")).is_displayed()
        assert not b.visible(".tabbar")
        assert b.visible(tid("timeline-scrubber"))
        screenshot(b, "web-library-desktop")


def test_photo(view, gallery):
    name, b = view
    b.open_app("#/library")
    wait_visible_thumbnails(b, 3)
    b.click(tid("grid-cell"))
    b.wait_visible(tid("detail"))
    b.wait(lambda: b.image_loaded(tid("detail-image")) and b.find(tid("detail-image")).is_displayed(), "the photo")
    b.assert_no_sideways_overflow()
    on_screen(b, tid("detail-image"))
    for control in ("detail-close", "detail-favorite", "detail-edit", "detail-more"):
        on_screen(b, tid(control))
    if name == "phone":
        assert not b.visible(tid("detail-next")), "hover arrows on a touch screen"
    b.click(tid("detail-close"))
    b.wait_gone(tid("detail"))


def test_editor(view, gallery, screenshot):
    name, b = view
    asset = next(a for a in gallery["assets"] if a["originalFilename"] == "fujifilm-w3.jpg")
    b.open_app(f"#/photo/{asset['id']}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-edit"))
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("filter-tile", **{"data-name": "Chrome"}))
    b.wait(lambda: (b.find(tid("editor-preview")).get_attribute("src") or "").startswith("blob:")
           and not b.find(tid("preview-busy")).is_displayed() and b.image_loaded(tid("editor-preview")), "the preview")
    b.assert_no_sideways_overflow()
    for control in ("save-edit", "cancel-edit", "editor-preview", "crop-mode", "filters-mode"):
        on_screen(b, tid(control))
    tiles = b.find_all(tid("filter-tile"))
    assert len(tiles) == 16  # the catalog's 17 entries, CISepiaTone once
    visible = b.js("""const s = document.querySelector('[data-testid="filter-strip"]').getBoundingClientRect();
        return [...document.querySelectorAll('[data-testid="filter-tile"]')].filter((t) => {
          const r = t.getBoundingClientRect(); return r.left >= s.left - 1 && r.right <= s.right + 1 && r.bottom <= innerHeight; }).length;""")
    assert visible >= 3, f"only {visible} filter tiles are on screen"
    strip_scrolls = b.js("const s = document.querySelector('[data-testid=\"filter-strip\"]'); return s.scrollWidth > s.clientWidth || s.scrollHeight > s.clientHeight;")
    assert strip_scrolls or visible == len(tiles)
    b.click(tid("filter-tile", **{"data-name": "Instant"}))
    b.wait(lambda: not b.find(tid("preview-busy")).is_displayed() and b.image_loaded(tid("editor-preview")), "the preview")
    screenshot(b, f"web-editor-{name}")
    b.click(tid("cancel-edit"))
    b.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    b.wait_gone(tid("editor"))


def test_editor_adjust(view, gallery, screenshot):
    """The Adjust panel beside the photo on a desktop, under it on a phone; Auto sets its sliders."""
    name, b = view
    asset = next(a for a in gallery["assets"] if a["originalFilename"] == "fujifilm-w3.jpg")
    b.open_app(f"#/photo/{asset['id']}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-edit"))
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("adjust-mode"))
    b.wait_visible(tid("adjust-panel"))
    b.click(tid("adjust-auto"))
    b.wait(lambda: b.find(tid("undo")).is_enabled(), "Auto's answer")
    b.wait(lambda: not b.find(tid("preview-busy")).is_displayed() and b.image_loaded(tid("editor-preview"))
           and b.find(tid("histogram")).get_attribute("data-mean"), "the preview and its histogram")
    b.assert_no_sideways_overflow()
    for control in ("save-edit", "cancel-edit", "undo", "redo", "adjust-mode", "adjust-auto", "histogram"):
        on_screen(b, tid(control))
    if name == "desktop":
        # Beside the photo, every section's first slider on screen.
        stage, panel = b.js("""return ['editor-stage', 'editor-panel'].map((t) => document.querySelector(`[data-testid="${t}"]`).getBoundingClientRect().toJSON());""")
        assert panel["left"] >= stage["right"] - 1, (stage, panel)
        for control in ("adjust-exposure", "adjust-saturation"):
            on_screen(b, tid(control))
    screenshot(b, f"web-editor-adjust-{name}")
    b.click(tid("cancel-edit"))
    b.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    b.wait_gone(tid("editor"))


def test_camera_prompt_then_live(view, gallery):
    name, b = view
    b.set_camera_permission("prompt")
    b.open_app("#/library")
    b.click(tid("take-photo"))
    b.wait_visible(tid("camera-prompt"))
    b.assert_no_sideways_overflow()
    on_screen(b, tid("camera-allow"))
    b.set_camera_permission("granted")
    b.wait(lambda: b.js("const v = document.querySelector('[data-testid=\"camera-video\"]'); return !!v && v.videoWidth > 0;"), "the live view")
    b.wait_visible(tid("camera-crosshair"))
    on_screen(b, tid("camera-shutter"))
    on_screen(b, tid("camera-close"))
    b.assert_no_sideways_overflow()
    b.click(tid("camera-close"))
    b.wait_gone(tid("camera"))
    b.set_camera_permission("prompt")


# The selection bar at a phone's size, a 13-inch laptop's (1280×800, where it used to hide Delete behind Done)
# and a desktop's.
BAR_SIZES = {"phone": (375, 812, True), "laptop": (1280, 800, False), "desktop": (1440, 900, False)}
LIBRARY_ACTIONS = ["favorite", "add-to-album", "hide", "adjust-date", "download", "copy-edits", "paste-edits", "apply-preset", "delete"]


@pytest.mark.parametrize("size", list(BAR_SIZES))
def test_selection_bar_fits_with_delete_in_view(gallery, size):
    w, h, mobile = BAR_SIZES[size]
    b = gallery["browser"]
    b.set_viewport(w, h, mobile=mobile)
    try:
        b.open_app("#/library")
        first = gallery["assets"][0]["id"]
        b.wait_cell(first)
        b.click(tid("selection-toggle"))
        b.click(b.cell_css(first))
        b.wait(lambda: b.text(tid("selection-count")) == "1 selected", "one photo selected")
        bar = b.selection_bar_fits()
        shown = [t.removeprefix("selection-") for t in bar["shown"]]
        # The count, Delete and Done are always in view; every other action is in the bar or in its More menu,
        # in the bar's order.
        assert shown[0] == "count" and shown[-1] == "done" and "delete" in shown, bar
        in_bar = [a for a in shown if a not in ("count", "done", "more")]
        assert sorted(in_bar + bar["more"]) == sorted(LIBRARY_ACTIONS) and len(in_bar + bar["more"]) == len(LIBRARY_ACTIONS), bar
        assert [a for a in LIBRARY_ACTIONS if a in bar["more"]] == bar["more"], bar
        assert bar["labels"]["selection-count"] == "1 selected", bar
        if size == "desktop":
            assert not bar["more"], f"a desktop has room for every action: {bar}"
        # An action works from where it is, the bar or More: each of these opens its dialog.
        dialogs = {"add-to-album": "album-picker", "download": "download-dialog", "adjust-date": "adjust-date-dialog"}
        action = next((a for a in bar["more"] if a in dialogs), "add-to-album")
        b.selection_action(action)
        b.wait_visible(tid(dialogs[action]))
        b.click(f'{tid(dialogs[action])} .dialog-x')
        b.wait_gone(tid(dialogs[action]))
        b.assert_no_sideways_overflow()
        b.click(tid("selection-done"))
        b.wait_gone(tid("selection-bar"))
    finally:
        b.set_viewport(1440, 900)
