"""The words of the lessons (``/learn``), in English; their French is in the catalogue, by key.

Each step of a course (``ludotheque.lessons``) has five: ``lesson.<game>.<step>.title``, what to
do (``do``), the hint, the explanation shown after success (``why``) and what a legal move that
misses is told (``miss``). The pages' own words are ``learn.*``.
"""

from __future__ import annotations

from .keyed import word, words

LESSONS = words(
    # -- the pages ------------------------------------------------------------------------
    word("learn.title", "Learn"),
    word("learn.course_title", "Learn: {game}"),
    word("learn.intro",
         "A short course for each game: small positions where you make the move that shows a "
         "rule. The engine checks every move."),
    word("learn.course.general",
         "Steps, captures of a pair, the flight, and the two ways the rebels win."),
    word("learn.course.backgammon",
         "Who starts, entering from the bar, hitting, five checkers at most, bearing off."),
    word("learn.course.defiance",
         "Placing, the line of attack, rotating, Command moves, key points and sectors, on the "
         "small 8×8 board."),
    word("learn.progress", "{done} of {total} steps done"),
    word("learn.start", "Start the course"),
    word("learn.continue", "Continue"),
    word("learn.again", "Take it again"),
    word("learn.kept_account", "Your progress is kept with your account."),
    word("learn.kept_browser",
         "Your progress is kept in this browser. Sign in to keep it with your account."),
    word("learn.rules", "The rules"),
    word("learn.from_rules", "Learn by playing: the lessons"),
    word("learn.steps", "Steps"),
    word("learn.step_of", "Step {n} of {total}"),
    word("learn.done_mark", "done"),
    word("learn.hint", "Hint"),
    word("learn.next", "Next step"),
    word("learn.retry", "Try again"),
    word("learn.solved", "Well played."),
    word("learn.missed", "Not quite. {why} The position is set back: try again."),
    word("learn.illegal", "The engine refuses this move: {refusal}"),
    word("learn.finished", "Course complete: you have done every step."),
    word("learn.back", "All the lessons"),
    word("learn.you_play", "Your side: {side}"),
    word("learn.roll", "Choose the opening dice"),
    word("learn.die_white", "White's die"),
    word("learn.die_black", "Black's die"),
    word("learn.set_roll", "Roll these dice"),
    word("learn.error", "The lesson could not be checked: {error}"),
    # -- the General ----------------------------------------------------------------------
    word("lesson.general.step.title", "A step along a line"),
    word("lesson.general.step.do",
         "You play the general. Every piece moves one step along a line to a neighbouring empty "
         "point. Step the general from b3 to the centre, c3."),
    word("lesson.general.step.hint",
         "No diagonal leaves b3: follow the row to the right, to c3."),
    word("lesson.general.step.why",
         "One step along a line, to an empty point. From c3 the diagonals cross: he reaches "
         "eight points instead of four."),
    word("lesson.general.step.miss", "That is a step, but not to c3."),
    word("lesson.general.capture.title", "Capturing a pair"),
    word("lesson.general.capture.do",
         "The general captures by landing on the middle point of three in a line whose two ends "
         "hold rebels: both are removed. Capture a pair."),
    word("lesson.general.capture.hint",
         "Look at b2, between a1 and c3, and at d2, between c3 and e1."),
    word("lesson.general.capture.why",
         "Landing between two rebels on a line takes both. Only the general captures, and only "
         "by his own move."),
    word("lesson.general.capture.miss",
         "He moved, but did not land between two rebels on a line: nothing was taken."),
    word("lesson.general.flight.title", "The flight"),
    word("lesson.general.flight.do",
         "Once per game, a step onto the apex s4 goes on, in the same move, to any empty point. "
         "Fly from s2 and land between two rebels to capture them."),
    word("lesson.general.flight.hint",
         "Step to s4, then land on c3: it lies between b3 and d3."),
    word("lesson.general.flight.why",
         "The flight takes him anywhere, and a landing between rebels captures as usual. It is "
         "used now: s4 is an ordinary point from here on."),
    word("lesson.general.flight.miss",
         "That used the move without taking a pair: land between two rebels with the flight."),
    word("lesson.general.shut_in.title", "The shut-in"),
    word("lesson.general.shut_in.do",
         "You play the rebels. They win when the general is in the sanctuary and rebels hold its "
         "three gates, b5, c5 and d5. Shut him in."),
    word("lesson.general.shut_in.hint", "Two gates are held. The rebel on d4 can step to d5."),
    word("lesson.general.shut_in.why",
         "The general is in the sanctuary and the three gates are held: he is shut in, the "
         "rebels win."),
    word("lesson.general.shut_in.miss",
         "The gate d5 is still open: the general can still come out."),
    word("lesson.general.no_move.title", "No move left"),
    word("lesson.general.no_move.do",
         "The rebels also win when the general, to move, has no legal move. He is in the corner "
         "a1: take his last free point."),
    word("lesson.general.no_move.hint",
         "From a1 he can go to a2, b1 or b2. Only b2 is free; the rebel on c3 reaches it."),
    word("lesson.general.no_move.why",
         "Every point next to the general is taken and he cannot land between two rebels: he has "
         "no move, the rebels win."),
    word("lesson.general.no_move.miss", "The general can still step to b2."),
    word("lesson.general.twelve.title", "The general's win"),
    word("lesson.general.twelve.do",
         "The general wins when only four rebels remain: he has captured twelve. Six are left: "
         "take two more."),
    word("lesson.general.twelve.hint", "A capture on b2 or on d2 ends the game."),
    word("lesson.general.twelve.why",
         "Four rebels remain: the general has captured twelve and wins."),
    word("lesson.general.twelve.miss", "No pair was taken: six rebels are still on the board."),
    # -- backgammon -----------------------------------------------------------------------
    word("lesson.backgammon.opening.title", "The lower die starts"),
    word("lesson.backgammon.opening.do",
         "At the start each side rolls one die. With these rules the side with the lower die "
         "starts and plays the two dice rolled. Choose dice so that Black starts."),
    word("lesson.backgammon.opening.hint",
         "Give Black the smaller number; equal dice are rolled again."),
    word("lesson.backgammon.opening.why",
         "Black's die is lower, so Black starts, with both dice as its first roll. In standard "
         "backgammon the higher die starts."),
    word("lesson.backgammon.opening.miss",
         "White's die is lower: White starts with these dice."),
    word("lesson.backgammon.enter.title", "Entering from the bar"),
    word("lesson.backgammon.enter.do",
         "White has a checker on the bar and rolls 6-3. A checker on the bar must come in first, "
         "on point 25 minus a die. Enter it, then play the other die."),
    word("lesson.backgammon.enter.hint",
         "With the 6 it would enter on 19, held by Black. The 3 enters on 22."),
    word("lesson.backgammon.enter.why",
         "Nothing else may move while a checker is on the bar. A point held by two or more "
         "opposing checkers is closed to it."),
    word("lesson.backgammon.enter.miss", "The checker on the bar has not come in."),
    word("lesson.backgammon.hit.title", "Hitting"),
    word("lesson.backgammon.hit.do",
         "Landing on a point with a single opposing checker hits it: it goes to the bar. White "
         "rolls 6-2: hit the black checker on White's 7-point."),
    word("lesson.backgammon.hit.hint", "From 13, a 6 lands on 7."),
    word("lesson.backgammon.hit.why",
         "The black checker goes to the bar: Black must bring it in before anything else."),
    word("lesson.backgammon.hit.miss", "No black checker was sent to the bar."),
    word("lesson.backgammon.cap.title", "Five checkers at most"),
    word("lesson.backgammon.cap.do",
         "With these rules no point may hold a sixth checker of yours. White rolls 2-1: bring "
         "the checker on the 7-point into your home board."),
    word("lesson.backgammon.cap.hint",
         "The 6-point already holds five, so 7/6 is refused. Move the checker on with the 2."),
    word("lesson.backgammon.cap.why",
         "No landing may make a sixth checker on a point, not even a stop on the way. Moving "
         "off a full point first can make room."),
    word("lesson.backgammon.cap.miss", "The checker is still on the 7-point."),
    word("lesson.backgammon.bear_off.title", "Bearing off"),
    word("lesson.backgammon.bear_off.do",
         "Once all your checkers are in your home board you bear them off: a die takes a checker "
         "off from its own point. White rolls 6-4: bear off two checkers."),
    word("lesson.backgammon.bear_off.hint", "Use the 6 on the 6-point and the 4 on the 4-point."),
    word("lesson.backgammon.bear_off.why",
         "Two checkers are off. A larger die also bears off when none of your checkers stands "
         "higher. The first side to bear off all fifteen wins."),
    word("lesson.backgammon.bear_off.miss", "Only one checker left the board: both dice can."),
    # -- Defiance and Domain --------------------------------------------------------------
    word("lesson.defiance.place.title", "Placing a counter"),
    word("lesson.defiance.place.do",
         "A turn starts with one action: place a counter from your pool in an empty cell, facing "
         "any of eight directions. You play the Rebels: place one on a cell around the key point "
         "P2.2. A point is a corner of the cells, named by its column and "
         "row: P2.2 is where b2, c2, b3 and c3 meet."),
    word("lesson.defiance.place.hint",
         "Choose c3, then a direction; leave the Command where it is."),
    word("lesson.defiance.place.why",
         "Counters hold cells; their direction is their line of attack. Four Rebel counters "
         "around a key point control it."),
    word("lesson.defiance.place.miss", "The counter is not on b2, c2, b3 or c3."),
    word("lesson.defiance.attack.title", "The line of attack"),
    word("lesson.defiance.attack.do",
         "A counter is captured when the cells on both sides of it, in a straight line, hold "
         "enemy counters that both point at it. f3 points west at the Imperial counter on e3: "
         "place a counter that flanks it."),
    word("lesson.defiance.attack.hint", "Place on d3, pointing east."),
    word("lesson.defiance.attack.why",
         "d3 and f3 both point at e3: it is flanked and goes back to the Imperium's pool."),
    word("lesson.defiance.attack.miss",
         "e3 is still there: both flankers must point at it."),
    word("lesson.defiance.rotate.title", "Rotating"),
    word("lesson.defiance.rotate.do",
         "Instead of placing, an action may turn one of your counters to a new direction. Your "
         "counter on d3 points north: turn it so that it captures e3."),
    word("lesson.defiance.rotate.hint", "Choose d3 and turn it to face east."),
    word("lesson.defiance.rotate.why",
         "Turned east, d3 points at e3 like f3: e3 is captured, and your pool is untouched."),
    word("lesson.defiance.rotate.miss",
         "No capture by a turn: d3 must point at e3, and the capture must come from rotating."),
    word("lesson.defiance.command.title", "Command moves and walls"),
    word("lesson.defiance.command.do",
         "After the action you may move one Command one point. The Rebel Command never passes "
         "between two Imperial counters side by side, nor across one diagonally. Place a "
         "counter, then step your Command from P3.2 (where c2, d2, c3 and d3 meet) east to P4.2 "
         "(where d2, e2, d3 and e3 meet), around the wall."),
    word("lesson.defiance.command.hint",
         "c3 and d3 wall every step north from P3.2. After placing, move the Command one "
         "point east, to P4.2."),
    word("lesson.defiance.command.why",
         "The Command moved after the action. Walls of Imperial counters shape its way; Rebel "
         "counters never block it."),
    word("lesson.defiance.command.miss", "Your Command is not on P4.2."),
    word("lesson.defiance.catch.title", "Catching the Rebel Command"),
    word("lesson.defiance.catch.do",
         "You play the Imperium. An Imperial Command steps one point straight, never diagonally, "
         "and wins by moving onto the Rebel Command. Make any action, then catch it on P3.5, "
         "where c5, d5, c6 and d6 meet."),
    word("lesson.defiance.catch.hint",
         "Place a counter, then move the Imperial Command from P4.5 (where d5, e5, d6 and e6 "
         "meet) one point west, to P3.5."),
    word("lesson.defiance.catch.why",
         "The Imperial Command moved onto the Rebel Command: the Imperium wins."),
    word("lesson.defiance.catch.miss", "The Rebel Command is still free."),
    word("lesson.defiance.sectors.title", "Key points and sectors"),
    word("lesson.defiance.sectors.do",
         "The board has four sectors. The Rebels win the moment they control a key point in each: "
         "its four cells hold Rebel counters. Three sectors are done: finish the fourth."),
    word("lesson.defiance.sectors.hint",
         "The key point P6.2 has f2, g2 and f3: g3 is missing."),
    word("lesson.defiance.sectors.why",
         "A key point controlled in each of the four sectors: the Rebels win at once."),
    word("lesson.defiance.sectors.miss",
         "The fourth sector has no controlled key point yet."),
)  # fmt: skip
