"""A bot that plays random legal moves, in about 40 lines, with nothing but ``requests``.

LUDOTHEQUE_TOKEN=lud_... python examples/random_bot.py http://127.0.0.1:8000

The token needs the scope bot:play. The account becomes a bot on starting (for good; only an
account that has played no game can).
"""

import json
import os
import random
import sys
import threading
import urllib.parse

import requests

SERVER = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
AUTH = {"Authorization": f"Bearer {os.environ['LUDOTHEQUE_TOKEN']}"}


def stream(path):  # one JSON object a line; blank lines only keep the connection alive
    with requests.get(SERVER + path, headers=AUTH, stream=True) as answer:
        answer.raise_for_status()  # a refusal's body is {"detail": ..., "code": ...}
        yield from (json.loads(line) for line in answer.iter_lines() if line)


def play(game_id):
    for event in stream(f"/api/bot/game/stream/{game_id}"):
        state = event.get("state", event)  # gameFull holds the state; gameState is one
        if event["type"] != "chatLine" and state["legal"]:
            move = urllib.parse.quote(random.choice(state["legal"]), safe="")
            requests.post(
                f"{SERVER}/api/bot/game/{game_id}/move/{move}?ply={state['ply']}", headers=AUTH
            )


requests.post(f"{SERVER}/api/bot/account/upgrade", headers=AUTH).raise_for_status()
for event in stream("/api/stream/event"):
    if event["type"] == "challenge" and event["challenge"]["direction"] == "in":
        requests.post(f"{SERVER}/api/challenge/{event['challenge']['id']}/accept", headers=AUTH)
    elif event["type"] == "gameStart":
        threading.Thread(target=play, args=(event["game"]["id"],)).start()
