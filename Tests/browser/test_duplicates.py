"""Duplicates in the web app, on a library of its own: a photo (1600×1200, with its camera and the date it was taken in
EXIF), two near-copies of it made here — resized to 800×600 without its metadata, and saved again at JPEG quality 60
— and an unrelated picture. The server hashes each photo as it comes (a perceptual hash) and groups those whose
hashes are near. Then, as a person would: the Duplicates view, open from the sidebar before the photos are added,
shows them as one group once they are compared — the three copies, not the unrelated picture — the largest first,
proposed to keep with the server's reason, the sizes that differ highlighted and the format they share not; another
photo to keep is chosen with the arrow keys and the first chosen again; "Keep One, Delete 2 Others", pressed with
the keyboard, moves the two others to Recently Deleted (the server says so) and Undo brings them back, grouped
again; at a phone's size the group fits the screen; "Not Duplicates" takes the group off the list, and the server's
too, Undo puts it back, and once more leaves "No duplicates found". axe finds no serious violation on the view
(desktop and phone) or its empty state.
"""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageDraw
from selenium.webdriver.common.keys import Keys

from sepia_browser import Browser, photo_bytes, tid, own_site
from test_accessibility import audit

# How long the server may take to hash and compare the photos (debug build, two cores).
COMPARING = 180


def original_photo() -> bytes:
    """The photo the copies are made of: 1600×1200, with a camera and the date it was taken in its EXIF."""
    img = Image.open(io.BytesIO(photo_bytes(9201, (1600, 1200))))
    exif = Image.Exif()
    exif[271] = "Sepia"                       # Make
    exif[272] = "Test Camera"                 # Model
    exif[306] = "2024:05:04 10:20:30"         # DateTime
    exif.get_ifd(0x8769)[36867] = "2024:05:04 10:20:30"  # DateTimeOriginal
    out = io.BytesIO()
    img.save(out, "JPEG", quality=92, exif=exif)
    return out.getvalue()


def resized_copy(data: bytes) -> bytes:
    """Half the size, saved without the original's metadata (as a messaging app would send it)."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    img = img.resize((img.width // 2, img.height // 2), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return out.getvalue()


def recompressed_copy(data: bytes) -> bytes:
    """The same size, saved again at quality 60, its EXIF kept."""
    img = Image.open(io.BytesIO(data))
    exif = img.getexif()
    out = io.BytesIO()
    img.convert("RGB").save(out, "JPEG", quality=60, exif=exif)
    return out.getvalue()


def unrelated_photo() -> bytes:
    """A picture nothing like the others: light and dark diagonal bands, a dark disc."""
    img = Image.new("RGB", (1200, 900), (238, 226, 200))
    d = ImageDraw.Draw(img)
    for x in range(-900, 1200, 160):
        d.polygon([(x, 900), (x + 80, 900), (x + 980, 0), (x + 900, 0)], fill=(40, 60, 110))
    d.ellipse([150, 420, 550, 820], fill=(20, 20, 20))
    out = io.BytesIO()
    img.save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server and a desktop window of their own; the photos are added by the first test that needs them."""
    with own_site(tmp_path_factory, "duplicates") as (s, api, b):
        state = {"server": s, "api": api, "browser": b}
        yield state


@pytest.fixture
def b(site) -> Browser:
    site["browser"].set_viewport(1440, 900)
    return site["browser"]


def add_photos(site) -> dict[str, str]:
    """Uploads the original, its two copies and the unrelated picture, once; returns their ids by name."""
    if "ids" not in site:
        api = site["api"]
        original = original_photo()
        site["ids"] = {
            "original": api.upload(original, "harbour.jpg")["id"],
            "resized": api.upload(resized_copy(original), "harbour-small.jpg")["id"],
            "recompressed": api.upload(recompressed_copy(original), "harbour-q60.jpg")["id"],
            "unrelated": api.upload(unrelated_photo(), "bands.jpg")["id"],
        }
    return site["ids"]


def server_groups(api) -> dict:
    return api.json("GET", "/api/v1/duplicates?limit=100")


