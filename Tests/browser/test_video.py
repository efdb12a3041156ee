"""Videos and Live Photos: Add Photos takes a clip and a Live Photo's two files (the pair becomes one
item); the grid marks a video with its duration and a Live Photo with the LIVE badge, and says so to
screen readers; a video plays in the detail view (Space plays and pauses, arrows move on, leaving drops
the movie, Edit says videos cannot be edited yet); a Live Photo's movie plays while the still is pressed or
the badge hovered and stops when let go, unless Live is turned off; nothing overlaps at a phone's size
and a desktop's.

The clips are made at test time with Debian's ffmpeg: H.264 + AAC in MP4 (Chromium as Debian builds it
plays them) and, for a Live Photo, a JPEG whose Apple maker note carries a content identifier (EXIF tag
0x0011) and a QuickTime movie with the same com.apple.quicktime.content.identifier.
"""

from __future__ import annotations

import datetime
import io
import os
import shutil
import struct
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains

from sepia_browser import (
    SAMPLE_PHOTOS,
    Browser,
    Server,
    import_photos,
    photo_bytes,
    sample_photos,
    stop_server,
    tid,
)

FFMPEG = shutil.which("ffmpeg") or "/usr/bin/ffmpeg"
pytestmark = pytest.mark.skipif(not Path(FFMPEG).exists(), reason="the video tests make their clips with ffmpeg (apt install ffmpeg)")


# ---------------------------------------------------------------------------------------------- clips


def ffmpeg(*args: str):
    subprocess.run([FFMPEG, "-v", "error", "-nostdin", "-y", *args], check=True, capture_output=True)


def make_clip(path: Path, seed: int, seconds: float = 2, size: str = "320x240", *, source: Path | None = None,
              created: str | None = None, metadata: dict | None = None, audio: bool = True) -> Path:
    """An H.264 clip (AAC sound unless `audio` is False): a test pattern, or a slow zoom into a photo.
    `seed` goes into the file's metadata so that every seed gives other bytes (another item, not a duplicate)."""
    w, h = size.split("x")
    if source:
        # The photo is decoded, scaled and cropped once, into a lossless frame the loop then reads 30 times a
        # second: the same zoom into the same picture as scaling every frame, for a fifth of the processor time.
        frame = Path(tempfile.mkdtemp()) / "frame.png"
        ffmpeg("-i", str(source), "-vf", f"scale={int(w) * 2}:{int(h) * 2}:force_original_aspect_ratio=increase,"
               f"crop={int(w) * 2}:{int(h) * 2}", "-frames:v", "1", str(frame))
        video_in = ["-loop", "1", "-framerate", "30", "-t", str(seconds), "-i", str(frame)]
        vf = ["-vf", f"zoompan=z='1+0.0025*on':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s={size}:fps=30"]
    else:
        video_in = ["-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30:duration={seconds}"]
        vf = []
    audio_in = ["-f", "lavfi", "-i", f"sine=frequency={220 + seed % 500}:duration={seconds}"] if audio else []
    meta = ["-metadata", f"comment=sepia test clip {seed}"]
    if created:
        meta += ["-metadata", f"creation_time={created}"]
    for k, v in (metadata or {}).items():
        meta += ["-metadata", f"{k}={v}"]
    codecs = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"] + (["-c:a", "aac", "-shortest"] if audio else [])
    ffmpeg(*video_in, *audio_in, *vf, *codecs, "-t", str(seconds), "-movflags", "use_metadata_tags+faststart", *meta, str(path))
    if source:
        shutil.rmtree(frame.parent)
    return path


