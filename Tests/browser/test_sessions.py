"""Signed-in browsers in Settings: a laptop's and a phone's sessions (and a script's) listed with what each is and
where it was last used from, this browser marked; the laptop signs the phone out (the phone is sent to sign-in at
its next step) and then every other browser (the script's session stops working). At a desktop's size and a
phone's, each on a server of its own, since the test ends sessions.
"""

import pytest

from sepia_browser import Api, Browser, Server, stop_server, tid


@pytest.fixture
def own_server(tmp_path):
    s = Server(tmp_path, name="sessions").start()
    s.create_owner()
    yield s
    stop_server(s)


def current_session_id(b: Browser) -> str:
    """The id of the session `b` is signed in with, as the list names it."""
    listed = b.js_async(
        "const r = await fetch('/api/v1/account/sessions'); return (await r.json()).sessions.find((s) => s.current).id;")
    assert listed and len(listed) == 16, listed
    return listed


@pytest.mark.parametrize("size", ["1440x900", "375x812"])
def test_list_and_sign_out_other_browsers(own_server, size, screenshot):
    width, height = map(int, size.split("x"))
    kind = "phone" if width < 760 else "desktop"
    laptop = Browser(own_server.base, width=width, height=height, label=f"sessions-{width}")
    phone = Browser(own_server.base, width=375, height=812, label=f"sessions-other-{width}")
    try:
        if width < 760:
            laptop.set_viewport(width, height, mobile=True)
        phone.set_viewport(375, 812, mobile=True)
        laptop.sign_in()
        phone.sign_in()
        script = Api.sign_in(own_server.base)
        phone_id = current_session_id(phone)

        laptop.open_app("#/settings")
        rows = tid("session-row")
        # This one, the phone's, the script's, and those the server's set-up made.
        laptop.wait(lambda: len(laptop.find_all(rows)) >= 3 and laptop.present(f'{rows}[data-session-id="{phone_id}"]'),
                    "the signed-in sessions, the phone's among them")
        listed = len(laptop.find_all(rows))
        current = laptop.find(f'{rows}[data-current="true"]')
        assert laptop.text(f'{rows}[data-current="true"] {tid("session-device")}') == "Chrome (headless) on Linux"
        assert "This browser · This computer · 127.0.0.1" in current.text, current.text
        assert not laptop.present(f'{rows}[data-current="true"] {tid("session-sign-out")}')
        phone_row = f'{rows}[data-session-id="{phone_id}"]'
        assert "Active now · This computer · 127.0.0.1" in laptop.find(phone_row).text, laptop.find(phone_row).text
        laptop.assert_no_sideways_overflow()
        laptop.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", tid("session-list"))
        screenshot(laptop, f"web-sessions-{kind}")

        # The laptop signs the phone out; the phone's next step asks it to sign in again.
        laptop.click(f'{phone_row} {tid("session-sign-out")}')
        laptop.wait(lambda: not laptop.present(phone_row) and len(laptop.find_all(rows)) == listed - 1, "the phone's row to go")
        phone.open_app("#/settings")
        phone.wait_visible(tid("login-form"))

        # Every other browser: the script's session ends too; this one stays.
        laptop.click(tid("session-sign-out-others"))
        laptop.click(f'{tid("session-sign-out-others-dialog")} {tid("confirm-ok")}')
        laptop.wait(lambda: len(laptop.find_all(rows)) == 1, "only this browser left")
        assert laptop.find(tid("session-sign-out-others")).get_attribute("disabled") is not None
        assert script.call("GET", "/api/v1/session").status == 401
        laptop.open_app("#/library")
    finally:
        laptop.quit()
        phone.quit()
