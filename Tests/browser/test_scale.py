"""A library of 2 000 photos: scrolling the grid to its end keeps the DOM small (only rows near the view
exist) and thumbnails appear wherever the view stops.

The library is made before the server starts: 2 000 tiny distinct JPEGs (dates 5 hours apart, so about 14
months) imported with `sepia import`.
"""

import pytest

from sepia_browser import Browser, Server, import_photos, make_tiny_library_folder, stop_server, tid

COUNT = 2000
BOUND = 1500

COUNTS = """
const grid = document.querySelector('[data-testid="grid"]');
return {grid: grid.querySelectorAll('*').length, document: document.getElementsByTagName('*').length,
        cells: grid.querySelectorAll('[data-testid="grid-cell"]').length};
"""

THUMBNAILS_IN_VIEW = """
const s = document.querySelector('[data-testid="grid-scroller"]').getBoundingClientRect();
const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')].filter((c) => {
  const r = c.getBoundingClientRect(); return r.bottom > s.top && r.top < s.bottom; });
const loaded = cells.filter((c) => { const i = c.querySelector('img'); return i && i.complete && i.naturalWidth > 0; });
return [cells.length, loaded.length];
"""


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    work = tmp_path_factory.mktemp("scale")
    make_tiny_library_folder(work / "photos", COUNT)
    import_photos(work / "library", work / "photos")
    s = Server(work, library=work / "library", name="scale").start()
    s.create_owner()
    b = Browser(s.base, camera="none", label="scale")
    b.sign_in()
    yield b
    b.quit()
    stop_server(s)


def wait_thumbnails(b, where):
    def ready():
        cells, loaded = b.js(THUMBNAILS_IN_VIEW)
        return cells > 0 and cells == loaded
    b.wait(ready, f"the thumbnails in view at the {where}", timeout=45)


def test_scrolling_2000_photos_keeps_the_dom_bounded(big):
    b = big
    b.open_app("#/library")
    b.wait(lambda: b.text(tid("photo-count")) == f"{COUNT:,} photos", f"the count of {COUNT:,} photos")
    wait_thumbnails(b, "top")
    top = b.js(COUNTS)

    scroller = b.find(tid("grid-scroller"))
    height, view = b.js("const s = arguments[0]; return [s.scrollHeight, s.clientHeight];", scroller)
    assert height > view * 20, f"the grid is only {height} px high for {COUNT} photos"

    # Scroll down in steps of most of a screen, as a person flicking through, counting at each stop; wait
    # for the thumbnails halfway.
    stops = list(range(int(view * 0.9), height - view, int(view * 0.9)))
    seen = []
    for n, position in enumerate(stops):
        b.js("arguments[0].scrollTop = arguments[1]", scroller, position)
        b.js("return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen.append(b.js(COUNTS)["grid"])
        if n == len(stops) // 2:
            wait_thumbnails(b, "middle")
            middle = b.js(COUNTS)
    b.js("arguments[0].scrollTop = arguments[0].scrollHeight", scroller)
    wait_thumbnails(b, "end")
    bottom = b.js(COUNTS)

    # The oldest photo is there at the end.
    oldest = b.js("""return [...document.querySelectorAll('[data-testid="grid-cell"]')].map((c) => Number(c.dataset.g))
        .reduce((a, b) => Math.max(a, b), -1)""")
    assert oldest == COUNT - 1, f"the last cell is number {oldest}, not {COUNT - 1}"

    report = f"grid elements: top {top['grid']}, middle {middle['grid']}, end {bottom['grid']}, most while scrolling {max(seen)}; " \
             f"document: top {top['document']}, end {bottom['document']}"
    print("\n" + report)
    assert max(seen + [top["grid"], middle["grid"], bottom["grid"]]) < BOUND, report
    assert bottom["document"] < BOUND + 600, report
    for name, c in (("middle", middle), ("end", bottom)):
        assert 0.4 * top["grid"] <= c["grid"] <= 2 * top["grid"], f"the grid at the {name} is not about the size it is at the top: {report}"
    assert top["cells"] < COUNT / 4, report
