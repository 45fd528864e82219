"""Accounts: usernames and their look-alikes, passwords, sessions and CSRF tokens."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.ai.levels import LEVELS
from ludotheque.server.accounts.rules import (
    CSRF_FAILED,
    RESERVED,
    SESSION_COOKIE,
    AccountError,
    Passwords,
    Verdict,
    check_csrf,
    csrf_ok,
    csrf_token,
    new_csrf_binding,
    new_session_token,
    session_cookie,
    session_hash,
    username_key,
    validate_password,
    validate_username,
)
from ludotheque.server.errors import GameError

SECRET = "a server secret of enough bytes"


# -- usernames ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["ab", "Alice", "x_y-z9", "Zo3", "a" * 20, "Jean-Luc", "b0b", "Al", "Ludo"]
)
def test_good_usernames(name: str) -> None:
    assert validate_username(name) == name


def test_surrounding_spaces_go() -> None:
    assert validate_username("  Alice ") == "Alice"


@pytest.mark.parametrize(
    ("name", "code", "words"),
    [
        ("a", "bad-username", "2 to 20"),
        ("a" * 21, "bad-username", "2 to 20"),
        ("", "bad-username", "2 to 20"),
        ("9lives", "bad-username", "starts with a letter"),
        ("_abc", "bad-username", "starts with a letter"),
        ("abc_", "bad-username", "ends with a letter or a digit"),
        ("a__b", "bad-username", "two of _ and -"),
        ("a-_b", "bad-username", "two of _ and -"),
        ("élodie", "bad-username", "only the letters a to z"),
        ("\u0430dmin", "bad-username", "only the letters a to z"),  # Cyrillic а
        ("ａｌｉｃｅ", "bad-username", "only the letters a to z"),  # full width
        ("al\u200bice", "bad-username", "only the letters a to z"),  # zero width space
        ("al ice", "bad-username", "only the letters a to z"),
        ("al.ice", "bad-username", "only the letters a to z"),
        ("<b>x</b>", "bad-username", "only the letters a to z"),
        (None, "bad-username", "only the letters a to z"),
    ],
)
def test_bad_usernames(name: object, code: str, words: str) -> None:
    with pytest.raises(AccountError) as caught:
        validate_username(name)
    assert caught.value.code == code and caught.value.status == 400
    assert words in caught.value.message


@pytest.mark.parametrize(
    "name",
    [
        "admin",
        "Admin",
        "ADM1N",
        "adm1n",
        "Computer",
        "C0MPUTER",
        "Anonymous",
        "anonyme",
        "Hard",
        "easy",
        "Moyen",
        "Guest",
        "admin2",
        "Computer_hard",
        "ludotheque-team",
        "Moderator",
        "rebels",
        "Imperium",
    ],
)
def test_reserved_usernames(name: str) -> None:
    with pytest.raises(AccountError) as caught:
        validate_username(name)
    assert caught.value.code == "reserved-username"
    assert "réservé" in caught.value.in_language("fr")


def test_the_computer_levels_are_reserved() -> None:
    assert {username_key(level) for level in LEVELS} <= RESERVED


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Alice", "alice"),
        ("Ilya", "lLya"),
        ("Bil1y", "Billy"),
        ("Ilya", "ilya"),
        ("Bob0", "boBO"),
        ("Corner", "Comer"),
        ("wendy", "vvendy"),
        ("jean-luc", "Jean_Luc"),
    ],
)
def test_look_alikes_share_a_key(one: str, other: str) -> None:
    assert username_key(validate_username(one)) == username_key(validate_username(other))


@pytest.mark.parametrize(("one", "other"), [("alice", "alicf"), ("bob", "rob"), ("mia", "mina")])
def test_different_names_keep_different_keys(one: str, other: str) -> None:
    assert username_key(one) != username_key(other)


usernames = st.from_regex(r"[A-Za-z](?:[A-Za-z0-9]|[_-][A-Za-z0-9]){1,9}", fullmatch=True)


@given(usernames)
def test_keys_ignore_case_and_are_stable(name: str) -> None:
    try:
        valid = validate_username(name)
    except AccountError as exc:
        assert exc.code == "reserved-username"
        return
    assert valid == name
    key = username_key(name)
    assert username_key(name.swapcase()) == key
    assert username_key(key) == key


# -- passwords ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "words"),
    [
        ("short", "at least 8"),
        ("x" * 257, "at most 256"),
        ("Alice-in-chains", "not be the username"),
        ("password", "most common"),
        ("AZERTYUIOP", "most common"),
        ("zzzzzzzzzz", "most common"),
        (12345678, "at least 8"),
    ],
)
def test_bad_passwords(password: object, words: str) -> None:
    with pytest.raises(AccountError) as caught:
        validate_password(password, username="alice-in-chains")
    assert words in caught.value.message and caught.value.code == "bad-password"


def test_good_passwords() -> None:
    assert validate_password("correct horse battery", "alice") == "correct horse battery"
    assert validate_password("ｆｕｌｌ－ｗｉｄｔｈ") == "full-width"  # NFKC


def test_hash_and_verify() -> None:
    passwords = Passwords.cheap()
    stored = passwords.hash("correct horse battery")
    assert stored.startswith("$argon2id$") and "correct" not in stored
    assert passwords.hash("correct horse battery") != stored  # salted
    assert passwords.verify(stored, "correct horse battery") == Verdict(True)
    assert passwords.verify(stored, "correct horse batterz") == Verdict(False)
    assert passwords.verify(stored, "") == Verdict(False)
    assert passwords.verify("not a hash", "correct horse battery") == Verdict(False)
    assert passwords.verify(stored, None) == Verdict(False)  # type: ignore[arg-type]


def test_unknown_users_cost_a_hash_too() -> None:
    passwords = Passwords.cheap()
    assert passwords.verify(None, "anything at all") == Verdict(False)
    assert passwords.verify(None, "") == Verdict(False)


def test_one_password_in_two_unicode_forms() -> None:
    passwords = Passwords.cheap()
    composed, decomposed = "caf\u00e9 au lait", "cafe\u0301 au lait"
    assert passwords.verify(passwords.hash(composed), decomposed).ok


def test_rehash_on_sign_in_when_the_parameters_changed() -> None:
    old = Passwords.cheap()
    stored = old.hash("correct horse battery")
    new = Passwords(time_cost=2, memory_cost=16, parallelism=1)
    verdict = new.verify(stored, "correct horse battery")
    assert verdict.ok and verdict.rehash is not None
    assert "m=16,t=2,p=1" in verdict.rehash
    assert new.verify(verdict.rehash, "correct horse battery") == Verdict(True)
    assert new.verify(stored, "wrong horse battery") == Verdict(False)  # no rehash on failure


def test_the_default_parameters_are_rfc_9106_low_memory() -> None:
    stored = Passwords.cheap().hash("x")
    verdict = Passwords().verify(stored, "x")  # one check with the real cost (~0.1 s)
    assert verdict.rehash is not None and "m=65536,t=3,p=4" in verdict.rehash


# -- sessions and CSRF -------------------------------------------------------------------------


def test_session_tokens() -> None:
    tokens = {new_session_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 43 for t in tokens)
    token = tokens.pop()
    assert session_hash(token) == session_hash(token) != token
    assert len(session_hash(token)) == 64 and int(session_hash(token), 16) >= 0
    cookie = session_cookie(token, secure=True)
    assert cookie["key"] == SESSION_COOKIE and cookie["value"] == token
    assert cookie["httponly"] is True and cookie["samesite"] == "lax" and cookie["secure"]
    assert cookie["max_age"] == 30 * 86400 and cookie["path"] == "/"
    assert session_cookie(token, secure=False)["secure"] is False


def test_csrf_tokens_are_bound_to_the_session_and_the_secret() -> None:
    session = new_session_token()
    token = csrf_token(SECRET, session)
    assert csrf_token(SECRET, session) == token  # derived: nothing to store
    assert csrf_ok(SECRET, session, token)
    assert not csrf_ok(SECRET, new_session_token(), token)
    assert not csrf_ok(SECRET + "!", session, token)
    assert not csrf_ok(SECRET.encode(), session, token[:-1])
    assert csrf_ok(SECRET.encode(), session, token)
    assert not csrf_ok(SECRET, None, token)
    assert not csrf_ok(SECRET, "", csrf_token(SECRET, ""))
    assert not csrf_ok(SECRET, session, None)
    assert not csrf_ok(SECRET, session, "é" + token)
    with pytest.raises(ValueError, match="16 bytes"):
        csrf_token("short", session)


def test_csrf_before_sign_in_is_a_signed_double_submit() -> None:
    cookie = new_csrf_binding()
    assert cookie != new_csrf_binding()
    form = csrf_token(SECRET, cookie)
    check_csrf(SECRET, cookie, form)
    with pytest.raises(AccountError) as caught:
        check_csrf(SECRET, cookie, csrf_token(SECRET, new_csrf_binding()))
    error = caught.value
    assert isinstance(error, GameError) and error.status == 403 and error.code == "csrf"
    assert error.text == CSRF_FAILED and "rechargez" in error.in_language("fr")
