// The game's chat: the players' channel for players, the watchers' for watchers. Messages are
// text (textContent: never read as HTML). The chat can be switched off, and anyone muted, in
// this browser (localStorage).
import { play } from "./notify.js";

const $ = (id) => document.getElementById(id);
const OFF_KEY = "ludotheque.chat";
const MUTED_KEY = "ludotheque.muted";

function muted() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function saveMuted(set) {
  localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-200)));
}

export function createChat({ t, send, sideName }) {
  const section = $("chat");
  if (!section) return { onMessage() {} };
  let gameId = null;
  let me = null;
  let channel = null;
  let messages = [];

  const on = () => localStorage.getItem(OFF_KEY) !== "off";
  const keyOf = (sender) => (sender.startsWith("side:") ? `${gameId}|${sender}` : sender);

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

  function render() {
    const list = $("chat-list");
    const hidden = muted();
    list.replaceChildren();
    let silenced = 0;
    for (const message of messages) {
      if (hidden.has(keyOf(message.sender))) {
        silenced += 1;
        continue;
      }
      const item = document.createElement("li");
      item.className = message.sender === me ? "mine" : "";
      const who = document.createElement("strong");
      who.textContent = `${nameOf(message)}: `;
      const text = document.createElement("span");
      text.className = "text";
      text.textContent = message.text;
      item.append(who, text);
      if (message.sender !== me) {
        const mute = document.createElement("button");
        mute.type = "button";
        mute.className = "mute";
        mute.textContent = t("chat.mute");
        mute.setAttribute("aria-label", t("chat.mute_who", { name: nameOf(message) }));
        mute.addEventListener("click", () => {
          const set = muted();
          set.add(keyOf(message.sender));
          saveMuted(set);
          render();
        });
        item.append(" ", mute);
      }
      list.append(item);
    }
    $("chat-muted").hidden = silenced === 0;
    $("chat-muted-text").textContent = t("chat.muted_count", { n: silenced });
    list.scrollTop = list.scrollHeight;
  }

  $("chat-toggle").addEventListener("click", () => {
    localStorage.setItem(OFF_KEY, on() ? "off" : "on");
    showToggle();
  });
  $("chat-unmute").addEventListener("click", () => {
    const set = muted();
    for (const message of messages) set.delete(keyOf(message.sender));
    saveMuted(set);
    render();
  });
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (send({ type: "chat", text })) input.value = "";
  });
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
        section.hidden = !channel;
        $("chat-form").hidden = !message.can_write;
        $("chat-note").hidden = message.can_write;
        $("chat-note").textContent = message.can_write ? "" : t("chat.sign_in");
        $("chat-title").textContent = channel === "watchers" ? t("chat.watchers") : t("chat.title");
        render();
      } else if (message.type === "chat" && message.message.channel === channel) {
        messages.push(message.message);
        if (messages.length > 200) messages.shift();
        render();
        if (message.message.sender !== me && on() && !muted().has(keyOf(message.message.sender))) play("offer");
      }
    },
  };
}
