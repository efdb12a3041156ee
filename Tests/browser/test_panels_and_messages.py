"""Nothing covers what a person needs, and errors read as sentences: the upload panel over a photo and the
editor (at a phone's and a desktop's size), the panel closing by itself once the pointer has left it, toasts
over the editor and the photo, and a refused file's message with the decoder's words kept in "Details".

"On top" is what the browser would click: `document.elementFromPoint` at a control's centre is the control or
something inside it.
"""

import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from sepia_browser import photo_bytes, tid

SIZES = {"phone": (375, 812, True), "desktop": (1440, 900, False)}

EDITOR_CONTROLS = ["save-edit", "cancel-edit", "revert", "copy-edits", "share-edit", "filters-mode", "crop-mode",
                   "intensity", "filter-tile"]
DETAIL_CONTROLS = ["detail-close", "detail-favorite", "detail-rotate", "detail-info", "detail-share", "detail-delete",
                   "detail-edit", "detail-more", "detail-prev", "detail-next"]

# What the decoder and the engine say about a cut-off JPEG; none of it belongs in the sentence people read.
DECODER_WORDS = ("Premature", "JPEG file", "strict mode", "damaged data", "libjpeg")

COVERED = """
const [testids] = arguments;
const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
const describe = (e) => e ? `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}`
  + (e.dataset.testid ? `[${e.dataset.testid}]` : '') : 'nothing';
const problems = [];
for (const testid of testids) {
  for (const el of document.querySelectorAll(`[data-testid="${testid}"]`)) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    // A control scrolled out of its strip is brought in, as a person would scroll to it.
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    await frame();
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    // A disabled button lets the pointer through (pointer-events: none): for this check it takes it.
    const before = el.style.pointerEvents;
    el.style.pointerEvents = 'auto';
    const top = document.elementFromPoint(x, y);
    el.style.pointerEvents = before;
    if (!top || !(top === el || el.contains(top))) {
      problems.push(`${testid}${el.dataset.name ? ' ' + el.dataset.name : ''} at (${Math.round(x)}, ${Math.round(y)}) is under ${describe(top)}`);
    }
  }
}
return problems;
"""

TOAST_OVERLAPS = """
const [testids] = arguments;
const toasts = [...document.querySelectorAll('.toast.in')].map((t) => t.getBoundingClientRect());
const problems = [];
for (const testid of testids) {
  for (const el of document.querySelectorAll(`[data-testid="${testid}"]`)) {
    if (!el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    for (const t of toasts) {
      if (t.left < r.right && t.right > r.left && t.top < r.bottom && t.bottom > r.top) {
        problems.push(`a toast (${Math.round(t.left)}, ${Math.round(t.top)}, ${Math.round(t.width)}×${Math.round(t.height)}) covers ${testid}${el.dataset.name ? ' ' + el.dataset.name : ''}`);
      }
    }
  }
}
return problems;
"""


@pytest.fixture(params=list(SIZES))
def sized(request, app):
    w, h, mobile = SIZES[request.param]
    app.set_viewport(w, h, mobile=mobile)
    yield request.param, app
    app.set_viewport(1440, 900)


def covered(b, testids):
    return b.js_async(COVERED, testids)


def assert_clear(problems):
    assert problems == [], "\n".join(problems)