def apple_maker_note_exif(content_id: str) -> bytes:
    """An APP1 payload (Exif\\0\\0 + big-endian TIFF) whose Exif IFD holds an Apple maker note with tag 0x0011,
    the content identifier that pairs a Live Photo's still with its movie."""
    text = content_id.encode() + b"\0"
    head = b"Apple iOS\0" + b"\x00\x01" + b"MM"
    entries = 2
    text_offset = len(head) + 2 + entries * 12 + 4  # counted from the maker note's start
    note = head + struct.pack(">H", entries)
    note += struct.pack(">HHI", 0x0001, 9, 1) + struct.pack(">i", 14)
    note += struct.pack(">HHII", 0x0011, 2, len(text), text_offset)
    note += struct.pack(">I", 0) + text
    ifd0_at = 8
    exif_at = ifd0_at + 2 + 12 + 4
    note_at = exif_at + 2 + 12 + 4
    tiff = b"MM\x00\x2a" + struct.pack(">I", ifd0_at)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x8769, 4, 1, exif_at) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 1) + struct.pack(">HHII", 0x927C, 7, len(note), note_at) + struct.pack(">I", 0)
    tiff += note
    return b"Exif\0\0" + tiff


def with_app1(jpeg: bytes, payload: bytes) -> bytes:
    """The JPEG with an APP1 segment right after its SOI marker."""
    assert jpeg[:2] == b"\xff\xd8", "not a JPEG"
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def make_live_pair(folder: Path, stem: str, seed: int, *, source: Path | None = None, size=(320, 240),
                   created: str | None = None) -> tuple[Path, Path]:
    """A Live Photo as an iPhone writes it: STEM.JPG and STEM.MOV sharing an Apple content identifier."""
    content_id = str(uuid.UUID(int=seed * 7919 + 1)).upper()
    if source:
        img = Image.open(source).convert("RGB")
        img.thumbnail(size, Image.Resampling.LANCZOS)
        out = io.BytesIO()
        img.save(out, "JPEG", quality=88)
        still_bytes = out.getvalue()
    else:
        still_bytes = photo_bytes(seed, size)
    still = folder / f"{stem}.JPG"
    still.write_bytes(with_app1(still_bytes, apple_maker_note_exif(content_id)))
    movie = folder / f"{stem}.MOV"
    make_clip(movie, seed, seconds=2, size=f"{size[0]}x{size[1]}", source=still, created=created, audio=False,
              metadata={"com.apple.quicktime.content.identifier": content_id})
    if created:
        # The still has no EXIF date: its file's date is its capture date.
        t = datetime.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp()
        os.utime(still, (t, t))
    return still, movie


class Clips:
    """Distinct clips and Live Photo pairs for one test each (the same bytes twice would be a duplicate)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.seed = 5000

    def clip(self, seconds: float = 2) -> Path:
        self.seed += 1
        return make_clip(self.folder / f"clip-{self.seed}.mp4", self.seed, seconds)

    def live(self) -> tuple[Path, Path]:
        self.seed += 1
        return make_live_pair(self.folder, f"IMG_{self.seed}", self.seed)


@pytest.fixture(scope="module")
def clips(tmp_path_factory) -> Clips:
    return Clips(tmp_path_factory.mktemp("clips"))


# ---------------------------------------------------------------------------------------------- helpers


def asset_named(api, name: str, **filters) -> dict:
    found = [a for a in api.assets(limit=500, **filters)["assets"] if a["originalFilename"] == name]
    assert len(found) == 1, f"{len(found)} items named {name} ({filters})"
    return found[0]


def upload_pair(api, still: Path, movie: Path) -> str:
    """Uploads a Live Photo's two files; returns the one item's id."""
    first = api.upload(still)["id"]
    api.upload(movie)
    return first


def cell_info(b, asset_id: str) -> dict:
    return b.js("""
        const c = document.querySelector(arguments[0]);
        const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        const d = c.querySelector('.cell-duration'), l = c.querySelector('.cell-live');
        const style = (e) => e && {color: getComputedStyle(e).color, background: getComputedStyle(e).backgroundColor};
        return {label: c.getAttribute('aria-label'), duration: d && d.textContent, live: l && l.textContent,
                durationHidden: d && d.getAttribute('aria-hidden'), liveHidden: l && l.getAttribute('aria-hidden'),
                cell: box(c), durationBox: box(d), liveBox: box(l), favBox: box(c.querySelector('.cell-fav')),
                durationStyle: style(d), liveStyle: style(l)};""", b.cell_css(asset_id))


def inside(inner, outer, slack=0.5) -> bool:
    return inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def assert_badge_legible(style: dict):
    """White text on a dark pill that is at least 60 % opaque: over white that is #666 (5.7:1)."""
    assert style["color"] == "rgb(255, 255, 255)", style
    bg = style["background"]
    assert bg.startswith("rgba(0, 0, 0,") and float(bg.rstrip(")").split(",")[-1]) >= 0.6, style


