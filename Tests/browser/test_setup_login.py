"""First run: the owner's account from the setup link `sepia serve` prints, then sign out and sign in.

A server of its own (no account yet) and a window of its own, so the first-run screens are the ones a new
owner sees.
"""

import pytest

from sepia_browser import PASSWORD, USERNAME, Browser, Server, stop_server, tid


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    s = Server(tmp_path_factory.mktemp("first-run"), name="first-run").start()
    b = Browser(s.base, label="first-run")
    yield s, b
    b.quit()
    stop_server(s)


def test_printed_setup_link_creates_the_owner(fresh):
    server, b = fresh
    assert server.setup_url and "/setup?token=" in server.setup_url
    b.driver.get(server.setup_url)
    b.wait_visible(tid("setup-form"))
    assert b.text("h1") == "Welcome to Sepia"
    assert "owner account" in b.text(tid("setup-form"))
    assert b.text(tid("setup-submit")) == "Create Account"

    # Two different passwords are refused in words, before anything is sent.
    b.type(tid("setup-username"), USERNAME)
    b.type(tid("su-pass"), PASSWORD)
    b.type(tid("su-pass2"), PASSWORD + "!")
    b.click(tid("setup-submit"))
    error = b.wait_visible(f'{tid("setup-form")} .form-error')
    assert error.get_attribute("role") == "alert"
    assert "different" in error.text
    assert b.find(tid("su-pass2")).get_attribute("aria-invalid") == "true"

    # A too-short password too.
    b.type(tid("su-pass"), "short")
    b.type(tid("su-pass2"), "short")
    b.click(tid("setup-submit"))
    b.wait(lambda: "at least 10 characters" in b.text(f'{tid("setup-form")} .form-error'), "the password length error")

    b.type(tid("su-pass"), PASSWORD)
    b.type(tid("su-pass2"), PASSWORD)
    b.click(tid("setup-submit"))
    b.wait(lambda: b.driver.current_url.endswith("/#/library"), "the library after setup")
    b.wait_visible(tid("empty-state"))
    assert b.text(tid("screen-title")) == "Library"
    assert b.text(tid("photo-count")) == "0 photos"
    assert "No photos yet" in b.text(tid("empty-state"))


def test_used_setup_link_is_refused_in_words(fresh):
    server, b = fresh
    other = Browser(server.base, label="first-run-2")
    try:
        other.driver.get(server.setup_url)
        problem = other.wait_visible(tid("setup-problem"))
        assert "expired or was already used" in problem.text
        assert "Go to Sign In" in problem.text
        assert problem.get_attribute("role") == "alert"
    finally:
        other.quit()


def test_sign_out_then_sign_in(fresh):
    server, b = fresh
    b.open_app("#/settings")
    b.click(tid("sign-out"))
    b.wait_visible(tid("login-form"))
    assert b.driver.current_url.endswith("/login")
    assert "You are signed out." in b.text(".auth-body")
    # Signed out for real: the app's routes send back to the sign-in page.
    b.load("/#/library")
    b.wait_visible(tid("login-form"))

    b.type(tid("login-username"), USERNAME)
    b.type(tid("login-password"), "not the password")
    b.click(tid("login-submit"))
    error = b.wait_visible(tid("login-error"))
    assert error.text == "The user name or password is wrong. Check both and try again."
    assert error.get_attribute("role") == "alert"
    assert b.present(tid("login-form"))
    # Empty fields are said in words too.
    b.find(tid("login-password")).clear()
    b.click(tid("login-submit"))
    b.wait(lambda: b.text(tid("login-error")) == "Enter your user name and password.", "the empty-field error")

    b.type(tid("login-password"), PASSWORD)
    b.click(tid("login-submit"))
    b.wait(lambda: b.driver.current_url.endswith("/#/library") and b.visible(tid("empty-state")), "the library after sign-in")
    assert b.text(tid("screen-title")) == "Library"
    # The sign-in page, opened while signed in, goes to the library.
    b.load("/login")
    b.wait(lambda: "#/library" in b.driver.current_url and b.present(tid("screen-title")), "the library instead of the sign-in page")
