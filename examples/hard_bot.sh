#!/bin/sh
# Our hard level as a bot, for the three games: it accepts the challenges it receives and plays
# them (four at once), until interrupted. The account must be a bot (--upgrade makes it one,
# for good, if it has played no game), and the token needs the bot:play scope.
#
#     LUDOTHEQUE_TOKEN=lud_... sh examples/hard_bot.sh http://127.0.0.1:8000
exec ludotheque bot --server "${1:-http://127.0.0.1:8000}" --agent hard --upgrade --max-games 4