def video_state(b, css=tid("detail-video")) -> dict:
    return b.js("""
        const v = document.querySelector(arguments[0]);
        if (!v) return null;
        return {src: v.getAttribute('src'), poster: v.getAttribute('poster'), paused: v.paused, time: v.currentTime,
                ready: v.readyState, hidden: v.hidden, controls: v.controls, playsinline: v.hasAttribute('playsinline'),
                preload: v.getAttribute('preload'), muted: v.muted, error: v.error && v.error.code,
                playing: !!v.closest('.live-playing')};""", css)


def open_item(b, asset_id: str):
    b.wait_cell(asset_id)
    b.click(b.cell_css(asset_id))
    b.wait_visible(tid("detail"))
    b.wait(lambda: b.driver.current_url.endswith(f"#/photo/{asset_id}"), "the item's address")


# ---------------------------------------------------------------------------------------------- tests


def test_add_photos_takes_a_clip_and_a_live_photo_which_is_one_item(app, clips, browser_api):
    clip = clips.clip()
    still, movie = clips.live()
    before = browser_api.assets(limit=1)["total"]
    assert "video/*" in app.find(tid("file-input")).get_attribute("accept")

    app.upload_files([clip, still, movie])
    items = app.wait_uploads_finished(3, timeout=60)
    assert [i["state"] for i in items] == ["done"] * 3, items
    assert app.find(".upload-summary").text == "3 items added"
    # The Live Photo's two files are one item; the clip is another.
    assert browser_api.assets(limit=1)["total"] == before + 2
    video = asset_named(browser_api, clip.name, mediaType="video")
    live = asset_named(browser_api, still.name, live="true")
    assert video["duration"] == pytest.approx(2, abs=0.1) and "photoLive" in live["mediaSubtypes"]

    app.wait_cell(video["id"])
    app.wait_cell(live["id"])
    app.wait_cell_thumbnail(video["id"])
    v = cell_info(app, video["id"])
    assert v["duration"] == "0:02" and v["durationHidden"] == "true", v
    assert v["label"].startswith("Video, 0:02, "), v["label"]
    assert v["live"] is None
    assert inside(v["durationBox"], v["cell"]) and v["durationBox"][2] > v["cell"][2] - 12 and v["durationBox"][3] > v["cell"][3] - 12, \
        f"the duration is not in the bottom right corner: {v}"
    assert_badge_legible(v["durationStyle"])
    lv = cell_info(app, live["id"])
    assert lv["live"] == "LIVE" and lv["liveHidden"] == "true", lv
    assert lv["label"].startswith("Live Photo, "), lv["label"]
    assert lv["duration"] is None
    assert inside(lv["liveBox"], lv["cell"]) and lv["liveBox"][0] < lv["cell"][0] + 12 and lv["liveBox"][1] < lv["cell"][1] + 12, \
        f"the LIVE badge is not in the top left corner: {lv}"
    assert_badge_legible(lv["liveStyle"])
    # One cell for the pair: no cell stands for the movie alone.
    assert len(app.find_all(app.cell_css(live["id"]))) == 1
    # The count says what the library holds, as Photos counts a mix.
    videos = browser_api.assets(limit=1, mediaType="video")["total"]
    total = browser_api.assets(limit=1)["total"]
    expected = f"{total - videos} photo{'' if total - videos == 1 else 's'}, {videos} video{'' if videos == 1 else 's'}"
    app.wait(lambda: app.text(tid("photo-count")) == expected, f"the count to say {expected}")
    ids = set(app.grid_cell_ids())
    assert all(a["id"] in ids or a["originalFilename"] != movie.name for a in browser_api.assets(limit=500)["assets"])


