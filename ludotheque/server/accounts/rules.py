"""Accounts without a database: usernames, passwords, session tokens and CSRF tokens.

- **Usernames**: 2 to 20 characters, ASCII letters, digits, ``_`` and ``-``, starting with a
  letter, ending with a letter or digit, never two of ``_``/``-`` in a row. Only ASCII is
  allowed, so no confusable Unicode (Cyrillic ``а``, full-width letters, invisible characters)
  can pass for another name. Look-alikes *within* ASCII are caught by the uniqueness key,
  ``username_key``: a "skeleton" in which upper and lower case, ``l``/``I``/``i``/``1``,
  ``O``/``0``, ``rn``/``m``, ``vv``/``w`` and ``_``/``-`` are the same; two names with one
  skeleton cannot both exist, and names whose skeleton is reserved (``admin``, ``computer``,
  the computer's levels, ``anonymous``…) cannot be taken.
- **Passwords**: 8 to 256 characters (NFKC-normalised, so that one password typed on two
  devices is one password), not the username, not one of the most common ones; hashed with
  Argon2id (argon2-cffi, RFC 9106's low-memory profile), re-hashed at sign-in when the
  parameters have changed since it was stored.
- **Sessions**: a random token in an HTTP-only, SameSite=Lax cookie (Secure over HTTPS); the
  database keeps only its SHA-256, so a copy of the database opens no session.
- **CSRF**: synchronizer tokens derived, not stored: HMAC-SHA256 of the session token under
  the server's secret, sent back in a hidden form field or the ``X-CSRF-Token`` header and
  compared in constant time. Before sign-in (the sign-up and sign-in forms themselves) the
  token is bound instead to a random value in a cookie of its own: a signed double-submit.

Errors are ``AccountError``s (a ``GameError``: the app already turns those into responses in
the visitor's language).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..errors import GameError, Text, say

USERNAME_MIN, USERNAME_MAX = 2, 20
PASSWORD_MIN, PASSWORD_MAX = 8, 256

SESSION_COOKIE = "ludotheque_session"
SESSION_SECONDS = 30 * 86400  # a session lasts 30 days from its last use
CSRF_COOKIE = "ludotheque_csrf"  # the binding of a visitor without a session
CSRF_FIELD = "csrf"  # the hidden form field
CSRF_HEADER = "X-CSRF-Token"  # the header of script requests


class AccountError(GameError):
    """A refused account request: the message in both languages, a stable ``code``, and
    the HTTP status (400 unless said)."""

    def __init__(self, text: Text, code: str, status: int = 400) -> None:
        super().__init__(text, code, status)


# -- the messages ------------------------------------------------------------------------------

USERNAME_LENGTH = say(
    "A username has {low} to {high} characters.",
    low=USERNAME_MIN,
    high=USERNAME_MAX,
)
USERNAME_TOO_LONG = say(
    "A username has {low} to {high} characters (this one has {length}).",
    low=USERNAME_MIN,
    high=USERNAME_MAX,
)
USERNAME_CHARACTERS = say(
    "A username uses only the letters a to z (without accents), digits, _ and -.",
)
USERNAME_START = say("A username starts with a letter.")
USERNAME_SEPARATORS = say(
    "A username ends with a letter or a digit, and never has two of _ and - in a row.",
)
USERNAME_RESERVED = say(
    "This username is reserved; please choose another.",
)
USERNAME_TAKEN = say(
    "This username is taken, or looks too much like one that is.",
)
PASSWORD_SHORT = say(
    "A password has at least {n} characters.",
    n=PASSWORD_MIN,
)
PASSWORD_LONG = say(
    "A password has at most {n} characters.",
    n=PASSWORD_MAX,
)
PASSWORD_IS_USERNAME = say(
    "The password must not be the username.",
)
PASSWORD_COMMON = say(
    "This password is among the most common ones; please choose another.",
)
WRONG_CREDENTIALS = say("Wrong username or password.")
CSRF_FAILED = say(
    "This form has expired; reload the page and try again.",
)
SIGN_IN_REQUIRED = say(
    "Sign in to do this (rated games need an account).",
)


# -- usernames ---------------------------------------------------------------------------------

_ALLOWED = re.compile(r"[A-Za-z0-9_-]*")
_SEPARATORS = re.compile(r"[_-]{2}")

# single characters that look alike in common fonts, then pairs that look like one letter
_FOLD = str.maketrans({"0": "o", "1": "l", "i": "l", "-": "_"})
_PAIRS = (("rn", "m"), ("vv", "w"))


def username_key(name: str) -> str:
    """The uniqueness key of a username: its "skeleton", where look-alikes are one letter.

    >>> username_key("Il1ya"), username_key("C0rner_man"), username_key("vvizard-0")
    ('lllya', 'comer_man', 'wlzard_o')
    """
    folded = name.lower().translate(_FOLD)
    for pair, single in _PAIRS:
        folded = folded.replace(pair, single)
    return folded


_RESERVED_NAMES = (
    # the site and the people who run it
    "admin administrator root sysop system moderator mod staff support help official "
    "ludotheque server api www mail postmaster security abuse owner team "
    # who plays: the computer and its levels, people without an account
    "computer ordinateur bot robot engine easy medium hard perfect facile moyen difficile parfait "
    "anonymous anonyme anon guest invite visitor visiteur human humain player joueur "
    "nobody somebody someone personne null none undefined unknown me you moi toi "
    # the pages and the games' words
    "lobby salon archive rules regles profile profil settings login logout signin signup "
    "register account watch spectator rebels rebelles general imperium white black "
    "blancs noirs draw nulle"
)
RESERVED = frozenset(username_key(n) for n in _RESERVED_NAMES.split())
# no name may start like these either ("admin2", "Computer_hard", "ludotheque-team")
RESERVED_PREFIXES = tuple(
    username_key(n) for n in ("admin", "moderator", "ludotheque", "computer", "ordinateur")
)


def validate_username(name: object) -> str:
    """``name`` (surrounding spaces removed) if it is a valid username that is not reserved;
    else an ``AccountError`` saying what is wrong. Whether it is taken is for the database
    to say, through ``username_key``."""
    if not isinstance(name, str):
        raise AccountError(USERNAME_CHARACTERS, "bad-username")
    name = name.strip()
    if len(name) > USERNAME_MAX:  # refused, never cut
        raise AccountError(USERNAME_TOO_LONG.given(length=len(name)), "bad-username")
    if len(name) < USERNAME_MIN:
        raise AccountError(USERNAME_LENGTH, "bad-username")
    if not _ALLOWED.fullmatch(name):
        raise AccountError(USERNAME_CHARACTERS, "bad-username")
    if not name[0].isalpha():
        raise AccountError(USERNAME_START, "bad-username")
    if not name[-1].isalnum() or _SEPARATORS.search(name):
        raise AccountError(USERNAME_SEPARATORS, "bad-username")
    key = username_key(name)
    if key in RESERVED or key.startswith(RESERVED_PREFIXES):
        raise AccountError(USERNAME_RESERVED, "reserved-username")
    return name


# -- passwords ---------------------------------------------------------------------------------

_COMMON = (
    "password password1 password12 password123 passw0rd 12345678 123456789 1234567890 "
    "0123456789 87654321 11111111 00000000 12341234 11223344 qwertyui qwertyuiop qwerty123 "
    "azertyui azertyuiop azerty123 abcdefgh abcd1234 iloveyou sunshine football baseball "
    "princess welcome1 letmein1 trustno1 superman starwars whatever 1q2w3e4r 1qaz2wsx "
    "motdepasse doudou123 soleil123 bonjour1 loulou123 chouchou ludotheque"
)
COMMON_PASSWORDS = frozenset(_COMMON.split())


def _normal(password: str) -> str:
    return unicodedata.normalize("NFKC", password)


def validate_password(password: object, username: str | None = None) -> str:
    """``password`` (NFKC-normalised) if it is acceptable; else an ``AccountError``."""
    if not isinstance(password, str):
        raise AccountError(PASSWORD_SHORT, "bad-password")
    password = _normal(password)
    if len(password) < PASSWORD_MIN:
        raise AccountError(PASSWORD_SHORT, "bad-password")
    if len(password) > PASSWORD_MAX:
        raise AccountError(PASSWORD_LONG, "bad-password")
    if username is not None and password.casefold() == username.strip().casefold():
        raise AccountError(PASSWORD_IS_USERNAME, "bad-password")
    lowered = password.casefold()
    if lowered in COMMON_PASSWORDS or len(set(lowered)) == 1:
        raise AccountError(PASSWORD_COMMON, "bad-password")
    return password


@dataclass(frozen=True)
class Verdict:
    """What a sign-in attempt found: ``ok``, and a new hash to store when the stored one
    was made with other parameters (``None``: keep it)."""

    ok: bool
    rehash: str | None = None


class Passwords:
    """Argon2id hashing with fixed parameters (argon2-cffi's defaults, RFC 9106's low-memory
    profile: 3 passes over 64 MiB, 4 lanes, unless told otherwise)."""

    def __init__(
        self, *, time_cost: int = 3, memory_cost: int = 65536, parallelism: int = 4
    ) -> None:
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism
        )
        self._dummy: str | None = None

    @classmethod
    def cheap(cls) -> Passwords:
        """Parameters for tests only: one pass over 8 KiB (about a millisecond)."""
        return cls(time_cost=1, memory_cost=8, parallelism=1)

    def hash(self, password: str) -> str:
        """The hash to store (salt and parameters included), of the normalised password."""
        return self._hasher.hash(_normal(password))

    def verify(self, stored: str | None, password: str) -> Verdict:
        """Whether ``password`` matches the ``stored`` hash (``None``: no such user; a hash is
        still computed, so the answer takes as long and tells nothing about who exists)."""
        if not isinstance(password, str):
            return Verdict(False)
        if stored is None:
            if self._dummy is None:
                self._dummy = self.hash(secrets.token_urlsafe(16))
            stored, password = self._dummy, password + "\0"
        try:
            self._hasher.verify(stored, _normal(password))
        except (VerificationError, InvalidHashError):
            return Verdict(False)
        if self._hasher.check_needs_rehash(stored):
            return Verdict(True, self.hash(password))
        return Verdict(True)


# -- sessions ----------------------------------------------------------------------------------


def new_session_token() -> str:
    """A new session's token (256 random bits), for the cookie only."""
    return secrets.token_urlsafe(32)


