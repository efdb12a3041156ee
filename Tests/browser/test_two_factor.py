"""Two-factor sign-in as a person sets it up: Settings → Turn On, the password, the QR code (the key typed into an
"authenticator app", here RFC 6238 computed by this test with Python's hmac, independently of the server), the
app's first code, the ten recovery codes; then sign out and sign in with the password and the app's code, with a
recovery code, and a wrong code said in words; the owner resets it for a member. At a desktop's size and a phone's.

A server of its own: the session's server must keep signing in with the password alone.
"""

import base64
import hashlib
import hmac
import struct
import time

import pytest

from sepia_browser import PASSWORD, USERNAME, Api, Browser, Server, stop_server, tid


def totp(secret_base32: str, step: int) -> str:
    """RFC 6238 (HMAC-SHA-1, six digits) for the 30-second step `step`."""
    key = base64.b32decode(secret_base32.replace(" ", "").upper() + "=" * (-len(secret_base32.replace(" ", "")) % 8))
    mac = hmac.new(key, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    number = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{number % 1_000_000:06d}"


def now_step() -> int:
    return int(time.time() // 30)


@pytest.fixture(scope="module")
def family(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("two-factor"), name="two-factor").start()
    s.create_owner()
    yield s
    stop_server(s)


def sign_out(b: Browser):
    b.open_app("#/settings")
    b.click(tid("sign-out"))
    b.wait_visible(tid("login-form"))


def password_step(b: Browser, username=USERNAME, password=PASSWORD):
    b.load("/login")
    b.type(tid("login-username"), username)
    b.type(tid("login-password"), password)
    b.click(tid("login-submit"))
    b.wait_visible(tid("second-factor-form"))
    assert b.text(".auth-title") == "Two-factor sign-in"
    assert b.find(tid("second-factor-code")).get_attribute("autocomplete") == "one-time-code"


def turn_on(b: Browser, screenshot=None, name=None) -> str:
    """Settings → Turn On; returns the secret the page shows."""
    b.open_app("#/settings")
    b.wait(lambda: "Off:" in b.text(tid("two-factor-status")), "two-factor sign-in to be off")
    b.click(tid("two-factor-on"))
    b.type(tid("two-factor-password"), "not the password")
    b.click(tid("two-factor-password-submit"))
    b.wait(lambda: b.text(tid("two-factor-error")) == "The password is wrong.", "the wrong password said")
    b.type(tid("two-factor-password"), PASSWORD)
    b.click(tid("two-factor-password-submit"))
    b.wait_image(tid("two-factor-qr"))
    qr = b.find(tid("two-factor-qr"))
    assert qr.size["width"] >= 150, qr.size
    secret = b.text(tid("two-factor-secret"))
    if screenshot:
        b.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", tid("two-factor-qr"))
        screenshot(b, name)
    # A wrong code first: said in words, and nothing is on.
    b.type(tid("two-factor-code"), "000000" if totp(secret, now_step()) != "000000" else "111111")
    b.click(tid("two-factor-confirm"))
    b.wait(lambda: "code is wrong" in b.text(tid("two-factor-error")), "the wrong code said")
    b.type(tid("two-factor-code"), totp(secret, now_step()))
    b.click(tid("two-factor-confirm"))
    b.wait_visible(tid("recovery-codes"))
    return secret


@pytest.mark.parametrize("size", ["1440x900", "375x812"])
def test_turn_on_sign_in_with_the_app_and_a_recovery_code(family, size, screenshot):
    width, height = map(int, size.split("x"))
    b = Browser(family.base, width=width, height=height, label=f"two-factor-{width}")
    try:
        if width < 760:
            b.set_viewport(width, height, mobile=True)
        kind = "phone" if width < 760 else "desktop"
        b.sign_in()
        secret = turn_on(b, screenshot, f"web-two-factor-setup-{kind}")
        codes = [c.text for c in b.find_all(f"{tid('recovery-codes')} li")]
        assert len(codes) == 10 and len(set(codes)) == 10, codes
        b.click(tid("recovery-codes-done"))
        b.wait(lambda: "On:" in b.text(tid("two-factor-status")) and "10 recovery codes left" in b.text(tid("two-factor-status")),
               "two-factor sign-in to be on")

        # The password alone is not enough; the app's next code is (the first was used to turn it on).
        sign_out(b)
        password_step(b)
        b.type(tid("second-factor-code"), "123 456" if totp(secret, now_step()) != "123456" else "654321")
        b.click(tid("second-factor-submit"))
        b.wait(lambda: "wrong or was used already" in b.text(tid("second-factor-error")), "the wrong code said")
        screenshot(b, f"web-two-factor-sign-in-{kind}")
        b.type(tid("second-factor-code"), totp(secret, now_step() + 1))
        b.click(tid("second-factor-submit"))
        b.wait(lambda: "#/library" in b.driver.current_url and b.present(tid("screen-title")), "the library after the code")

        # A recovery code, once.
        sign_out(b)
        password_step(b)
        b.click(tid("second-factor-toggle"))
        assert b.text("label[for=second-factor-code]") == "Recovery code"
        b.type(tid("second-factor-code"), codes[0].upper())
        b.click(tid("second-factor-submit"))
        b.wait(lambda: "#/library" in b.driver.current_url and b.present(tid("screen-title")), "the library after a recovery code")
        b.open_app("#/settings")
        b.wait(lambda: "9 recovery codes left" in b.text(tid("two-factor-status")), "one recovery code used")

        # Off again, after the password: the next test (and size) starts from off.
        b.click(tid("two-factor-off"))
        b.type(tid("two-factor-password"), PASSWORD)
        b.click(tid("two-factor-password-submit"))
        b.wait(lambda: "Off:" in b.text(tid("two-factor-status")), "two-factor sign-in off")
        sign_out(b)
        b.sign_in()
    finally:
        b.quit()


def test_the_owner_resets_a_members_second_factor(family):
    owner_api = Api.sign_in(family.base)
    invitation = owner_api.json("POST", "/api/v1/users/invitations", {}, expect=(201,))
    token = invitation["url"].split("token=")[-1]
    Api(family.base).json("POST", "/api/v1/setup", {"token": token, "username": "zoe", "password": PASSWORD}, expect=(201,))
    member = Browser(family.base, label="two-factor-member")
    owner = Browser(family.base, label="two-factor-owner")
    try:
        member.sign_in("zoe")
        turn_on(member)
        member.click(tid("recovery-codes-done"))
        sign_out(member)

        owner.sign_in()
        owner.open_app("#/settings")
        owner.wait_visible(tid("user-reset-two-factor"))
        owner.click(tid("user-reset-two-factor"))
        owner.click(f"{tid('user-reset-two-factor-dialog')} {tid('confirm-ok')}")
        owner.wait(lambda: not owner.present(tid("user-reset-two-factor")), "the reset button to go")

        # Zoë signs in with her password alone again.
        member.sign_in("zoe")
    finally:
        member.quit()
        owner.quit()
