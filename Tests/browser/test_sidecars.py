"""XMP sidecars chosen with their photos: Add Photos pairs each sidecar with its photo (digiKam's NAME.ext.xmp,
Lightroom's NAME.xmp), and the photo arrives with the sidecar's rating, title, keywords, date, place and crop,
shown in Info; a sidecar chosen without its photo is refused with the reason.

The RAW file is made at test time by scripts/testdata-raw; the JPEG from the corpus's photos, made unique here.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from sepia_browser import SAMPLE_PHOTOS, tid

ROOT = Path(__file__).resolve().parents[2]
RAW = ROOT / ".build" / "testdata" / "raw-tiff"

DIGIKAM = """<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
  xmlns:digiKam="http://www.digikam.org/ns/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
  xmp:Rating="4" exif:DateTimeOriginal="2021-06-19T07:45:00+02:00" exif:GPSLatitude="43,17.7N" exif:GPSLongitude="5,22.2E">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Calanques at sunrise</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">From the path above Sormiou</rdf:li></rdf:Alt></dc:description>
<digiKam:TagsList><rdf:Seq><rdf:li>Places/France/Marseille</rdf:li><rdf:li>Hiking</rdf:li></rdf:Seq></digiKam:TagsList>
</rdf:Description></rdf:RDF></x:xmpmeta>"""

LIGHTROOM = """<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
  xmp:Rating="5" crs:HasCrop="True" crs:CropTop="0" crs:CropLeft="0" crs:CropBottom="0.5" crs:CropRight="0.5" crs:CropAngle="0">
<dc:subject><rdf:Bag><rdf:li>Lighthouse</rdf:li></rdf:Bag></dc:subject>
<lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|France|Lighthouse</rdf:li></rdf:Bag></lr:hierarchicalSubject>
</rdf:Description></rdf:RDF></x:xmpmeta>"""


@pytest.fixture(scope="module")
def camera_folder(tmp_path_factory) -> Path:
    if not (RAW / "MANIFEST.json").exists():
        subprocess.run([str(ROOT / "scripts" / "testdata-raw"), "--quiet"], check=True)
    folder = tmp_path_factory.mktemp("camera")
    img = Image.open(SAMPLE_PHOTOS / "flower.jpg").convert("RGB")
    img.thumbnail((900, 900))
    draw = ImageDraw.Draw(img)
    rng = random.Random()
    draw.rectangle((0, 0, 6, 6), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    img.save(folder / "DSC_0420.jpg", "JPEG", quality=90)
    (folder / "DSC_0420.jpg.xmp").write_text(DIGIKAM)
    raw = folder / "DSC_0421.dng"
    raw.write_bytes((RAW / "raw" / "rggb_12bit_orient6.dng").read_bytes())
    (folder / "DSC_0421.xmp").write_text(LIGHTROOM)
    (folder / "DSC_9999.xmp").write_text(DIGIKAM)
    return folder


def named(api, name: str) -> dict:
    found = [a for a in api.assets(limit=500)["assets"] if a["originalFilename"] == name]
    assert len(found) == 1, f"{len(found)} items named {name}"
    return found[0]


def test_sidecars_chosen_with_their_photos_give_ratings_titles_keywords_dates_places_and_crops(app, browser_api, camera_folder, screenshot):
    accept = app.find(tid("file-input")).get_attribute("accept")
    assert ".xmp" in accept, accept
    files = sorted(camera_folder.iterdir())
    app.upload_files(files)
    items = {i["name"]: i for i in app.wait_uploads_finished(3, timeout=120)}
    # Two photos, each with its sidecar; the sidecar without a photo is refused, and says why.
    assert set(items) == {"DSC_0420.jpg", "DSC_0421.dng", "DSC_9999.xmp"}, items
    assert items["DSC_0420.jpg"]["state"] == "done" and "DSC_0420.jpg.xmp" in items["DSC_0420.jpg"]["status"], items
    assert items["DSC_0421.dng"]["state"] == "done" and "DSC_0421.xmp" in items["DSC_0421.dng"]["status"], items
    assert items["DSC_9999.xmp"]["state"] == "error" and "no photo beside it" in items["DSC_9999.xmp"]["status"], items

    # digiKam's: title, caption, keywords, rating, and the date and place as edits beside the file's own
    photo = named(browser_api, "DSC_0420.jpg")
    assert photo["title"] == "Calanques at sunrise" and photo["caption"] == "From the path above Sormiou", photo
    assert photo["keywords"] == ["Places|France|Marseille", "Hiking"] and photo["rating"] == 4, photo
    assert photo["localCreationDate"] == "2021-06-19T07:45:00+02:00" and photo["creationDateEdited"], photo
    assert abs(photo["location"]["latitude"] - (43 + 17.7 / 60)) < 1e-6 and photo["locationEdited"], photo
    # Lightroom's NAME.xmp beside the RAW: its keyword, five stars and the crop (the top-left quarter)
    raw = named(browser_api, "DSC_0421.dng")
    assert raw["keywords"] == ["Places|France|Lighthouse"] and raw["rating"] == 5, raw
    assert raw["hasAdjustments"] and (raw["width"], raw["height"]) == (raw["originalWidth"] // 2, raw["originalHeight"] // 2), raw

    # Info shows what the sidecar said
    app.go(f"#/photo/{photo['id']}")
    app.wait_visible(tid("detail"))
    if app.find(tid("detail-info")).get_attribute("aria-pressed") != "true":
        app.click(tid("detail-info"))
    app.wait_visible(tid("info-metadata"))
    app.wait(lambda: app.find(tid("info-title")).get_attribute("value") == "Calanques at sunrise", "the title shown")
    app.wait(lambda: "Marseille" in app.text(tid("info-keywords")), "the keywords shown")
    assert app.find(tid("info-star-4")).get_attribute("aria-pressed") == "true"
    app.wait(lambda: "Original:" in app.text(tid("info-date-original")), "the file's own date shown beside the sidecar's")
    screenshot(app, "web-sidecar-info")

    # And the library finds it by a level of its keyword
    app.go("#/search/France")
    app.wait_cell(photo["id"])
    app.wait_cell(raw["id"])
