// The game's chat: the players' channel for players, the watchers' for watchers. Messages are
// text (textContent: never read as HTML).
//
// Nothing typed is lost. Each line gets a name of its own (a nonce) and waits for the server's
// answer: the input is cleared when the server acknowledges the line. A line refused for its
// pace (the chat allows a burst, then one line every few seconds) is held, shown as waiting in
// the list, and sent again when the server says it may; lines typed meanwhile queue behind it,
// in order. A line refused for another reason (too long, said twice, a ban) stays in the input
// with the reason beside the chat. A line whose answer was lost (the connection dropped) is
// sent again with its nonce: the server recognises it and does not write it twice.
//
// The chat can be switched off (in this browser), anyone muted (with the account when signed
// in, else in this browser), and others' lines reported to the moderators.
import { play } from "./notify.js";

const $ = (id) => document.getElementById(id);
const OFF_KEY = "ludotheque.chat";
const MUTED_KEY = "ludotheque.muted";
const ANSWER_MS = 8000; // a line unanswered this long while online is sent again
const MOST = 300; // characters a line may have once cleaned (the server's chat.rules.MAX_LENGTH)
const SOUND_GAP_MS = 2500; // at most one chat sound this often

function localMuted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function saveLocalMuted(set) {
  localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-200)));
}

