"""axe (axe-selenium-python) on every screen, state and dialog; a `serious` or `critical` violation fails
the test and is listed (rule, impact, what it means, the elements).

axe-selenium-python runs axe; the axe-core script itself comes from axe-core-python (axe-core 4.4): the copy
bundled with axe-selenium-python 2.1 is axe-core 3.1 (2018), which cannot read CSS `color()` values and
reports every `color-mix()` background as a contrast of NaN. (axe-selenium-python 3 needs Python 3.12.)

A server and window of their own: the setup page needs an unused link, and the empty library comes first.
The window has a camera whose permission is asked, so the camera's prompt, denied and live states can be
set through the browser's permission settings.
"""

import json
import os
import time
from pathlib import Path

import axe_core_python
import pytest
from axe_selenium_python import Axe

from selenium.webdriver.common.keys import Keys

from sepia_browser import REPO, SAMPLE_PHOTOS, Browser, Server, photo_bytes, stop_server, tid

BLOCKING = ("serious", "critical")
AXE_SCRIPT = os.environ.get("SEPIA_AXE_SCRIPT") or str(Path(axe_core_python.__file__).parent / "axe.min.js")


def settle(b: Browser, timeout: float = 3.0):
    """Waits until no finite animation or transition is running: axe measures colours as they are drawn, and
    a bar measured half-way through fading in shows a contrast nobody sees once it has settled."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        running = b.js(
            "return document.getAnimations().filter(a => a.playState === 'running'"
            " && Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)).length"
        )
        if running == 0:
            return
        time.sleep(0.05)


def audit(b: Browser, what: str):
    settle(b)
    axe = Axe(b.driver, AXE_SCRIPT)
    axe.inject()
    results = axe.run(options=json.dumps({"resultTypes": ["violations"]}))
    bad = [v for v in results["violations"] if v.get("impact") in BLOCKING]
    if bad:
        lines = [f"{len(bad)} serious or critical accessibility violations on {what}:"]
        for v in bad:
            lines.append(f"- {v['id']} ({v['impact']}): {v['help']} [{v['helpUrl']}]")
            for node in v["nodes"][:6]:
                summary = " ".join(node.get("failureSummary", "").split())
                lines.append(f"    {', '.join(map(str, node['target']))}: {summary[:240]}")
            if len(v["nodes"]) > 6:
                lines.append(f"    … and {len(v['nodes']) - 6} more")
        raise AssertionError("\n".join(lines))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("a11y"), name="a11y").start()
    b = Browser(s.base, camera="fake", auto_allow_camera=False, label="a11y")
    state = {"server": s, "browser": b}
    yield state
    b.quit()
    stop_server(s)


@pytest.fixture(scope="module")
def signed_in(site):
    s, b = site["server"], site["browser"]
    api = s.create_owner() if not site.get("owner") else site["owner"]
    site["owner"] = api
    b.sign_in()
    return site


@pytest.fixture(scope="module")
def library(signed_in):
    """Photos (real ones, so the info panel has a camera and a place), an album and share links."""
    api = signed_in["owner"]
    ids = [api.upload(SAMPLE_PHOTOS / name)["id"] for name in ("gps-datetime.jpg", "iptc-date-offset.jpg")]
    ids += [api.upload(photo_bytes(7000 + i), f"a11y-{i}.jpg")["id"] for i in range(3)]
    album = api.create_album("Accessible album", ids[:3])
    photo_link = api.json("POST", "/api/v1/shares", {"assetID": ids[0], "includeMetadata": True}, expect=(201,))
    album_link = api.json("POST", "/api/v1/shares", {"albumID": album["id"]}, expect=(201,))
    signed_in.update(ids=ids, album=album, photo_link=photo_link, album_link=album_link)
    return signed_in


# ------------------------------------------------------------------------------------ before signing in


def test_setup_page(site):
    b = site["browser"]
    b.driver.get(site["server"].setup_url)
    b.wait_visible(tid("setup-form"))
    audit(b, "the setup page")


def test_setup_page_with_an_error(site):
    b = site["browser"]
    b.type(tid("setup-username"), "owner")
    b.type(tid("su-pass"), "short")
    b.click(tid("setup-submit"))
    b.wait_visible(f'{tid("setup-form")} .form-error')
    audit(b, "the setup page showing an error")


def test_sign_in_page_with_an_error(signed_in):
    b = signed_in["browser"]
    b.open_app("#/settings")
    b.click(tid("sign-out"))
    b.wait_visible(tid("login-form"))
    try:
        audit(b, "the sign-in page")
        b.type(tid("login-username"), "owner")
        b.type(tid("login-password"), "wrong password")
        b.click(tid("login-submit"))
        b.wait_visible(tid("login-error"))
        audit(b, "the sign-in page showing an error")
    finally:
        b.sign_in()


def test_used_setup_link_page(site):
    b = Browser(site["server"].base, camera="none", label="a11y-anonymous")
    try:
        b.driver.get(site["server"].setup_url)
        b.wait_visible(tid("setup-problem"))
        audit(b, "the page of a used setup link")
    finally:
        b.quit()


# ------------------------------------------------------------------------------------ the app


def test_empty_library(signed_in):
    b = signed_in["browser"]
    b.open_app("#/library")
    b.wait_visible(tid("empty-state"))
    audit(b, "the empty library")


def test_library(library):
    b = library["browser"]
    b.open_app("#/library")
    for i in library["ids"]:
        b.wait_cell_thumbnail(i)
    audit(b, "the library")


def test_library_in_selection_mode(library):
    b = library["browser"]
    b.open_app("#/library")
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(library["ids"][0]))
    b.wait_visible(tid("selection-bar"))
    audit(b, "the library with a photo selected")


def test_delete_dialog(library):
    b = library["browser"]
    b.open_app("#/library")
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(library["ids"][0]))
    b.click(b.cell_css(library["ids"][1]))
    b.click(tid("selection-delete"))
    b.wait_visible(tid("delete-dialog"))
    audit(b, "the delete dialog")


def test_album_picker_dialog(library):
    b = library["browser"]
    b.open_app("#/library")
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(library["ids"][0]))
    b.click(tid("selection-add-to-album"))
    b.wait_visible(tid("album-picker"))
    audit(b, "the album picker")


def test_recently_deleted(library):
    """Recently Deleted (a photo deleted for the test), with an item selected, the Delete Now dialog, and a
    deleted photo opened from there (Recover, Delete Now, its days left)."""
    b, api = library["browser"], library["owner"]
    gone = api.upload(photo_bytes(7300), "a11y-deleted.jpg")["id"]
    api.json("DELETE", f"/api/v1/assets/{gone}", expect=(204,))
    b.open_app("#/recently-deleted")
    b.wait_cell_thumbnail(gone)
    audit(b, "Recently Deleted")
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(gone))
    b.wait_visible(tid("selection-bar"))
    audit(b, "Recently Deleted with an item selected")
    b.click(tid("selection-delete-now"))
    b.wait_visible(tid("delete-now-dialog"))
    audit(b, "the Delete Now dialog")
    b.click(f'{tid("delete-now-dialog")} {tid("confirm-cancel")}')
    b.open_app(f"#/photo/{gone}?deleted=1")
    b.wait_visible(tid("detail-recover"))
    b.wait_image(tid("detail-image"))
    audit(b, "a photo in Recently Deleted")


def test_upload_panel_with_a_refused_file(library, tmp_path):
    b = library["browser"]
    b.open_app("#/library")
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    good = tmp_path / "good.jpg"
    good.write_bytes(photo_bytes(7100))
    b.upload_files([bad, good])
    b.wait_uploads_finished(2)
    audit(b, "the upload panel with a refused file")


def test_editor_with_the_docked_upload_bar_and_a_refusals_details(library, tmp_path):
    b = library["browser"]
    b.open_app("#/library")
    data = photo_bytes(7200)
    cut = tmp_path / "cut-off.jpg"
    cut.write_bytes(data[: len(data) * 3 // 5])
    b.upload_files([cut])
    b.wait_uploads_finished(1)
    b.go(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.wait_visible(f'{tid("upload-panel")}.docked')
    audit(b, "the editor with the docked upload bar")
    b.click(tid("upload-toggle"))
    b.wait_visible(tid("upload-item"))
    b.click(f'{tid("error-detail")} summary')
    b.wait_visible(f'{tid("error-detail")} .error-detail-text')
    audit(b, "the docked upload list with a refusal's details open")
    b.click(tid("upload-close"))
    b.wait_gone(tid("upload-panel"))


def test_albums(library):
    b = library["browser"]
    b.open_app("#/albums")
    b.wait_visible(tid("album-card"))
    audit(b, "the album list")


def test_new_album_dialog(library):
    b = library["browser"]
    b.open_app("#/albums")
    b.click(tid("album-create"))
    b.wait_visible(tid("album-create-dialog"))
    audit(b, "the New Album dialog")


def test_album(library):
    b = library["browser"]
    b.open_app(f"#/album/{library['album']['id']}")
    b.wait(lambda: len(b.grid_cell_ids()) == 3, "the album's photos")
    audit(b, "an album")


def test_share_dialog(library):
    b = library["browser"]
    b.open_app(f"#/album/{library['album']['id']}")
    b.click(tid("album-share-link"))
    b.wait_visible(tid("share-dialog"))
    audit(b, "the share dialog")
    b.click(tid("share-create"))
    b.wait_visible(tid("share-link-url"))
    audit(b, "the share dialog with its link")


def test_detail_with_info_open(library):
    b = library["browser"]
    b.open_app(f"#/photo/{library['ids'][0]}")
    b.wait_image(tid("detail-image"))
    if b.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        b.click(tid("detail-info"))
    b.wait_visible(tid("info-place"))
    audit(b, "the photo with its info")


def test_detail_menu(library):
    b = library["browser"]
    b.open_app(f"#/photo/{library['ids'][0]}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-more"))
    b.wait_visible('[role="menu"]')
    audit(b, "the photo's More menu")


def test_editor(library):
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("filter-tile", **{"data-name": "Sepia"}))
    b.wait(lambda: not b.find(tid("preview-busy")).is_displayed(), "the preview")
    audit(b, "the editor")


def test_editor_adjust_mode(library):
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("adjust-mode"))
    b.wait_visible(tid("adjust-panel"))
    b.click(tid("adjust-auto"))
    b.wait(lambda: b.find(tid("undo")).is_enabled(), "Auto's answer")
    b.wait(lambda: not b.find(tid("preview-busy")).is_displayed(), "the preview")
    audit(b, "the editor's Adjust mode")


def test_editor_crop_mode(library):
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("crop-mode"))
    b.wait_visible(tid("crop-box"))
    audit(b, "the editor's crop mode")


def preset(library):
    """One preset of the owner's (made once), so that the strip's Presets group has a tile."""
    if not library.get("preset"):
        library["preset"] = library["owner"].json("POST", "/api/v1/presets", {"name": "Soft Noir", "recipe": {
            "formatIdentifier": "org.sepia.recipe", "formatVersion": "2",
            "steps": [{"filter": "CIPhotoEffectNoir", "parameters": {}, "intensity": 0.5}]}}, expect=(201,))
    return library["preset"]


def test_editor_with_presets(library):
    preset(library)
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"preset-group\"].loaded')"), "the presets' tiles")
    b.click(tid("preset-tile"))
    b.wait(lambda: not b.find(tid("preview-busy")).is_displayed(), "the preview")
    audit(b, "the editor with a preset in the strip")


def test_save_as_preset_and_manage_presets_dialogs(library):
    preset(library)
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"preset-group\"].loaded')"), "the presets' tiles")
    b.click(tid("filter-tile", **{"data-name": "Mono"}))
    b.click(tid("save-preset"))
    b.wait_visible(tid("preset-name-dialog"))
    audit(b, "the Save as Preset dialog")
    b.click(f'{tid("preset-name-dialog")} .dialog-x')
    b.wait_gone(tid("preset-name-dialog"))
    b.click(tid("manage-presets"))
    b.wait_visible(tid("presets-dialog"))
    audit(b, "the Presets dialog")


def test_apply_preset_menu(library):
    preset(library)
    b = library["browser"]
    b.open_app("#/library")
    b.wait_library()
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(library["ids"][3]))
    b.click(tid("selection-apply-preset"))
    b.wait_visible(tid("preset-menu"))
    audit(b, "the selection's Apply Preset menu")


def test_editor_discard_dialog(library):
    b = library["browser"]
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.click(tid("filter-tile", **{"data-name": "Mono"}))
    b.click(tid("cancel-edit"))
    b.wait_visible(tid("discard-dialog"))
    audit(b, "the Discard changes dialog")


def test_camera_prompt(library):
    b = library["browser"]
    b.set_camera_permission("prompt")
    b.open_app("#/camera")
    b.wait_visible(tid("camera-prompt"))
    audit(b, "the camera's permission prompt")


def test_camera_denied(library):
    b = library["browser"]
    b.set_camera_permission("denied")
    b.open_app("#/camera")
    b.wait_visible(tid("camera-denied"))
    audit(b, "the camera with access denied")


def test_camera_live_and_review(library):
    b = library["browser"]
    b.set_camera_permission("granted")
    b.open_app("#/camera")
    b.wait_visible(tid("camera-video"))
    b.wait(lambda: b.js("return document.querySelector('[data-testid=\"camera-video\"]').videoWidth > 0"), "the camera's picture")
    audit(b, "the camera's live view")
    b.click(tid("camera-shutter"))
    b.wait_visible(tid("camera-still"))
    square = b.find(tid("square-crop"))
    b.click(f'label[for="{square.get_attribute("id")}"]')
    b.wait_visible(tid("camera-crop-box"))
    audit(b, "the camera's review with the square crop")
    b.set_camera_permission("prompt")


def test_settings(library):
    b = library["browser"]
    b.open_app("#/settings")
    b.wait_visible(tid("share-row"))
    b.wait_visible(tid("user-row"))
    audit(b, "Settings")


# ------------------------------------------------------------------------------------ People


@pytest.fixture(scope="module")
def faces(library):
    """Photos with faces (three of Obama, one of Biden, three of dlib's chips of John Salley), found and grouped by
    the server's job into two people; Obama named."""
    if not library.get("faces"):
        api = library["owner"]
        chips = sorted(Path("/usr/share/doc/libdlib19.1/examples/johns/John_Salley").glob("*.jpg"))[:3]
        paths = [REPO / ".build" / "testdata" / "faces" / n for n in ("obama.jpg", "obama2.jpg", "obama3.jpg", "biden.jpg")] + chips
        ids = [api.upload(p, f"face-{i}.jpg")["id"] for i, p in enumerate(paths)]
        b = library["browser"]
        b.wait(lambda: len(api.json("GET", "/api/v1/people")["people"]) == 2, "two people found", 300)
        obama = api.json("GET", f"/api/v1/assets/{ids[0]}/faces")["faces"][0]["personID"]
        api.json("PATCH", f"/api/v1/people/{obama}", {"name": "Barack Obama"})
        library["faces"] = {"ids": ids, "obama": obama, "biden": ids[3],
                            "salley": api.json("GET", f"/api/v1/assets/{ids[4]}/faces")["faces"][0]["personID"]}
    return library["faces"]


def test_people(faces, library):
    b = library["browser"]
    b.open_app("#/people")
    b.wait(lambda: len(b.find_all(tid("person-card"))) == 2, "the people")
    audit(b, "People")
    b.click(tid("person-add-name"))
    b.wait_visible(tid("person-name-input"))
    audit(b, "People with a name being added")
    b.find(tid("person-name-input")).send_keys(Keys.ESCAPE)
    b.click(tid("people-select"))
    for pid in (faces["obama"], faces["salley"]):
        b.click(f'{tid("person-card", **{"data-person-id": pid})} {tid("person-toggle")}')
    b.wait(lambda: b.find(tid("selection-merge")).is_enabled(), "Merge")
    audit(b, "People with two people selected")
    b.click(tid("selection-merge"))
    b.wait_visible(tid("merge-dialog"))
    audit(b, "the Merge dialog")
    b.click(f'{tid("merge-dialog")} {tid("confirm-cancel")}')


def test_person_page_and_merge_picker(faces, library):
    b = library["browser"]
    b.open_app(f"#/person/{faces['obama']}")
    b.wait(lambda: len(b.grid_cell_ids()) == 3, "Obama's photos")
    audit(b, "a person's page")
    b.click(tid("person-rename"))
    b.wait_visible(tid("person-name-input"))
    audit(b, "a person's page with the name being edited")
    b.find(tid("person-name-input")).send_keys(Keys.ESCAPE)
    b.click(tid("person-merge"))
    b.wait_visible(tid("person-pick"))
    audit(b, "the Merge with… picker")


def test_photo_faces_and_a_faces_panel(faces, library):
    b = library["browser"]
    b.open_app(f"#/photo/{faces['biden']}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-faces"))
    b.wait_visible(tid("face-box"))
    audit(b, "a photo with its faces outlined")
    b.click(tid("face-box"))
    field = b.wait_visible(tid("face-name-input"))
    field.send_keys("bar")
    b.wait_visible(tid("face-name-option"))
    field.send_keys(Keys.ARROW_DOWN)
    audit(b, "a face's panel with names offered")
    b.open_app(f"#/photo/{faces['ids'][0]}")
    b.wait_image(tid("detail-image"))
    b.click(tid("detail-faces"))
    b.click(tid("face-box"))
    b.wait_visible(tid("face-not-person"))
    audit(b, "the panel of a named person's face")


