"""The words of a game's end and of what the players may agree on, in English (their French is
in the catalogue, by key): results said to the reader (a player reads "You won", a watcher
"The General won"), the new rating, aborting, draw offers, rematch offers, the confirmations
in the page, and the reader's own move for screen readers."""

from __future__ import annotations

from .keyed import word, word_n, words

RESULT = words(
    word("result.you_won", "You won"),
    word("result.you_lost", "You lost"),
    word("result.draw", "Draw"),
    word("result.aborted", "Game aborted"),
    word("result.abandoned", "Abandoned"),
    word("result.won@rebels", "The Rebels won"),
    word("result.won@general", "The General won"),
    word("result.won@white", "White won"),
    word("result.won@black", "Black won"),
    word("result.won@imperium", "The Imperium won"),
    word("result.left_won", "Your opponent left — you won"),
    word("result.left_lost", "You left the game — you lost"),
    word("result.left_draw_them", "Your opponent left — draw"),
    word("result.left_draw_you", "You left the game — draw"),
    word("result.aborted_clock", "no first move in time"),
    word("result.aborted_you", "you aborted it"),
    word("result.aborted_them", "your opponent aborted it"),
    word("result.aborted_by@rebels", "aborted by the Rebels"),
    word("result.aborted_by@general", "aborted by the General"),
    word("result.aborted_by@white", "aborted by White"),
    word("result.aborted_by@black", "aborted by Black"),
    word("result.aborted_by@imperium", "aborted by the Imperium"),
    word("result.your_rating", "Your rating: {rating}"),
    word("result.side_rating", "{side}: {rating}"),
    word("result.rating_pending", "The ratings are being updated…"),
    word("reason.agreement", "by agreement"),
    word("play.abort", "Abort"),
    word("play.abort_confirm", "Abort this game? It will count for neither player."),
    word("play.abort_yes", "Yes, abort"),
    word("play.resign_yes", "Yes, resign"),
    word("play.keep_playing", "No, keep playing"),
    word("play.draw_offer", "Offer a draw"),
    word("play.draw_offered", "You offered a draw — waiting for the answer."),
    word("play.draw_offer_them", "Your opponent offers a draw."),
    word("play.draw_accept", "Accept the draw"),
    word("play.draw_decline", "Decline"),
    word("play.draw_declined", "Your draw offer was declined."),
    word_n(
        "play.draw_wait",
        "You may offer a draw again after {n} more move.",
        "You may offer a draw again after {n} more moves.",
    ),
    word("play.rematch_waiting", "Rematch offered — waiting for your opponent."),
    word("play.rematch_go", "Go to the rematch"),
    word("play.rematch_lapsed_them", "Your opponent left: the rematch offer lapsed."),
    word("play.rematch_lapsed_you", "You left the page: the rematch offer lapsed."),
    word(
        "play.rematch_opponent_away",
        "Your opponent is not on the game’s page: a rematch can be offered once they are back.",
    ),
    word("play.announce_mine", "You played {move}."),
    word("notify.draw", "Draw offered"),
    word("match.next_waiting", "Next game offered — waiting for your opponent."),
)