function randomName(prefix = "") {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return prefix + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function createChat({ t, send, sideName, online = () => true }) {
  const section = $("chat");
  if (!section) return { onMessage() {} };
  const input = $("chat-input");
  let gameId = null;
  let me = null;
  let channel = null;
  let messages = [];
  let accountMutes = null; // the account's mutes (a Set), or null: this browser keeps them
  const outbox = []; // lines not yet acknowledged, in order: { nonce, text, typed, sentAt }
  let holdUntil = 0; // no line goes out before this (performance.now(), ms)
  let pump = null; // the timer that sends the next line
  const reported = new Set(); // ids of the lines reported from this page
  const asked = new Map(); // report and mute requests waiting for their answer: id -> what
  let lastSound = -Infinity;

  const on = () => localStorage.getItem(OFF_KEY) !== "off";
  const keyOf = (sender) => (sender.startsWith("side:") ? `${gameId}|${sender}` : sender);
  const muted = () => accountMutes || localMuted();

  function showToggle() {
    const button = $("chat-toggle");
    button.setAttribute("aria-pressed", String(on()));
    button.textContent = on() ? t("chat.on") : t("chat.off");
    $("chat-body").hidden = !on();
  }

  function nameOf(message) {
    if (message.name) return message.name;
    if (message.side) return sideName(message.side);
    return t("player.anonymous");
  }

  // how one's own lines are signed once stored: as the last of them was, else the side's name
  function myName() {
    const mine = messages.findLast((m) => m.sender === me);
    if (mine) return nameOf(mine);
    if (me && me.startsWith("side:")) return sideName(me.slice(5));
    return t("chat.you");
  }

  function showError(text) {
    const box = $("chat-error");
    box.textContent = text || ""; // (always there, empty or not: a live region)
  }

  function showStatus() {
    const box = $("chat-status");
    const waiting = outbox.filter((line) => !line.typed).length; // those shown in the list
    let text = "";
    if (outbox.length && !online()) text = t("chat.offline");
    else if (waiting) text = t("chat.waiting", { n: waiting });
    box.textContent = text;
  }

  function item(message, hidden) {
    const row = document.createElement("li");
    row.className = message.sender === me ? "mine" : "";
    row.dataset.id = String(message.id);
    const who = document.createElement("strong");
    who.textContent = `${nameOf(message)}: `;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = message.text;
    row.append(who, text);
    if (message.sender === me) return row;
    const name = nameOf(message);
    if (reported.has(message.id)) {
      const done = document.createElement("span");
      done.className = "reported";
      done.tabIndex = -1;
      done.dataset.focus = `reported-${message.id}`;
      done.textContent = t("chat.reported");
      row.append(" ", done);
    } else {
      const report = document.createElement("button");
      report.type = "button";
      report.className = "report";
      report.dataset.focus = `report-${message.id}`;
      report.textContent = t("chat.report");
      report.setAttribute("aria-label", t("chat.report_who", { name }));
      report.addEventListener("click", () => ask({ type: "chat-report", line: message.id }, { report: message.id }));
      row.append(" ", report);
    }
    const mute = document.createElement("button");
    mute.type = "button";
    mute.className = "mute";
    mute.dataset.focus = `mute-${message.id}`;
    mute.textContent = t("chat.mute");
    mute.setAttribute("aria-label", t("chat.mute_who", { name }));
    mute.addEventListener("click", () => setMuted([keyOf(message.sender)], true));
    row.append(" ", mute);
    return row;
  }

  function pendingItem(line) {
    const row = document.createElement("li");
    row.className = "mine pending";
    row.dataset.nonce = line.nonce;
    const who = document.createElement("strong");
    who.textContent = `${myName()}: `;
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = line.text;
    const state = document.createElement("span");
    state.className = "state";
    state.textContent = ` (${t("chat.sending")})`;
    row.append(who, text, state);
    return row;
  }

  function render() {
    const list = $("chat-list");
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    const hidden = muted();
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    list.replaceChildren();
    let silenced = 0;
    for (const message of messages) {
      if (hidden.has(keyOf(message.sender))) silenced += 1;
      else list.append(item(message));
    }
    // the lines still on their way (the one in the input shows there until it is answered)
    for (const line of outbox) if (!line.typed) list.append(pendingItem(line));
    $("chat-muted").hidden = silenced === 0;
    $("chat-muted-text").textContent = t("chat.muted_count", { n: silenced });
    if (focused) list.querySelector(`[data-focus="${focused}"]`)?.focus();
    if (atBottom || !focused) list.scrollTop = list.scrollHeight;
    showStatus();
  }

  // -- sending, in order, at the pace the server allows -----------------------------------

  function schedule(ms) {
    clearTimeout(pump);
    pump = setTimeout(next, Math.max(0, ms));
  }

  function next() {
    pump = null;
    const line = outbox[0];
    if (!line) return showStatus();
    const now = performance.now();
    if (!online()) {
      showStatus();
      return schedule(500);
    }
    if (now < holdUntil) return schedule(holdUntil - now);
    if (line.sentAt !== null && now - line.sentAt < ANSWER_MS) return schedule(line.sentAt + ANSWER_MS - now);
    line.sentAt = now; // sent (again, after a lost answer: the nonce makes it once)
    send({ type: "chat", text: line.text, id: line.nonce });
    schedule(ANSWER_MS);
    showStatus();
  }

  function settle(line) {
    const at = outbox.indexOf(line);
    if (at >= 0) outbox.splice(at, 1);
  }

  function acknowledged(line, message) {
    settle(line);
    if (line.typed && input.value === line.raw) input.value = ""; // answered: the input empties
    showError("");
    if (message && !messages.some((m) => m.id === message.id)) addMessage(message);
    else render();
    schedule(0);
  }

  function refused(line, answer) {
    if (answer.code === "too-fast" || answer.code === "unavailable") {
      // its pace only: it waits, shown as waiting, and goes out when the chat allows
      const seconds = Number(answer.retry_after) > 0 ? Number(answer.retry_after) : 1;
      holdUntil = performance.now() + seconds * 1000;
      line.sentAt = null;
      if (line.typed) {
        line.typed = false; // held in the list now: the input is free for the next line
        if (input.value === line.raw) input.value = "";
      }
      render();
      schedule(holdUntil - performance.now());
      return;
    }
    // refused for what it says: back in the input (before what was typed since), the reason
    // beside the chat
    settle(line);
    if (!line.typed || input.value !== line.raw) {
      input.value = input.value.trim() ? `${line.text} ${input.value}` : line.text;
    }
    showError(t("chat.not_sent", { reason: answer.message }));
    render();
    schedule(0);
  }

  function submit(event) {
    event.preventDefault();
    const raw = input.value;
    const text = raw.trim();
    if (!text) return;
    // far too long for any cleaning to bring it under the limit: said here, never sent (the
    // server refuses the rest, saying the same; the input never cuts what was typed)
    if (text.length > 2 * MOST) return showError(t("chat.too_long", { most: MOST, length: text.length }));
    showError("");
    const line = { nonce: randomName(), text, raw, typed: false, sentAt: null };
    if (!outbox.length && online() && performance.now() >= holdUntil) {
      line.typed = true; // it stays in the input until the server answers
    } else {
      for (const other of outbox) other.typed = false; // the input is this line's now
      input.value = ""; // held in the list, in order behind the others
    }
    outbox.push(line);
    render();
    next();
  }

  // -- reports and mutes ------------------------------------------------------------------

  function ask(request, what) {
    if (!online()) return showError(t("chat.offline"));
    const id = randomName("r");
    asked.set(id, what);
    send({ ...request, id });
  }

  function setMuted(keys, value) {
    if (accountMutes) {
      for (const key of keys) value ? accountMutes.add(key) : accountMutes.delete(key);
      ask({ type: "chat-mute", keys, muted: value }, { mute: true });
    } else {
      const set = localMuted();
      for (const key of keys) value ? set.add(key) : set.delete(key);
      saveLocalMuted(set);
    }
    render();
  }

  function addMessage(message) {
    messages.push(message);
    if (messages.length > 200) messages.shift();
    render();
  }

  $("chat-toggle").addEventListener("click", () => {
    localStorage.setItem(OFF_KEY, on() ? "off" : "on");
    showToggle();
  });
  $("chat-unmute").addEventListener("click", () => {
    const set = muted();
    const keys = [...new Set(messages.map((m) => keyOf(m.sender)))].filter((k) => set.has(k));
    if (keys.length) setMuted(keys, false);
  });
  $("chat-form").addEventListener("submit", submit);
  showToggle();

  return {
    onMessage(message, snap) {
      if (message.type === "state" && snap) {
        gameId = snap.id;
        section.hidden = !snap.chat;
      } else if (message.type === "chat-history") {
        channel = message.channel;
        me = message.me;
        messages = message.messages;
        accountMutes = Array.isArray(message.muted) ? new Set(message.muted) : null;
        section.hidden = !channel;
        $("chat-form").hidden = !message.can_write;
        $("chat-note").hidden = message.can_write;
        $("chat-note").textContent = message.can_write ? "" : t("chat.sign_in");
        $("chat-title").textContent = channel === "watchers" ? t("chat.watchers") : t("chat.title");
        // a new connection: what came through before it dropped is in the history
        const stored = new Set(messages.filter((m) => m.nonce).map((m) => m.nonce));
        for (const line of [...outbox]) {
          if (stored.has(line.nonce)) acknowledged(line, null);
          else line.sentAt = null; // unanswered on the old connection: sent again
        }
        render();
        schedule(0);
      } else if (message.type === "chat-ack") {
        const line = outbox.find((l) => l.nonce === message.id);
        if (line) acknowledged(line, message.message);
      } else if (message.type === "error" && typeof message.id === "string") {
        const line = outbox.find((l) => l.nonce === message.id);
        if (line) refused(line, message);
        else if (asked.delete(message.id)) showError(message.message);
      } else if (message.type === "chat-reported") {
        asked.delete(message.id);
        reported.add(message.line);
        render();
        $("chat-list").querySelector(`[data-focus="reported-${message.line}"]`)?.focus();
      } else if (message.type === "chat-muted") {
        asked.delete(message.id);
        accountMutes = new Set(message.muted);
        render();
      } else if (message.type === "chat" && message.message.channel === channel) {
        const said = message.message;
        if (messages.some((m) => m.id === said.id)) return;
        const mine = said.nonce && outbox.find((l) => l.nonce === said.nonce);
        if (mine) return acknowledged(mine, said); // its answer may come after: nothing more
        addMessage(said);
        const now = performance.now();
        if (said.sender !== me && on() && !muted().has(keyOf(said.sender)) && now - lastSound > SOUND_GAP_MS) {
          lastSound = now;
          play("chat");
        }
      }
    },
  };
}
