"""Share links made in the app (a photo from the detail view, an album from its view) open in a fresh
browser profile without an account; a revoked link says so."""

import re

import pytest

from sepia_browser import Browser, tid


@pytest.fixture(scope="module")
def stranger(server):
    """A fresh profile: no cookies, never signed in."""
    b = Browser(server.base, width=1280, height=800, camera="none", label="stranger")
    yield b
    b.quit()


def create_link(b, opener_css, what, *, metadata=False):
    b.click(opener_css)
    dialog = b.wait_visible(tid("share-dialog"))
    assert f"Share {what}" in dialog.text
    assert "Anyone with the link can see" in dialog.text
    assert b.find(f'{tid("share-expiry")} option:checked').text == "Never"
    assert not b.find(tid("share-include-metadata")).is_selected()
    if metadata:
        b.find(tid("share-include-metadata")).click()
    b.click(tid("share-create"))
    url = b.wait(lambda: b.find(tid("share-link-url")).get_attribute("value") if b.present(tid("share-link-url")) else None, "the link")
    assert "Your link is ready." in b.text(tid("share-dialog"))
    b.click(tid("share-done"))
    b.wait_gone(tid("share-dialog"))
    return url


def test_photo_link_from_the_detail_view(app, owner, photos, stranger):
    asset_id = owner.upload(photos.bytes(), "harbour.jpg")["id"]
    app.open_app(f"#/photo/{asset_id}")
    app.wait_image(tid("detail-image"))
    url = create_link(app, tid("share-link"), "this photo")
    assert url.startswith(app.base + "/s/"), url

    stranger.driver.get(url)
    assert stranger.driver.get_cookies() == []
    stranger.wait_image(tid("share-image"))
    # Without metadata the page names nothing of the photo (not even its file name).
    assert stranger.text("h1") == "Shared photo"
    assert stranger.driver.title == "Shared photo — Sepia"
    assert not stranger.present(".share-meta"), "the date and camera show although they were not included"
    assert not stranger.present(tid("login-form"))

    # A second link, with the date, camera and place.
    with_meta = create_link(app, tid("share-link"), "this photo", metadata=True)
    assert with_meta != url
    stranger.driver.get(with_meta)
    stranger.wait_image(tid("share-image"))
    assert re.search(r"\d{4}", stranger.text(".share-meta")), stranger.text(".share-meta")


def test_album_link_from_the_album_view_then_revoked(app, owner, photos, stranger):
    ids = photos.upload(3)
    album = owner.create_album("Harbour day", ids)
    app.open_app(f"#/album/{album['id']}")
    app.wait(lambda: len(app.grid_cell_ids()) == 3, "the album's photos")
    url = create_link(app, tid("album-share-link"), "“Harbour day”")

    stranger.driver.get(url)
    stranger.wait_visible(tid("share-grid"))
    assert stranger.text("h1") == "Harbour day"
    assert "3 photos" in stranger.text(".share-page")
    cells = stranger.find_all(tid("share-cell"))
    assert len(cells) == 3
    stranger.wait(lambda: stranger.js("return [...document.querySelectorAll('[data-testid=\"share-cell\"] img')].every((i) => i.complete && i.naturalWidth > 0)"),
                  "the album's thumbnails")
    cells[1].click()
    stranger.wait_image(tid("share-viewer-image"))
    assert stranger.text(".viewer-count") == "2 of 3"

    # Revoked in Settings: the link stops working, in words.
    share_id = next(s["id"] for s in owner.json("GET", "/api/v1/shares")["shares"] if s["url"] == url)
    app.click(tid("nav-settings"))
    row = app.wait_visible(tid("share-row", **{"data-share-id": share_id}))
    assert "Album “Harbour day”" in row.text
    app.click(f'{tid("share-row", **{"data-share-id": share_id})} {tid("share-revoke")}')
    dialog = app.wait_visible(tid("confirm-dialog"))
    assert "Revoke this link?" in dialog.text
    app.click(f'{tid("confirm-dialog")} {tid("confirm-ok")}')
    app.wait_toast("Link revoked")
    app.wait(lambda: not app.present(tid("share-row", **{"data-share-id": share_id})), "the row to go")

    stranger.driver.get(url)
    problem = stranger.wait_visible(tid("share-problem"))
    assert "This link does not work" in problem.text
    assert "revoked" in problem.text
    assert problem.get_attribute("role") == "alert"
    assert not stranger.present(tid("share-grid"))
