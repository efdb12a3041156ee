"""Keyboard only: into the grid with Tab, arrows, Enter opens, Escape comes back; in the editor a filter
and the intensity chosen with keys, saved with Ctrl+S; a photo moved in an album with Alt+arrows."""

import math

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import tid


def chord(b, modifier, key):
    ActionChains(b.driver).key_down(modifier).send_keys(key).key_up(modifier).perform()


def focused(b):
    return b.js("""const e = document.activeElement; return e ? {testid: e.dataset.testid || null, g: e.dataset.g ?? null,
        asset: e.dataset.assetId || null, name: e.dataset.name || null, tag: e.tagName, label: e.getAttribute('aria-label'),
        text: (e.textContent || '').trim().slice(0, 40)} : null;""")


def tab_until(b, predicate, what, limit=60, shift=False):
    for _ in range(limit):
        if predicate(focused(b)):
            return focused(b)
        if shift:
            chord(b, Keys.SHIFT, Keys.TAB)
        else:
            b.press(Keys.TAB)
    raise AssertionError(f"{what} never got the focus with {'Shift+' if shift else ''}Tab; last: {focused(b)}")


def columns(b):
    return b.js("""const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')];
        const top = Math.min(...cells.map((c) => c.getBoundingClientRect().top));
        return cells.filter((c) => Math.abs(c.getBoundingClientRect().top - top) < 2).length;""")


def test_grid_arrows_enter_escape_then_edit_with_keys(app, photos, browser_api):
    # At least two full rows.
    photos.upload(max(1, 18 - browser_api.assets(limit=1)["total"]))
    app.open_app("#/library")
    app.wait_visible(tid("grid-cell"))
    app.wait_grid_still()

    # The first Tab reaches "Skip to content", which goes to the screen's heading; the photos follow the
    # toolbar's buttons.
    app.press(Keys.TAB)
    assert focused(app)["text"] == "Skip to content", focused(app)
    app.press(Keys.ENTER)
    assert focused(app)["testid"] == "screen-title", focused(app)
    start = tab_until(app, lambda f: f and f["g"] is not None, "a photo in the grid", limit=12)
    g = int(start["g"])
    cols = columns(app)
    app.press(Keys.ARROW_RIGHT)
    app.wait(lambda: focused(app)["g"] == str(g + 1), "the next photo")
    app.press(Keys.ARROW_DOWN)
    app.wait(lambda: focused(app)["g"] == str(g + 1 + cols), "the photo below")
    app.press(Keys.ARROW_LEFT)
    app.wait(lambda: focused(app)["g"] == str(g + cols), "the photo to the left")
    app.press(Keys.ARROW_UP)
    app.wait(lambda: focused(app)["g"] == str(g), "the photo above")
    app.press(Keys.ARROW_RIGHT)
    target = focused(app)["asset"]

    app.press(Keys.ENTER)
    app.wait_visible(tid("detail"))
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{target}"), "the focused photo to open")
    app.press(Keys.ESCAPE)
    app.wait_gone(tid("detail"))
    app.wait(lambda: focused(app)["asset"] == target, "the focus back on the photo that was opened")

    # Open it again and edit it with keys only.
    app.press(Keys.ENTER)
    app.wait_visible(tid("detail"))
    app.wait_image(tid("detail-image"))
    app.press("e")
    app.wait_visible(tid("editor"))
    app.wait(lambda: app.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    tab_until(app, lambda f: f and f["testid"] == "filter-tile", "the filter strip")
    assert app.find(tid("filter-tile", **{"data-name": focused(app)["name"]})).get_attribute("aria-pressed") == "true", \
        "Tab does not land on the chosen filter"
    app.press(Keys.HOME)
    assert focused(app)["name"] == "None"
    app.press(Keys.ARROW_RIGHT)
    assert focused(app)["name"] == "Mono"
    app.press(Keys.ENTER)
    app.wait(lambda: app.find(tid("filter-tile", **{"data-name": "Mono"})).get_attribute("aria-pressed") == "true", "Mono chosen")
    # End reaches the strip's last tile: Save as Preset, after the looks (Manage Presets shows once there are presets).
    app.press(Keys.END)
    assert focused(app)["testid"] == "save-preset", focused(app)
    app.press(Keys.ARROW_LEFT)
    assert focused(app)["name"] == "Vignette"
    app.press(Keys.HOME, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    assert focused(app)["name"] == "Sepia"
    app.press(Keys.ENTER)
    app.wait(lambda: app.find(tid("filter-tile", **{"data-name": "Sepia"})).get_attribute("aria-pressed") == "true", "Sepia chosen")
    assert app.find(tid("filter-tile", **{"data-name": "Mono"})).get_attribute("aria-pressed") == "false"
    tab_until(app, lambda f: f and f["testid"] == "intensity", "the Intensity slider", shift=True)
    start_value = float(app.find(tid("intensity")).get_attribute("value"))
    app.press(*[Keys.ARROW_LEFT] * 5)  # Sepia starts at full intensity
    value = float(app.find(tid("intensity")).get_attribute("value"))
    assert math.isclose(value, start_value - 0.05, abs_tol=1e-9), (start_value, value)
    app.wait(lambda: app.find(tid("save-edit")).is_enabled(), "Save to be possible")
    chord(app, Keys.CONTROL, "s")
    app.wait_toast("^Saved")
    app.wait_gone(tid("editor"))
    step = browser_api.edit(target)["current"]["recipe"]["steps"][-1]
    assert step["filter"] == "CISepiaTone"
    assert math.isclose(step["parameters"]["inputIntensity"], value, abs_tol=1e-6), (step, value)


def test_alt_arrows_move_a_photo_in_an_album(app, photos, owner, browser_api):
    ids = photos.upload(3)
    album = owner.create_album("Keyboard order", ids)
    app.open_app(f"#/album/{album['id']}")
    app.wait(lambda: len(app.grid_cell_ids()) == 3, "the album's photos")
    app.wait_grid_still()
    order = app.grid_cell_ids()
    start = tab_until(app, lambda f: f and f["g"] is not None, "a photo in the album")
    assert start["asset"] == order[0]
    chord(app, Keys.ALT, Keys.ARROW_RIGHT)
    expected = [order[1], order[0], order[2]]
    app.wait(lambda: browser_api.album_ids(album["id"]) == expected, "the new order on the server")
    app.wait(lambda: app.grid_cell_ids() == expected, "the new order on screen")
    app.wait(lambda: focused(app)["asset"] == order[0], "the focus to follow the moved photo")
    # Said to screen readers.
    assert app.js("return document.querySelector('[data-testid=\"grid\"] + [aria-live]').textContent") == "Moved to position 2 of 3."
