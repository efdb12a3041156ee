"""Adding photos: the file picker, drag and drop, refused files with the server's reason, duplicates."""

import re
import time

from sepia_browser import photo_bytes, photos_and_videos, tid


def ids_from_links(items):
    return [re.search(r"#/photo/([0-9a-f-]+)", i["link"]).group(1) for i in items if i["link"]]


def test_three_photos_from_the_file_picker(app, photos, owner):
    before = owner.assets(limit=1)["total"]
    videos = owner.assets(limit=1, mediaType="video")["total"]
    files = [photos.file(f"picker-{n}.jpg") for n in range(3)]
    assert app.visible(tid("add-photos"))
    app.upload_files(files)

    panel = app.wait_visible(tid("upload-panel"))
    items = app.wait_uploads_finished(3)
    assert [i["state"] for i in items] == ["done"] * 3, items
    assert sorted(i["name"] for i in items) == sorted(f.name for f in files)
    assert all(i["status"] == "Added" for i in items)
    assert app.find(".upload-title", panel).text == "Upload complete"
    assert app.find(".upload-summary", panel).text == "3 photos added"
    assert app.find(tid("upload-overall")).get_attribute("value") == "100"

    ids = ids_from_links(items)
    assert len(ids) == 3
    for asset_id in ids:
        app.wait_cell(asset_id)
        app.wait_cell_thumbnail(asset_id)
        assert owner.asset(asset_id)["originalFilename"] in {f.name for f in files}
    count = photos_and_videos(before - videos + 3, videos)
    app.wait(lambda: app.text(tid("photo-count")) == count, f"the count to say {count}")


def test_a_photo_dropped_on_the_page(app, photos, owner):
    data = photos.bytes()
    seen = app.drop_file(data, "dropped.jpg")
    assert seen["overlayShown"], seen
    assert "Drop photos and videos to add them to your library" in seen["overlayText"]
    assert seen["dragoverAccepted"] and seen["dropAccepted"], seen
    assert seen["overlayHiddenAfterDrop"], seen

    items = app.wait_uploads_finished(1)
    assert [(i["name"], i["state"]) for i in items] == [("dropped.jpg", "done")], items
    (asset_id,) = ids_from_links(items)
    app.wait_cell(asset_id)
    app.wait_cell_thumbnail(asset_id)
    assert owner.asset(asset_id)["originalFilename"] == "dropped.jpg"


def test_refused_files_are_listed_with_the_servers_reason(app, photos, owner, tmp_path):
    svg = tmp_path / "drawing.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')
    text = tmp_path / "notes.jpg"
    text.write_text("These are my notes, not a photo.\n" * 20)
    good = photos.file("fine.jpg")
    # What the server says about each refused file.
    reasons = {}
    for f in (svg, text):
        r = owner.call("POST", f"/api/v1/assets?filename={f.name}", raw=f.read_bytes())
        assert r.status in (415, 422), (f.name, r.status)
        reasons[f.name] = r.json()["message"]
    before = owner.assets(limit=1)["total"]

    app.upload_files([svg, text, good])
    items = {i["name"]: i for i in app.wait_uploads_finished(3)}
    assert items["fine.jpg"]["state"] == "done"
    for name in ("drawing.svg", "notes.jpg"):
        assert items[name]["state"] == "error", items[name]
        # The app shows the server's sentence, starting with a capital.
        shown = reasons[name][0].upper() + reasons[name][1:]
        assert items[name]["status"] == shown, (items[name], shown)
        assert items[name]["role"] == "alert"
    panel = app.find(tid("upload-panel"))
    assert app.find(".upload-title", panel).text == "Upload finished with problems"
    assert app.find(".upload-summary", panel).text == "1 photo added · 2 refused"
    # Refused files leave nothing behind, and the panel stays until it is closed.
    assert owner.assets(limit=1)["total"] == before + 1
    time.sleep(5.5)  # a clean batch closes itself after 5 s
    assert app.visible(tid("upload-panel")), "the panel with refused files closed by itself"
    app.click(tid("upload-close"))
    app.wait_gone(tid("upload-panel"))


def test_a_duplicate_is_said_with_a_link_to_the_photo_already_there(app, photos, owner, tmp_path):
    original = tmp_path / "original.jpg"
    original.write_bytes(photo_bytes(424242))
    existing = owner.upload(original)["id"]
    again = tmp_path / "copy-of-original.jpg"
    again.write_bytes(original.read_bytes())

    app.upload_files([again])
    (item,) = app.wait_uploads_finished(1)
    assert item["state"] == "duplicate", item
    assert item["status"] == "Duplicate — already in your library."
    assert item["duplicateLink"] == f"#/photo/{existing}"
    # The panel pops in over 120 ms, and a duplicate is known at once: its text reads as empty until it shows.
    link = app.wait_visible(tid("upload-duplicate-link"))
    assert link.text == "Show the photo"
    assert app.find(".upload-summary").text == "1 duplicate skipped"
    link.click()
    app.wait_visible(tid("detail"))
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{existing}"), "the existing photo to open")
    app.wait_image(tid("detail-image"))


def test_file_names_keep_their_spaces(app, photos, browser_api):
    path = photos.file("Summer holiday.jpg")
    app.upload_files([path])
    (item,) = app.wait_uploads_finished(1)
    assert item["state"] == "done"
    (asset_id,) = ids_from_links([item])
    assert browser_api.asset(asset_id)["originalFilename"] == "Summer holiday.jpg"
