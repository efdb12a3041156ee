"""A second window on the same account sees changes live, without reloading: an upload appears, a deletion
disappears, an edit changes the thumbnail, a favourite shows in Favorites, a new album in the sidebar."""

import re

import pytest

from sepia_browser import Browser, tid


@pytest.fixture(scope="module")
def watcher(server):
    """The second window, loaded once for the whole module; a marker on its page proves it never reloads."""
    b = Browser(server.base, width=1280, height=800, label="second-window")
    b.sign_in()
    b.js("window.__sameDocument = 'not reloaded'")
    yield b
    b.quit()


@pytest.fixture
def second(watcher):
    yield watcher
    assert watcher.js("return window.__sameDocument") == "not reloaded", "the second window reloaded"


def wait_live(b):
    b.wait(lambda: b.find(tid("live-status")).get_attribute("data-state") == "open", "the live connection")
    assert b.find(tid("live-status")).text == "Live"


def test_an_upload_appears(app, second, photos):
    second.go("#/library")
    second.wait_library()
    wait_live(second)
    app.upload_files([photos.file("live-upload.jpg")])
    (item,) = app.wait_uploads_finished(1)
    asset_id = re.search(r"#/photo/(.+)$", item["link"]).group(1)
    second.wait_cell(asset_id)
    second.wait_cell_thumbnail(asset_id)


def test_a_deletion_disappears(app, second, photos):
    (asset_id,) = photos.upload(1)
    second.go("#/library")
    second.wait_cell(asset_id)
    app.open_app("#/library")
    app.wait_cell(asset_id)
    app.click(tid("selection-toggle"))
    app.click(app.cell_css(asset_id))
    app.click(tid("selection-delete"))
    app.wait_visible(tid("delete-dialog"))
    app.click(f'{tid("delete-dialog")} {tid("confirm-ok")}')
    app.wait_toast("1 photo moved to Recently Deleted")
    second.wait(lambda: not second.present(second.cell_css(asset_id)), "the deleted photo to leave the second window")


def test_an_edit_changes_the_thumbnail(app, second, photos):
    (asset_id,) = photos.upload(1)
    second.go("#/library")
    second.wait_cell_thumbnail(asset_id)
    before = second.cell_src(asset_id)
    app.open_app(f"#/photo/{asset_id}")
    app.wait_visible(tid("detail"))
    app.wait_image(tid("detail-image"))
    app.click(tid("detail-rotate"))
    app.wait_toast("^Rotated")
    second.wait(lambda: second.cell_src(asset_id) not in (None, before), "the second window's thumbnail to change")
    second.wait_cell_thumbnail(asset_id)
    assert "v=original" in before and "v=original" not in second.cell_src(asset_id)


def test_a_favourite_shows_in_favorites(app, second, photos):
    (asset_id,) = photos.upload(1)
    second.click(tid("nav-favorites"))
    second.wait(lambda: second.text(tid("screen-title")) == "Favorites", "Favorites")
    second.wait_library()
    assert not second.present(second.cell_css(asset_id))
    app.open_app(f"#/photo/{asset_id}")
    app.wait_visible(tid("detail"))
    app.click(tid("detail-favorite"))
    app.wait_toast("Added 1 photo to Favorites")
    second.wait_cell(asset_id)
    second.wait_cell_thumbnail(asset_id)


def test_a_new_album_appears_in_the_sidebar(app, second):
    title = "Seen from the other window"
    app.click(tid("album-create-sidebar"))
    app.wait_visible(tid("album-create-dialog"))
    app.type(tid("prompt-input"), title)
    app.click(tid("prompt-ok"))
    app.wait_toast("created")
    second.wait(lambda: title in [e.get_attribute("textContent") for e in second.find_all(f'{tid("nav-album")} .nav-text')],
                "the album in the second window's sidebar")
