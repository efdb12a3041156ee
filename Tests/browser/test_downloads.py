"""Downloads as one ZIP file: an album from its top bar, a selection from the selection bar, and a share link's
page when its owner allowed downloads; each asks for the originals or the current versions first, and the
browser saves the archive as any download."""

import time
import zipfile
from pathlib import Path

import pytest

from sepia_browser import Browser, tid


def save_downloads_to(b: Browser, folder: Path):
    """Headless Chromium saves downloads only where it is told to."""
    folder.mkdir(parents=True, exist_ok=True)
    b.driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(folder)})


def saved_zip(folder: Path, name: str, timeout: float = 30) -> zipfile.ZipFile:
    """The archive `name` once the browser has finished saving it."""
    path = folder / name
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and not list(folder.glob("*.crdownload")):
            return zipfile.ZipFile(path)
        time.sleep(0.1)
    raise AssertionError(f"{name} was not downloaded; the folder holds {sorted(p.name for p in folder.iterdir())}")


def choose(b: Browser, version: str):
    dialog = b.wait_visible(tid("download-dialog"))
    assert "Originals" in dialog.text and "Current versions" in dialog.text
    b.click(tid("download-" + version))
    b.click(tid("download-confirm"))
    b.wait_gone(tid("download-dialog"))


def test_album_and_selection_download_as_one_zip(app, owner, photos, tmp_path):
    ids = photos.upload(3)
    album = owner.create_album("Harbour walk", ids[:2])
    save_downloads_to(app, tmp_path)

    # The album, from its top bar: its originals, byte for byte.
    app.open_app(f"#/album/{album['id']}")
    app.wait_cell(ids[0])
    app.click(tid("album-download"))
    choose(app, "original")
    app.wait_toast("Downloading “Harbour walk” as a ZIP file")
    with saved_zip(tmp_path, "Harbour walk.zip") as z:
        assert z.testzip() is None
        assert [i.filename for i in z.infolist()] == [owner.asset(i)["originalFilename"] for i in ids[:2]]
        assert z.read(z.infolist()[0]) == owner.call("GET", f"/api/v1/assets/{ids[0]}/original").body

    # A selection in the library: the current versions.
    app.open_app("#/library")
    app.wait_cell(ids[2])
    app.click(tid("selection-toggle"))
    for asset_id in (ids[2], ids[0]):
        app.click(app.cell_css(asset_id))
    app.click(tid("selection-download"))
    choose(app, "current")
    app.wait_toast("Downloading 2 items as a ZIP file")
    with saved_zip(tmp_path, "Photos.zip") as z:
        assert z.testzip() is None
        assert sorted(i.filename for i in z.infolist()) == sorted(owner.asset(i)["originalFilename"] for i in (ids[0], ids[2]))
    app.click(tid("selection-done"))


@pytest.fixture
def stranger(server, tmp_path):
    b = Browser(server.base, width=1280, height=800, camera="none", label="stranger")
    yield b
    b.quit()


def test_share_page_downloads_only_when_allowed(app, owner, photos, stranger, tmp_path):
    ids = photos.upload(2)
    album = owner.create_album("Picnic", ids)
    app.open_app(f"#/album/{album['id']}")
    app.wait_cell(ids[0])

    def link(allow: bool) -> str:
        app.click(tid("album-share-link"))
        app.wait_visible(tid("share-dialog"))
        assert not app.find(tid("share-allow-download")).is_selected()
        if allow:
            app.find(tid("share-allow-download")).click()
        app.click(tid("share-create"))
        url = app.wait(lambda: app.find(tid("share-link-url")).get_attribute("value") if app.present(tid("share-link-url")) else None, "the link")
        app.click(tid("share-done"))
        app.wait_gone(tid("share-dialog"))
        return url

    closed, open_ = link(False), link(True)
    stranger.driver.get(closed)
    stranger.wait_visible(tid("share-grid"))
    assert not stranger.present(tid("share-download"))

    save_downloads_to(stranger, tmp_path)
    stranger.driver.get(open_)
    stranger.wait_visible(tid("share-grid"))
    stranger.click(tid("share-download"))
    dialog = stranger.wait_visible(tid("download-dialog"))
    assert stranger.find(tid("download-current")).is_selected(), "the link's visitors get what it shows unless they ask"
    assert "Picnic" in dialog.text
    stranger.click(tid("download-confirm"))
    with saved_zip(tmp_path, "Picnic.zip") as z:
        assert z.testzip() is None
        assert len(z.infolist()) == 2
