"""Recently Deleted: Delete says the photo moves there for 30 days; the sidebar's Recently Deleted shows it with
its days left; Recover puts it back into its album, at its place; Delete Now asks, then deletes for good — for
one item (opened from Recently Deleted) and for a selection. At a phone's size (375×812) the view and its
selection bar fit the screen.

The documentation's screenshot comes from a library of real sample photos of its own (imported with `sepia
import`), some deleted with `sepia delete` and their deletion dates then moved back in the library's database
before the server starts, so that the days left differ as they would after some weeks of use.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time

import pytest

from sepia_browser import Browser, Server, import_photos, sample_photos, sepia_binary, stop_server, tid


def cell_days(b, asset_id: str) -> str | None:
    return b.js("""const c = document.querySelector(arguments[0]);
        const d = c && c.querySelector('[data-testid="cell-days-left"]'); return d && d.textContent;""", b.cell_css(asset_id))


def in_red(b, css: str) -> bool:
    """Whether the element's text is in the app's red (--danger-text), the colour of the last days."""
    return b.js("""const probe = document.createElement('span'); probe.style.color = 'var(--danger-text)';
        document.body.append(probe); const red = getComputedStyle(probe).color; probe.remove();
        return getComputedStyle(document.querySelector(arguments[0])).color === red;""", css)


def confirm(b, dialog: str) -> str:
    """Waits for a confirmation dialog, says yes, and returns what it said."""
    text = b.wait_visible(tid(dialog)).text
    b.click(f'{tid(dialog)} {tid("confirm-ok")}')
    b.wait_gone(tid(dialog))
    return text


def select(b, ids: list[str]):
    b.click(tid("selection-toggle"))
    for asset_id in ids:
        b.click(b.cell_css(asset_id))
        b.wait(lambda: b.find(b.cell_css(asset_id)).get_attribute("aria-selected") == "true", "the cell to be selected")


def empty_recently_deleted(api):
    """What other tests of the session deleted goes for good first: this test counts what is there."""
    left = [a["id"] for a in api.json("GET", "/api/v1/recently-deleted?limit=500")["assets"]]
    if left:
        api.json("POST", "/api/v1/assets/delete", {"ids": left, "permanently": True})


def test_delete_recover_into_its_album_and_delete_now(app, photos, browser_api):
    empty_recently_deleted(browser_api)
    ids = photos.upload(4)
    album = browser_api.create_album("Harbour walk", ids[:3])["id"]
    assert browser_api.album_ids(album) == ids[:3]

    # Delete from the photo's view, in its album: the dialog says where it goes and for how long.
    app.open_app(f"#/album/{album}")
    app.wait(lambda: app.grid_cell_ids() == ids[:3], "the album's photos")
    app.click(app.cell_css(ids[1]))
    app.wait_visible(tid("detail"))
    app.click(tid("detail-delete"))
    said = confirm(app, "delete-dialog")
    assert "Recently Deleted" in said and "30 days" in said, said
    app.wait_toast("moved to Recently Deleted")
    # The view moves on to the album's next photo; back to the album, which no longer has it.
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{ids[2]}?album={album}"), "the album's next photo")
    app.click(tid("detail-close"))
    app.wait_gone(tid("detail"))
    app.wait(lambda: app.grid_cell_ids() == [ids[0], ids[2]], "the album without the deleted photo")
    deleted = browser_api.asset(ids[1])
    assert deleted["trashedDate"] and deleted["daysLeft"] == 30, deleted
    assert browser_api.album_ids(album) == [ids[0], ids[2]]
    assert ids[1] not in [a["id"] for a in browser_api.assets(limit=500)["assets"]]

    # Recently Deleted, from the sidebar: the photo with "30 days" on it, the count beside the link.
    app.click(tid("nav-recently-deleted"))
    app.wait(lambda: app.text(tid("screen-title")) == "Recently Deleted", "the Recently Deleted view")
    app.wait_cell(ids[1])
    app.wait_cell_thumbnail(ids[1])
    assert cell_days(app, ids[1]) == "30 days"
    assert "deleted, 30 days left" in app.find(app.cell_css(ids[1])).get_attribute("aria-label")
    assert "30 days" in app.text(tid("recently-deleted-hint"))
    app.wait(lambda: app.text('[data-count-for="recently-deleted"]') == "1", "the count in the sidebar")
    assert not app.visible(tid("add-photos")), "nothing is added to Recently Deleted"

    # Opened from there, it offers Recover and Delete Now, and says its days left.
    app.click(app.cell_css(ids[1]))
    app.wait_visible(tid("detail-recover"))
    assert app.text(tid("detail-days-left")) == "30 days left"
    assert not in_red(app, tid("detail-days-left")), "30 days left is no warning"
    for control in ("detail-edit", "detail-favorite", "detail-delete", "detail-rotate"):
        assert not app.visible(tid(control)), f"{control} is offered for a deleted photo"
    app.click(tid("detail-recover"))
    app.wait_toast("Recovered")
    app.wait(lambda: browser_api.album_ids(album) == ids[:3], "the photo back at its place in its album")
    assert browser_api.asset(ids[1])["trashedDate"] is None
    app.wait_gone(tid("detail"))
    app.open_app(f"#/album/{album}")
    app.wait(lambda: app.grid_cell_ids() == ids[:3], "the album as it was, on screen")

    # A selection: two photos deleted from the library, one recovered and one deleted now from Recently Deleted.
    app.open_app("#/library")
    app.wait_cell(ids[2])
    select(app, [ids[2], ids[3]])
    app.click(tid("selection-delete"))
    confirm(app, "delete-dialog")
    app.wait_toast("2 photos moved to Recently Deleted")
    app.open_app("#/recently-deleted")
    app.wait(lambda: sorted(app.grid_cell_ids()) == sorted([ids[2], ids[3]]), "both in Recently Deleted")
    select(app, [ids[2]])
    app.click(tid("selection-recover"))
    app.wait_toast("Recovered")
    app.wait(lambda: app.grid_cell_ids() == [ids[3]], "the recovered photo gone from Recently Deleted")
    assert browser_api.album_ids(album) == ids[:3]
    select(app, [ids[3]])
    app.click(tid("selection-delete-now"))
    said = confirm(app, "delete-now-dialog")
    assert "cannot be undone" in said, said
    app.wait_toast("deleted for good")
    app.wait(lambda: browser_api.call("GET", f"/api/v1/assets/{ids[3]}").status == 404, "the photo deleted for good")
    app.wait(lambda: "No recently deleted items" in app.text(tid("empty-state")), "Recently Deleted's empty state")

    # Delete Now for one item, from its view in Recently Deleted; Cancel first changes nothing.
    browser_api.json("DELETE", f"/api/v1/assets/{ids[0]}", expect=(204,))
    app.open_app("#/recently-deleted")
    app.wait_cell(ids[0])
    app.click(app.cell_css(ids[0]))
    app.click(tid("detail-delete-now"))
    app.wait_visible(tid("delete-now-dialog"))
    app.click(f'{tid("delete-now-dialog")} {tid("confirm-cancel")}')
    app.wait_gone(tid("delete-now-dialog"))
    assert browser_api.asset(ids[0])["trashedDate"]
    app.click(tid("detail-delete-now"))
    confirm(app, "delete-now-dialog")
    app.wait_toast("deleted for good")
    app.wait(lambda: browser_api.call("GET", f"/api/v1/assets/{ids[0]}").status == 404, "the photo deleted for good")
    assert browser_api.album_ids(album) == [ids[1], ids[2]]


# ------------------------------------------------------------------------------------ the screenshot, a phone


@pytest.fixture(scope="module")
def bin_of_photos(tmp_path_factory):
    """Sample photos imported with `sepia import`, seven deleted with `sepia delete`, their deletion dates then
    spread over the last four weeks in the library's database (the server is not running yet)."""
    work = tmp_path_factory.mktemp("deleted")
    sample_photos(work / "photos")
    library = work / "library"
    import_photos(library, work / "photos")
    listed = subprocess.run([str(sepia_binary()), "list", "--json", "--library", str(library)],
                            capture_output=True, text=True, check=True)
    ids = [a["id"] for a in json.loads(listed.stdout)][:7]
    subprocess.run([str(sepia_binary()), "delete", *ids, "--yes", "--library", str(library)], capture_output=True, check=True)
    ages = [1, 2, 4, 9, 15, 22, 28]  # days since each deletion
    now = time.time()
    with sqlite3.connect(library / "library.sqlite") as db:
        for asset_id, age in zip(ids, ages):
            db.execute("UPDATE asset SET trashedDate = ? WHERE localIdentifier = ?", (now - age * 86_400 - 3600, asset_id))
    s = Server(work, library=library, name="deleted").start()
    api = s.create_owner()
    b = Browser(s.base, label="deleted")
    b.sign_in()
    yield {"browser": b, "api": api, "ids": ids, "ages": ages}
    b.quit()
    stop_server(s)