def test_search_offers_people(faces, library):
    b = library["browser"]
    b.open_app("#/search/")
    field = b.wait_visible(tid("search-input"))
    field.send_keys("bar")
    person = tid("search-suggestion", **{"data-kind": "person", "data-value": faces["obama"]})
    b.wait_visible(person)
    # The words are searched for too (after a pause in the typing): a person's name finds their photos.
    b.wait(lambda: b.driver.current_url.endswith("#/search/bar") and set(faces["ids"][:3]) <= set(b.grid_cell_ids()), "the words searched for")
    b.next_frames()
    audit(b, "the search field offering a person")
    # The person offered opens their page.
    b.click(person)
    b.wait(lambda: b.driver.current_url.endswith(f"#/person/{faces['obama']}"), "the person's page")
    b.wait(lambda: len(b.grid_cell_ids()) == 3, "the person's photos")


def test_people_on_a_phone_and_in_dark_mode(faces, library):
    b = library["browser"]
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/people")
        b.wait(lambda: len(b.find_all(tid("person-card"))) == 2, "the people")
        audit(b, "People on a phone")
        b.open_app(f"#/person/{faces['obama']}")
        b.wait(lambda: len(b.grid_cell_ids()) == 3, "Obama's photos")
        b.click(tid("person-more"))
        b.wait_visible(tid("person-menu-merge"))
        audit(b, "a person's page on a phone, with its menu")
    finally:
        b.set_viewport(1440, 900)
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        b.open_app("#/people")
        b.wait(lambda: len(b.find_all(tid("person-card"))) == 2, "the people")
        audit(b, "People in dark mode")
        b.open_app(f"#/photo/{faces['ids'][0]}")
        b.wait_image(tid("detail-image"))
        b.click(tid("detail-faces"))
        b.click(tid("face-box"))
        b.wait_visible(tid("face-popover"))
        audit(b, "a face's panel in dark mode")
    finally:
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_faces_switch_and_faces_off(faces, library):
    b, api = library["browser"], library["owner"]
    b.open_app("#/settings")
    b.wait(lambda: b.find(tid("faces-switch")).is_enabled(), "the Faces switch")
    audit(b, "Settings with the Faces switch")
    b.click(tid("faces-switch"))
    b.wait_visible(tid("faces-off-dialog"))
    audit(b, "the dialog before faces are turned off")
    b.click(f'{tid("faces-off-dialog")} {tid("confirm-ok")}')
    b.wait(lambda: api.json("GET", "/api/v1/people/status")["enabled"] is False, "faces off")
    library.pop("faces")
    b.open_app("#/people")
    b.wait_visible(tid("people-enable"))
    audit(b, "People with faces off")
    api.json("PUT", "/api/v1/people/settings", {"enabled": True})


