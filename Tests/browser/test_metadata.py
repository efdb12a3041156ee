"""Info's metadata: correct a photo's date and place, set its title, keywords and rating, find it by keyword;
Adjust Date & Time for a selection; on a desktop window and on a phone."""

import re

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import tid


def open_info(b, asset_id):
    b.go(f"#/photo/{asset_id}")
    b.wait_visible(tid("detail"))
    if b.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        b.click(tid("detail-info"))
    b.wait_visible(tid("info-metadata"))


def edit_photo(b, api, asset_id, keyword):
    open_info(b, asset_id)
    # A title, saved on Enter.
    b.type(tid("info-title"), "Harbour at dawn\n")
    b.wait(lambda: api.asset(asset_id)["title"] == "Harbour at dawn", "the title to be saved")
    # Keywords: a hierarchical one and a plain one, added with Enter; one removed again.
    b.type(tid("info-keyword-input"), f"Places|Norway|{keyword}\n")
    b.wait(lambda: api.asset(asset_id)["keywords"] == [f"Places|Norway|{keyword}"], "the first keyword")
    b.type(tid("info-keyword-input"), "Boats\n")
    b.wait(lambda: api.asset(asset_id)["keywords"] == [f"Places|Norway|{keyword}", "Boats"], "a second keyword")
    b.wait(lambda: "Boats" in b.text(tid("info-keywords")), "the keyword shown")
    b.type(tid("info-keyword-input"), "Mistake\n")
    b.wait(lambda: api.asset(asset_id)["keywords"] == [f"Places|Norway|{keyword}", "Boats", "Mistake"], "a third keyword")
    b.wait(lambda: "Mistake" in b.text(tid("info-keywords")), "the keyword shown")
    b.click(f'{tid("info-keywords")} button[aria-label="Remove keyword Mistake"]')
    b.wait(lambda: api.asset(asset_id)["keywords"] == [f"Places|Norway|{keyword}", "Boats"], "the keyword removed")
    # Four stars.
    b.click(tid("info-star-4"))
    b.wait(lambda: api.asset(asset_id)["rating"] == 4, "the rating")
    b.wait(lambda: b.find(tid("info-star-4")).get_attribute("aria-pressed") == "true", "four stars shown")

    # Adjust Date & Time: a new date, time and zone.
    b.click(tid("info-adjust-date"))
    b.wait_visible(tid("adjust-date-dialog"))
    b.js("""const set = (sel, v) => { const e = document.querySelector(sel); e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); };
            set('[data-testid="adjust-date"]', '2019-06-21'); set('[data-testid="adjust-time"]', '05:30:15');
            const z = document.querySelector('[data-testid="adjust-zone"]'); z.value = '7200'; z.dispatchEvent(new Event('change', {bubbles: true}));""")
    b.click(tid("adjust-ok"))
    b.wait_gone(tid("adjust-date-dialog"))
    asset = api.asset(asset_id)
    assert asset["localCreationDate"] == "2019-06-21T05:30:15+02:00", asset
    assert asset["creationDateEdited"] and asset["file"]["creationDate"], asset
    b.wait(lambda: "Original:" in b.text(tid("info-date-original")), "the file's date shown beside")
    assert "UTC+02:00" in b.text(tid("info-date-text")), b.text(tid("info-date-text"))

    # The place: coordinates, saved; the file's (none) shown beside.
    b.click(tid("info-edit-location"))
    b.wait_visible(tid("location-dialog"))
    b.type(tid("location-latitude"), "69.6492")
    b.type(tid("location-longitude"), "18.9553")
    b.click(tid("location-ok"))
    b.wait_gone(tid("location-dialog"))
    b.wait(lambda: (api.asset(asset_id)["location"] or {}).get("latitude") == 69.6492, "the location to be saved")
    b.wait(lambda: re.search(r"69.*N.*18.*E", b.text(tid("info-place-text"))), "the place shown")
    # A bad latitude is refused in the dialog, with a message, and nothing is sent.
    b.click(tid("info-edit-location"))
    b.wait_visible(tid("location-dialog"))
    b.type(tid("location-latitude"), "123")
    b.click(tid("location-ok"))
    b.wait(lambda: "latitude" in b.text(tid("location-error")), "the latitude error")
    b.click(f'{tid("location-dialog")} .dialog-x')
    assert api.asset(asset_id)["location"]["latitude"] == 69.6492