def copies(ids) -> set[str]:
    return {ids["original"], ids["resized"], ids["recompressed"]}


@pytest.fixture(scope="module")
def grouped(site) -> dict[str, str]:
    """The photos added and compared: the server lists the three copies as one group, and nothing else."""
    ids = add_photos(site)
    api = site["api"]

    def done():
        answer = server_groups(api)
        return answer if answer["waitingAssets"] == 0 and answer["groups"] else None
    answer = site["browser"].wait(done, "the server to compare the photos", COMPARING)
    assert [{a["id"] for a in g["assets"]} for g in answer["groups"]] == [copies(ids)], answer
    return ids


def groups_on_screen(b) -> list[dict]:
    """The groups as drawn: each with its photos in order (which is suggested, which is to be kept, each fact as said
    and whether it is highlighted as differing), its reason and its buttons' words."""
    return b.js("""return [...document.querySelectorAll('[data-testid="duplicate-group"]')].map((g) => ({
        id: g.dataset.groupId,
        reason: g.querySelector('[data-testid="duplicate-reason"]')?.textContent || null,
        resolve: g.querySelector('[data-testid="duplicate-resolve"]').textContent,
        dismiss: g.querySelector('[data-testid="duplicate-dismiss"]').textContent,
        items: [...g.querySelectorAll('[data-testid="duplicate-item"]')].map((li) => ({
          id: li.dataset.assetId, suggested: li.dataset.suggested === 'true', keep: li.dataset.keep === 'true',
          checked: li.querySelector('[data-testid="duplicate-keep"]').checked,
          picture: !!li.querySelector('img') && li.querySelector('img').complete && li.querySelector('img').naturalWidth > 0,
          facts: Object.fromEntries([...li.querySelectorAll('.duplicate-fact')].map((f) => [f.dataset.fact,
            {text: f.querySelector('dd').textContent.replace(' (differs)', ''), differs: !!f.querySelector('mark')}])) }))}));""")


def member_sets(b) -> list[set[str]]:
    return [{i["id"] for i in g["items"]} for g in groups_on_screen(b)]


def focused(b) -> dict | None:
    return b.js("""const e = document.activeElement; return e && e !== document.body ? {testid: e.dataset.testid || null,
        asset: e.closest('[data-asset-id]')?.dataset.assetId || null, checked: e.checked ?? null} : null;""")


def tab_to(b, testid: str, limit: int = 40) -> dict:
    """Presses Tab until the element with this data-testid has the keyboard's focus."""
    for _ in range(limit):
        f = focused(b)
        if f and f["testid"] == testid:
            return f
        b.press(Keys.TAB)
    raise AssertionError(f"{testid} never got the focus with Tab; last: {focused(b)}")


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


def trashed(api, asset_id: str) -> bool:
    return api.asset(asset_id)["trashedDate"] is not None


# ------------------------------------------------------------------------------------ desktop


