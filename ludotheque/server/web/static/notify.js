// Being told: short sounds made with the Web Audio API (no audio files), the page title when
// it is your turn in a background tab, and optional browser notifications. Sounds and
// notifications can be switched off; the choices are kept in this browser (localStorage).

const SOUND_KEY = "ludotheque.sound";
const NOTIFY_KEY = "ludotheque.notify";

let audio = null; // made at the first gesture: browsers keep sound off until then

function context() {
  if (audio) return audio;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return null;
  try {
    audio = new Audio();
  } catch {
    return null;
  }
  return audio;
}

for (const kind of ["pointerdown", "keydown"]) {
  window.addEventListener(kind, () => {
    const ctx = context();
    if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
  }, { passive: true });
}

export const soundOn = () => localStorage.getItem(SOUND_KEY) !== "off";

function tone(ctx, at, { freq, type = "sine", length = 0.12, volume = 0.2, slide = 0 }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (slide) osc.frequency.exponentialRampToValueAtTime(freq * slide, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, at, { length = 0.05, volume = 0.25, cutoff = 2500 }) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = cutoff;
  const gain = ctx.createGain();
  gain.gain.value = volume;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

// Each sound is a few notes: a wooden "tock" for a move, rattling clicks for the dice, a
// rising chime for your turn, two high beeps for low time, a short phrase for the end, a
// three-note chime for an offer, and one soft low note for a chat line.
const SOUNDS = {
  move: (ctx, t0) => {
    noise(ctx, t0, { length: 0.04, volume: 0.5, cutoff: 1800 });
    tone(ctx, t0, { freq: 220, type: "triangle", length: 0.07, volume: 0.15, slide: 0.6 });
  },
  dice: (ctx, t0) => {
    for (const [dt, cut] of [[0, 3200], [0.06, 2600], [0.11, 3600], [0.19, 2200]]) noise(ctx, t0 + dt, { length: 0.035, volume: 0.45, cutoff: cut });
  },
  turn: (ctx, t0) => {
    tone(ctx, t0, { freq: 660, length: 0.14, volume: 0.16 });
    tone(ctx, t0 + 0.12, { freq: 880, length: 0.22, volume: 0.16 });
  },
  low: (ctx, t0) => {
    tone(ctx, t0, { freq: 1046, type: "square", length: 0.08, volume: 0.07 });
    tone(ctx, t0 + 0.16, { freq: 1046, type: "square", length: 0.08, volume: 0.07 });
  },
  offer: (ctx, t0) => {
    tone(ctx, t0, { freq: 523, length: 0.12, volume: 0.14 });
    tone(ctx, t0 + 0.1, { freq: 784, length: 0.12, volume: 0.14 });
    tone(ctx, t0 + 0.2, { freq: 659, length: 0.18, volume: 0.14 });
  },
  // a chat line from someone else: one soft, short, low note (quieter than every other sound)
  chat: (ctx, t0) => {
    tone(ctx, t0, { freq: 440, length: 0.09, volume: 0.05, slide: 1.12 });
  },
  end: (ctx, t0) => {
    tone(ctx, t0, { freq: 784, length: 0.16, volume: 0.14 });
    tone(ctx, t0 + 0.15, { freq: 659, length: 0.16, volume: 0.14 });
    tone(ctx, t0 + 0.3, { freq: 523, length: 0.3, volume: 0.14 });
  },
};

export const played = []; // the sounds asked for, newest last (the browser tests read it)

export function play(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  played.push(name);
  if (played.length > 50) played.shift();
  document.documentElement.dataset.lastSound = name;
  const ctx = context();
  if (!ctx || ctx.state !== "running") return; // no gesture yet: stay quiet
  SOUNDS[name](ctx, ctx.currentTime + 0.01);
}

export const notifyOn = () =>
  localStorage.getItem(NOTIFY_KEY) === "on" && "Notification" in window && Notification.permission === "granted";

export function notify(title, body, tag) {
  if (!notifyOn() || !document.hidden) return;
  try {
    const n = new Notification(title, { body, tag, icon: "/static/icon.svg" });
    n.addEventListener("click", () => {
      window.focus();
      n.close();
    });
  } catch {
    // some browsers allow notifications only from a service worker: the title still tells
  }
}

// The two buttons of a page (sound, notifications), if it has them.
export function wireToggles(t) {
  const sound = document.getElementById("sound-toggle");
  if (sound) {
    const show = () => {
      sound.setAttribute("aria-pressed", String(soundOn()));
      sound.textContent = soundOn() ? t("prefs.sound") : t("prefs.sound_off");
    };
    sound.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      show();
      play("move");
    });
    show();
  }
  const bell = document.getElementById("notify-toggle");
  if (bell) {
    if (!("Notification" in window)) {
      bell.hidden = true;
      return;
    }
    const show = () => {
      bell.setAttribute("aria-pressed", String(notifyOn()));
      bell.textContent = notifyOn() ? t("prefs.notify_on") : t("prefs.notify");
    };
    bell.addEventListener("click", async () => {
      if (notifyOn()) {
        localStorage.setItem(NOTIFY_KEY, "off");
      } else {
        const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
        localStorage.setItem(NOTIFY_KEY, answer === "granted" ? "on" : "off");
      }
      show();
    });
    show();
  }
}