def truncated_jpeg(path, seed):
    """A JPEG cut off part-way through its scan, as an interrupted copy leaves it."""
    data = photo_bytes(seed, (640, 480))
    path.write_bytes(data[: len(data) * 3 // 5])
    return path


def wait_editor(b):
    b.wait_visible(tid("editor"))
    b.wait(lambda: b.js("return !!document.querySelector('[data-testid=\"filter-strip\"].loaded')"), "the filter strip")
    b.wait(lambda: (b.find(tid("editor-preview")).get_attribute("src") or "").startswith("blob:")
           and not b.find(tid("preview-busy")).is_displayed() and b.image_loaded(tid("editor-preview")), "the preview")


def test_editor_controls_stay_clickable_with_an_upload_batch_that_had_a_refusal(sized, photos, tmp_path):
    name, app = sized
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    app.upload_files([photos.file(f"batch-{name}.jpg"), truncated_jpeg(tmp_path / "truncated.jpg", 5100 + len(name))])
    items = {i["name"]: i["state"] for i in app.wait_uploads_finished(2)}
    assert items == {f"batch-{name}.jpg": "done", "truncated.jpg": "error"}, items

    app.go(f"#/edit/{asset_id}")
    wait_editor(app)
    app.click(tid("filter-tile", **{"data-name": "Chrome"}))
    assert_clear(covered(app, EDITOR_CONTROLS))
    # The refusal is still on screen, and its own buttons can be reached too.
    assert app.visible(tid("upload-panel")), "the panel with a refused file went away"
    assert_clear(covered(app, ["upload-toggle", "upload-close"]))

    # The list opens above the bar on request, Escape folds it away again (and does not leave the editor);
    # the toggle says which it is.
    toggle = app.find(tid("upload-toggle"))
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not app.visible(tid("upload-item"))
    toggle.click()
    app.wait_visible(tid("upload-item"))
    assert toggle.get_attribute("aria-expanded") == "true"
    app.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    app.wait_gone(tid("upload-item"))
    assert toggle.get_attribute("aria-expanded") == "false"
    assert app.js("return document.activeElement?.dataset.testid") == "upload-toggle"
    assert app.visible(tid("editor")), "Escape in the upload list left the editor"

    # Back on the photo, then the library: the photo's controls are clear too, and the library shows the
    # panel again as it was.
    # Chrome was chosen and not saved, so Cancel asks first; the dialog pops open (it is not "displayed" for
    # its first frames), so wait for its button rather than looking once.
    app.click(tid("cancel-edit"))
    app.click(f'{tid("discard-dialog")} {tid("confirm-ok")}')
    app.wait_gone(tid("editor"))
    app.go(f"#/photo/{asset_id}")
    app.wait_visible(tid("detail"))
    app.wait_image(tid("detail-image"))
    assert_clear(covered(app, DETAIL_CONTROLS))
    app.click(tid("detail-close"))
    app.wait_gone(tid("detail"))
    app.wait_visible(tid("upload-item"))
    app.click(tid("upload-close"))
    app.wait_gone(tid("upload-panel"))


def test_a_clean_batch_closes_once_the_pointer_has_left_the_panel(app, photos):
    app.upload_files([photos.file("hovered.jpg")])
    panel = app.wait_visible(tid("upload-panel"))
    ActionChains(app.driver).move_to_element(panel).perform()
    (item,) = app.wait_uploads_finished(1)
    assert item["state"] == "done"
    time.sleep(6)  # past the 5 s after which a clean batch closes
    assert app.visible(tid("upload-panel")), "the panel closed under the pointer"
    ActionChains(app.driver).move_to_element(app.find(tid("screen-title"))).perform()
    app.wait_gone(tid("upload-panel"), timeout=6)


FAIL_SAVE = """
// The next save of an edit is answered as a server that cannot apply it would answer: a sentence for people
// and the engine's words as the detail.
if (!window.__realFetch) window.__realFetch = window.fetch;
window.fetch = function (input, init) {
  const url = typeof input === 'string' ? input : input.url;
  if ((init?.method || 'GET') === 'PUT' && url.endsWith('/edit')) {
    window.fetch = window.__realFetch;
    const body = {error: 'unprocessable', message: 'This edit cannot be saved on this photo.',
                  detail: 'CIPhotoEffectChrome: the render failed (test)'};
    return Promise.resolve(new Response(JSON.stringify(body), {status: 422, headers: {'Content-Type': 'application/json'}}));
  }
  return window.__realFetch.apply(this, arguments);
};
"""


def test_toasts_cover_no_control_of_the_editor_or_the_photo(sized, photos):
    name, app = sized
    (asset_id,) = photos.upload(1)
    app.open_app("#/library")
    app.go(f"#/photo/{asset_id}")
    app.wait_image(tid("detail-image"))
    app.click(tid("detail-edit"))
    wait_editor(app)
    app.click(tid("filter-tile", **{"data-name": "Chrome"}))
    app.wait(lambda: app.find(tid("save-edit")).is_enabled(), "Save to be possible")

    # A save that fails keeps the editor open with an error toast: it says the server's sentence, not its
    # detail, and covers none of the editor's controls.
    app.js(FAIL_SAVE)
    app.click(tid("save-edit"))
    error = app.wait_visible(tid("toast-error"))
    assert error.text.strip() == "This edit cannot be saved on this photo."
    time.sleep(0.3)  # the toast has risen into place
    assert app.visible(tid("editor"))
    assert_clear(app.js(TOAST_OVERLAPS, EDITOR_CONTROLS))
    assert_clear(covered(app, EDITOR_CONTROLS))

    # Saved: the photo shows with the toast over it, clear of its controls.
    app.click(tid("save-edit"))
    app.wait_toast("^Saved")
    app.wait_gone(tid("editor"))
    app.wait_visible(tid("detail"))
    time.sleep(0.3)
    assert_clear(app.js(TOAST_OVERLAPS, DETAIL_CONTROLS))
    assert_clear(covered(app, DETAIL_CONTROLS))


def test_a_damaged_file_is_named_as_given_and_the_decoders_words_stay_in_details(app, owner, tmp_path):
    bad = truncated_jpeg(tmp_path / "truncated.jpg", 5200)
    answer = owner.call("POST", "/api/v1/assets?filename=truncated.jpg", raw=bad.read_bytes())
    assert answer.status == 422, (answer.status, answer.body[:300])
    body = answer.json()

    app.upload_files([bad])
    (item,) = app.wait_uploads_finished(1)
    assert item["state"] == "error", item
    assert item["role"] == "alert"
    shown = app.js("""
        const li = document.querySelector('[data-testid="upload-item"]');
        const outside = li.cloneNode(true);
        outside.querySelectorAll('details').forEach((d) => d.remove());
        const details = li.querySelector('[data-testid="error-detail"]');
        const status = li.querySelector('.upload-status');
        return {name: li.querySelector('.upload-name').textContent, outside: outside.textContent,
                status: status.textContent, transform: getComputedStyle(status).textTransform,
                details: details ? details.querySelector('.error-detail-text').textContent : null,
                open: details ? details.open : null};""")
    assert shown["name"] == "truncated.jpg"
    assert "Truncated.jpg" not in shown["outside"], shown
    assert shown["transform"] == "none"
    for words in DECODER_WORDS:
        assert words not in shown["outside"], (words, shown)
    if body.get("detail"):
        # A server that sends the detail: its message as it is, its detail folded away.
        assert shown["status"] == body["message"], (shown, body)
        assert shown["details"] == body["detail"], (shown, body)
    else:
        # A server that puts the decoder's words in the message: they are the detail.
        assert shown["status"] == "The file is incomplete or damaged.", shown
        assert shown["details"] and shown["details"] in body["message"], (shown, body)
    assert shown["open"] is False, "the details are open from the start"
    app.click(f'{tid("error-detail")} summary')
    app.wait(lambda: app.find(f'{tid("error-detail")} .error-detail-text').is_displayed(), "the details to open")
    app.click(tid("upload-close"))
    app.wait_gone(tid("upload-panel"))


# What toasts are on view (not on their way out) right after each navigation: the app handles the hashchange
# first (its listener was added when it started), then this one looks.
TOASTS_AT_NAVIGATION = """
if (!window.__toastsAtNavigation) {
  window.__toastsAtNavigation = [];
  addEventListener('hashchange', () => window.__toastsAtNavigation.push({hash: location.hash,
    showing: [...document.querySelectorAll('.toast:not([data-state="leaving"]) .toast-text')].map((t) => t.textContent)}));
}"""


def navigations(b) -> int:
    """How many navigations the page has seen so far."""
    return b.js("return window.__toastsAtNavigation.length")


def toasts_when_arriving(b, hash_end: str, after: int) -> list[str]:
    """The toasts on view when the app arrived at the address ending with `hash_end`, in a navigation after the
    first `after` ones (the address changes at once; the navigation's event comes a moment later)."""
    def arrival():
        return next((a for a in b.js("return window.__toastsAtNavigation")[after:] if a["hash"].endswith(hash_end)), None)
    return b.wait(arrival, f"the navigation to {hash_end}")["showing"]


def test_a_message_belongs_to_the_screen_that_raised_it(app, photos):
    ids = photos.upload(4)  # Recently Added shows the last first
    app.open_app("#/recents")
    app.js(TOASTS_AT_NAVIGATION)
    app.click(app.cell_css(ids[3]))
    app.wait_image(tid("detail-image"))

    # Saved in the editor: "Saved" comes along to the photo it speaks of, and stays there.
    app.click(tid("detail-edit"))
    wait_editor(app)
    app.click(tid("filter-tile", **{"data-name": "Chrome"}))
    app.wait(lambda: app.find(tid("save-edit")).is_enabled(), "Save to be possible")
    mark = navigations(app)
    app.click(tid("save-edit"))
    assert any(t.startswith("Saved") for t in toasts_when_arriving(app, f"#/photo/{ids[3]}", mark))
    # The next photo (the arrow key) is another screen: the message is not about it.
    mark = navigations(app)
    ActionChains(app.driver).send_keys(Keys.ARROW_RIGHT).perform()
    assert not any(t.startswith("Saved") for t in toasts_when_arriving(app, f"#/photo/{ids[2]}", mark))

    # Deleted: the view moves on to the next photo with the message and its Undo; a second deletion's message
    # replaces the first's, which belonged to the photo before.
    deleted = "1 photo moved to Recently Deleted."
    for gone, shown in ((ids[2], ids[1]), (ids[1], ids[0])):
        app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{gone}"), "the photo to delete")
        app.click(tid("detail-delete"))
        mark = navigations(app)
        app.click(f'{tid("delete-dialog")} {tid("confirm-ok")}')
        assert toasts_when_arriving(app, f"#/photo/{shown}", mark).count(deleted) == 1
    # Recently Deleted, from a link: none of the photos' messages follow.
    mark = navigations(app)
    app.go("#/recently-deleted")
    assert toasts_when_arriving(app, "#/recently-deleted", mark) == []
    app.wait(lambda: app.toast_texts() == [], "the photos' messages to go")