def month_header(b, title: str) -> str | None:
    """The count under a month's header in the grid, if that header is in the page."""
    return b.js("""const h = [...document.querySelectorAll('.vgrid-header')].find((e) => e.querySelector('.vgrid-title').textContent === arguments[0]);
        return h ? h.querySelector('.vgrid-count').textContent : null;""", title)


def test_month_headers_count_photos_and_videos_as_the_top_bar_does(app, clips, photos, owner, browser_api):
    # Far back, at the end of the timeline: a month of two videos, and one of a photo and a video.
    for n, day in enumerate(("1999-03-10", "1999-03-12", "1999-02-12")):
        owner.upload(make_clip(clips.folder / f"month-{n}.mp4", 7000 + n, seconds=1, created=f"{day}T10:00:00Z", audio=False))
    (photo,) = photos.upload(1)
    owner.json("PATCH", f"/api/v1/assets/{photo}", {"creationDate": "1999-02-10T10:00:00Z"})
    app.open_app("#/library")
    app.js("const s = document.querySelector('[data-testid=\"grid-scroller\"]'); s.scrollTop = s.scrollHeight;")
    app.wait(lambda: month_header(app, "March 1999") == "2 videos", "March 1999 to say 2 videos")
    assert month_header(app, "February 1999") == "1 photo, 1 video"
    # The top bar counts the same way, the months added up.
    videos = browser_api.assets(limit=1, mediaType="video")["total"]
    total = browser_api.assets(limit=1)["total"]
    photos_count = total - videos
    expected = f"{photos_count} photo{'' if photos_count == 1 else 's'}, {videos} video{'' if videos == 1 else 's'}"
    app.wait(lambda: app.text(tid("photo-count")) == expected, f"the top bar to say {expected}")


def test_a_video_plays_space_pauses_and_leaving_drops_it(app, clips, photos, owner):
    (photo_id,) = photos.upload(1)
    video_id = owner.upload(clips.clip(seconds=4))["id"]
    app.open_app("#/library")
    open_item(app, video_id)
    app.wait(lambda: (video_state(app) or {}).get("src"), "the video's source")
    s = video_state(app)
    assert not s["hidden"] and s["controls"] and s["playsinline"] and s["preload"] == "metadata", s
    assert s["src"].endswith(f"/assets/{video_id}/video"), s
    assert f"/assets/{video_id}/image?" in s["poster"] and "mode=fit" in s["poster"], s
    assert not app.visible(tid("detail-image"))
    # Edit is there but unavailable, and says why.
    edit = app.find(tid("detail-edit"))
    assert edit.get_attribute("aria-disabled") == "true" and edit.get_attribute("href") is None
    assert edit.get_attribute("title") == "Videos cannot be edited yet."
    assert app.find(tid("detail-rotate")).get_attribute("disabled") is not None

    scroller_top = app.js("return document.querySelector('[data-testid=\"grid-scroller\"]').scrollTop")
    app.wait(lambda: app.js("return document.activeElement && document.activeElement.dataset.testid") == "detail-video",
             "the keyboard on the player")
    ActionChains(app.driver).send_keys(" ").perform()
    app.wait(lambda: video_state(app)["ready"] >= 2 and not video_state(app)["paused"], "the video to play")
    t0 = video_state(app)["time"]
    app.wait(lambda: video_state(app)["time"] > t0 + 0.3, "the video's time to advance")
    assert video_state(app)["error"] is None
    ActionChains(app.driver).send_keys(" ").perform()
    app.wait(lambda: video_state(app)["paused"], "Space to pause the video")
    t1 = video_state(app)["time"]
    time.sleep(0.5)
    assert video_state(app)["time"] == pytest.approx(t1, abs=0.05), "the video went on after the pause"
    assert app.js("return [window.scrollY, document.querySelector('[data-testid=\"grid-scroller\"]').scrollTop]") == [0, scroller_top], \
        "Space scrolled the page"

    # Play again, then the right arrow moves to the next item (the photo): the movie is let go.
    ActionChains(app.driver).send_keys(" ").perform()
    app.wait(lambda: not video_state(app)["paused"], "the video to play again")
    ActionChains(app.driver).send_keys("\ue014").perform()  # ArrowRight
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{photo_id}"), "the next item")
    app.wait(lambda: app.image_loaded(tid("detail-image")), "the photo")
    s = video_state(app)
    assert s["src"] is None and s["paused"] and s["hidden"], s
    assert app.find(tid("detail-edit")).get_attribute("aria-disabled") is None
    # And back: the video is ready again, and the left arrow was not taken by the player.
    ActionChains(app.driver).send_keys("\ue012").perform()  # ArrowLeft
    app.wait(lambda: app.driver.current_url.endswith(f"#/photo/{video_id}"), "the video again")
    app.wait(lambda: (video_state(app) or {}).get("src"), "the video's source again")
    app.click(tid("detail-close"))
    app.wait_gone(tid("detail"))
    assert not app.js("return [...document.querySelectorAll('video')].some((v) => v.getAttribute('src'))"), "a movie stayed loaded"


