"""Smart albums from searches, on a library of their own: two beach photos (one titled "Beach day", one with the keyword
"Beach"), a city at night and a forest walk. Then, as a person would: the search screen offers Save as Smart Album only
once there are words; "beach", saved by the keyboard alone (Tab to the button, Enter, a title typed over the words,
Enter), says so in a message and is listed in the sidebar under Smart Albums with its count; opened, it is titled
with its name and shows what the search shows, newest first, in the same grid; a beach photo added through the API
joins it at once (the change stream), and the sidebar counts it, while a photo of something else does not. Rename
and Edit Query change the title, and the photos (a query that reads as nothing is refused in the server's words,
under the field); Delete takes it away at once, with Undo, which saves it again. At a phone's size the smart album is
in the menu, its page fits with its actions in a menu, and the search screen's Save button is seen. axe checks the
search screen, the dialog, the smart album and the phone's page.
"""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.keys import Keys

from sepia_browser import Browser, photo_bytes, tid, own_site
from test_accessibility import audit


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own, with the four photos."""
    with own_site(tmp_path_factory, "saved-searches") as (s, api, b):
        ids = {name: api.upload(photo_bytes(9300 + i), f"IMG_{9300 + i}.jpg")["id"]
               for i, name in enumerate(["beach_day", "beach_sunset", "city", "forest"])}
        for name, changes in {
            "beach_day": {"title": "Beach day", "creationDate": "2024-07-02T11:00:00+01:00"},
            "beach_sunset": {"title": "Sunset", "keywords": ["Beach"], "creationDate": "2024-08-15T20:30:00+01:00"},
            "city": {"title": "City lights", "creationDate": "2024-03-09T22:00:00+01:00"},
            "forest": {"title": "Forest walk", "creationDate": "2024-10-20T10:00:00+02:00"},
        }.items():
            api.json("PATCH", f"/api/v1/assets/{ids[name]}", changes)
        state = {"server": s, "api": api, "browser": b, "ids": ids, "seed": 9400}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


# ------------------------------------------------------------------------------------ helpers


def saved_searches(api) -> list[dict]:
    return api.json("GET", "/api/v1/searches")["searches"]


def save_search(api, title: str, query: str) -> dict:
    """A smart album saved through the API (for a test that is about something else)."""
    return api.json("POST", "/api/v1/searches", {"title": title, "query": query}, expect=(201,))


def delete_all(api):
    for s in saved_searches(api):
        api.json("DELETE", f"/api/v1/searches/{s['id']}", expect=(204,))


def in_sidebar(b: Browser) -> list[dict]:
    """The smart albums the sidebar lists, in order: id, title, count and whether it is the page shown."""
    return b.js("""return [...document.querySelectorAll('[data-testid="nav-smart-album"]')].map((a) => ({
        id: a.dataset.searchId, title: a.querySelector('.nav-text').textContent, count: a.querySelector('.nav-count').textContent,
        current: a.getAttribute('aria-current') === 'page'}));""")


def focused(b: Browser) -> dict | None:
    return b.js("""const e = document.activeElement; return e && e !== document.body
        ? {testid: e.dataset.testid || null, tag: e.tagName, value: 'value' in e ? e.value : null} : null;""")


def click_undo(b: Browser, pattern: str):
    """Presses Undo on the message that matches `pattern` (not on another one still shown)."""
    b.wait_toast(pattern)
    rx = re.compile(pattern)

    def button():
        for t in b.find_all(".toast"):
            if rx.search(t.text):
                return next(iter(b.find_all(".toast-action", t)), None)
        return None
    b.wait(button, f"Undo on the message {pattern!r}").click()


def answer_prompt(b: Browser, dialog: str, text: str):
    """Types `text` over what the dialog's field holds and presses Enter."""
    b.wait_visible(tid(dialog))
    b.wait(lambda: (focused(b) or {}).get("testid") == "prompt-input", "the dialog's field to have the focus")
    field = b.find(f'{tid(dialog)} {tid("prompt-input")}')
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text, Keys.ENTER)