def find_by_keyword(b, asset_id, keyword):
    b.go("#/library")
    b.wait_library()
    b.click(tid("search-open"))
    b.wait_visible(tid("search-input"))
    b.type(tid("search-input"), keyword.lower() + "\n")
    b.wait(lambda: "#/search/" in b.driver.current_url, "the search screen")
    b.wait_cell(asset_id)
    b.wait(lambda: b.grid_cell_ids() == [asset_id], "only the photo with that keyword")


def test_correct_date_and_place_set_title_keywords_rating_and_find(app, photos, browser_api, screenshot):
    asset_id, other = photos.upload(2)
    edit_photo(app, browser_api, asset_id, "Tromsø")
    screenshot(app, "web-metadata-info")
    app.click(tid("info-adjust-date"))
    app.wait_visible(tid("adjust-date-dialog"))
    screenshot(app, "web-metadata-adjust-date")
    app.click(f'{tid("adjust-date-dialog")} .dialog-x')
    # Revert the place to the file's (none), then set it again through the API for the search screenshot.
    app.click(tid("info-remove-location"))
    app.wait(lambda: browser_api.asset(asset_id)["location"] is None, "the location removed")
    app.wait(lambda: app.text(tid("info-place-text")) == "No location", "no location shown")

    find_by_keyword(app, asset_id, "Tromsø")
    screenshot(app, "web-metadata-search")
    # A level of the hierarchy finds it too; a keyword nobody has finds nothing.
    app.go("#/search/" + "norway")
    app.wait_cell(asset_id)
    app.go("#/search/" + "no-such-keyword")
    app.wait_visible(tid("empty-state"))
    assert other not in app.grid_cell_ids()
    assert not app.console_errors()


def test_adjust_date_and_time_of_a_selection(app, photos, browser_api):
    first, second = photos.upload(2)
    browser_api.json("PATCH", f"/api/v1/assets/{first}", {"creationDate": "2030-01-01T10:00:00-05:00"})
    browser_api.json("PATCH", f"/api/v1/assets/{second}", {"creationDate": "2030-01-02T10:00:00+09:00"})
    app.open_app("#/recents")
    app.wait_cell(first)
    app.click(tid("selection-toggle"))
    app.click(app.cell_css(first))
    app.click(app.cell_css(second))
    app.click(tid("selection-adjust-date"))
    app.wait_visible(tid("adjust-date-dialog"))
    # The first (earliest) photo moves from 10:00 to 12:30 the same day: both move by 2 h 30 min, each in its zone.
    app.js("""const e = document.querySelector('[data-testid="adjust-time"]'); e.value = '12:30:00';
              e.dispatchEvent(new Event('input', {bubbles: true}));""")
    app.click(tid("adjust-ok"))
    app.wait_toast("Adjusted the date and time of 2 photos")
    assert browser_api.asset(first)["localCreationDate"] == "2030-01-01T12:30:00-05:00"
    assert browser_api.asset(second)["localCreationDate"] == "2030-01-02T12:30:00+09:00"


def test_metadata_on_a_phone(app, photos, browser_api, screenshot):
    (asset_id,) = photos.upload(1)
    app.set_viewport(375, 812, mobile=True)
    try:
        app.open_app("#/library")
        open_info(app, asset_id)
        app.type(tid("info-title"), "On a phone\n")
        app.wait(lambda: browser_api.asset(asset_id)["title"] == "On a phone", "the title")
        app.type(tid("info-keyword-input"), "PhoneKeyword\n")
        app.wait(lambda: browser_api.asset(asset_id)["keywords"] == ["PhoneKeyword"], "the keyword")
        app.click(tid("info-star-5"))
        app.wait(lambda: browser_api.asset(asset_id)["rating"] == 5, "the rating")
        # Every control is within the phone's width.
        overflow = app.js("""return [...document.querySelectorAll('[data-testid="info-metadata"] *')]
            .filter(e => e.offsetParent && e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.outerHTML.slice(0, 80));""")
        assert overflow == [], overflow
        screenshot(app, "web-metadata-phone")
        find_by_keyword(app, asset_id, "PhoneKeyword")
    finally:
        app.set_viewport(1440, 900)


def type_keys(b, text: str):
    """Keys typed into whatever has the focus, as a person types them (no element chosen first)."""
    ActionChains(b.driver).send_keys(text).perform()


