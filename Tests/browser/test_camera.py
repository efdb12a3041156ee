"""Take Photo with Chromium's fake camera: live view with the crosshair, shutter, square crop, Use Photo;
the permission asked, denied (and allowed again), and no camera at all."""

import re

import pytest

from sepia_browser import Browser, tid


def rect(b, css):
    return b.js("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height};", css)


def wait_live(b):
    b.wait_visible(tid("camera-video"))
    b.wait(lambda: b.js("const v = document.querySelector('[data-testid=\"camera-video\"]'); return v && v.videoWidth > 0 && v.readyState >= 2 && !v.paused;"),
           "the camera's picture")


def test_take_photo_square_crop_use_photo(app, browser_api, screenshot):
    assert app.visible(tid("take-photo")), "Take Photo is hidden although the camera exists"
    app.click(tid("take-photo"))
    app.wait_visible(tid("camera"))
    assert app.text("#camera-title") == "Take Photo"
    wait_live(app)

    # The crosshair sits over the middle of the live picture.
    cross = app.wait_visible(tid("camera-crosshair"))
    assert cross.is_displayed()
    v = rect(app, tid("camera-video"))
    c = rect(app, tid("camera-crosshair"))
    cx, cy = c["x"] + c["w"] / 2, c["y"] + c["h"] / 2
    assert v["x"] <= cx <= v["x"] + v["w"] and v["y"] <= cy <= v["y"] + v["h"], (v, c)
    assert abs(cx - (v["x"] + v["w"] / 2)) < v["w"] * 0.1 and abs(cy - (v["y"] + v["h"] / 2)) < v["h"] * 0.1, (v, c)
    shutter = app.find(tid("camera-shutter"))
    assert shutter.get_attribute("aria-label") == "Take picture"
    screenshot(app, "web-camera")

    video_w, video_h = app.js("const v = document.querySelector('[data-testid=\"camera-video\"]'); return [v.videoWidth, v.videoHeight];")
    shutter.click()
    app.wait_visible(tid("camera-still"))
    assert not app.present(tid("camera-video")), "the camera still runs after the picture was taken"
    assert app.text(tid("camera-use")) == "Use Photo"
    assert app.text(tid("camera-retake")) == "Retake"

    square = app.find(tid("square-crop"))
    assert not square.is_selected()
    app.click(f'label[for="{square.get_attribute("id")}"]')
    box = app.wait_visible(tid("camera-crop-box"))
    assert square.is_selected()
    assert abs(box.size["width"] - box.size["height"]) <= 2, box.size

    app.click(tid("camera-use"))
    app.wait(lambda: "#/photo/" in app.driver.current_url, "the new photo to open")
    asset_id = app.driver.current_url.rsplit("/", 1)[1]
    app.wait_visible(tid("detail"))
    app.wait_image(tid("detail-image"))
    asset = browser_api.asset(asset_id)
    assert asset["width"] == asset["height"] == min(video_w, video_h), (asset["width"], asset["height"], video_w, video_h)
    assert re.fullmatch(r"Photo \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\.jpg", asset["originalFilename"]), asset["originalFilename"]

    # It is in the library.
    app.click(tid("detail-close"))
    app.wait_visible(tid("grid"))
    app.wait_cell(asset_id)
    app.wait_cell_thumbnail(asset_id)


def test_take_photo_from_an_album_adds_it_to_the_album(app, owner, browser_api):
    album = owner.create_album("From the camera")
    app.open_app(f"#/album/{album['id']}")
    app.wait_visible(tid("empty-state"))
    app.click(tid("take-photo"))
    wait_live(app)
    app.click(tid("camera-shutter"))
    app.wait_visible(tid("camera-still"))
    app.click(tid("camera-use"))
    app.wait(lambda: "#/photo/" in app.driver.current_url, "the new photo to open")
    asset_id = app.driver.current_url.rsplit("/", 1)[1].split("?")[0]
    assert browser_api.album_ids(album["id"]) == [asset_id]
    asset = browser_api.asset(asset_id)
    assert asset["width"] > asset["height"], "without the square crop the picture keeps the camera's shape"


@pytest.fixture(scope="module")
def asking(server):
    """A window whose camera exists but whose permission is asked (no automatic Allow)."""
    b = Browser(server.base, camera="fake", auto_allow_camera=False, label="camera-permission")
    b.sign_in()
    yield b
    b.quit()


def test_permission_is_asked_first_then_the_live_view_opens(asking):
    b = asking
    b.set_camera_permission("prompt")
    b.open_app("#/library")
    b.click(tid("take-photo"))
    prompt = b.wait_visible(tid("camera-prompt"))
    assert "Allow camera access" in prompt.text
    assert "Sepia uses your camera to take pictures for your library." in prompt.text
    assert b.text(tid("camera-allow")) == "Allow camera"
    # The person allows it in the browser's prompt.
    b.set_camera_permission("granted")
    if b.visible(tid("camera-allow")):
        b.click(tid("camera-allow"))
    wait_live(b)
    b.wait_visible(tid("camera-crosshair"))
    b.click(tid("camera-close"))
    b.wait_gone(tid("camera"))


def test_denied_permission_says_how_to_allow_it_again(asking):
    b = asking
    b.set_camera_permission("denied")
    b.open_app("#/library")
    assert b.visible(tid("take-photo")), "Take Photo should stay: the camera exists, only access is off"
    b.click(tid("take-photo"))
    denied = b.wait_visible(tid("camera-denied"))
    text = denied.text
    assert "Camera access is turned off" in text
    assert "site-settings icon" in text and "set Camera to Allow" in text and "reload" in text, text
    assert not b.present(tid("camera-video"))
    buttons = [e.text for e in b.find_all("button", denied)]
    assert buttons == ["Reload", "Back to Library"], buttons

    # Allowed again in the site settings: the live view (the app follows the permission's change; Reload
    # is there for browsers that do not report it).
    b.set_camera_permission("granted")
    wait_live(b)
    b.set_camera_permission("prompt")


def test_no_camera_hides_take_photo(server):
    b = Browser(server.base, camera="none", label="no-camera")
    try:
        b.sign_in()
        b.wait_library()
        assert b.present(tid("take-photo"))
        assert not b.visible(tid("take-photo")), "Take Photo shows on a device without a camera"
        assert not b.present(tid("empty-take-photo"))
        # Opened by its address anyway, the camera screen says why there is none.
        b.go("#/camera")
        message = b.wait_visible(tid("camera-unavailable"))
        assert "No camera available" in message.text
        assert "Add Photos" in message.text
        b.click(f'{tid("camera-unavailable")} button')
        b.wait_gone(tid("camera"))
        assert "#/library" in b.driver.current_url
    finally:
        b.quit()