def test_a_live_photo_moves_while_pressed_and_the_live_button_turns_it_off(app, clips, owner):
    still, movie = clips.live()
    live_id = upload_pair(owner, still, movie)
    assert "photoLive" in owner.asset(live_id)["mediaSubtypes"]
    app.js("localStorage.removeItem('sepia.liveOff')")
    app.open_app("#/library")
    open_item(app, live_id)
    app.wait_image(tid("detail-image"))
    badge = app.wait_visible(tid("detail-live-badge"))
    assert badge.text == "LIVE"
    toggle = app.find(tid("detail-live-toggle"))
    assert toggle.is_displayed() and toggle.get_attribute("aria-pressed") == "true"
    live_css = tid("detail-live-video")
    assert video_state(app, live_css)["paused"]

    # Press and hold: the movie plays, muted, over the still; let go: back to the still.
    img = app.find(tid("detail-image"))
    ActionChains(app.driver).move_to_element(img).click_and_hold().perform()
    app.wait(lambda: (lambda s: not s["paused"] and s["time"] > 0.1 and s["playing"])(video_state(app, live_css)),
             "the Live Photo's movie to play while pressed")
    s = video_state(app, live_css)
    assert s["muted"] and s["src"].endswith(f"/assets/{live_id}/video"), s
    ActionChains(app.driver).release().perform()
    app.wait(lambda: (lambda s: s["paused"] and not s["playing"])(video_state(app, live_css)), "the movie to stop when let go")
    assert app.js("return getComputedStyle(document.querySelector(arguments[0])).opacity", live_css) in ("0", "0.0") or \
        app.wait(lambda: app.js("return getComputedStyle(document.querySelector(arguments[0])).opacity", live_css) == "0", "the still again")

    # Hovering the badge plays it too; leaving it stops.
    app.hover(tid("detail-live-badge"))
    app.wait(lambda: not video_state(app, live_css)["paused"], "the movie to play on the badge")
    ActionChains(app.driver).move_to_element_with_offset(img, 0, 0).perform()
    app.wait(lambda: video_state(app, live_css)["paused"], "the movie to stop off the badge")

    # Live off: no motion on press or hover; remembered for this photo.
    app.click(tid("detail-live-toggle"))
    app.wait(lambda: app.find(tid("detail-live-toggle")).get_attribute("aria-pressed") == "false", "Live to turn off")
    assert app.find(tid("detail-live-badge")).text == "LIVE OFF"
    assert live_id in app.js("return JSON.parse(localStorage.getItem('sepia.liveOff') || '[]')")
    ActionChains(app.driver).move_to_element(img).click_and_hold().perform()
    time.sleep(1)
    assert video_state(app, live_css)["paused"] and not video_state(app, live_css)["playing"], "the movie played with Live off"
    ActionChains(app.driver).release().perform()
    app.open_app(f"#/photo/{live_id}")
    app.wait_image(tid("detail-image"))
    app.wait(lambda: app.find(tid("detail-live-toggle")).get_attribute("aria-pressed") == "false", "Live still off after a reload")
    app.click(tid("detail-live-toggle"))
    app.wait(lambda: app.find(tid("detail-live-toggle")).get_attribute("aria-pressed") == "true", "Live on again")