def test_phone_library_and_menu(library):
    b = library["browser"]
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        b.wait_cell_thumbnail(library["ids"][0])
        audit(b, "the library on a phone")
        b.click(tid("menu-button"))
        b.wait(lambda: b.find(tid("nav-library")).is_displayed(), "the menu drawer")
        audit(b, "the phone's menu drawer")
    finally:
        b.set_viewport(1440, 900)


def test_share_pages(library):
    s = library["server"]
    b = Browser(s.base, camera="none", label="a11y-stranger")
    try:
        b.driver.get(library["photo_link"]["url"])
        b.wait_image(tid("share-image"))
        audit(b, "the share page of a photo")
        b.driver.get(library["album_link"]["url"])
        b.wait_visible(tid("share-cell"))
        audit(b, "the share page of an album")
        b.click(tid("share-cell"))
        b.wait_image(tid("share-viewer-image"))
        audit(b, "the share page's viewer")
        library["owner"].call("DELETE", f"/api/v1/shares/{library['album_link']['id']}")
        b.driver.get(library["album_link"]["url"])
        b.wait_visible(tid("share-problem"))
        audit(b, "the page of a revoked link")
    finally:
        b.quit()


@pytest.fixture
def dark(library):
    b = library["browser"]
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    yield b
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_dark_mode_library_and_dialog(dark, library):
    b = dark
    b.open_app("#/library")
    b.wait_cell_thumbnail(library["ids"][0])
    assert b.js("return matchMedia('(prefers-color-scheme: dark)').matches")
    audit(b, "the library in dark mode")
    b.click(tid("selection-toggle"))
    b.click(b.cell_css(library["ids"][0]))
    b.click(tid("selection-delete"))
    b.wait_visible(tid("delete-dialog"))
    audit(b, "the delete dialog in dark mode")


def test_dark_mode_detail_and_editor(dark, library):
    b = dark
    b.open_app(f"#/photo/{library['ids'][0]}")
    b.wait_image(tid("detail-image"))
    if b.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        b.click(tid("detail-info"))
    b.wait_visible(tid("info-panel"))
    audit(b, "the photo with its info in dark mode")
    b.open_app(f"#/edit/{library['ids'][2]}")
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    audit(b, "the editor in dark mode")


def test_dark_mode_settings_and_sign_in(dark):
    b = dark
    b.open_app("#/settings")
    b.wait_visible(tid("user-row"))
    audit(b, "Settings in dark mode")
    b.click(tid("sign-out"))
    b.wait_visible(tid("login-form"))
    try:
        b.type(tid("login-username"), "owner")
        b.type(tid("login-password"), "wrong password")
        b.click(tid("login-submit"))
        b.wait_visible(tid("login-error"))
        audit(b, "the sign-in page with an error in dark mode")
    finally:
        b.sign_in()
