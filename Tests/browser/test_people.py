"""People in the web app, on a library of its own with real faces: the corpus's photos of Barack Obama (three)
and Joe Biden (one), and three of dlib's face chips each of John Salley and John Savage. The server's background
job finds and groups them (Obama, Salley and Savage become people; Biden's one face waits unassigned), and the
People view shows them as they come. Then, as a person would: a name added in place, renamed (Escape cancels,
Enter saves, Undo puts the old one back); two people selected and merged, and the merge undone; Not this person
on a face in a photo, and the face given back by typing a name with the offered names; Biden's face named by
typing a new name; a person hidden and shown again; a person found by the search box; the People view, a
person's page and a photo's faces at a phone's size; and last the Faces switch in Settings turned off (which
deletes every face and name, after a confirmation) and on again.

Every wait is on a condition (the server's answers, the page's state); the waits for the indexing are long
because a debug build on two cores finds faces slowly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.keys import Keys

from sepia_browser import REPO, Browser, tid, own_site

FACES = REPO / ".build" / "testdata" / "faces"
JOHNS = Path("/usr/share/doc/libdlib19.1/examples/johns")
# How long the server may take to find and group the faces of the photos (debug build, two cores).
INDEXING = 300


def photo_files() -> dict[str, list[Path]]:
    johns = {who: sorted((JOHNS / who).glob("*.jpg"))[:3] for who in ("John_Salley", "John_Savage")}
    files = {"obama": [FACES / n for n in ("obama.jpg", "obama2.jpg", "obama3.jpg")], "biden": [FACES / "biden.jpg"],
             "salley": johns["John_Salley"], "savage": johns["John_Savage"]}
    missing = [str(p) for group in files.values() for p in group if not p.exists()]
    if missing or any(len(v) < 3 for k, v in files.items() if k != "biden"):
        pytest.fail(f"the face photos are missing (scripts/testdata, Debian's libdlib19.1): {missing}")
    return files


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own, with the photos uploaded and the people found."""
    with own_site(tmp_path_factory, "people") as (s, api, b):
        ids = {who: [api.upload(p, f"{who}-{i}.jpg")["id"] for i, p in enumerate(paths)] for who, paths in photo_files().items()}
        state = {"server": s, "api": api, "browser": b, "ids": ids}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


# ------------------------------------------------------------------------------------ the server's view


def faces_of(api, asset_id: str) -> list[dict]:
    return api.json("GET", f"/api/v1/assets/{asset_id}/faces")["faces"]


def face_of(api, asset_id: str) -> dict:
    faces = faces_of(api, asset_id)
    assert len(faces) == 1, f"{asset_id} has {len(faces)} faces: {faces}"
    return faces[0]


def listed(api, hidden=False) -> list[dict]:
    return api.json("GET", "/api/v1/people" + ("?hidden=true" if hidden else ""))["people"]


def person_of(api, asset_id: str) -> str | None:
    return face_of(api, asset_id)["personID"]


def people_found_now(site) -> dict[str, str] | None:
    """Obama's, Salley's and Savage's person when the server has grouped each one's photos into one person."""
    api = site["api"]
    who = {k: {person_of(api, i) for i in site["ids"][k]} for k in ("obama", "salley", "savage")}
    if any(len(v) != 1 or None in v for v in who.values()) or len({next(iter(v)) for v in who.values()}) != 3:
        return None
    return {k: next(iter(v)) for k, v in who.items()}


def people_found(site):
    """Waits until the server has grouped the faces: Obama's, Salley's and Savage's photos each one person's."""
    def grouped():
        try:
            return people_found_now(site)
        except AssertionError:  # a photo not indexed yet (no face)
            return None
    return site["browser"].wait(grouped, "the faces to be found and grouped into three people", INDEXING)


@pytest.fixture(scope="module")
def found(site) -> dict[str, str]:
    """The person of Obama, Salley and Savage (waits for the indexing the first time)."""
    if "people" not in site:
        site["people"] = people_found(site)
    return site["people"]


# ------------------------------------------------------------------------------------ the page


def card(pid: str) -> str:
    return tid("person-card", **{"data-person-id": pid})


