"""The words of the lists where players find each other: profiles (running games, pages of
games, the rating chart's axis and table, the Challenge button), the leaderboard's rule and
the lobby's players online, in English; their French is in the catalogue, by key."""

from __future__ import annotations

from .keyed import word, word_n, words

LISTS = words(
    word("chart.title", "Rating from {start} to {end}"),
    word_n(
        "chart.description",
        "{n} rated game, {when}; lowest {low}, highest {high}.",
        "{n} rated games, {when}; lowest {low}, highest {high}.",
    ),
    word("chart.utc", "{when} (times in UTC)"),
    word_n("chart.table", "The rating as a table ({n} game)", "The ratings as a table ({n} games)"),
    word("chart.when", "Date (UTC)"),
    word("chart.rating", "Rating"),
    word("chart.change", "Change"),
    word("profile.playing_now", "Playing now"),
    word("profile.started", "Started"),
    word("profile.go", "Go to the game"),
    word("profile.resume", "Play"),
    word("profile.watch", "Watch"),
    word("profile.game_pages", "Pages of games"),
    word("profile.newer", "Newer games"),
    word("profile.older", "Older games"),
    word("challenge.button", "Challenge {name}"),
    word("challenge.signin", "Sign in to challenge {name}"),
    word(
        "challenge.help",
        "Choose the game and the time control, then send your challenge: only {name} can "
        "accept it, while this page stays open.",
    ),
    word(
        "leaderboard.rule",
        "Players with at least {games} rated games, one of them in the last {days} days, and "
        "a rating deviation under {deviation} (the rating is then established).",
    ),
    word("leaderboard.none_yet", "No player has an established rating in these rules yet."),
    word("lobby.online", "Players online"),
    word_n("lobby.online_count", "{n} person here now", "{n} people here now"),
    word_n(
        "lobby.online_anonymous",
        "including {n} visitor without an account",
        "including {n} visitors without an account",
    ),
    word("lobby.online_nobody", "No player is signed in right now."),
)