def session_hash(token: str) -> str:
    """What the database keeps of a session token (its SHA-256, in hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def session_cookie(token: str, *, secure: bool) -> dict[str, Any]:
    """The arguments of Starlette's ``response.set_cookie`` for a session cookie:
    HTTP-only, SameSite=Lax, Secure over HTTPS, for the whole site, 30 days."""
    return {
        "key": SESSION_COOKIE,
        "value": token,
        "max_age": SESSION_SECONDS,
        "path": "/",
        "httponly": True,
        "samesite": "lax",
        "secure": secure,
    }


# -- CSRF --------------------------------------------------------------------------------------


def new_csrf_binding() -> str:
    """A random value for the ``CSRF_COOKIE`` of a visitor without a session."""
    return secrets.token_urlsafe(24)


def _key(secret: str | bytes) -> bytes:
    key = secret.encode() if isinstance(secret, str) else secret
    if len(key) < 16:
        raise ValueError("the CSRF secret must have at least 16 bytes")
    return key


def csrf_token(secret: str | bytes, binding: str) -> str:
    """The CSRF token of a page for the visitor whose session token (or, before sign-in, CSRF
    cookie) is ``binding``: HMAC-SHA256 under the server's secret (the same in every process).

    >>> len(csrf_token("sixteen bytes at least", "a session token"))
    43
    """
    mac = hmac.new(_key(secret), b"csrf\0" + binding.encode("utf-8", "surrogatepass"), "sha256")
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def csrf_ok(secret: str | bytes, binding: str | None, submitted: Any) -> bool:
    """Whether ``submitted`` (the form field or header) is the token for ``binding``;
    always ``False`` without a binding."""
    if not binding or not isinstance(submitted, str) or not submitted.isascii():
        return False
    return hmac.compare_digest(csrf_token(secret, binding), submitted)


def check_csrf(secret: str | bytes, binding: str | None, submitted: Any) -> None:
    """``csrf_ok``, or an ``AccountError`` (403) saying the form expired."""
    if not csrf_ok(secret, binding, submitted):
        raise AccountError(CSRF_FAILED, "csrf", 403)


__all__ = [
    "CSRF_COOKIE",
    "CSRF_FIELD",
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "AccountError",
    "Passwords",
    "Verdict",
    "check_csrf",
    "csrf_ok",
    "csrf_token",
    "new_csrf_binding",
    "new_session_token",
    "session_cookie",
    "session_hash",
    "username_key",
    "validate_password",
    "validate_username",
]