def cards(b) -> list[dict]:
    return b.js("""return [...document.querySelectorAll('[data-testid="person-card"]')].map((c) => ({
        id: c.dataset.personId, name: c.querySelector('.person-name:not(.unnamed)')?.textContent || null,
        count: c.querySelector('.person-count')?.textContent || '', addName: !!c.querySelector('[data-testid="person-add-name"]'),
        face: !!c.querySelector('img.person-face') && c.querySelector('img.person-face').complete && c.querySelector('img.person-face').naturalWidth > 0}));""")


def open_people(b):
    b.open_app("#/people")
    b.wait_visible(tid("people-list"))


def tab_to(b, testid: str, limit: int = 30):
    """Presses Tab until the element with this data-testid has the keyboard's focus."""
    for _ in range(limit):
        if (b.focused() or {}).get("testid") == testid:
            return
        b.press(Keys.TAB)
    raise AssertionError(f"{testid} never got the focus with Tab; last: {b.focused()}")


def click_undo(b, pattern: str):
    """Presses Undo on the message that matches `pattern` (not on another one still shown)."""
    b.wait_toast(pattern)
    rx = re.compile(pattern)
    def button():
        for t in b.find_all(".toast"):
            if rx.search(t.text):
                return next(iter(b.find_all(".toast-action", t)), None)
        return None
    b.wait(button, f"Undo on the message {pattern!r}").click()


def confirm(b, dialog: str) -> str:
    text = b.wait_visible(tid(dialog)).text
    b.click(f'{tid(dialog)} {tid("confirm-ok")}')
    b.wait_gone(tid(dialog))
    return text


def face_boxes(b) -> list[dict]:
    return b.js("""return [...document.querySelectorAll('[data-testid="face-box"]')].map((f) => ({
        id: f.dataset.faceId, person: f.dataset.personId || null, name: f.querySelector('[data-testid="face-name"]').textContent,
        box: (({left, top, right, bottom}) => [left, top, right, bottom])(f.getBoundingClientRect())}));""")


def open_photo_with_faces(b, asset_id: str):
    b.open_app(f"#/photo/{asset_id}")
    b.wait_image(tid("detail-image"))
    if b.find(tid("detail-faces")).get_attribute("aria-pressed") != "true":
        b.press("f")
    b.wait(lambda: b.find(tid("detail-faces")).get_attribute("aria-pressed") == "true", "Faces to be on")
    b.wait(lambda: len(face_boxes(b)) == 1, "the photo's face outlined")


# ------------------------------------------------------------------------------------ tests


def test_people_view_shows_the_people_as_they_are_found(site, b, screenshot):
    api = site["api"]
    open_people(b)
    # While the job runs, the view says how far it has come (or that it is looking); then the people come, live.
    progress = set()
    def found_yet():
        if b.visible(tid("people-progress")):
            progress.add(b.js("return document.querySelector('[data-testid=\"people-progress\"]').textContent"))
        try:
            return people_found_now(site)
        except AssertionError:  # a photo not indexed yet (no face)
            return None
    found = b.wait(found_yet, "the faces to be found and grouped into three people", INDEXING)
    site["people"] = found
    for text in progress:
        assert re.fullmatch(r"Finding faces: \d+ of \d+ photos", text), text
    b.wait(lambda: {c["id"] for c in cards(b)} == set(found.values()), "the three people in People", 60)
    b.wait(lambda: all(c["face"] for c in cards(b)), "each person's face")
    for c in cards(b):
        assert c["name"] is None and c["addName"] and c["count"] == "3 photos", c
    assert b.text(tid("people-count")) == "3 people"
    # Each face crop is the person's key face, square.
    sizes = b.js("return [...document.querySelectorAll('img.person-face')].map((i) => [i.naturalWidth, i.naturalHeight])")
    assert all(w == h and w >= 128 for w, h in sizes), sizes
    b.wait(lambda: not b.visible(tid("people-progress")), "the indexing to finish", INDEXING)
    # Biden's single face is no one yet: a person needs several faces.
    assert face_of(api, site["ids"]["biden"][0])["personID"] is None
    screenshot(b, "web-people-desktop")