def test_typing_in_info_stays_in_its_field_and_never_reaches_the_viewers_shortcuts(app, photos, browser_api):
    (asset_id,) = photos.upload(1)
    open_info(app, asset_id)
    app.record_requests()
    history = browser_api.edit(asset_id)
    asset_url = f"/api/v1/assets/{asset_id}"

    def saved_and_echoed():
        """The save's answer, then the change stream's echo of it (the view reads the photo again), handled."""
        patch = app.wait_answered("PATCH", asset_url)
        app.wait_answered("GET", asset_url, after=patch["end"])

    def nothing_triggered():
        assert app.find(tid("detail-info")).get_attribute("aria-pressed") == "true", "I closed Info"
        assert not app.present(".detail-screen.rotating") and not any("Rotated" in t for t in app.toast_texts()), "R rotated the photo"

    # A keyword added with Enter, and typing on at once: the next letters go on into the field — not to R
    # (rotate) and I (Info) — while it is saved and after the server's change comes back.
    app.click(tid("info-keyword-input"))
    type_keys(app, "beach\nriver")
    app.wait(lambda: browser_api.asset(asset_id)["keywords"] == ["beach"], "the keyword saved")
    saved_and_echoed()
    nothing_triggered()
    assert app.focused() == {"testid": "info-keyword-input", "tag": "INPUT", "value": "river"}, app.focused()
    type_keys(app, "s")
    assert app.focused()["value"] == "rivers"
    nothing_triggered()

    # The title: Enter saves it and the field keeps the focus; what is typed next goes into it.
    app.click(tid("info-title"))
    type_keys(app, "Harbour\n")
    app.wait(lambda: browser_api.asset(asset_id)["title"] == "Harbour", "the title saved")
    saved_and_echoed()
    type_keys(app, " in fog")
    assert app.focused() == {"testid": "info-title", "tag": "INPUT", "value": "Harbour in fog"}, app.focused()
    nothing_triggered()

    # A star pressed: the focus stays on it, and letters typed there are no shortcut either.
    app.click(tid("info-star-3"))
    app.wait(lambda: browser_api.asset(asset_id)["rating"] == 3, "the rating saved")
    saved_and_echoed()
    assert app.focused()["testid"] == "info-star-3", app.focused()
    type_keys(app, "rif")
    nothing_triggered()
    assert app.find(tid("detail-favorite")).get_attribute("aria-pressed") == "false", "F made it a favourite"

    # The photo was neither rotated nor made a favourite: its edit history is as it was.
    asset = browser_api.asset(asset_id)
    assert not asset["hasAdjustments"] and not asset["isFavorite"] and asset["rating"] == 3, asset
    assert browser_api.edit(asset_id) == history


def test_search_follows_the_typing(app, photos, browser_api):
    harbour, hill, other = photos.upload(3)
    browser_api.json("PATCH", f"/api/v1/assets/{harbour}", {"addKeywords": ["Quillon Harbour"]})
    browser_api.json("PATCH", f"/api/v1/assets/{hill}", {"addKeywords": ["Quillon Hill"]})
    app.click(tid("search-open"))
    app.wait_visible(tid("search-input"))
    # Nothing typed yet: a word on what to type, not the whole library as if everything matched.
    app.wait(lambda: app.visible(tid("empty-state")) and "Search" in app.text(tid("empty-state")), "what to type")
    assert app.grid_cell_ids() == []
    assert app.focused()["testid"] == "search-input"

    # The results follow the typing, without Enter, and the address keeps the words (a reload shows the same).
    app.record_requests()
    type_keys(app, "quillon h")
    app.wait(lambda: sorted(app.grid_cell_ids()) == sorted([harbour, hill]), "both photos while typing")
    type_keys(app, "ar")
    app.wait(lambda: app.grid_cell_ids() == [harbour], "only the harbour")
    app.wait(lambda: app.driver.current_url.endswith("#/search/quillon%20har"), "the words in the address")
    assert app.focused() == {"testid": "search-input", "tag": "INPUT", "value": "quillon har"}, "the field keeps the focus"
    # Typing quickly sends fewer searches than keys, and no answer to older words arrives after newer words
    # were asked for, unless it was cancelled.
    # The count asks for the same words with "videos" added: that request is not one of the typing's.
    searches = [r for r in app.requests("GET", "/api/v1/search?") if "videos" not in r["url"]]
    assert 1 <= len(searches) < len("quillon har"), searches
    for older, newer in zip(searches, searches[1:]):
        assert older["aborted"] or older["end"] <= newer["start"], (older, newer)
    assert "q=quillon%20har" in searches[-1]["url"], searches[-1]

    # Emptied: back to the word on what to type.
    type_keys(app, Keys.BACKSPACE * len("quillon har"))
    app.wait(lambda: app.visible(tid("empty-state")) and app.grid_cell_ids() == [], "the empty search")
    assert other not in app.grid_cell_ids()
