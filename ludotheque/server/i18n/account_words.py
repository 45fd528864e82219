"""The words of a player's account and of the chat's care (the account page, signing up or in
while signed in, closed accounts, reporting and waiting lines), in English; their French is in
the catalogue, by key."""

from __future__ import annotations

from .keyed import word, word_n, words

ACCOUNT = words(
    word("account.signed_in_as", "You are signed in as {name}."),
    word(
        "account.signed_in_help",
        "To create another account or to sign in as someone else, sign out first.",
    ),
    word("account.title", "Your account"),
    word("account.profile_link", "Your public profile"),
    word("account.password.title", "Change your password"),
    word("account.password.current", "Current password"),
    word("account.password.new", "New password"),
    word("account.password.repeat", "New password again"),
    word("account.password.submit", "Change the password"),
    word(
        "account.password.note",
        "Your other sessions (other browsers and devices) will be signed out; this one stays.",
    ),
    word(
        "account.password.changed",
        "Your password is changed. Your other sessions are signed out; this one stays.",
    ),
    word("account.games.title", "Your games"),
    word(
        "account.games.help",
        "Every game you played, in one file: one game record a line, the same record each "
        "game's page downloads.",
    ),
    word("account.games.download", "Download all my games"),
    word("account.close.title", "Close your account"),
    word(
        "account.close.help",
        "You will no longer be able to sign in. Your games stay, your name in them replaced "
        "by “Closed account”; your ratings leave the leaderboards; nobody else can take your "
        "name. This cannot be undone.",
    ),
    word("account.close.confirm", "I understand: close my account for good."),
    word("account.close.submit", "Close my account"),
    word("account.closed.title", "Your account is closed"),
    word(
        "account.closed.body",
        "You are signed out. Your games stay in the archive, under “Closed account”.",
    ),
    word(
        "account.banned",
        "Your account is banned since {date}: it cannot chat, post or accept challenges, nor "
        "play rated games.",
    ),
    word("account.tokens.title", "API tokens"),
    word(
        "account.tokens.help",
        "A token lets a program (a bot, a script) use the API as you: it sends "
        "“Authorization: Bearer” and the token. Give each program its own, with only the "
        "scopes it needs.",
    ),
    word("account.tokens.docs", "The API's documentation"),
    word(
        "account.tokens.made",
        "Your new token is below. Copy it now: it will not be shown again.",
    ),
    word("account.tokens.revoked", "The token is revoked: it no longer opens anything."),
    word("account.tokens.made_on", "made {date}"),
    word("account.tokens.used_on", "last used {date}"),
    word("account.tokens.revoke", "Revoke"),
    word("account.tokens.revoke_named", "Revoke the token {name}"),
    word("account.tokens.none", "You have no API token."),
    word("account.tokens.label", "What the token is for"),
    word("account.tokens.scopes", "What it may do"),
    word(
        "account.tokens.scope.bot_play",
        "play as a bot (the account becomes a bot with it, for good, before its first game)",
    ),
    word("account.tokens.scope.challenge", "challenge players, accept and decline challenges"),
    word("account.tokens.scope.read", "read your games and your events"),
    word("account.tokens.submit", "Make a token"),
    word("player.closed", "Closed account"),
    word("player.bot", "BOT"),
    word("player.bot_title", "A bot: a program plays for this account"),
    word("chat.report", "Report"),
    word("chat.report_who", "Report this message from {name} to the moderators"),
    word("chat.reported", "Reported"),
    word("chat.you", "You"),
    word("chat.sending", "sending…"),
    word_n(
        "chat.waiting",
        "{n} message waits: it goes out as soon as the chat allows.",
        "{n} messages wait: they go out one by one, as soon as the chat allows.",
    ),
    word("chat.offline", "Offline: your messages go out when the connection is back."),
    word("chat.not_sent", "Not sent: {reason}"),
    word(
        "chat.too_long",
        "Not sent: a message has at most {most} characters (this one has {length}).",
    ),
)