def test_name_in_place_then_rename_on_the_person_page(site, found, b, screenshot):
    api = site["api"]
    obama = found["obama"]
    open_people(b)
    b.wait_css(card(obama))
    b.click(f'{card(obama)} {tid("person-add-name")}')
    field = b.wait_visible(tid("person-name-input"))
    assert b.focused()["testid"] == "person-name-input"
    field.send_keys("Barack Obama", Keys.ENTER)
    b.wait(lambda: api.json("GET", f"/api/v1/people/{obama}")["name"] == "Barack Obama", "the name saved")
    b.wait_toast("Named “Barack Obama”")
    # Named people come first.
    b.wait(lambda: cards(b) and cards(b)[0]["id"] == obama and cards(b)[0]["name"] == "Barack Obama", "Obama first, by name")

    # The person's page: their photos, newest first, in the library's grid.
    b.click(f'{card(obama)} {tid("person-link")}')
    b.wait(lambda: b.driver.current_url.endswith(f"#/person/{obama}"), "the person's page")
    b.wait(lambda: sorted(b.grid_cell_ids()) == sorted(site["ids"]["obama"]), "Obama's three photos")
    newest_first = [a["id"] for a in api.assets(person=obama, limit=10)["assets"]]
    assert b.grid_cell_ids() == newest_first
    assert b.text(tid("screen-title")) == "Barack Obama"
    assert b.text(tid("photo-count")) == "3 photos"
    screenshot(b, "web-person-desktop")

    # Escape cancels what was typed; Enter saves; Undo puts the old name back.
    b.click(tid("person-rename"))
    field = b.wait_visible(tid("person-name-input"))
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Somebody Else", Keys.ESCAPE)
    b.wait_gone(tid("person-name-input"))
    assert b.text(tid("screen-title")) == "Barack Obama"
    assert api.json("GET", f"/api/v1/people/{obama}")["name"] == "Barack Obama"
    b.click(tid("screen-title"))  # a click on the name edits it too
    field = b.wait_visible(tid("person-name-input"))
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Barack H. Obama", Keys.ENTER)
    b.wait(lambda: api.json("GET", f"/api/v1/people/{obama}")["name"] == "Barack H. Obama", "the new name saved")
    b.wait(lambda: b.text(tid("screen-title")) == "Barack H. Obama", "the new name shown")
    click_undo(b, "Renamed “Barack Obama” to “Barack H. Obama”")
    b.wait(lambda: api.json("GET", f"/api/v1/people/{obama}")["name"] == "Barack Obama", "the old name back")
    b.wait(lambda: b.text(tid("screen-title")) == "Barack Obama", "the old name shown again")


def test_select_two_people_merge_and_undo(site, found, b):
    api = site["api"]
    salley, savage = found["salley"], found["savage"]
    open_people(b)
    b.wait_css(card(savage))
    b.click(tid("people-select"))
    for pid in (salley, savage):
        b.click(f'{card(pid)} {tid("person-toggle")}')
        b.wait(lambda: b.find(f'{card(pid)} {tid("person-toggle")}').get_attribute("aria-pressed") == "true", "the person selected")
    assert b.text(tid("selection-count")) == "2 selected"
    b.click(tid("selection-merge"))
    text = confirm(b, "merge-dialog")
    assert "Merge 2 people?" in text and "undo" in text, text
    b.wait(lambda: len({person_of(api, i) for i in site["ids"]["salley"] + site["ids"]["savage"]}) == 1, "one person of both")
    merged = person_of(api, site["ids"]["salley"][0])
    b.wait(lambda: [c["count"] for c in cards(b) if c["id"] == merged] == ["6 photos"] and len(cards(b)) == 2, "one card of 6 photos")
    click_undo(b, "Merged 2 people")
    b.wait(lambda: person_of(api, site["ids"]["salley"][0]) == salley and person_of(api, site["ids"]["savage"][0]) == savage, "the merge undone")
    assert {person_of(api, i) for i in site["ids"]["salley"]} == {salley}
    assert {person_of(api, i) for i in site["ids"]["savage"]} == {savage}
    b.wait(lambda: {c["id"]: c["count"] for c in cards(b)} == {found["obama"]: "3 photos", salley: "3 photos", savage: "3 photos"}, "three people again")