def add_beach_photo(site, title: str, keywords: list[str]) -> str:
    site["seed"] += 1
    api = site["api"]
    asset = api.upload(photo_bytes(site["seed"]), f"IMG_{site['seed']}.jpg")["id"]
    api.json("PATCH", f"/api/v1/assets/{asset}", {"title": title, "keywords": keywords, "creationDate": "2024-09-01T12:00:00+01:00"})
    return asset


# ------------------------------------------------------------------------------------ saving


def test_a_search_saved_as_a_smart_album_by_the_keyboard(site, b):
    api, ids = site["api"], site["ids"]
    delete_all(api)
    b.open_app("#/search/")
    b.wait(lambda: (focused(b) or {}).get("testid") == "search-input", "the focus in the field")
    assert not b.visible(tid("search-save")), "nothing to save before there are words"
    b.wait(lambda: [x["title"] for x in in_sidebar(b)] == [] and "No smart albums yet" in b.text(tid("sidebar-smart-albums")), "no smart albums yet")

    b.press("beach")
    b.wait(lambda: b.grid_cell_ids() == [ids["beach_sunset"], ids["beach_day"]], "the beach photos, newest first")
    b.wait_visible(tid("search-save"))
    audit(b, "the search screen with Save as Smart Album")

    # Tab goes from the field to Save as Smart Album; Enter asks for a title, the words given as the title.
    b.press(Keys.TAB)
    assert (focused(b) or {}).get("testid") == "search-save", focused(b)
    b.press(Keys.ENTER)
    b.wait_visible(tid("smart-album-save-dialog"))
    b.wait(lambda: focused(b) == {"testid": "prompt-input", "tag": "INPUT", "value": "beach"}, "the words as the title")
    assert "“beach”" in b.text(tid("smart-album-save-dialog"))
    audit(b, "the Save as Smart Album dialog")
    answer_prompt(b, "smart-album-save-dialog", "Beach days")
    b.wait_gone(tid("smart-album-save-dialog"))
    b.wait_toast("Saved as the smart album “Beach days”")
    assert (focused(b) or {}).get("testid") == "search-save", "the focus back on the button"

    saved = saved_searches(api)
    assert [(s["title"], s["query"], s["assetCount"]) for s in saved] == [("Beach days", "beach", 2)], saved
    b.wait(lambda: in_sidebar(b) == [{"id": saved[0]["id"], "title": "Beach days", "count": "2", "current": False}], "the smart album in the sidebar")
    # The search stays as it was.
    assert b.driver.current_url.endswith("#/search/beach")
    assert b.grid_cell_ids() == [ids["beach_sunset"], ids["beach_day"]]


