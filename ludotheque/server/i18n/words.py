"""The words of the place where players meet (accounts, lobby, clocks, ratings, chat, sounds), in
English and French; ``i18n.TEXTS`` takes them in. The reasons a game ends on time or by a claim
are ``clocks.REASONS``'s words (a test checks that they agree)."""

from __future__ import annotations

PLACE: dict[str, dict[str, str]] = {
    "en": {
        "nav.lobby": "Lobby",
        "nav.leaderboard": "Leaderboard",
        "account.signin": "Sign in",
        "account.signup": "Sign up",
        "account.signout": "Sign out",
        "account.signin.title": "Sign in",
        "account.signup.title": "Create an account",
        "account.signup.why": (
            "An account gives you a name in games, a rating in each game, a profile with your "
            "games, and rated games in the lobby."
        ),
        "account.optional": (
            "An account is optional: everything else works without one. No e-mail address "
            "is asked for; keep your password safe, it cannot be recovered."
        ),
        "account.username": "Username",
        "account.username.help": (
            "{low} to {high} characters: letters a to z, digits, _ and -, starting with a letter."
        ),
        "account.password": "Password",
        "account.password.help": "At least {n} characters; not your username.",
        "account.have_one": "Already have an account?",
        "account.no_account": "No account yet?",
        "home.lobby_invite": "Looking for an opponent?",
        "home.lobby_link": "Go to the lobby: open challenges, quick pairing, games to watch.",
        "home.rated": "Rated",
        "home.rated_help": "A rated game against the computer counts for your rating and its own.",
        "home.rated_sign_in": "Sign in to play rated games against the computer.",
        "clock.control": "Time control",
        "clock.none": "No clock (casual)",
        "clock.untimed": "no clock",
        "clock.days": "{d} d {h} h",
        "clock.first_move": "first move: {s} s",
        "clock.label": "{side}'s clock: {time}",
        "clock.away": "(away)",
        "clock.claim": "Claim victory",
        "clock.claim_in": "Your opponent left the game. You can claim victory in {s} s.",
        "clock.claim_now": "Your opponent left the game. You can claim victory now.",
        "clock.opponent_left": "Your opponent left the game.",
        "clock.opponent_left_wait": (
            "Your opponent left the game. If they are still away when it is their turn, you "
            "can claim victory."
        ),
        "clock.left": "The {side}' player left the game.",
        "reason.time-out": "time-out",
        "reason.left": "the opponent left the game",
        "reason.aborted": "aborted (no first move in time)",
        "ruleset.general.default": "Standard",
        "rating.provisional": "provisional rating (few games yet)",
        "rating.title": "rating",
        "rating.after": "new rating: {rating}",
        "player.anonymous": "Anonymous",
        "chat.title": "Chat",
        "chat.watchers": "Watchers' chat",
        "chat.on": "Chat on",
        "chat.off": "Chat off",
        "chat.say": "Say something…",
        "chat.send": "Send",
        "chat.mute": "Mute",
        "chat.mute_who": "Mute {name}",
        "chat.muted_count": "{n} muted message(s).",
        "chat.unmute_all": "Unmute",
        "chat.sign_in": "Sign in to talk with the other watchers.",
        "prefs.title": "Preferences",
        "prefs.sound": "Sound on",
        "prefs.sound_off": "Sound off",
        "prefs.notify": "Notify me",
        "prefs.notify_on": "Notifications on",
        "prefs.forced": "Forced plays by themselves",
        "prefs.forced_off": "Forced plays by hand",
        "notify.your_turn": "Your turn",
        "notify.your_turn_body": "Your opponent has played.",
        "notify.undo": "Undo request",
        "notify.rematch": "Rematch offered",
        "lobby.title": "Lobby",
        "lobby.intro": (
            "Post a challenge, look for an opponent of your level, or accept a challenge. "
            "Your game opens by itself when someone takes you on."
        ),
        "lobby.anonymous": "Without an account you play casual games; sign in for rated ones.",
        "lobby.new": "Find a game",
        "lobby.rated": "Rated",
        "lobby.rated_short": "rated",
        "lobby.casual_short": "casual",
        "lobby.rated_needs_account": "Rated games need an account.",
        "lobby.opponent": "Challenge a player (optional)",
        "lobby.opponent_help": "Their username: only they can accept.",
        "lobby.quick": "Quick pairing",
        "lobby.post": "Post a challenge",
        "lobby.posted": "Your challenge is in the lobby. Stay on this page: the game opens here.",
        "lobby.cancel": "Cancel",
        "lobby.searching": "Looking for an opponent of your level: {what}…",
        "lobby.to_me": "Challenges for you",
        "lobby.open": "Open challenges",
        "lobby.open_empty": "No open challenge right now: post one!",
        "lobby.playing": "Games being played",
        "lobby.playing_empty": "No lobby game is being played right now.",
        "lobby.accept": "Accept",
        "lobby.decline": "Decline",
        "lobby.withdraw": "Withdraw",
        "lobby.watch": "Watch",
        "lobby.versus": "vs",
        "lobby.plays": "plays the {side}",
        "lobby.for": "for {name}",
        "lobby.side_random": "Random",
        "lobby.challenged": "A challenge for you",
        "lobby.challenged_by": "{name} challenges you.",
        "lobby.starting": "Your game starts",
        "lobby.starting_body": "An opponent took you on.",
        "profile.ratings": "Ratings",
        "profile.no_ratings": "No rated game yet.",
        "profile.computer": (
            "A computer level: its ratings started from matches between the levels and move "
            "with every rated game it plays here."
        ),
        "profile.since": "Player since {date}",
        "profile.wdl": "Rated games: {games} — won {wins}, drawn {draws}, lost {losses}",
        "profile.history": "Rating after each game",
        "profile.games": "Games",
        "profile.no_games": "No game yet.",
        "profile.opponent": "Opponent",
        "profile.when": "Date",
        "profile.change": "Rating",
        "profile.result.win": "Won",
        "profile.result.draw": "Draw",
        "profile.result.loss": "Lost",
        "profile.result.aborted": "Aborted",
        "profile.playing": "Being played",
        "profile.open": "Open",
        "leaderboard.title": "Leaderboard",
        "leaderboard.choose": "Games",
        "leaderboard.empty": "Nobody has played a rated game of these rules yet.",
        "leaderboard.established": "Ratings",
        "leaderboard.provisional": "Provisional ratings",
        "leaderboard.player": "Player",
        "leaderboard.rating": "Rating",
        "leaderboard.games": "Games",
        "leaderboard.wdl": "Won / drawn / lost",
        "leaderboard.computer": "computer",
        "leaderboard.note": (
            "Glicko-2 ratings, one per game and rules. A rating stays provisional (?) while "
            "its uncertainty is high: a few games settle it."
        ),
    },
    "fr": {
        "nav.lobby": "Salon",
        "nav.leaderboard": "Classement",
        "account.signin": "Se connecter",
        "account.signup": "Créer un compte",
        "account.signout": "Se déconnecter",
        "account.signin.title": "Connexion",
        "account.signup.title": "Créer un compte",
        "account.signup.why": (
            "Un compte vous donne un nom dans les parties, un classement dans chaque jeu, un "
            "profil avec vos parties, et les parties classées du salon."
        ),
        "account.optional": (
            "Le compte est facultatif : tout le reste fonctionne sans. Aucune adresse e-mail "
            "n’est demandée ; gardez bien votre mot de passe, il ne peut pas être retrouvé."
        ),
        "account.username": "Nom d’utilisateur",
        "account.username.help": (
            "De {low} à {high} caractères : lettres de a à z, chiffres, _ et -, en commençant "
            "par une lettre."
        ),
        "account.password": "Mot de passe",
        "account.password.help": "Au moins {n} caractères ; pas votre nom d’utilisateur.",
        "account.have_one": "Vous avez déjà un compte ?",
        "account.no_account": "Pas encore de compte ?",
        "home.lobby_invite": "Vous cherchez un adversaire ?",
        "home.lobby_link": "Allez au salon : défis ouverts, appariement rapide, parties à suivre.",
        "home.rated": "Classée",
        "home.rated_help": (
            "Une partie classée contre l’ordinateur compte pour votre classement et le sien."
        ),
        "home.rated_sign_in": "Connectez-vous pour jouer des parties classées contre l’ordinateur.",
        "clock.control": "Cadence",
        "clock.none": "Sans pendule (amicale)",
        "clock.untimed": "sans pendule",
        "clock.days": "{d} j {h} h",
        "clock.first_move": "premier coup : {s} s",
        "clock.label": "pendule des {side} : {time}",
        "clock.away": "(absent)",
        "clock.claim": "Réclamer la victoire",
        "clock.claim_in": (
            "Votre adversaire a quitté la partie. Vous pourrez réclamer la victoire dans {s} s."
        ),
        "clock.claim_now": (
            "Votre adversaire a quitté la partie. Vous pouvez réclamer la victoire."
        ),
        "clock.opponent_left": "Votre adversaire a quitté la partie.",
        "clock.opponent_left_wait": (
            "Votre adversaire a quitté la partie. S’il est encore absent quand viendra son "
            "tour, vous pourrez réclamer la victoire."
        ),
        "clock.left": "Le joueur des {side} a quitté la partie.",
        "reason.time-out": "temps écoulé",
        "reason.left": "l’adversaire a quitté la partie",
        "reason.aborted": "annulée (pas de premier coup à temps)",
        "ruleset.general.default": "Standard",
        "rating.provisional": "classement provisoire (encore peu de parties)",
        "rating.title": "classement",
        "rating.after": "nouveau classement : {rating}",
        "player.anonymous": "Anonyme",
        "chat.title": "Discussion",
        "chat.watchers": "Discussion des spectateurs",
        "chat.on": "Discussion activée",
        "chat.off": "Discussion coupée",
        "chat.say": "Écrire un message…",
        "chat.send": "Envoyer",
        "chat.mute": "Masquer",
        "chat.mute_who": "Masquer {name}",
        "chat.muted_count": "{n} message(s) masqué(s).",
        "chat.unmute_all": "Tout afficher",
        "chat.sign_in": "Connectez-vous pour parler aux autres spectateurs.",
        "prefs.title": "Préférences",
        "prefs.sound": "Son activé",
        "prefs.sound_off": "Son coupé",
        "prefs.notify": "Me prévenir",
        "prefs.notify_on": "Notifications activées",
        "prefs.forced": "Coups forcés joués seuls",
        "prefs.forced_off": "Coups forcés à la main",
        "notify.your_turn": "À vous de jouer",
        "notify.your_turn_body": "Votre adversaire a joué.",
        "notify.undo": "Demande d’annulation",
        "notify.rematch": "Revanche proposée",
        "lobby.title": "Salon",
        "lobby.intro": (
            "Lancez un défi, cherchez un adversaire de votre niveau, ou acceptez un défi. "
            "La partie s’ouvre d’elle-même quand quelqu’un vous répond."
        ),
        "lobby.anonymous": (
            "Sans compte, vous jouez des parties amicales ; connectez-vous pour les parties "
            "classées."
        ),
        "lobby.new": "Trouver une partie",
        "lobby.rated": "Classée",
        "lobby.rated_short": "classée",
        "lobby.casual_short": "amicale",
        "lobby.rated_needs_account": "Les parties classées demandent un compte.",
        "lobby.opponent": "Défier un joueur (facultatif)",
        "lobby.opponent_help": "Son nom d’utilisateur : lui seul pourra accepter.",
        "lobby.quick": "Appariement rapide",
        "lobby.post": "Lancer un défi",
        "lobby.posted": (
            "Votre défi est dans le salon. Restez sur cette page : la partie s’ouvrira ici."
        ),
        "lobby.cancel": "Annuler",
        "lobby.searching": "Recherche d’un adversaire de votre niveau : {what}…",
        "lobby.to_me": "Défis pour vous",
        "lobby.open": "Défis ouverts",
        "lobby.open_empty": "Aucun défi ouvert pour l’instant : lancez-en un !",
        "lobby.playing": "Parties en cours",
        "lobby.playing_empty": "Aucune partie du salon n’est en cours.",
        "lobby.accept": "Accepter",
        "lobby.decline": "Refuser",
        "lobby.withdraw": "Retirer",
        "lobby.watch": "Suivre",
        "lobby.versus": "contre",
        "lobby.plays": "joue les {side}",
        "lobby.for": "pour {name}",
        "lobby.side_random": "Au hasard",
        "lobby.challenged": "Un défi pour vous",
        "lobby.challenged_by": "{name} vous défie.",
        "lobby.starting": "Votre partie commence",
        "lobby.starting_body": "Un adversaire a relevé votre défi.",
        "profile.ratings": "Classements",
        "profile.no_ratings": "Aucune partie classée pour l’instant.",
        "profile.computer": (
            "Un niveau de l’ordinateur : ses classements sont partis de matchs entre les "
            "niveaux et suivent chaque partie classée qu’il joue ici."
        ),
        "profile.since": "Joueur depuis le {date}",
        "profile.wdl": (
            "Parties classées : {games} — gagnées {wins}, nulles {draws}, perdues {losses}"
        ),
        "profile.history": "Classement après chaque partie",
        "profile.games": "Parties",
        "profile.no_games": "Aucune partie pour l’instant.",
        "profile.opponent": "Adversaire",
        "profile.when": "Date",
        "profile.change": "Classement",
        "profile.result.win": "Gagnée",
        "profile.result.draw": "Nulle",
        "profile.result.loss": "Perdue",
        "profile.result.aborted": "Annulée",
        "profile.playing": "En cours",
        "profile.open": "Ouvrir",
        "leaderboard.title": "Classement",
        "leaderboard.choose": "Jeux",
        "leaderboard.empty": "Personne n’a encore joué de partie classée avec ces règles.",
        "leaderboard.established": "Classements",
        "leaderboard.provisional": "Classements provisoires",
        "leaderboard.player": "Joueur",
        "leaderboard.rating": "Classement",
        "leaderboard.games": "Parties",
        "leaderboard.wdl": "Gagnées / nulles / perdues",
        "leaderboard.computer": "ordinateur",
        "leaderboard.note": (
            "Classements Glicko-2, un par jeu et par règles. Un classement reste provisoire "
            "(?) tant que son incertitude est grande : quelques parties suffisent."
        ),
    },
}
