"""Errors read as sentences: a refused file's message names it as given, with the decoder's words kept in
"Details"."""

from sepia_browser import photo_bytes, tid

# What the decoder and the engine say about a cut-off JPEG; none of it belongs in the sentence people read.
DECODER_WORDS = ("Premature", "JPEG file", "strict mode", "damaged data", "libjpeg")


def truncated_jpeg(path, seed):
    """A JPEG cut off part-way through its scan, as an interrupted copy leaves it."""
    data = photo_bytes(seed, (640, 480))
    path.write_bytes(data[: len(data) * 3 // 5])
    return path


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
