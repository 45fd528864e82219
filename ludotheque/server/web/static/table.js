// What sits around the board: the players' strips (name, rating, clock), the claim against a
// player who left, the chat and the sounds. The server keeps the clocks; the page only lets
// them tick between its messages, and tells the server when a face reaches zero (the server
// checks with its own clock and ends the game on time if it agrees).
import { createChat } from "./chat.js";
import { lang } from "./i18n.js";
import { createNotifier, play } from "./notify.js";

const $ = (id) => document.getElementById(id);

// "4:59", "0:09.4" under ten seconds, "1:02:03" over an hour, "2 d 3 h" for days
export function formatClock(seconds, t, kind = null) {
  const s = Math.max(0, seconds);
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    return t("clock.days", { d: days, h: Math.floor((s % 86400) / 3600) });
  }
  // a correspondence clock keeps to words under a day too ("23 h 59 min", not "23:59:59"
  // beside the other side's "1 d 0 h"), down to the last hour
  if (kind === "correspondence" && s >= 3600) {
    return t("clock.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  }
  if (s < 10) return `0:0${Math.floor(s)}.${Math.floor((s * 10) % 10)}`;
  const whole = Math.ceil(s - 1e-9);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

function createTable({ t, send, sideName, mode, shownPlies }) {
  let snap = null;
  let table = null;
  let received = 0; // performance.now() when the table came
  let flagSentFor = null; // the ply whose flag the page reported
  let lowWarned = null; // the ply whose low time was sounded
  let timer = null;

  function order() {
    const sides = snap.sides;
    let bottom = sides[0];
    if (snap.my_sides.length === 1) bottom = snap.my_sides[0];
    return { top: sides.find((s) => s !== bottom), bottom };
  }

  // a replay shown before its last move: each side's time as it stood then (the latest
  // change of the clock at or before the plies shown), the clocks stopped
  function replayed(side) {
    if (mode !== "archive" || !snap.clocks || !shownPlies) return null;
    const plies = shownPlies();
    if (plies >= snap.history.length) return null;
    let left = null;
    for (const [n, times] of snap.clocks) if (n <= plies && side in times) left = times[side];
    return left === null ? null : { left: Math.max(0, left), running: false, delay: null, first: null };
  }

  // a side's clock face now (seconds), and whether it is running
  function face(side) {
    const clock = table.clock;
    if (!clock) return null;
    const then = replayed(side);
    if (then) return then;
    let left = clock.left[side];
    const running = clock.running === side && !snap.outcome;
    let delay = null;
    let first = null;
    if (running) {
      const elapsed = (performance.now() - received) / 1000;
      if (clock.first_move !== null) {
        first = Math.max(0, clock.first_move - elapsed);
      } else if (clock.kind === "delay" && clock.delay !== null) {
        delay = Math.max(0, clock.delay - elapsed);
        left -= Math.max(0, elapsed - clock.delay);
      } else {
        left -= elapsed;
      }
    }
    return { left: Math.max(0, left), running, delay, first };
  }

  function personLabel(side) {
    const who = table.people[side];
    const parts = [];
    const level = snap.players && snap.players[side] !== "human" ? snap.players[side] : null; // the computer's
    if (!who && snap.computer && snap.computer.side === side) parts.push(t(`player.computer.${snap.computer.level}`));
    else if (!who && level) parts.push(t(`player.computer.${level}`));
    else if (!who) parts.push(t(mode === "archive" ? "player.guest" : "player.anonymous"));
    else if (who.level) parts.push(t(`player.computer.${who.level}`));
    else parts.push(who.closed ? t("player.closed") : who.name || t("player.anonymous"));
    return parts.join(" ");
  }

  function strip(holder, side) {
    holder.hidden = false;
    holder.replaceChildren();
    holder.dataset.side = side;
    const who = table.people[side];
    const name = document.createElement("span");
    name.className = "who";
    const dot = document.createElement("span");
    dot.className = `side-dot side-${side}`;
    dot.setAttribute("aria-hidden", "true");
    const label = document.createElement(who && who.name && !who.level ? "a" : "span");
    if (label.tagName === "A") label.href = `/@/${encodeURIComponent(who.name)}`;
    label.className = "name";
    label.textContent = personLabel(side);
    const sideText = document.createElement("span");
    sideText.className = "side-name";
    sideText.textContent = sideName(side);
    name.append(dot, label);
    if (who && who.bot && who.name) {
      const badge = document.createElement("span");
      badge.className = "badge-bot";
      badge.title = t("player.bot_title");
      badge.textContent = t("player.bot");
      name.append(" ", badge);
    }
    name.append(" ", sideText);
    if (who && who.rating !== null && who.rating !== undefined) {
      const rating = document.createElement("span");
      rating.className = "rating";
      rating.textContent = `${who.rating}${who.provisional ? "?" : ""}`;
      rating.title = who.provisional ? t("rating.provisional") : t("rating.title");
      name.append(" ", rating);
    }
    const change = table.ratings && table.ratings[side];
    if (change) {
      const delta = document.createElement("span");
      const value = Math.round(change.change);
      delta.className = `rating-change ${value >= 0 ? "up" : "down"}`;
      delta.textContent = `${value >= 0 ? "+" : "−"}${Math.abs(value)}`;
      delta.title = t("rating.after", { rating: `${Math.round(change.after)}${change.provisional ? "?" : ""}` });
      name.append(" ", delta);
    }
    if (table.away[side] && !snap.outcome) {
      const away = document.createElement("span");
      away.className = "away";
      away.textContent = t("clock.away");
      name.append(" ", away);
    }
    holder.append(name);
    if (table.clock) {
      // the side's clock, and beside it (not instead of it) the time left for its first move
      const clocks = document.createElement("span");
      clocks.className = "clocks";
      const first = document.createElement("span");
      first.className = "first-move";
      first.hidden = true;
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.setAttribute("role", "timer");
      clock.setAttribute("aria-live", "off");
      clock.dataset.side = side;
      // a delay clock's delay running down: said in words after the clock, not as "+11"
      const delay = document.createElement("span");
      delay.className = "delay-left";
      delay.hidden = true;
      clocks.append(first, clock, delay);
      holder.append(clocks);
    }
  }

  function tick() {
    if (!snap || !table) return;
    if (table.clock) {
      for (const node of document.querySelectorAll(".player-strip .clock")) {
        const side = node.dataset.side;
        const f = face(side);
        if (!f) continue;
        let text = formatClock(f.left, t, table.control && table.control.kind);
        if (node.textContent !== text) node.textContent = text;
        const delayed = f.delay !== null && f.delay > 0 && f.first === null;
        const delayText = delayed ? t("clock.delay_left", { s: Math.ceil(f.delay) }) : "";
        const delayBadge = node.parentElement.querySelector(".delay-left");
        if (delayBadge.textContent !== delayText) delayBadge.textContent = delayText;
        delayBadge.hidden = !delayed;
        if (delayed) text = `${text}, ${delayText}`;
        // before the side's first move its clock waits, and the countdown beside it runs
        const badge = node.parentElement.querySelector(".first-move");
        const firstText = f.first !== null ? t("clock.first_move", { s: Math.ceil(f.first) }) : "";
        if (badge.textContent !== firstText) badge.textContent = firstText;
        badge.hidden = f.first === null;
        const low = f.left < table.control.low && f.first === null;
        node.classList.toggle("running", f.running && f.first === null);
        node.classList.toggle("low", low);
        node.setAttribute("aria-label", t("clock.label", { side, time: f.first !== null ? `${text}, ${firstText}` : text }));
        if (f.running && low && lowWarned !== snap.ply && snap.my_sides.includes(side)) {
          lowWarned = snap.ply;
          play("low");
        }
        const out = f.running && (f.first !== null ? f.first <= 0 : f.left <= 0);
        if (out && flagSentFor !== snap.ply && mode !== "archive") {
          flagSentFor = snap.ply;
          send({ type: "flag" });
          // if the server's clock says otherwise, the next state tells; ask for it
          setTimeout(() => { if (snap && !snap.outcome) send({ type: "sync" }); }, 2500);
        }
      }
    }
    renderClaim();
  }

  function renderClaim() {
    const box = $("claim");
    if (!box) return;
    const player = mode === "play" && snap.my_sides.length === 1 && snap.mode === "friend";
    const gone = Object.keys(table.away || {}).find((side) => !snap.my_sides.includes(side));
    if (snap.outcome || !gone) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const info = table.away[gone];
    const button = $("claim-button");
    const serverNow = table.now + (performance.now() - received) / 1000;
    if (!player) {
      $("claim-text").textContent = t("clock.left", { side: gone });
      button.hidden = true;
      return;
    }
    if (info.claim_at === null) {
      $("claim-text").textContent = t("clock.opponent_left");
      button.hidden = true;
    } else if (snap.to_move !== gone) {
      $("claim-text").textContent = t("clock.opponent_left_wait");
      button.hidden = true;
    } else if (serverNow < info.claim_at) {
      $("claim-text").textContent = t("clock.claim_in", { s: Math.ceil(info.claim_at - serverNow) });
      button.hidden = true;
    } else {
      $("claim-text").textContent = t("clock.claim_now");
      button.hidden = false;
    }
  }

  $("claim-button")?.addEventListener("click", () => send({ type: "claim" }));

  // under the game's title: its time control by name ("5+3", "1 day a move") and whether
  // it is rated
  function renderControl() {
    let line = $("game-control");
    if (!table || !table.control) {
      if (line) line.hidden = true;
      return;
    }
    if (!line) {
      line = document.createElement("p");
      line.id = "game-control";
      line.className = "game-control muted";
      document.querySelector(".game-title")?.after(line);
    }
    const name = table.control.name[lang()] || table.control.name.en || table.control.key;
    line.textContent = `${name} · ${t(table.rated ? "lobby.rated_short" : "lobby.casual_short")}`;
    line.hidden = false;
  }

  return {
    forArchive: true, // a finished game's page shows who played it
    onMessage(message, latest) {
      if (message.type !== "state" || !latest) return;
      snap = latest;
      table = snap.table || null;
      received = performance.now();
      renderControl();
      // a tournament game's berserk is offered until this player's first move (or the end)
      const berserk = $("game-berserk-form");
      if (berserk && snap.my_sides.length === 1) {
        const mine = snap.sides.indexOf(snap.my_sides[0]);
        if (snap.outcome || snap.ply > mine) berserk.hidden = true;
      }
      // a finished game's page always names its players (an account, the computer, a guest)
      const show = table && (table.clock || Object.keys(table.people).length || mode === "archive");
      const top = $("strip-top");
      const bottom = $("strip-bottom");
      if (!show) {
        top.hidden = bottom.hidden = true;
        $("claim").hidden = true;
        return;
      }
      const { top: topSide, bottom: bottomSide } = order();
      strip(top, topSide);
      strip(bottom, bottomSide);
      tick();
      if (!timer) timer = setInterval(tick, 100);
    },
  };
}

export function extensions(context) {
  return [createTable(context), createChat(context), createNotifier(context)];
}