def test_an_hevc_clip_says_how_far_its_playable_version_has_come_then_plays(app, owner, tmp_path):
    # Long enough at 720p that the encode lasts a few seconds: progress is reported about once a second.
    clip = tmp_path / "IMG_0900.MOV"
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=20", "-c:v", "libx265", "-preset", "ultrafast",
           "-x265-params", "log-level=error", "-tag:v", "hvc1", "-metadata", f"comment=sepia {uuid.uuid4()}", str(clip))
    video_id = owner.upload(clip)["id"]
    app.open_app(f"#/photo/{video_id}")
    app.wait_visible(tid("detail"))
    seen = []
    def playable():
        text = app.js("const p = document.querySelector(arguments[0]); return p && !p.hidden ? p.textContent : null", tid("detail-preparing"))
        if text and text not in seen:
            seen.append(text)
        return (video_state(app) or {}).get("src")
    app.wait(playable, "the playable version", timeout=180)
    assert seen and seen[0].startswith("Preparing for playback"), seen
    percents = [int(t.split("… ")[1].rstrip(" %")) for t in seen if t.endswith(" %")]
    assert percents, f"no progress was shown while the version was made: {seen}"
    assert percents == sorted(percents) and all(0 <= p <= 100 for p in percents), seen
    assert not app.visible(tid("detail-preparing")), "the progress stayed after the version was ready"
    assert video_state(app)["src"].endswith(f"/assets/{video_id}/video")


def test_a_shared_video_and_live_photo_play_for_someone_without_an_account(app, clips, owner, tmp_path):
    clip = clips.clip(seconds=3)
    still, movie = clips.live()
    video_id = owner.upload(clip)["id"]
    live_id = upload_pair(owner, still, movie)
    stranger = Browser(app.base, width=1280, height=800, camera="none", label="stranger")
    try:
        # One video's link: the player, its poster the shared rendition, the movie through the link's own route.
        share = owner.json("POST", "/api/v1/shares", {"assetID": video_id}, expect=(201,))
        stranger.driver.get(share["url"])
        assert stranger.driver.get_cookies() == []
        css = tid("share-video")
        stranger.wait(lambda: (video_state(stranger, css) or {}).get("src"), "the shared video's source")
        s = video_state(stranger, css)
        assert s["controls"] and s["playsinline"] and s["preload"] == "metadata", s
        assert "/shared/" in s["src"] and s["src"].endswith(f"/assets/{video_id}/video"), s
        assert f"/assets/{video_id}/image?" in s["poster"], s
        assert stranger.text("h1") == "Shared video"
        assert stranger.driver.title == "Shared video — Sepia"
        # A click on the picture plays it, as a person starts it (the browser allows sound after a gesture).
        ActionChains(stranger.driver).move_to_element(stranger.find(css)).click().perform()
        stranger.wait(lambda: (lambda v: v["ready"] >= 2 and not v["paused"] and v["time"] > 0.3)(video_state(stranger, css)),
                      "the shared video to play")
        assert video_state(stranger, css)["error"] is None

        # An album with the video, the Live Photo and a photo: badges in the grid; the viewer plays the video
        # and moves the Live Photo while it is pressed.
        album = owner.create_album("Harbour clips", [video_id, live_id])
        link = owner.json("POST", "/api/v1/shares", {"albumID": album["id"]}, expect=(201,))
        stranger.driver.get(link["url"])
        stranger.wait_visible(tid("share-grid"))
        labels = [c.get_attribute("aria-label") for c in stranger.find_all(tid("share-cell"))]
        assert sorted(labels) == ["Live Photo 2", "Video 1, 0:03"] or sorted(labels) == ["Live Photo 1", "Video 2, 0:03"], labels
        assert stranger.text(tid("share-cell-duration")) == "0:03"
        assert "LIVE" in stranger.text(".share-grid .cell-live")
        video_cell = next(c for c in stranger.find_all(tid("share-cell")) if c.get_attribute("aria-label").startswith("Video"))
        video_cell.click()
        viewer_css = tid("share-viewer-video")
        stranger.wait(lambda: (video_state(stranger, viewer_css) or {}).get("src"), "the viewer's video")
        ActionChains(stranger.driver).move_to_element(stranger.find(viewer_css)).click().perform()
        stranger.wait(lambda: (lambda v: v["ready"] >= 2 and not v["paused"])(video_state(stranger, viewer_css)), "the viewer's video to play")
        # To the Live Photo: the video is let go, the still shows, and pressing it plays the motion, muted.
        assert "1 photo, 1 video" in stranger.text(".share-page")
        stranger.click(".share-viewer .nav-arrow.prev" if labels[0].startswith("Live") else ".share-viewer .nav-arrow.next")
        stranger.wait(lambda: not stranger.present(viewer_css), "the video to be let go")
        stranger.wait_image(tid("share-viewer-image"))
        live_css = tid("share-live-video")
        ActionChains(stranger.driver).move_to_element(stranger.find(tid("share-viewer-image"))).click_and_hold().perform()
        stranger.wait(lambda: (lambda v: v["src"] and not v["paused"] and v["time"] > 0.1)(video_state(stranger, live_css)),
                      "the Live Photo's movie to play while pressed")
        assert video_state(stranger, live_css)["muted"]
        ActionChains(stranger.driver).release().perform()
    finally:
        stranger.quit()