def test_not_this_person_then_give_the_face_back_by_typing(site, found, b, screenshot):
    api = site["api"]
    obama = found["obama"]
    photo = site["ids"]["obama"][1]
    open_photo_with_faces(b, photo)
    [box] = face_boxes(b)
    assert box["name"] == "Barack Obama" and box["person"] == obama, box
    # The outline is on the face: inside the picture as drawn.
    picture = b.js("const r = document.querySelector('[data-testid=\"face-layer\"]').getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]")
    l, t, r, bt = box["box"]
    assert picture[0] - 1 <= l < r <= picture[2] + 1 and picture[1] - 1 <= t < bt <= picture[3] + 1, (box, picture)
    screenshot(b, "web-faces-detail")

    b.click(tid("face-box"))
    b.wait_visible(tid("face-popover"))
    b.click(tid("face-not-person"))
    b.wait(lambda: face_of(api, photo)["personID"] is None, "the face taken from Obama")
    b.wait_toast("no longer “Barack Obama”")
    b.wait(lambda: face_boxes(b) and face_boxes(b)[0]["name"] == "Unnamed", "the face unnamed")
    # Obama keeps his name with two photos.
    assert api.json("GET", f"/api/v1/people/{obama}")["assetCount"] == 2

    # Who is this: "bar" offers Barack Obama; ↓ and Enter choose him.
    b.click(tid("face-box"))
    field = b.wait_visible(tid("face-name-input"))
    assert b.focused()["testid"] == "face-name-input"
    field.send_keys("bar")
    option = b.wait_visible(tid("face-name-option"))
    assert option.text.startswith("Barack Obama"), option.text
    assert field.get_attribute("aria-expanded") == "true"
    field.send_keys(Keys.ARROW_DOWN)
    assert field.get_attribute("aria-activedescendant") == option.get_attribute("id")
    field.send_keys(Keys.ENTER)
    b.wait(lambda: face_of(api, photo)["personID"] == obama and face_of(api, photo)["state"] == "confirmed", "the face Obama's again")
    b.wait(lambda: face_boxes(b) and face_boxes(b)[0]["name"] == "Barack Obama", "the name on the face again")
    b.wait_gone(tid("face-popover"))
    assert b.focused()["testid"] == "face-box"


def test_name_an_unassigned_face_by_typing_a_new_name(site, found, b):
    api = site["api"]
    photo = site["ids"]["biden"][0]
    open_photo_with_faces(b, photo)
    [box] = face_boxes(b)
    assert box["name"] == "Unnamed" and box["person"] is None, box
    # By keyboard alone: Tab from the Faces button reaches the face; Enter opens its panel on the name field;
    # Escape closes it and the focus goes back to the face.
    b.js("document.querySelector('[data-testid=\"detail-faces\"]').focus()")
    tab_to(b, "face-box")
    b.press(Keys.ENTER)
    b.wait_visible(tid("face-popover"))
    assert b.focused()["testid"] == "face-name-input"
    b.press(Keys.ESCAPE)
    b.wait_gone(tid("face-popover"))
    assert b.focused()["testid"] == "face-box" and b.visible(tid("detail")), "Escape left the photo instead of the panel"
    b.press(Keys.ENTER)
    field = b.wait_visible(tid("face-name-input"))
    field.send_keys("Joe Biden")
    new = b.wait_visible(tid("face-name-new"))
    assert "New person" in new.text
    field.send_keys(Keys.ENTER)
    b.wait(lambda: face_of(api, photo)["personName"] == "Joe Biden", "the face named")
    biden = face_of(api, photo)["personID"]
    b.wait(lambda: face_boxes(b) and face_boxes(b)[0]["name"] == "Joe Biden", "the name on the face")
    # A named person is in People at once, with their one photo; "Show Joe Biden" goes to them.
    b.click(tid("face-box"))
    b.click(tid("face-go-person"))
    b.wait(lambda: b.driver.current_url.endswith(f"#/person/{biden}"), "Biden's page")
    b.wait(lambda: b.grid_cell_ids() == [photo], "Biden's photo")
    open_people(b)
    b.wait(lambda: [c["name"] for c in cards(b)][:2] == ["Barack Obama", "Joe Biden"], "Joe Biden among the named")