def test_the_copies_are_grouped_the_largest_kept_and_the_others_deleted_then_undone(site, b, screenshot):
    api = site["api"]

    # Duplicates, from the sidebar, before there is anything: it says so.
    b.open_app("#/library")
    b.click(tid("nav-duplicates"))
    b.wait(lambda: b.driver.current_url.endswith("#/duplicates"), "the Duplicates view")
    assert b.text(tid("screen-title")) == "Duplicates"
    assert b.find(tid("nav-duplicates")).get_attribute("aria-current") == "page"
    if "ids" not in site:
        b.wait_visible(tid("empty-state"))
        assert "No duplicates found" in b.text(tid("empty-state"))
        audit(b, "Duplicates, empty")

    # The photos come while the view is open: once compared, the three copies are one group, the unrelated picture in
    # none — the largest first, proposed to keep, and its choice checked.
    ids = add_photos(site)
    b.wait(lambda: member_sets(b) == [copies(ids)], "the three copies as one group, live", COMPARING)
    b.wait(lambda: all(i["picture"] for g in groups_on_screen(b) for i in g["items"]), "the pictures")
    [group] = groups_on_screen(b)
    assert group["items"][0]["id"] == ids["original"], group
    assert [(i["suggested"], i["keep"], i["checked"]) for i in group["items"]] == [(True, True, True), (False, False, False), (False, False, False)], group
    answer = server_groups(api)
    assert answer["groups"][0]["keepAssetID"] == ids["original"], answer
    reason = answer["groups"][0]["keepReason"].rstrip(".")
    assert group["reason"].startswith("Suggested: harbour.jpg") and reason in group["reason"], group["reason"]
    assert group["resolve"] == "Keep One, Delete 2 Others" and group["dismiss"] == "Not Duplicates", group
    b.wait(lambda: b.text(tid("duplicates-count")) == "1 group", "the count")
    assert not b.visible(tid("duplicates-more")), "one group is one page"

    # What tells them apart: the pixel sizes differ (highlighted in each), the format they share does not.
    facts = {i["id"]: i["facts"] for i in group["items"]}
    assert facts[ids["original"]]["size"] == {"text": "1600 × 1200", "differs": True}, facts
    assert facts[ids["resized"]]["size"] == {"text": "800 × 600", "differs": True}, facts
    assert facts[ids["recompressed"]]["size"] == {"text": "1600 × 1200", "differs": True}, facts
    assert all(f["format"] == {"text": "JPEG", "differs": False} for f in facts.values()), facts
    assert all(f["bytes"]["differs"] and f["file"]["differs"] for f in facts.values()), facts
    assert facts[ids["original"]]["file"]["text"] == "harbour.jpg"
    assert "Test Camera" in facts[ids["original"]]["camera"]["text"] and facts[ids["original"]]["camera"]["differs"], facts
    audit(b, "Duplicates")
    screenshot(b, "web-duplicates-desktop")

    # By keyboard alone: Tab reaches the photo to keep (its radio), the arrow keys choose another and the first again;
    # Tab goes on to its View link (Enter opens the photo, Escape comes back), then to Keep One, Delete 2 Others, which
    # Enter presses.
    b.js("const t = document.querySelector('[data-testid=\"screen-title\"]'); t.tabIndex = -1; t.focus();")
    f = tab_to(b, "duplicate-keep")
    assert f["asset"] == ids["original"] and f["checked"], f
    second = group["items"][1]["id"]
    b.press(Keys.ARROW_RIGHT)
    b.wait(lambda: [i["keep"] for i in groups_on_screen(b)[0]["items"]] == [False, True, False], "the second photo chosen to keep")
    assert focused(b)["asset"] == second
    assert groups_on_screen(b)[0]["items"][0]["suggested"], "the server's proposal stays marked"
    b.press(Keys.ARROW_LEFT)
    b.wait(lambda: [i["keep"] for i in groups_on_screen(b)[0]["items"]] == [True, False, False], "the largest chosen again")
    # Its View link opens it large; Escape comes back to the link.
    f = tab_to(b, "duplicate-view")
    assert f["asset"] == ids["original"], f
    b.press(Keys.ENTER)
    b.wait_image(tid("detail-image"))
    assert b.driver.current_url.endswith(f"#/photo/{ids['original']}")
    b.press(Keys.ESCAPE)
    b.wait_gone(tid("detail"))
    b.wait(lambda: (focused(b) or {}).get("testid") == "duplicate-view" and focused(b)["asset"] == ids["original"], "the focus back on View")
    assert [i["keep"] for i in groups_on_screen(b)[0]["items"]] == [True, False, False], "the choice stays"
    tab_to(b, "duplicate-resolve")
    b.press(Keys.ENTER)

    # The two others are in Recently Deleted, the one kept is not; the group has gone, and with it the list.
    b.wait_toast(r"Kept harbour\.jpg\. 2 photos moved to Recently Deleted\.")
    b.wait(lambda: member_sets(b) == [], "the group to go")
    b.wait_visible(tid("empty-state"))
    assert "No duplicates found" in b.text(tid("empty-state"))
    others = [ids["resized"], ids["recompressed"]]
    deleted = {a["id"] for a in api.json("GET", "/api/v1/recently-deleted?limit=500")["assets"]}
    assert set(others) <= deleted and ids["original"] not in deleted, deleted
    assert not trashed(api, ids["original"]) and all(trashed(api, i) for i in others)
    assert ids["unrelated"] not in deleted

    # Undo: they are back in the library, and grouped with the original again.
    click_undo(b, "moved to Recently Deleted")
    b.wait_toast("recovered")
    b.wait(lambda: not any(trashed(api, i) for i in others), "the copies out of Recently Deleted")
    b.wait(lambda: member_sets(b) == [copies(ids)], "the group back", COMPARING)