# ---------------------------------------------------------------------------------------------- sizes

SIZES = {"phone": (375, 812, True), "desktop": (1440, 900, False)}


@pytest.fixture(scope="module")
def reel(tmp_path_factory):
    """A library of sample photos with two clips and a Live Photo among them (zooms into sample photos,
    dated in the photos' month), imported with `sepia import`: what the documentation's screenshots show."""
    work = tmp_path_factory.mktemp("reel")
    folder = work / "media"
    sample_photos(folder)
    make_clip(folder / "harbour.mp4", 1, seconds=8, size="640x480", source=SAMPLE_PHOTOS / "fujifilm-w3.jpg",
              created="2024-07-26T18:10:00Z")
    make_clip(folder / "flowers.mov", 2, seconds=14, size="640x480", source=SAMPLE_PHOTOS / "flower.jpg",
              created="2024-07-20T09:30:00Z")
    make_live_pair(folder, "IMG_0042", 3, source=SAMPLE_PHOTOS / "iptc.jpg", size=(640, 480), created="2024-07-27T12:00:00Z")
    library = work / "library"
    import_photos(library, folder)
    s = Server(work, library=library, name="reel").start()
    api = s.create_owner()
    assets = api.assets(limit=100)["assets"]
    b = Browser(s.base, label="reel")
    b.sign_in()
    yield {"browser": b, "assets": assets}
    b.quit()
    stop_server(s)


@pytest.fixture(params=list(SIZES))
def sized(request, reel):
    w, h, mobile = SIZES[request.param]
    b = reel["browser"]
    b.set_viewport(w, h, mobile=mobile)
    yield request.param, b
    b.set_viewport(1440, 900)


def rect(b, css):
    return b.js("const e = document.querySelector(arguments[0]); if (!e) return null; const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", css)