def test_hide_a_person_and_show_them_again(site, found, b):
    api = site["api"]
    savage = found["savage"]
    b.open_app(f"#/person/{savage}")
    b.wait(lambda: len(b.grid_cell_ids()) == 3, "Savage's photos")
    assert b.text(tid("screen-title")) == "Unnamed person"
    b.click(tid("person-hide"))
    b.wait(lambda: api.json("GET", f"/api/v1/people/{savage}")["isHidden"], "the person hidden")
    b.wait_toast("hidden from People")
    open_people(b)
    if b.find(tid("people-show-hidden")).get_attribute("aria-pressed") == "true":
        b.click(tid("people-show-hidden"))
    b.wait(lambda: savage not in [c["id"] for c in cards(b)] and len(cards(b)) == 3, "Savage gone from People")
    assert savage not in [p["id"] for p in listed(api)]
    b.click(tid("people-show-hidden"))
    b.wait(lambda: [c["count"] for c in cards(b) if c["id"] == savage] == ["3 photos · hidden"], "Savage listed as hidden")
    b.click(f'{card(savage)} {tid("person-link")}')
    b.wait_visible(tid("person-hide"))
    b.wait(lambda: "Unhide" in b.find(tid("person-hide")).text, "Unhide")
    b.click(tid("person-hide"))
    b.wait(lambda: not api.json("GET", f"/api/v1/people/{savage}")["isHidden"], "the person shown again")
    open_people(b)
    b.click(tid("people-show-hidden"))
    b.wait(lambda: savage in [c["id"] for c in cards(b)] and b.find(tid("people-show-hidden")).get_attribute("aria-pressed") == "false", "Savage back in People")


def test_a_person_found_by_the_search_box(site, found, b):
    obama = found["obama"]
    # Named by the tests before (named here when this test runs alone).
    if site["api"].json("GET", f"/api/v1/people/{obama}")["name"] != "Barack Obama":
        site["api"].json("PATCH", f"/api/v1/people/{obama}", {"name": "Barack Obama"})
    b.open_app("#/search/")
    field = b.wait_visible(tid("search-input"))
    field.send_keys("bar")
    # The name is a word the search finds (Obama's photos among what it finds as it is typed: a caption may name him
    # too), and the field offers the person.
    option = b.wait_visible(tid("search-suggestion", **{"data-kind": "person", "data-value": obama}))
    assert option.text == "Barack Obama", option.text
    b.wait(lambda: set(site["ids"]["obama"]) <= set(b.grid_cell_ids()), "Obama's photos")
    # Chosen with the keyboard (↓ through the offers before it, if any): the person's page.
    chosen = "return document.getElementById(document.querySelector(arguments[0]).getAttribute('aria-activedescendant'))?.dataset.kind || null"
    for _ in range(len(b.find_all(tid("search-suggestion")))):
        field.send_keys(Keys.ARROW_DOWN)
        if b.js(chosen, tid("search-input")) == "person":
            break
    assert b.js(chosen, tid("search-input")) == "person", "the person chosen with the arrow keys"
    field.send_keys(Keys.ENTER)
    b.wait(lambda: b.driver.current_url.endswith(f"#/person/{obama}"), "Obama's page")
    b.wait(lambda: sorted(b.grid_cell_ids()) == sorted(site["ids"]["obama"]), "Obama's photos on his page")