def test_a_smart_album_shows_what_its_search_finds_now(site, b, screenshot):
    api, ids = site["api"], site["ids"]
    delete_all(api)
    saved = save_search(api, "Beach days", "beach")
    b.open_app("#/library")
    b.wait(lambda: [x["title"] for x in in_sidebar(b)] == ["Beach days"], "the smart album in the sidebar")
    b.click(tid("nav-smart-album", **{"data-search-id": saved["id"]}))

    b.wait(lambda: b.driver.current_url.endswith(f"#/searches/{saved['id']}"), "the smart album's page")
    b.wait(lambda: b.text(tid("screen-title")) == "Beach days", "its title")
    b.wait(lambda: b.grid_cell_ids() == [ids["beach_sunset"], ids["beach_day"]], "its photos, newest first")
    b.wait(lambda: b.text(tid("photo-count")) == "2 photos", "their count")
    assert b.js("return document.title") == "Beach days — Sepia"
    assert in_sidebar(b)[0]["current"], "the sidebar marks the page shown"
    assert b.find(tid("grid")).get_attribute("aria-label") == "Photos in Beach days"
    for cell in ids["beach_sunset"], ids["beach_day"]:
        b.wait_cell_thumbnail(cell)

    # A beach photo added elsewhere joins it at once, and the sidebar counts it; a photo of something else does not.
    volleyball = add_beach_photo(site, "Volleyball", ["Beach"])
    add_beach_photo(site, "Mountain hut", ["Alps"])
    b.wait(lambda: b.grid_cell_ids() == [volleyball, ids["beach_sunset"], ids["beach_day"]], "the new beach photo in the smart album")
    b.wait(lambda: b.text(tid("photo-count")) == "3 photos", "the new count")
    b.wait(lambda: in_sidebar(b)[0]["count"] == "3", "the sidebar's count")
    assert saved_searches(api)[0]["assetCount"] == 3
    b.wait_cell_thumbnail(volleyball)
    b.wait_grid_still()
    audit(b, "a smart album")
    screenshot(b, "web-smart-album-desktop")

    # A photo opened from it has its neighbours; closing it comes back to the smart album.
    b.click(b.cell_css(ids["beach_sunset"]))
    b.wait_image(tid("detail-image"))
    assert b.driver.current_url.endswith(f"#/photo/{ids['beach_sunset']}?savedSearch={saved['id']}")
    b.wait(lambda: b.visible(tid("detail-prev")) and b.visible(tid("detail-next")), "previous and next in the smart album")
    b.press(Keys.ESCAPE)
    b.wait_gone(tid("detail"))
    assert b.driver.current_url.endswith(f"#/searches/{saved['id']}")
    assert b.text(tid("screen-title")) == "Beach days"

    # The Albums screen lists it too, with its count.
    b.go("#/albums")
    b.wait(lambda: b.present(tid("smart-album-card", **{"data-search-id": saved["id"]})), "the smart album among the albums")
    assert "Beach days" in b.text(tid("smart-album-card")) and "3 photos" in b.text(tid("smart-album-card"))


# ------------------------------------------------------------------------------------ rename, edit, delete


def test_rename_edit_query_delete_and_undo(site, b):
    api, ids = site["api"], site["ids"]
    delete_all(api)
    saved = save_search(api, "Beach days", "beach")
    b.open_app(f"#/searches/{saved['id']}")
    b.wait(lambda: b.text(tid("screen-title")) == "Beach days", "the smart album")

    # Rename: the title, the sidebar and the server follow.
    b.click(tid("smart-album-rename"))
    b.wait(lambda: focused(b) == {"testid": "prompt-input", "tag": "INPUT", "value": "Beach days"}, "the name to edit")
    answer_prompt(b, "smart-album-rename-dialog", "Summer at the sea")
    b.wait_toast("renamed to “Summer at the sea”")
    b.wait(lambda: b.text(tid("screen-title")) == "Summer at the sea", "the new title")
    b.wait(lambda: [x["title"] for x in in_sidebar(b)] == ["Summer at the sea"], "the new name in the sidebar")
    assert saved_searches(api)[0]["title"] == "Summer at the sea"
    assert (focused(b) or {}).get("testid") == "smart-album-rename"

    # Edit Query: words that read as nothing are refused in the server's words, under the field; then the forest.
    b.click(tid("smart-album-edit-query"))
    answer_prompt(b, "smart-album-query-dialog", "?!")
    b.wait(lambda: b.visible(tid("prompt-error")) and "nothing to look for" in b.text(tid("prompt-error")), "the server's refusal")
    assert b.find(tid("prompt-input")).get_attribute("aria-invalid") == "true"
    audit(b, "the Edit Query dialog with a refusal")
    answer_prompt(b, "smart-album-query-dialog", "forest")
    b.wait_gone(tid("smart-album-query-dialog"))
    b.wait(lambda: b.grid_cell_ids() == [ids["forest"]], "what the new query finds")
    b.wait(lambda: in_sidebar(b)[0]["count"] == "1", "the sidebar's count")
    assert b.text(tid("screen-title")) == "Summer at the sea"
    assert [(s["title"], s["query"]) for s in saved_searches(api)] == [("Summer at the sea", "forest")]

    # Delete: at once, with Undo; the albums are shown.
    b.click(tid("smart-album-delete"))
    b.wait_toast("Smart album “Summer at the sea” deleted")
    b.wait(lambda: b.driver.current_url.endswith("#/albums"), "the albums after the deletion")
    b.wait(lambda: in_sidebar(b) == [], "the smart album gone from the sidebar")
    assert saved_searches(api) == []
    assert not b.present(tid("smart-album-card"))

    # Undo saves it again (the same title and query) and opens it.
    click_undo(b, "Smart album “Summer at the sea” deleted")
    b.wait_toast("restored")
    again = saved_searches(api)
    assert [(s["title"], s["query"], s["assetCount"]) for s in again] == [("Summer at the sea", "forest", 1)], again
    b.wait(lambda: b.driver.current_url.endswith(f"#/searches/{again[0]['id']}"), "the smart album again")
    b.wait(lambda: b.text(tid("screen-title")) == "Summer at the sea", "its title")
    b.wait(lambda: b.grid_cell_ids() == [ids["forest"]], "its photos")
    b.wait(lambda: [(x["title"], x["current"]) for x in in_sidebar(b)] == [("Summer at the sea", True)], "back in the sidebar")


