"""The ``ludotheque`` command: ``serve`` the web app, ``worker`` for its computer players,
``play`` in the terminal, ``arena``, ``analyse`` a saved game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import available_games, load
from .ai import Agent
from .ai.levels import PERFECT, agent_names, levels_of, make_agent
from .analysis.command import add_parser as add_analyse_parser
from .core import InvalidPosition, UnknownGame
from .record import Record
from .solve.command import add_parser as add_solve_parser

SIDE_OPTIONS = ("rebels", "general", "white", "black", "imperium")
PLAYER_KINDS = ("human", *agent_names())


def make_player(game: str, kind: str, seed: int | None) -> Agent | None:
    """``None`` for a human at the keyboard, else the named computer agent."""
    if kind == "human":
        return None
    return make_agent(game, kind, seed)


def unplayable(game: str, kinds: Sequence[str]) -> str | None:
    """Why one of the players ``kinds`` cannot play ``game`` (``None``: all can).

    The parser accepts every level and algorithm of some game; the ``perfect`` level exists only
    for a solved game (``levels_of``). Checked before anything is played, so that a wrong name
    gets the one-line refusal of a bad argument rather than a traceback at the first move."""
    if PERFECT in kinds and PERFECT not in levels_of(game):
        levels = levels_of(game)
        return (
            f"no perfect player for {game}: only the General is solved; "
            f"its levels are {', '.join(levels[:-1])} and {levels[-1]}"
        )
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ludotheque", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game in the terminal")
    play.add_argument("game", choices=sorted(available_games()), help="which game")
    play.add_argument("--ruleset", help="the ruleset (default: the game's default)")
    play.add_argument("--seed", type=int, help="seed for the dice and the computer players")
    play.add_argument("--position", help="start from this position string")
    for side in SIDE_OPTIONS:
        play.add_argument(
            f"--{side}",
            choices=PLAYER_KINDS,
            help=f"who plays the {side}: human, a level (easy, medium, hard) or an algorithm",
        )
    serve = commands.add_parser("serve", help="start the web app")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on "
        "(default 127.0.0.1, this machine only; 0.0.0.0 for every network)",
    )
    serve.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    serve.add_argument(
        "--db", help="a database URL, or a path to a SQLite file (default: DATABASE_URL, else "
        "SQLite in your data directory)",
    )  # fmt: skip
    serve.add_argument(
        "--workers", type=int, default=1,
        help="server processes on this port (more than one needs PostgreSQL)",
    )  # fmt: skip
    worker = commands.add_parser(
        "worker", help="think for the computer players of a server (jobs from its database)"
    )
    worker.add_argument("--db", help="the server's database URL (default: DATABASE_URL)")
    worker.add_argument(
        "--processes", type=int, default=1, help="computer moves thought at once (default 1)"
    )
    arena = commands.add_parser("arena", help="play computer players against each other")
    arena.add_argument("game", choices=sorted(available_games()))
    arena.add_argument("a", choices=agent_names(), help="player A")
    arena.add_argument("b", choices=agent_names(), help="player B")
    arena.add_argument("--games", type=int, default=20)
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--jobs", type=int, default=1, help="parallel processes")
    arena.add_argument("--ruleset")
    arena.add_argument(
        "--length", type=int, help="backgammon match: points to win a match (1-25; 7 by default)"
    )
    arena.add_argument("--save", type=Path, help="write every game's record into this folder")
    arena.add_argument(
        "--resume", action="store_true",
        help="with --save: read the games already saved there instead of playing them again",
    )  # fmt: skip
    bot = commands.add_parser(
        "bot", help="connect an engine to a server as a bot (its Bot API, with a token)"
    )
    bot.add_argument("--server", default="http://127.0.0.1:8000",
                     help="the server's address (default: %(default)s)")  # fmt: skip
    bot.add_argument("--token", help="a personal API token with the bot:play scope "
                     "(default: LUDOTHEQUE_TOKEN)")  # fmt: skip
    engines = bot.add_mutually_exclusive_group(required=True)
    engines.add_argument("--agent", help="one of ours: GAME:LEVEL (backgammon:hard) or LEVEL "
                         "(every game): easy, medium, hard, or an algorithm")  # fmt: skip
    engines.add_argument("--engine", help="a program speaking the line protocol (see "
                         "ludotheque/bridge.py), e.g. 'python3 my_bot.py'")  # fmt: skip
    bot.add_argument("--game", action="append", choices=sorted(available_games()),
                     help="games the engine plays (repeat; default: all)")  # fmt: skip
    bot.add_argument(
        "--challenge",
        metavar="NAME",
        help="challenge this player on starting (the first --game, else the General)",
    )
    bot.add_argument("--ruleset", help="the challenge's ruleset")
    bot.add_argument("--control", help="the challenge's time control (5+3, 3+12d, 1d)")
    bot.add_argument("--rated", action="store_true", help="the challenge is rated")
    bot.add_argument("--casual-only", action="store_true", help="decline rated challenges")
    bot.add_argument("--max-games", type=int, default=4, help="games at once (default 4)")
    bot.add_argument("--games", type=int, help="stop after this many games")
    bot.add_argument(
        "--upgrade",
        action="store_true",
        help="make the account a bot first (for good; before any game)",
    )
    bot.add_argument("--seed", type=int, help="seed of our agents")
    add_analyse_parser(commands)
    add_solve_parser(commands)
    from .server.ops.admin import add_parser as add_admin_parser

    add_admin_parser(commands)
    return parser


def _database_url(given: str | None) -> str:
    import os

    url = given or os.environ.get("DATABASE_URL", "")
    if url and "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def _default_database() -> str:
    from .server.settings import default_database_url

    return default_database_url()


def _serve(args: argparse.Namespace) -> int:
    import logging
    import os
    import tempfile

    import uvicorn

    from .server.app import create_app
    from .server.settings import Settings, SettingsError
    from .server.store.db import make_engine, migrate

    try:
        settings = Settings.read(database_url=_database_url(args.db), host=args.host,
                                 port=args.port)  # fmt: skip
    except SettingsError as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    url = settings.resolved_database_url()
    if args.workers < 1:
        print("ludotheque: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.workers > 1 and settings.resolved_bus() == "memory":
        print(
            "ludotheque: several server processes need PostgreSQL, so that they share moves "
            "and live updates (DATABASE_URL=postgresql+psycopg://...)",
            file=sys.stderr,
        )
        return 2
    # on SIGTERM, a process stops accepting, finishes what is in flight (10 s at most) and
    # closes its sockets with 1012, which the pages answer by connecting again at once
    options: dict[str, Any] = {
        "host": args.host, "port": args.port, "log_level": "warning",
        "ws_max_size": max(settings.max_message, 1024) * 4, "timeout_graceful_shutdown": 10,
    }  # fmt: skip
    if settings.log_format == "json":
        from .server.ops.routes import configure_logging

        configure_logging("json", logging.WARNING)
        options["log_config"] = None  # uvicorn's own records go through the same lines
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # the processes' metrics are summed by whichever answers a scrape (see metrics)
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="ludotheque-metrics-")
    print(f"Ludothèque: database {url}", flush=True)
    print(f"Ludothèque: open http://{args.host}:{args.port}/ in your browser", flush=True)
    if args.workers == 1:
        uvicorn.run(create_app(settings), **options)
        return 0
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    os.environ["DATABASE_URL"] = url
    # the app, in server processes that end with this one (ludotheque.server.compute.lifeline)
    uvicorn.run(
        "ludotheque.server.app:app_from_environment", factory=True, workers=args.workers,
        **options,
    )  # fmt: skip
    return 0


def _worker(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    import signal

    from .server.clock.table import CLOCKS
    from .server.compute.pool import ComputerPool
    from .server.compute.worker import Worker
    from .server.play.points import MATCHES
    from .server.play.service import GameService
    from .server.settings import Settings, SettingsError
    from .server.store.bus import make_bus
    from .server.store.db import make_engine, migrate, session_factory

    try:
        settings = Settings.read(database_url=_database_url(args.db))
    except SettingsError as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    if settings.log_format == "json":
        from .server.ops.routes import configure_logging

        configure_logging("json")
    else:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    url = settings.resolved_database_url()

    async def run() -> None:
        engine = make_engine(url)
        migrate(engine)
        bus = make_bus(settings.resolved_bus(), engine)
        service = GameService(session_factory(engine), settings, bus, clocks=CLOCKS,
                              matches=MATCHES)  # fmt: skip
        pool = ComputerPool(args.processes)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await bus.start()
        workers = [Worker(service, pool) for _ in range(max(1, args.processes))]
        from .server.analysis.jobs import AnalysisWorker

        workers.append(AnalysisWorker(service))  # analyses, in a pool of their own
        print(f"Ludothèque worker: {len(workers)} at a time, database {url}", flush=True)
        try:
            await asyncio.gather(*(w.run(stop) for w in workers))
        finally:
            await bus.close()
            pool.close()
            await service.aclose()
            engine.dispose()

    asyncio.run(run())
    return 0


def _bot(args: argparse.Namespace) -> int:
    """``ludotheque bot``: the bridge (``ludotheque.bridge``) until interrupted."""
    import logging
    import os

    from .bridge import AgentEngine, ApiError, Bridge, Client, ProgramEngine, agent_engine

    token = args.token or os.environ.get("LUDOTHEQUE_TOKEN")
    if not token:
        print("ludotheque: give a token (--token or LUDOTHEQUE_TOKEN)", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    games = tuple(args.game) if args.game else None
    server = args.server if "://" in args.server else f"http://{args.server}"
    client = Client(server, token)
    try:
        engine: AgentEngine | ProgramEngine = (
            agent_engine(args.agent, args.seed) if args.agent
            else ProgramEngine(args.engine, games)
        )  # fmt: skip
    except (ValueError, OSError, RuntimeError) as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    if games and isinstance(engine, AgentEngine):
        engine.games = tuple(g for g in games if g in (engine.games or games))
        if not engine.games:
            print(f"ludotheque: {args.agent} plays none of {', '.join(games)}", file=sys.stderr)
            return 2
    bridge = Bridge(client, engine, accept_rated=not args.casual_only,
                    max_games=1 if args.engine else max(1, args.max_games))  # fmt: skip
    try:
        me = client.call("GET", "/api/account")
        if args.upgrade and me["title"] != "BOT":
            client.call("POST", "/api/bot/account/upgrade")
        elif me["title"] != "BOT":  # a person's account would accept games it cannot play
            print(
                f"ludotheque: {me['username']} is not a bot account yet: add --upgrade to "
                "make it one (for good, and only before its first game)",
                file=sys.stderr,
            )
            return 2
        print(f"Ludothèque bot: {me['username']} on {server}", flush=True)
        if args.challenge:
            game = (games or ("general",))[0]
            print(f"challenging {args.challenge} to a game of {game}", flush=True)
            made = client.call("POST", f"/api/challenge/{args.challenge}", {
                "game": game, "ruleset": args.ruleset, "control": args.control,
                "rated": args.rated})  # fmt: skip
            print(f"challenged {args.challenge}: {made['id']}", flush=True)
        bridge.run(args.games)
        bridge.wait()
    except ApiError as exc:
        print(f"ludotheque: the server refused: {exc.detail} ({exc.code})", file=sys.stderr)
        return 1
    except OSError as exc:  # urllib's URLError: no server there, or no such address
        reason = getattr(exc, "reason", exc)
        print(f"ludotheque: cannot reach {server}: {reason}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        engine.close()
    return 0


def _arena(args: argparse.Namespace) -> int:
    from .arena import progress_bar, run_match

    try:
        load(args.game, args.ruleset)
    except UnknownGame as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    if args.games < 1 or args.jobs < 1:
        print("ludotheque: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    refused = unplayable(args.game, (args.a, args.b))
    if refused:
        print(f"ludotheque: {refused}", file=sys.stderr)
        return 2
    if args.length is not None and (
        (args.game, args.ruleset) != ("backgammon", "match") or not 1 <= args.length <= 25
    ):
        print("ludotheque: --length is for backgammon --ruleset match, 1 to 25", file=sys.stderr)
        return 2
    match = run_match(
        args.game, args.a, args.b, args.games, seed=args.seed, jobs=args.jobs,
        ruleset=args.ruleset, save=args.save, progress=progress_bar(), length=args.length,
        resume=args.resume,
    )  # fmt: skip
    print(match.report())
    return 0


def _play(args: argparse.Namespace) -> int:
    try:
        game = load(args.game, args.ruleset)
    except UnknownGame as exc:
        print(f"ludotheque: {exc}", file=sys.stderr)
        return 2
    chosen = {side: getattr(args, side) for side in SIDE_OPTIONS if getattr(args, side)}
    wrong = sorted(set(chosen) - set(game.sides))
    if wrong:
        print(
            f"ludotheque: {game.name} has no side {', '.join(wrong)}; "
            f"its sides are {', '.join(game.sides)}",
            file=sys.stderr,
        )
        return 2
    refused = unplayable(game.name, tuple(chosen.values()))
    if refused:
        print(f"ludotheque: {refused}", file=sys.stderr)
        return 2
    if not chosen:  # a newcomer plays the first side against the computer
        chosen = {game.sides[0]: "human", game.sides[1]: "medium"}
    players = {}
    for i, side in enumerate(game.sides):
        seed = None if args.seed is None else args.seed * 10 + i
        players[side] = make_player(game.name, chosen.get(side, "human"), seed)
    dice_seed = None if args.seed is None else f"terminal-{args.seed}"
    try:
        record = Record.new(
            game,
            start=args.position,
            players={s: chosen.get(s, "human") for s in game.sides},
            seed=dice_seed,
        )
    except InvalidPosition as exc:
        print(f"ludotheque: invalid position: {exc}", file=sys.stderr)
        return 2
    from .terminal.play import TerminalGame

    return TerminalGame(record, players).run()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    args = _parser().parse_args(argv)
    if args.command == "play":
        return _play(args)
    if args.command == "arena":
        return _arena(args)
    if args.command == "serve":
        return _serve(args)
    if args.command == "worker":
        return _worker(args)
    if args.command == "analyse":
        from .analysis.command import run  # (the General's solution is the analysis's default)

        return run(args)
    if args.command == "bot":
        return _bot(args)
    if args.command == "admin":
        from .server.ops.admin import run as admin

        return admin(args, _database_url(args.db) or _default_database())
    if args.command == "solve":
        from .solve.command import run as solve

        return solve(args)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