def test_people_a_person_and_faces_on_a_phone(site, found, b, screenshot):
    api = site["api"]
    salley, savage = found["salley"], found["savage"]
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        b.click(tid("tab-people"))
        b.wait(lambda: len(cards(b)) == 4, "People on the phone")
        # Every card within the screen's width, nothing scrolling sideways.
        assert b.js("return document.querySelector('.people-page').scrollWidth <= document.querySelector('.people-page').clientWidth")
        for c in cards(b):
            seen = b.seen(card(c["id"]) + " .person-face")
            assert seen["inside"] or seen["box"][3] > b.height, seen
        screenshot(b, "web-people-phone")
        # Add name, on a phone.
        b.click(f'{card(salley)} {tid("person-add-name")}')
        b.wait_visible(tid("person-name-input")).send_keys("John Salley", Keys.ENTER)
        b.wait(lambda: api.json("GET", f"/api/v1/people/{salley}")["name"] == "John Salley", "Salley named")
        # His page; Merge with another person, chosen in the picker; then Undo.
        # Named first, then most photos (ties by name).
        b.wait(lambda: [c["name"] for c in cards(b)][:3] == ["Barack Obama", "John Salley", "Joe Biden"], "Salley among the named")
        b.click(f'{card(salley)} {tid("person-link")}')
        b.wait(lambda: len(b.grid_cell_ids()) == 3, "Salley's photos")
        # The name keeps its room: Rename, Hide and Merge are in one menu.
        title = b.seen(tid("screen-title"))
        assert title["shown"] and title["onTop"] and title["text"] == "John Salley", title
        seen = b.seen(tid("person-more"))
        assert seen["shown"] and seen["inside"] and seen["onTop"], seen
        b.click(tid("person-more"))
        b.wait_visible(tid("person-menu-merge"))
        assert [e.get_attribute("textContent") for e in b.find_all('[data-testid^="person-menu-"]')] == ["Rename", "Hide", "Merge with…"]
        b.click(tid("person-menu-merge"))
        b.wait_visible(tid("person-picker"))
        b.click(tid("person-pick", **{"data-person-id": savage}))
        confirm(b, "merge-dialog")
        b.wait(lambda: {person_of(api, i) for i in site["ids"]["savage"]} == {salley}, "Savage's photos Salley's")
        b.wait(lambda: len(b.grid_cell_ids()) == 6, "six photos on Salley's page")
        click_undo(b, "Merged 2 people")
        b.wait(lambda: {person_of(api, i) for i in site["ids"]["savage"]} == {savage}, "the merge undone")
        b.wait(lambda: len(b.grid_cell_ids()) == 3, "three photos again")
        # A photo's faces on the phone: the outline and its panel fit the screen.
        b.click(b.cell_css(site["ids"]["salley"][0]))
        b.wait_image(tid("detail-image"))
        if b.find(tid("detail-faces")).get_attribute("aria-pressed") != "true":
            b.click(tid("detail-faces"))
        b.wait(lambda: len(face_boxes(b)) == 1 and face_boxes(b)[0]["name"] == "John Salley", "Salley's face outlined")
        b.click(tid("face-box"))
        b.wait_visible(tid("face-popover"))
        seen = b.seen(tid("face-popover"))
        assert seen["inside"] and seen["onTop"], seen
    finally:
        b.set_viewport(1440, 900)


def test_faces_off_deletes_every_face_and_name_and_on_finds_them_again(site, found, b):
    api = site["api"]
    b.open_app("#/settings")
    switch = b.wait_visible(tid("faces-switch"))
    b.wait(lambda: switch.get_attribute("aria-checked") == "true" and switch.is_enabled(), "the switch on")
    b.click(tid("faces-switch"))
    text = b.wait_visible(tid("faces-off-dialog")).text
    assert "Every face" in text and "every name" in text and "deleted" in text, text
    # Cancel keeps everything.
    b.click(f'{tid("faces-off-dialog")} {tid("confirm-cancel")}')
    b.wait_gone(tid("faces-off-dialog"))
    assert api.json("GET", "/api/v1/people/status")["enabled"] is True and len(listed(api)) == 4
    b.click(tid("faces-switch"))
    confirm(b, "faces-off-dialog")
    b.wait(lambda: api.json("GET", "/api/v1/people/status")["enabled"] is False, "faces off")
    assert listed(api, hidden=True) == [] and faces_of(api, site["ids"]["obama"][0]) == []
    b.wait(lambda: b.find(tid("faces-switch")).get_attribute("aria-checked") == "false", "the switch off")
    # People says so, with the way to turn them on.
    b.open_app("#/people")
    b.wait(lambda: "Faces are off" in b.text(tid("empty-state")), "Faces are off")
    b.click(tid("people-enable"))
    b.wait(lambda: api.json("GET", "/api/v1/people/status")["enabled"] is True, "faces on")
    site.pop("people", None)
    again = people_found(site)
    b.wait(lambda: {c["id"] for c in cards(b)} == set(again.values()), "the people found again, without names", 60)
    assert all(c["name"] is None for c in cards(b))
