"""Albums: create one, add photos to it from a selection in the library, reorder them by dragging."""

from selenium.webdriver.common.action_chains import ActionChains

from sepia_browser import tid


def drag_cell(b, source_css, target_css, *, after: bool):
    """A mouse drag (HTML drag and drop) of one grid cell onto the left or right half of another."""
    b.wait_grid_still()
    source = b.find(source_css)
    target = b.find(target_css)
    offset = target.size["width"] // 4 * (1 if after else -1)
    chain = ActionChains(b.driver, duration=40).click_and_hold(source)
    for _ in range(8):
        chain.move_by_offset(6, 0).pause(0.03)
    chain.move_to_element_with_offset(target, offset, 0).pause(0.2).move_by_offset(1 if after else -1, 0).pause(0.2)
    chain.release().perform()


def test_create_album_add_photos_from_a_selection_and_reorder_by_drag(app, photos, browser_api):
    ids = photos.upload(4)
    title = "Coast walk"

    # Create it from the Albums screen.
    app.click(tid("nav-albums"))
    app.wait_visible(tid("album-list"))
    app.click(tid("album-create"))
    dialog = app.wait_visible(tid("album-create-dialog"))
    assert "New Album" in dialog.text
    assert app.driver.switch_to.active_element == app.find(tid("prompt-input")), "the name field does not have the focus"
    app.type(tid("prompt-input"), title)
    app.click(tid("prompt-ok"))
    app.wait_toast(f"Album “{title}” created")
    app.wait(lambda: "#/album/" in app.driver.current_url, "the new album to open")
    album_id = app.driver.current_url.rsplit("/", 1)[1]
    app.wait(lambda: app.text(tid("screen-title")) == title, "the album's title")
    app.wait(lambda: "This album is empty" in app.text(tid("empty-state")), "the album's empty state")
    app.wait(lambda: title in [e.text.split("\n")[0] for e in app.find_all(tid("nav-album"))], "the album in the sidebar")

    # Add three photos from the library's selection.
    app.click(tid("nav-library"))
    app.wait_visible(tid("grid"))
    app.click(tid("selection-toggle"))
    assert app.find(tid("selection-toggle")).get_attribute("aria-pressed") == "true"
    chosen = ids[:3]
    for asset_id in chosen:
        app.click(app.cell_css(asset_id))
        app.wait(lambda: app.find(app.cell_css(asset_id)).get_attribute("aria-selected") == "true", "the cell to be selected")
    assert app.text(tid("selection-count")) == "3 selected"
    app.click(tid("selection-add-to-album"))
    app.wait_visible(tid("album-picker"))
    app.click(tid("album-pick", **{"data-album-id": album_id}))
    app.wait_toast(f"Added 3 photos to “{title}”")
    assert sorted(browser_api.album_ids(album_id)) == sorted(chosen)
    app.click(tid("selection-done"))
    app.wait_gone(tid("selection-bar"))

    # The album shows them; drag the first after the third.
    app.click(tid("nav-album", **{"href": f"#/album/{album_id}"}))
    app.wait(lambda: app.text(tid("screen-title")) == title, "the album")
    app.wait(lambda: len(app.grid_cell_ids()) == 3, "three photos in the album")
    assert app.text(tid("photo-count")) == "3 photos"
    order = app.grid_cell_ids()
    assert order == browser_api.album_ids(album_id)
    assert "Drag photos to change their order" in app.text(".album-hint")
    drag_cell(app, app.cell_css(order[0]), app.cell_css(order[2]), after=True)
    expected = [order[1], order[2], order[0]]
    app.wait(lambda: app.grid_cell_ids() == expected, "the new order on screen")
    app.wait(lambda: browser_api.album_ids(album_id) == expected, "the new order on the server")

    # And back to the front, dropped on the left half of the first photo.
    drag_cell(app, app.cell_css(order[0]), app.cell_css(order[1]), after=False)
    app.wait(lambda: browser_api.album_ids(album_id) == order, "the first order again on the server")
    # The order survives a reload.
    app.open_app(f"#/album/{album_id}")
    app.wait(lambda: app.grid_cell_ids() == order, "the saved order after a reload")


def test_an_album_on_a_phone_keeps_its_title_and_has_its_tools_in_a_menu(app, photos, browser_api, screenshot):
    title = "Summer by the sea with the whole family"
    album = browser_api.create_album(title, photos.upload(3))
    try:
        # On a desktop: the title beside the tools, each its own button.
        app.open_app(f"#/album/{album['id']}")
        app.wait(lambda: app.text(tid("screen-title")) == title, "the album's title")
        app.wait_grid_still()
        assert app.visible(tid("album-rename")) and not app.visible(tid("album-more"))
        screenshot(app, "web-album-desktop")

        app.set_viewport(375, 812, mobile=True)
        app.open_app(f"#/album/{album['id']}")
        app.wait(lambda: app.text(tid("screen-title")) == title, "the album's title")
        app.wait_grid_still()
        app.assert_no_sideways_overflow()
        # The four tools are one menu, and the title has a row of its own under the buttons, none of them squeezed.
        assert not app.visible(tid("album-rename"))
        for css in (tid("screen-title"), tid("album-more"), tid("add-photos"), tid("selection-toggle")):
            seen = app.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        box = app.js("""const r = (css) => document.querySelector(css).getBoundingClientRect();
            const title = r('[data-testid="screen-title"]');
            const buttons = [...document.querySelectorAll('.topbar .btn')].filter((b) => b.offsetParent).map((b) => b.getBoundingClientRect());
            return {width: title.width, top: title.top, buttonsBottom: Math.max(...buttons.map((b) => b.bottom)),
                    narrowest: Math.min(...buttons.map((b) => b.width))};""")
        screenshot(app, "web-album-phone")
        assert box["top"] >= box["buttonsBottom"] - 1, f"the title is beside the buttons, not under them: {box}"
        assert box["width"] >= 300, f"the title has {box['width']:.0f} px of a 375 px screen"
        assert box["narrowest"] >= 34, f"a button is squeezed: {box}"

        # Rename from the menu.
        app.click(tid("album-more"))
        app.wait_visible(tid("album-menu-rename"))
        assert [e.text for e in app.find_all('[role="menuitem"]')] == ["Download", "Share Link", "Rename", "Delete"]
        app.click(tid("album-menu-rename"))
        app.wait_visible(tid("album-rename-dialog"))
        app.type(f'{tid("album-rename-dialog")} {tid("prompt-input")}', "Sea")
        app.click(tid("prompt-ok"))
        app.wait(lambda: app.text(tid("screen-title")) == "Sea", "the new title on the phone")
        assert browser_api.json("GET", f"/api/v1/albums/{album['id']}")["title"] == "Sea"
    finally:
        app.set_viewport(1440, 900)
        browser_api.json("DELETE", f"/api/v1/albums/{album['id']}", expect=(200, 204))