# ------------------------------------------------------------------------------------ phone


def test_smart_albums_on_a_phone(site, b, screenshot):
    api = site["api"]
    delete_all(api)
    saved = save_search(api, "Beach days", "beach")
    b.set_viewport(375, 812, mobile=True)
    try:
        # Save as Smart Album is seen beside the field.
        b.open_app("#/search/beach")
        b.wait(lambda: len(b.grid_cell_ids()) >= 2, "what “beach” finds on the phone")
        seen = b.seen(tid("search-save"))
        assert seen["shown"] and seen["inside"] and seen["onTop"], seen
        b.assert_no_sideways_overflow()

        # The smart album is in the menu.
        b.open_app("#/library")
        b.click(tid("menu-button"))
        b.wait(lambda: b.seen(tid("nav-smart-album")).get("inside"), "the smart album in the menu")
        b.click(tid("nav-smart-album"))
        b.wait(lambda: b.driver.current_url.endswith(f"#/searches/{saved['id']}"), "the smart album's page")
        b.wait(lambda: b.text(tid("screen-title")) == "Beach days", "its title on the phone")
        b.wait(lambda: len(b.grid_cell_ids()) >= 2, "its photos on the phone")
        b.wait_grid_still()
        b.assert_no_sideways_overflow()
        # Its actions are in a menu; the title keeps its room, and ends before the buttons after it.
        assert not b.visible(tid("smart-album-rename"))
        for css in (tid("screen-title"), tid("smart-album-more"), tid("smart-album-back")):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        ends = b.js("""const r = (css) => document.querySelector(css).getBoundingClientRect();
            return [r('[data-testid="screen-title"]').right, r('[data-testid="search-open"]').left];""")
        assert ends[0] <= ends[1], f"the title runs under the buttons: {ends}"
        audit(b, "a smart album on a phone")
        screenshot(b, "web-smart-album-phone")

        # Rename from the menu, by the keyboard: ↓ opens it, the arrows choose, Enter takes.
        b.find(tid("smart-album-more")).send_keys(Keys.ARROW_DOWN)
        b.wait_visible(tid("smart-album-menu-rename"))
        b.wait(lambda: (focused(b) or {}).get("testid") == "smart-album-menu-rename", "Rename chosen")
        b.press(Keys.ENTER)
        answer_prompt(b, "smart-album-rename-dialog", "Sea")
        b.wait(lambda: b.text(tid("screen-title")) == "Sea", "the new title on the phone")
        assert saved_searches(api)[0]["title"] == "Sea"
    finally:
        b.set_viewport(1440, 900)
