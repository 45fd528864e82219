"""Chat: what a message may hold, how often a sender may speak, how messages are kept."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.server.chat.rules import (
    BURST,
    MAX_LENGTH,
    PLAYERS,
    REFILL_SECONDS,
    WATCHERS,
    Bucket,
    ChatError,
    ChatLimiter,
    Message,
    clean,
)
from ludotheque.server.errors import GameError

T0 = 1_700_000_000.0


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("gg", "gg"),
        ("  Well\tplayed!\n\nRematch? ", "Well played! Rematch?"),
        ("a\u00a0\u2003b\u2028c", "a b c"),  # no-break, em and line separators are spaces
        ("bell\x07 and nul\x00", "bell and nul"),
        ("\u202eevil\u202c text", "evil text"),  # a right-to-left override goes
        ("zero\u200bwidth", "zerowidth"),
        ("family \U0001f468\u200d\U0001f469\u200d\U0001f467", "family 👨‍👩‍👧"),  # ZWJ stays
        ("cafe\u0301", "café"),  # NFC
        ("e\u200b\u0301", "é"),  # composed once the invisible character is gone
        ("private \ue000use", "private use"),
        ("lone \ud800surrogate", "lone surrogate"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),  # escaped when shown
        ("x" * MAX_LENGTH, "x" * MAX_LENGTH),
        ("  " + "y" * MAX_LENGTH + "\n", "y" * MAX_LENGTH),
    ],
)
def test_clean_messages(raw: str, shown: str) -> None:
    assert clean(raw) == shown


def test_zalgo_keeps_three_marks_a_letter() -> None:
    text = "Z" + "\u0336\u0337\u0338\u0339\u033a\u033b" + "a" + "\u0300" * 10
    assert clean(text) == "Z\u0336\u0337\u0338\u00e0\u0300\u0300\u0300"  # à: NFC


@pytest.mark.parametrize("raw", ["", "   ", "\n\t", "\x00\x01", "\u202e\u200b", None, 42])
def test_empty_messages_are_refused(raw: object) -> None:
    with pytest.raises(ChatError) as caught:
        clean(raw)
    assert caught.value.code == "empty-message" and caught.value.status == 400
    assert caught.value.in_language("fr") == "Un message vide n’est pas envoyé."


def test_long_messages_are_refused_not_cut() -> None:
    with pytest.raises(ChatError) as caught:
        clean("z" * (MAX_LENGTH + 1))
    error = caught.value
    assert isinstance(error, GameError) and error.code == "message-too-long"
    assert error.message == "A message has at most 300 characters (this one has 301)."
    assert "au plus 300 caractères" in error.in_language("fr")


@given(st.text(max_size=400))
def test_what_clean_keeps(raw: str) -> None:
    try:
        text = clean(raw)
    except ChatError as exc:
        assert exc.code in ("empty-message", "message-too-long")
        return
    assert 1 <= len(text) <= MAX_LENGTH
    assert text == text.strip() and "  " not in text
    assert all(
        ch == " " or ch == "\u200d" or (unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
        for ch in text
    )
    assert not any(ch.isspace() and ch != " " for ch in text)
    assert clean(text) == text


# -- rate limits -------------------------------------------------------------------------------


def test_a_human_burst_then_one_message_every_two_seconds() -> None:
    limiter = ChatLimiter()
    for i in range(BURST):
        limiter.check("ann", f"message {i}", T0)
    with pytest.raises(ChatError) as caught:
        limiter.check("ann", "one more", T0 + 1)
    error = caught.value
    assert error.code == "too-fast" and error.status == 429
    assert error.retry_after == 1  # when the page may send it again
    assert error.message == "Not so fast: wait 1 s before your next message."
    assert error.in_language("fr") == "Pas si vite : attendez 1 s avant votre prochain message."
    assert limiter.wait("ann", T0 + 1) == pytest.approx(1)
    limiter.check("bob", "others are not slowed", T0 + 1)
    with pytest.raises(ChatError):
        limiter.check("ann", "still too early", T0 + 1.9)
    limiter.check("ann", "now", T0 + 2)  # the refused tries cost nothing
    assert limiter.wait("ann", T0 + 2) == pytest.approx(2)
    assert limiter.wait("cat", T0) == 0
    with pytest.raises(ChatError) as caught:
        limiter.check("ann", "after a whole burst", T0 + 2.5)
    assert caught.value.retry_after == 2  # (1.5 s, said in whole seconds, never less)


def test_the_figures_are_human_sized() -> None:
    # ten lines at once (a person typing fast, or pasting a few), then thirty a minute
    assert (BURST, REFILL_SECONDS) == (10, 2.0)


def test_the_same_text_twice_is_refused_for_a_while() -> None:
    limiter = ChatLimiter()
    limiter.check("ann", "gg", T0)
    with pytest.raises(ChatError) as caught:
        limiter.check("ann", "gg", T0 + 29)
    assert caught.value.code == "repeated"
    assert caught.value.in_language("fr") == "Vous venez d’envoyer ce message."
    limiter.check("bob", "gg", T0 + 29)
    limiter.check("ann", "gg", T0 + 30)


def test_quiet_senders_are_forgotten() -> None:
    limiter = ChatLimiter()
    limiter.check("ann", "hello", T0)
    limiter.check("bob", "hello", T0 + 20)
    limiter.forget(T0 + 31)
    assert len(limiter) == 1  # bob spoke 11 s ago: his repeat rule still holds
    limiter.forget(T0 + 60)
    assert len(limiter) == 0


def test_limits_need_some_room() -> None:
    with pytest.raises(ValueError):
        ChatLimiter(burst=0)
    with pytest.raises(ValueError):
        ChatLimiter(refill_seconds=0)


def test_buckets_refill_up_to_the_burst() -> None:
    assert Bucket(0, T0).refilled(T0 + 6, 5, 3.0) == Bucket(2, T0 + 6)
    assert Bucket(4, T0).refilled(T0 + 600, 5, 3.0) == Bucket(5, T0 + 600)
    assert Bucket(1, T0).refilled(T0 - 5, 5, 3.0) == Bucket(1, T0)  # time never runs back


@given(st.lists(st.floats(0, 10), min_size=1, max_size=60))
def test_no_window_lets_through_more_than_the_burst_and_the_refill(gaps: list[float]) -> None:
    limiter = ChatLimiter()
    now, accepted = T0, []
    for i, gap in enumerate(gaps):
        now += gap
        try:
            limiter.check("ann", f"message {i}", now)
        except ChatError:
            continue
        accepted.append(now)
    for i, start in enumerate(accepted):
        for j in range(i, len(accepted)):
            span = accepted[j] - start
            assert j - i + 1 <= BURST + span / REFILL_SECONDS + 1e-9


# -- keeping messages --------------------------------------------------------------------------


def test_messages_round_trip() -> None:
    message = Message.new(T0, PLAYERS, "rebels", "Ann", "  good\ngame ")
    assert message.text == "good game"
    assert Message.from_dict(message.to_dict()) == message
    assert Message.new(T0, WATCHERS, "visitor-1", "visitor", "hi").channel == WATCHERS
    with pytest.raises(ValueError, match="channel"):
        Message.new(T0, "everyone", "rebels", "Ann", "hi")
    with pytest.raises(ChatError):
        Message.new(T0, PLAYERS, "rebels", "Ann", "   ")
    good = message.to_dict()
    bad: object  # malformed data of every shape
    for bad in ({}, {**good, "channel": "all"}, {**good, "at": "noon"}, {**good, "text": 3}, []):
        with pytest.raises(ValueError, match="not a chat message"):
            Message.from_dict(bad)
