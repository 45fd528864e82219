"""The lessons on the site: the pages ``/learn`` and ``/learn/<game>``, the API that judges a
move on a step (by the game's engine, ``ludotheque.lessons``) and the steps each account has
solved (guests keep theirs in their browser)."""