// The page title while it is your turn in a background tab.
const baseTitle = document.title;
let flagged = false;
export function titleYourTurn(on, text) {
  if (on && document.hidden) {
    document.title = `● ${text} — ${baseTitle}`;
    flagged = true;
  } else if (!on && flagged) {
    document.title = baseTitle;
    flagged = false;
  }
}
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && flagged) {
    document.title = baseTitle;
    flagged = false;
  }
});

// The game page's notifier: what is new in a state, said with sounds, the title and a
// notification (a move, the dice, your turn, an offer from the opponent, the end).
export function createNotifier({ t, mode }) {
  wireToggles(t);
  return {
    onMessage(message, snap, previous) {
      if (message.type !== "state" || !snap || mode === "archive") return;
      if (!previous || previous.id !== snap.id) return;
      const fresh = snap.history.slice(previous.history.length);
      if (fresh.some((h) => h.kind === "move")) play("move");
      if (fresh.some((h) => h.kind === "chance") && fresh.some((h) => h.kind === "move")) setTimeout(() => play("dice"), 180);
      else if (fresh.some((h) => h.kind === "chance")) play("dice");
      const yourTurn = snap.can_move && snap.seat !== "both";
      if (yourTurn && !previous.can_move) {
        setTimeout(() => play("turn"), 260);
        notify(t("notify.your_turn"), t("notify.your_turn_body"), `turn-${snap.id}`);
      }
      titleYourTurn(yourTurn, t("notify.your_turn"));
      const request = snap.undo && snap.undo.request;
      if (request && request !== (previous.undo && previous.undo.request) && !snap.my_sides.includes(request) && snap.my_sides.length) {
        play("offer");
        notify(t("notify.undo"), t("play.undo_request"), `undo-${snap.id}`);
      }
      // an offer of the opponent's: a rematch, a draw
      const offered = (key) => {
        const side = snap.offers && snap.offers[key];
        const before = previous.offers && previous.offers[key];
        return Boolean(side) && side !== before && snap.my_sides.length > 0 && !snap.my_sides.includes(side);
      };
      if (offered("rematch")) {
        play("offer");
        notify(t("notify.rematch"), t("play.rematch_offer"), `rematch-${snap.id}`);
      }
      if (offered("draw")) {
        play("offer");
        notify(t("notify.draw"), t("play.draw_offer_them"), `draw-${snap.id}`);
      }
      if (snap.outcome && !previous.outcome) setTimeout(() => play("end"), 300);
    },
  };
}