# ------------------------------------------------------------------------------------ phone


def test_a_group_on_a_phone_and_in_dark_mode(site, grouped, b, screenshot):
    b.set_viewport(375, 812, mobile=True)
    try:
        b.open_app("#/library")
        # Duplicates is in the menu (the tab bar keeps its five sections).
        b.click(tid("menu-button"))
        b.wait(lambda: b.seen(tid("nav-duplicates")).get("inside"), "Duplicates in the menu")
        b.click(tid("nav-duplicates"))
        b.wait(lambda: member_sets(b) == [copies(grouped)], "the group on the phone", COMPARING)
        b.wait(lambda: all(i["picture"] for g in groups_on_screen(b) for i in g["items"]), "the pictures")
        b.assert_no_sideways_overflow()
        assert b.js("const p = document.querySelector('.duplicates-page'); return p.scrollWidth <= p.clientWidth")
        # Two photos a row, side by side.
        tops = b.js("""return [...document.querySelectorAll('[data-testid="duplicate-item"]')].map((li) => Math.round(li.getBoundingClientRect().top))""")
        assert tops[0] == tops[1] and tops[2] > tops[0], tops
        for css in (tid("screen-title"), tid("duplicate-keep", **{"value": grouped["original"]})):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        b.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", tid("duplicate-resolve"))
        for css in (tid("duplicate-resolve"), tid("duplicate-dismiss")):
            seen = b.seen(css)
            assert seen["shown"] and seen["inside"] and seen["onTop"], (css, seen)
        b.js("document.querySelector('.duplicates-page').scrollTop = 0")
        audit(b, "Duplicates on a phone")
        screenshot(b, "web-duplicates-phone")
    finally:
        b.set_viewport(1440, 900)
    # In dark mode, the highlight of what differs and the card of the one to keep are as readable.
    b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        b.open_app("#/duplicates")
        b.wait(lambda: member_sets(b) == [copies(grouped)], "the group in dark mode")
        assert b.js("return matchMedia('(prefers-color-scheme: dark)').matches")
        audit(b, "Duplicates in dark mode")
    finally:
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# ------------------------------------------------------------------------------------ not duplicates


def test_not_duplicates_takes_the_group_away_and_undo_puts_it_back(site, grouped, b):
    api = site["api"]
    b.open_app("#/duplicates")
    b.wait(lambda: member_sets(b) == [copies(grouped)], "the group", COMPARING)

    b.click(tid("duplicate-dismiss"))
    b.wait_toast("Marked as not duplicates")
    b.wait(lambda: member_sets(b) == [], "the group to go")
    assert server_groups(api)["groups"] == [], "the server groups them no more"
    assert not any(trashed(api, i) for i in grouped.values()), "nothing is deleted"

    click_undo(b, "Marked as not duplicates")
    b.wait_toast("grouped as duplicates again")
    b.wait(lambda: member_sets(b) == [copies(grouped)], "the group back")
    assert [{a["id"] for a in g["assets"]} for g in server_groups(api)["groups"]] == [copies(grouped)]

    # Once more, for good: the list is empty, and says so.
    b.click(tid("duplicate-dismiss"))
    b.wait(lambda: member_sets(b) == [], "the group to go again")
    b.wait_visible(tid("empty-state"))
    assert "No duplicates found" in b.text(tid("empty-state"))
    # A view opened afresh asks the server, which agrees.
    b.open_app("#/duplicates")
    b.wait_visible(tid("empty-state"))
    assert member_sets(b) == []
    audit(b, "Duplicates with every group dismissed")
