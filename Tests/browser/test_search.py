"""The one search box, on a library of its own: a dinner titled "Dinner with Julià" (a favourite, July 2023, the
keyword "Lisbon trip"), a photo taken in Lisbon (its place from EXIF's GPS fields; August 2023; in the album "Lisbon
weekend"), one taken in Munich (December 2022) and cherry blossoms (a favourite, April 2023). Then, as a person
would: the photos follow the typing ("juli" finds Julià's dinner before Enter, with fewer searches than keys and
no older answer shown after a newer one); "summer 2023" and "favorites" find theirs, newest first, with the count
and how the words were read; words nothing has say so calmly, with what one can search for; "lis" offers Lisbon
under Places, the keyword and the album, which the arrow keys go through (ARIA's combobox: the option chosen is the
field's active descendant), Escape closes and Enter takes — Lisbon's page; a keyword taken by the pointer replaces
the word typed and searches; an album opens its page. axe checks the open suggestions, and at a phone's size
nothing overflows sideways while they are open.
"""

from __future__ import annotations


import pytest
from selenium.webdriver.common.keys import Keys

from sepia_browser import Browser, photo_bytes, tid, own_site
from test_accessibility import audit
from test_places import LISBON, MUNICH, located_photo


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own, with the four photos and the album."""
    with own_site(tmp_path_factory, "search") as (s, api, b):
        ids = {
            "dinner": api.upload(photo_bytes(9201), "IMG_0001.jpg")["id"],
            "lisbon": api.upload(located_photo(9202, *LISBON), "IMG_0002.jpg")["id"],
            "munich": api.upload(located_photo(9203, *MUNICH), "IMG_0003.jpg")["id"],
            "blossoms": api.upload(photo_bytes(9204), "IMG_0004.jpg")["id"],
        }
        for name, changes in {
            "dinner": {"title": "Dinner with Julià", "keywords": ["Lisbon trip"], "creationDate": "2023-07-02T20:00:00+01:00", "isFavorite": True},
            "lisbon": {"title": "Tram 28", "creationDate": "2023-08-10T11:00:00+01:00"},
            "munich": {"title": "Christmas market", "creationDate": "2022-12-24T18:00:00+01:00"},
            "blossoms": {"title": "Cherry blossoms", "creationDate": "2023-04-01T09:00:00+02:00", "isFavorite": True},
        }.items():
            api.json("PATCH", f"/api/v1/assets/{ids[name]}", changes)
        album = api.create_album("Lisbon weekend", [ids["lisbon"]])
        lisbon = next(x["id"] for c in api.json("GET", "/api/v1/places")["countries"] for x in c["cities"] if x["city"] == "Lisbon")
        state = {"server": s, "api": api, "browser": b, "ids": ids, "album": album["id"], "lisbon": lisbon}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


def search_for(b: Browser, text: str):
    """Replaces the field's words with `text`, typed."""
    field = b.find(tid("search-input"))
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    field.send_keys(text)


def suggestions(b: Browser) -> list[dict]:
    """The suggestions as drawn: each with its section, kind, text and whether it is the one chosen."""
    return b.js("""return [...document.querySelectorAll('[data-testid="search-suggestion"]')].map((o) => ({
        section: document.getElementById(o.closest('[role="group"]').getAttribute('aria-labelledby')).textContent,
        kind: o.dataset.kind, value: o.dataset.value, text: [...o.querySelectorAll('.combo-label, .combo-detail')].map((t) => t.textContent).join(' | '),
        chosen: o.getAttribute('aria-selected') === 'true'}));""")


def combobox(b: Browser) -> dict:
    """The field's combobox state: expanded, the chosen option's text (through aria-activedescendant), the list's role."""
    return b.js("""const i = document.querySelector('[data-testid="search-input"]');
        const list = document.getElementById(i.getAttribute('aria-controls'));
        const active = i.getAttribute('aria-activedescendant');
        return {role: i.getAttribute('role'), expanded: i.getAttribute('aria-expanded'), listRole: list && list.getAttribute('role'),
                listShown: !!list && !list.hidden, active: active ? document.getElementById(active)?.querySelector('.combo-label').textContent ?? 'missing' : null};""")


