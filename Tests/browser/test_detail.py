"""One photo: rotate with one tap, the info panel, favourite, previous/next and delete."""

import re
import time

from sepia_browser import SAMPLE_PHOTOS, tid


def open_photo(b, asset_id):
    b.scroll_to_cell(asset_id)
    b.click(b.cell_css(asset_id))
    b.wait_visible(tid("detail"))
    b.wait(lambda: b.driver.current_url.endswith(f"#/photo/{asset_id}"), "the photo's address")
    b.wait(lambda: b.image_loaded(tid("detail-image")) and "v=" in (b.find(tid("detail-image")).get_attribute("src") or ""),
           "the large image")


def natural(b):
    return b.js("const i = document.querySelector('[data-testid=\"detail-image\"]'); return [i.naturalWidth, i.naturalHeight, i.getAttribute('src')];")


def test_rotate_with_one_tap_swaps_width_and_height(app, photos, browser_api):
    (asset_id,) = photos.upload(1, size=(640, 480))
    app.open_app("#/library")
    open_photo(app, asset_id)
    w, h, src = natural(app)
    assert w > h, (w, h)
    rotate = app.find(tid("detail-rotate"))
    assert rotate.get_attribute("aria-label") == "Rotate 90° clockwise"

    rotate.click()
    app.wait_toast("^Rotated")
    asset = browser_api.asset(asset_id)
    assert (asset["width"], asset["height"]) == (480, 640), asset
    assert asset["hasAdjustments"]
    steps = browser_api.edit(asset_id)["current"]["recipe"]["steps"]
    assert steps == [{"filter": "CIAffineTransform", "parameters": {"inputTransform": [0, 1, -1, 0, 480, 0]}}], steps
    # The image is rendered again, upright in its new shape.
    app.wait(lambda: natural(app)[2] != src and app.image_loaded(tid("detail-image")), "the rotated image")
    w2, h2, src2 = natural(app)
    assert h2 > w2, (w2, h2)
    assert f"v={asset['version']}" in src2
    assert app.find(tid("detail-rotate")).is_enabled()


def test_info_panel_describes_the_photo(app, owner):
    asset_id = owner.upload(SAMPLE_PHOTOS / "gps-datetime.jpg")["id"]
    asset = owner.asset(asset_id)
    app.open_app("#/library")
    open_photo(app, asset_id)
    info = app.find(tid("detail-info"))
    if info.get_attribute("aria-pressed") != "true":
        info.click()
    panel = app.wait_visible(tid("info-panel"))
    assert info.get_attribute("aria-pressed") == "true"
    app.wait(lambda: "Loading details" not in panel.text, "the photo's details")
    assert app.text(tid("info-size")).startswith(f"{asset['width']} × {asset['height']} pixels")
    assert app.text(tid("info-file")) == "gps-datetime.jpg"
    assert app.text(tid("info-edited")) == "No"
    assert app.text(tid("info-format")).startswith("JPEG")
    assert re.search(r"\d{4}", app.text(tid("info-date"))), app.text(tid("info-date"))
    place = app.text(tid("info-place"))
    assert re.search(r"°.*[NS].*°.*[EW]", place), place
    app.click(f'{tid("info-panel")} button[aria-label="Close info"]')
    app.wait(lambda: app.find(tid("detail-info")).get_attribute("aria-pressed") == "false", "the info panel to close")


def test_favorite_and_previous_next(app, photos, browser_api):
    older, newer = photos.upload(2)
    app.open_app("#/library")
    open_photo(app, newer)
    fav = app.find(tid("detail-favorite"))
    assert fav.get_attribute("aria-pressed") == "false" and fav.get_attribute("aria-label") == "Favorite"
    fav.click()
    app.wait_toast("Added 1 photo to Favorites")
    app.wait(lambda: app.find(tid("detail-favorite")).get_attribute("aria-pressed") == "true", "the heart to fill")
    assert app.find(tid("detail-favorite")).get_attribute("aria-label") == "Unfavorite"
    assert browser_api.asset(newer)["isFavorite"]

    # The next photo is the older one (the arrows show when the mouse is over the photo).
    app.hover(tid("detail-stage"))
    app.click(tid("detail-next"))
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{older}"), "the next photo")
    assert app.find(tid("detail-favorite")).get_attribute("aria-pressed") == "false"
    app.hover(tid("detail-stage"))
    app.click(tid("detail-prev"))
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{newer}"), "the previous photo")
    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    assert app.driver.current_url.endswith("#/library")
    app.wait(lambda: app.present(app.cell_css(newer) + " .cell-fav"), "the heart on the favourite's thumbnail")


def test_delete_from_detail(app, photos, browser_api):
    older, newer = photos.upload(2)
    app.open_app("#/library")
    open_photo(app, newer)
    app.click(tid("detail-delete"))
    dialog = app.wait_visible(tid("delete-dialog"))
    assert "Delete this photo?" in dialog.text and "moves to Recently Deleted" in dialog.text and "30 days" in dialog.text
    assert app.text(f'{tid("delete-dialog")} {tid("confirm-ok")}') == "Delete Photo"
    app.click(f'{tid("delete-dialog")} {tid("confirm-ok")}')
    app.wait_toast("1 photo moved to Recently Deleted")
    assert browser_api.asset(newer)["trashedDate"], "in Recently Deleted"
    assert newer not in [a["id"] for a in browser_api.assets(limit=500)["assets"]]
    # The view moves on to the next photo, and says nothing about another window.
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{older}"), "the next photo after the deletion")
    time.sleep(1)
    assert not [t for t in app.toast_texts() if "another window" in t], app.toast_texts()
    assert app.driver.current_url.endswith(f"#/photo/{older}")
    # Back goes to the library, where the deleted photo is gone.
    app.click(tid("detail-close"))
    app.wait(lambda: app.driver.current_url.endswith("#/library"), "the library after Back")
    app.wait_visible(tid("grid"))
    app.wait(lambda: not app.present(app.cell_css(newer)), "the deleted photo to leave the grid")