def on_screen(b, css):
    r = b.js("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight];", css)
    left, top, right, bottom, w, h = r
    assert left >= -1 and top >= -1 and right <= w + 1 and bottom <= h + 1, f"{css} is off screen: {r}"


def wait_thumbnails(b, ids):
    for asset_id in ids:
        b.wait_cell(asset_id)
        b.wait_cell_thumbnail(asset_id)
    time.sleep(0.4)  # their fade-in


SIZES = {"desktop": (1440, 900, False), "laptop": (1280, 800, False), "phone": (375, 812, True)}


@pytest.mark.parametrize("size", list(SIZES))
def test_recently_deleted_on_a_desktop_and_a_phone(bin_of_photos, size, screenshot):
    b, ids, ages = bin_of_photos["browser"], bin_of_photos["ids"], bin_of_photos["ages"]
    w, h, mobile = SIZES[size]
    b.set_viewport(w, h, mobile=mobile)
    try:
        b.open_app("#/recently-deleted")
        # Newest deletion first, each with the days it has left; the last few days in red.
        b.wait(lambda: b.grid_cell_ids() == ids, "the deleted photos, newest deletion first")
        wait_thumbnails(b, ids)
        for asset_id, age in zip(ids, ages):
            assert cell_days(b, asset_id) == f"{30 - age} days", (asset_id, cell_days(b, asset_id))
        assert b.js("return document.querySelector(arguments[0] + ' [data-testid=\"cell-days-left\"]').classList.contains('soon')",
                    b.cell_css(ids[-1]))
        assert b.text(tid("photo-count")) == "7 items"
        assert b.js("return document.documentElement.scrollWidth <= innerWidth"), "the page overflows sideways"
        if size == "desktop":
            screenshot(b, "web-recently-deleted")
        select(b, ids[:2])
        # Recover and Delete Now say what they do in words, beside the count, at every size.
        bar = b.selection_bar_fits()
        assert bar["shown"] == ["selection-count", "selection-recover", "selection-delete-now", "selection-done"], bar
        assert [bar["labels"][t] for t in bar["shown"]] == ["2 selected", "Recover", "Delete Now", "Done"], bar
        assert b.js("return document.documentElement.scrollWidth <= innerWidth"), "the selection bar overflows sideways"
        if size == "desktop":
            screenshot(b, "web-recently-deleted-selection")
        b.click(tid("selection-done"))

        # One item opened: its days left, Recover and Delete Now on screen.
        b.click(b.cell_css(ids[3]))
        b.wait_visible(tid("detail-recover"))
        b.wait_image(tid("detail-image"))
        assert b.text(tid("detail-days-left")) == f"{30 - ages[3]} days left"
        assert not in_red(b, tid("detail-days-left")), "21 days left is no warning"
        for control in ("detail-recover", "detail-delete-now", "detail-close"):
            on_screen(b, tid(control))
        assert b.js("return document.documentElement.scrollWidth <= innerWidth")
        if size == "desktop":
            screenshot(b, "web-recently-deleted-item")
        b.click(tid("detail-close"))
        b.wait_gone(tid("detail"))
        # The one with two days left says so in red, as its cell does.
        b.click(b.cell_css(ids[-1]))
        b.wait(lambda: b.text(tid("detail-days-left")) == f"{30 - ages[-1]} days left", "the item with two days left")
        assert in_red(b, tid("detail-days-left")), "2 days left is said in red"
        b.click(tid("detail-close"))
        b.wait_gone(tid("detail"))
    finally:
        b.set_viewport(1440, 900)