def terms(b: Browser) -> list[str]:
    """The chips of how the words were read, each as its label and detail ("Summer 2023 | June to August")."""
    return b.js("""return [...document.querySelectorAll('[data-testid="search-term"]')]
        .map((t) => [...t.querySelectorAll('span')].map((s) => s.textContent).join(' | '));""")


# ------------------------------------------------------------------------------------ results


def test_the_photos_follow_the_typing_and_say_how_the_words_were_read(site, b):
    ids = site["ids"]
    b.open_app("#/search/")
    # Nothing typed yet: a word on what to type, and the field has the focus.
    b.wait(lambda: b.visible(tid("empty-state")) and "Search your photos" in b.text(tid("empty-state")), "what to type")
    b.wait(lambda: (b.focused() or {}).get("testid") == "search-input", "the focus in the field")
    assert b.grid_cell_ids() == []

    # "juli" finds "Dinner with Julià" (accents folded, the start of a word) as it is typed, without Enter.
    b.record_requests()
    b.press("juli")
    b.wait(lambda: b.grid_cell_ids() == [ids["dinner"]], "Julià's dinner while typing")
    b.wait(lambda: b.text(tid("photo-count")) == "1 photo", "the count")
    assert b.driver.current_url.endswith("#/search/juli")
    assert b.focused() == {"testid": "search-input", "tag": "INPUT", "value": "juli"}, "the field keeps the focus"
    # Fewer searches than keys, and no answer to older words after newer words were asked for, unless cancelled.
    searches = [r for r in b.requests("GET", "/api/v1/search?") if "videos" not in r["url"]]
    assert 1 <= len(searches) < len("juli"), searches
    for older, newer in zip(searches, searches[1:]):
        assert older["aborted"] or older["end"] <= newer["start"], (older, newer)
    assert "q=juli" in searches[-1]["url"], searches[-1]
    assert not b.present(tid("search-term")), "words alone need no reading"

    # A season of a year: the two summer photos, newest first, read as "Summer 2023".
    search_for(b, "summer 2023")
    b.wait(lambda: b.grid_cell_ids() == [ids["lisbon"], ids["dinner"]], "the summer's photos, newest first")
    b.wait(lambda: b.text(tid("photo-count")) == "2 photos", "their count")
    assert terms(b) == ["Summer 2023 | June to August"], terms(b)
    assert b.driver.current_url.endswith("#/search/summer%202023")

    # A kind: the favourites; and a kind with a month.
    search_for(b, "favorites")
    b.wait(lambda: b.grid_cell_ids() == [ids["dinner"], ids["blossoms"]], "the favourites, newest first")
    assert terms(b) == ["Favorites"], terms(b)
    search_for(b, "favorites apr 2023")
    b.wait(lambda: b.grid_cell_ids() == [ids["blossoms"]], "April's favourite")
    b.wait(lambda: terms(b) == ["Favorites", "April 2023"], "the kind and the month read")

    # Nothing found: said calmly (no alert), with what one can search for.
    search_for(b, "zebra")
    b.wait(lambda: b.visible(tid("empty-state")) and "No results for “zebra”" in b.text(tid("empty-state")), "no results")
    text = b.text(tid("empty-state"))
    assert "places" in text and "favorites" in text and "summer 2023" in text, text
    assert not b.present(f'{tid("empty-state")}[role="alert"]')
    assert b.grid_cell_ids() == []


# ------------------------------------------------------------------------------------ suggestions