def assert_on_screen_and_clear(b, css, others):
    r = rect(b, css)
    w, h = b.js("return [innerWidth, innerHeight]")
    assert r and r[0] >= -1 and r[1] >= -1 and r[2] <= w + 1 and r[3] <= h + 1, f"{css} is off screen: {r}"
    for other in others:
        for o in b.js("""return [...document.querySelectorAll(arguments[0])].filter((e) => e.offsetParent !== null)
                         .map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; });""", other):
            assert not overlap(r, o), f"{css} {r} overlaps {other} {o}"


def test_badges_and_players_fit_a_phone_and_a_desktop(sized, reel, screenshot):
    name, b = sized
    by_name = {a["originalFilename"]: a for a in reel["assets"]}
    assert len(reel["assets"]) == len(by_name), "the Live Photo's two files should be one item"
    clip, long_clip, live = by_name["harbour.mp4"], by_name["flowers.mov"], by_name["IMG_0042.JPG"]
    assert "IMG_0042.MOV" not in by_name
    b.open_app("#/library")
    for a in (clip, long_clip, live):
        b.wait_cell(a["id"])
        b.wait_cell_thumbnail(a["id"])
    assert b.js("return document.documentElement.scrollWidth <= innerWidth"), "the page overflows sideways"
    assert cell_info(b, long_clip["id"])["duration"] == "0:14"
    assert cell_info(b, clip["id"])["duration"] == "0:08"
    for a in (clip, long_clip, live):
        info = cell_info(b, a["id"])
        badge = info["durationBox"] or info["liveBox"]
        assert badge and inside(badge, info["cell"]), f"{a['originalFilename']}: the badge leaves its cell: {info}"
        if info["favBox"]:
            assert not overlap(badge, info["favBox"]), info
    if name == "phone":
        live_info = cell_info(b, live["id"])
        assert live_info["liveBox"][2] - live_info["liveBox"][0] <= (live_info["cell"][2] - live_info["cell"][0]) / 2 + 1, live_info
    if name == "desktop":
        b.wait(lambda: b.js("""
            const cells = [...document.querySelectorAll('[data-testid="grid-cell"]')].filter((c) => {
              const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
            return cells.length > 0 && cells.every((c) => { const i = c.querySelector('img'); return i.complete && i.naturalWidth > 0; });"""),
            "the thumbnails on screen")
        time.sleep(0.4)  # their fade-in
        screenshot(b, "web-video-grid")

    # The video: the player within the stage, clear of the bars; its controls on screen.
    open_item(b, clip["id"])
    b.wait(lambda: (video_state(b) or {}).get("src") and video_state(b)["ready"] >= 1, "the video's metadata")
    bars = [".detail-bar", ".detail-actions", ".tabbar"]
    assert_on_screen_and_clear(b, tid("detail-video"), bars)
    for control in ("detail-close", "detail-favorite", "detail-edit", "detail-more"):
        assert_on_screen_and_clear(b, tid(control), [tid("detail-video")] if name == "phone" else [])
    assert b.js("return document.documentElement.scrollWidth <= innerWidth")
    if name == "desktop":
        ActionChains(b.driver).send_keys(" ").perform()
        b.wait(lambda: (lambda s: not s["paused"] and s["time"] > 1.5)(video_state(b)), "the video to play")
        b.hover(tid("detail-video"))  # the player's controls show while the pointer is on it
        time.sleep(0.3)
        screenshot(b, "web-video-detail")
        ActionChains(b.driver).send_keys(" ").perform()
        b.wait(lambda: video_state(b)["paused"], "the video to pause")
    b.click(tid("detail-close"))
    b.wait_gone(tid("detail"))

    # The Live Photo: the badge and the Live button on screen, over nothing else.
    open_item(b, live["id"])
    b.wait_image(tid("detail-image"))
    assert_on_screen_and_clear(b, tid("detail-live-badge"), bars + [tid("detail-prev"), tid("detail-next")])
    assert_on_screen_and_clear(b, tid("detail-live-toggle"), [tid("detail-favorite"), tid("detail-live-badge")])
    assert b.js("return document.documentElement.scrollWidth <= innerWidth")
    b.click(tid("detail-close"))
    b.wait_gone(tid("detail"))