def test_suggestions_by_keyboard_and_by_pointer(site, b, screenshot):
    b.open_app("#/search/")
    b.wait(lambda: (b.focused() or {}).get("testid") == "search-input", "the focus in the field")
    b.press("lis")
    b.wait(lambda: [(s["section"], s["kind"], s["text"]) for s in suggestions(b)] == [
        ("Places", "place", "Lisbon | Portugal · 1 photo"), ("Keywords", "keyword", "Lisbon trip"), ("Albums", "album", "Lisbon weekend"),
    ], "Lisbon, the keyword and the album offered")
    assert combobox(b) == {"role": "combobox", "expanded": "true", "listRole": "listbox", "listShown": True, "active": None}
    # The photos follow too: Lisbon's (its place, its album) and the dinner (its keyword).
    b.wait(lambda: sorted(b.grid_cell_ids()) == sorted([site["ids"]["lisbon"], site["ids"]["dinner"]]), "what “lis” finds")
    screenshot(b, "web-search-desktop")

    # ↓ ↓ ↑: the place is chosen again; the field keeps the focus and what is typed.
    b.press(Keys.ARROW_DOWN)
    b.wait(lambda: combobox(b)["active"] == "Lisbon", "Lisbon chosen")
    b.press(Keys.ARROW_DOWN)
    assert combobox(b)["active"] == "Lisbon trip"
    assert [s["chosen"] for s in suggestions(b)] == [False, True, False]
    b.press(Keys.ARROW_UP)
    assert combobox(b)["active"] == "Lisbon"
    assert b.focused() == {"testid": "search-input", "tag": "INPUT", "value": "lis"}
    audit(b, "the search box's suggestions")

    # Escape closes them (the words stay); ↓ opens them again with the first chosen; Enter takes it: Lisbon's page.
    b.press(Keys.ESCAPE)
    b.wait(lambda: combobox(b)["expanded"] == "false" and not combobox(b)["listShown"], "the suggestions closed")
    assert b.find(tid("search-input")).get_attribute("value") == "lis"
    b.press(Keys.ARROW_DOWN)
    b.wait(lambda: combobox(b)["active"] == "Lisbon", "the suggestions again, Lisbon chosen")
    b.press(Keys.ENTER)
    b.wait(lambda: b.driver.current_url.endswith(f"#/places/{site['lisbon']}"), "Lisbon's page")
    b.wait(lambda: b.text(tid("screen-title")) == "Lisbon, Portugal", "the city's name")

    # Back: the search as it was left.
    b.driver.back()
    b.wait(lambda: b.present(tid("search-input")) and b.find(tid("search-input")).get_attribute("value") == "lis", "the search again")

    # A keyword, by the pointer: its words take the typed word's place, and the search goes out at once.
    b.click(tid("search-input"))
    b.press(Keys.END, "b")
    b.wait(lambda: any(s["kind"] == "keyword" for s in suggestions(b)), "the keyword offered for “lisb”")
    b.click(tid("search-suggestion", **{"data-kind": "keyword"}))
    b.wait(lambda: b.find(tid("search-input")).get_attribute("value") == "Lisbon trip ", "the keyword in the field")
    b.wait(lambda: b.grid_cell_ids() == [site["ids"]["dinner"]], "the photo with the keyword")
    assert b.driver.current_url.endswith("#/search/Lisbon%20trip")
    assert not combobox(b)["listShown"]
    assert (b.focused() or {}).get("testid") == "search-input"

    # An album opens its page.
    b.press("week")
    b.click(tid("search-suggestion", **{"data-kind": "album"}))
    b.wait(lambda: b.driver.current_url.endswith(f"#/album/{site['album']}"), "the album's page")
    b.wait(lambda: b.text(tid("screen-title")) == "Lisbon weekend", "the album's title")


# ------------------------------------------------------------------------------------ phone


def test_search_and_its_suggestions_on_a_phone(site, b, screenshot):
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        b.click(tid("search-open"))
        b.wait(lambda: (b.focused() or {}).get("testid") == "search-input", "the search field")
        b.press("lis")
        b.wait(lambda: len(suggestions(b)) == 3, "the suggestions on the phone")
        b.wait(lambda: len(b.grid_cell_ids()) == 2, "what “lis” finds on the phone")
        b.assert_no_sideways_overflow()
        for css in (tid("search-input"), tid("search-suggestions"), tid("search-suggestion", **{"data-kind": "album"})):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        audit(b, "the search box's suggestions on a phone")
        screenshot(b, "web-search-phone")
        # Enter with nothing chosen closes them and searches at once; a long search nothing has wraps, not widens.
        b.press(Keys.ENTER)
        b.wait(lambda: not combobox(b)["listShown"], "the suggestions closed")
        search_for(b, "verylongwordthatnothinghas" * 4)
        b.wait(lambda: b.visible(tid("empty-state")) and "No results" in b.text(tid("empty-state")), "no results on the phone")
        b.assert_no_sideways_overflow()
        assert b.js("const s = document.querySelector('[data-testid=\"grid-scroller\"]'); return s.scrollWidth <= s.clientWidth")
    finally:
        b.set_viewport(1440, 900)
