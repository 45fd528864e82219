// The lobby page: post a challenge or look for an opponent of your level, accept a challenge,
// watch a game; the lists update live through /ws/lobby, and a game made for you opens itself.
import { lang, t } from "./i18n.js";
import { notify, play, wireToggles } from "./notify.js";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("presets-data").textContent);
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const signedIn = $("lobby-root").dataset.signedIn === "yes";
const SIDES = { general: ["rebels", "general"], backgammon: ["white", "black"], defiance: ["rebels", "imperium"] };
let knownToMe = new Set();
let socket = null;
let retry = 500;

function rulesetName(game, ruleset) {
  // the lobby's own words first (backgammon's match: seven points here)
  for (const key of [`lobby.ruleset.${game}.${ruleset}`, `ruleset.${game}.${ruleset}`]) {
    if (t(key) !== key) return t(key);
  }
  return "";
}

// a time control by the name the server gives it ("5+3", "1 day a move", "No clock")
function controlName(item) {
  const names = item.control_name || {};
  return names[lang()] || names.en || item.control || "";
}

function option(value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  return o;
}

function fillForm() {
  const game = $("seek-game").value;
  const rulesets = data.rulesets.find((g) => g.name === game).rulesets;
  $("seek-ruleset").replaceChildren(...rulesets.map((r) => option(r, rulesetName(game, r) || r)));
  $("seek-ruleset-field").hidden = rulesets.length < 2;
  const rated = $("seek-rated").checked;
  const controls = data.presets[game].map((p) => option(p.key, p[lang()] || p.en));
  if (!rated) controls.push(option("", t("clock.none")));
  const before = $("seek-control").value;
  $("seek-control").replaceChildren(...controls);
  if ([...$("seek-control").options].some((o) => o.value === before)) $("seek-control").value = before;
  else $("seek-control").value = data.presets[game][1] ? data.presets[game][1].key : data.presets[game][0].key;
  $("seek-side").replaceChildren(option("", t("lobby.side_random")), ...SIDES[game].map((s) => option(s, t(`side.${s}`))));
}

// a challenge to a named player (a profile's Challenge button fills the name): the button
// says whom it challenges
function namePost() {
  const name = $("seek-opponent").value.trim();
  $("post").textContent = name ? t("challenge.button", { name }) : t("lobby.post");
  // the profile's help about its named challenge goes once the name does (posted, declined)
  if ($("challenge-help") && !name) $("challenge-help").hidden = true;
}

$("seek-opponent").addEventListener("input", namePost);
namePost();
if ($("challenge-help")) {
  $("seek-form").scrollIntoView({ block: "start" });
  $("seek-game").focus({ preventScroll: true });
}

$("seek-game").addEventListener("change", fillForm);
$("seek-rated").addEventListener("change", fillForm);
fillForm();

function say(text, isError = true) {
  const box = $("seek-message");
  box.textContent = text;
  box.classList.toggle("error", Boolean(isError && text));
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": csrf },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = {};
  }
  if (!response.ok) throw new Error(answer.detail || `HTTP ${response.status}`);
  return answer;
}

function seekBody(kind) {
  const body = {
    kind,
    game: $("seek-game").value,
    ruleset: $("seek-ruleset").value || null,
    control: $("seek-control").value || null,
    rated: $("seek-rated").checked,
  };
  if (kind === "open") {
    body.side = $("seek-side").value || null;
    body.opponent = $("seek-opponent").value.trim() || null;
  }
  return body;
}

$("seek-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  say("");
  try {
    await post("/api/lobby/seeks", seekBody("open"));
    $("seek-opponent").value = "";
    namePost();
    say(t("lobby.posted"), false);
  } catch (error) {
    say(error.message);
  }
});

$("quick").addEventListener("click", async () => {
  say("");
  try {
    await post("/api/lobby/seeks", seekBody("quick"));
  } catch (error) {
    say(error.message);
  }
});

function describe(item) {
  const parts = [t(`game.${item.game}`)];
  const rules = rulesetName(item.game, item.ruleset);
  if (rules && item.game !== "general") parts.push(rules);
  parts.push(controlName(item));
  parts.push(item.rated ? t("lobby.rated_short") : t("lobby.casual_short"));
  return parts.join(" · ");
}

// BOT beside a bot account's name (a program plays for it)
function botBadge() {
  const badge = document.createElement("span");
  badge.className = "badge-bot";
  badge.title = t("player.bot_title");
  badge.textContent = t("player.bot");
  return badge;
}

function who(name, rating, provisional, bot = false) {
  const span = document.createElement("span");
  span.className = "who";
  if (name) {
    const link = document.createElement("a");
    link.href = `/@/${encodeURIComponent(name)}`;
    link.textContent = name;
    span.append(link);
    if (bot) span.append(" ", botBadge());
  } else {
    span.append(t("player.anonymous"));
  }
  if (rating !== null && rating !== undefined && name) span.append(` (${rating}${provisional ? "?" : ""})`);
  return span;
}

function button(text, action, className = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener("click", async () => {
    b.disabled = true;
    say("");
    try {
      await action();
    } catch (error) {
      say(error.message);
    } finally {
      b.disabled = false;
    }
  });
  return b;
}

// The accepted game opens once: the answer to "accept" and the socket's "start" both name it,
// and a second navigation would abort the first one mid-load.
let leaving = false;
function openGame(url) {
  if (leaving) return;
  leaving = true;
  location.href = url;
}

async function accept(seek) {
  const answer = await post(`/api/lobby/seeks/${encodeURIComponent(seek.id)}/accept`);
  openGame(answer.url);
}

function seekItem(seek) {
  const li = document.createElement("li");
  li.dataset.seek = seek.id;
  li.className = seek.mine ? "mine" : "";
  const text = document.createElement("span");
  text.className = "what";
  text.append(who(seek.name, seek.rating, seek.provisional, seek.bot), " — ", describe(seek));
  if (seek.side) text.append(` · ${t("lobby.plays", { side: seek.side })}`);
  if (seek.opponent && seek.mine) text.append(` · ${t("lobby.for", { name: seek.opponent })}`);
  li.append(text);
  const actions = document.createElement("span");
  actions.className = "actions";
  // each button names the challenge it acts on (screen readers list many "Accept")
  const named = (b, key) => (b.setAttribute("aria-label", t(key, { name: seek.name || t("player.anonymous"), what: describe(seek) })), b);
  if (seek.mine) {
    actions.append(named(button(t("lobby.withdraw"), () => post(`/api/lobby/seeks/${encodeURIComponent(seek.id)}/cancel`)), "lobby.withdraw_name"));
  } else {
    const accepting = named(button(t("lobby.accept"), () => accept(seek), "primary accept"), "lobby.accept_name");
    if (seek.rated && !signedIn) {
      accepting.disabled = true;
      accepting.title = t("lobby.rated_needs_account");
    }
    actions.append(accepting);
    if (seek.to_me) actions.append(named(button(t("lobby.decline"), () => post(`/api/lobby/seeks/${encodeURIComponent(seek.id)}/decline`)), "lobby.decline_name"));
  }
  li.append(actions);
  return li;
}

const toldDeclined = new Set(); // the declined challenges already said on this page

function render(view) {
  const open = view.seeks.filter((s) => !s.to_me);
  const toMe = view.seeks.filter((s) => s.to_me);
  $("open-list").replaceChildren(...open.map(seekItem));
  $("open-empty").hidden = open.length > 0;
  $("to-me").hidden = toMe.length === 0;
  $("to-me-list").replaceChildren(...toMe.map(seekItem));
  for (const seek of toMe) {
    if (!knownToMe.has(seek.id)) {
      play("offer");
      notify(t("lobby.challenged"), t("lobby.challenged_by", { name: seek.name || t("player.anonymous") }), `seek-${seek.id}`);
    }
  }
  knownToMe = new Set(toMe.map((s) => s.id));
  // a challenge to a named player that they declined: said once, and the form is as new
  for (const declined of view.declined || []) {
    if (toldDeclined.has(declined.id)) continue;
    toldDeclined.add(declined.id);
    play("offer");
    say(t("lobby.declined", { name: declined.by || t("player.anonymous") }), false);
    namePost();
  }
  $("searching").hidden = !view.quick;
  if (view.quick) {
    $("searching-text").textContent = t("lobby.searching", { what: describe(view.quick) });
    $("quick-cancel").onclick = async () => {
      try {
        await post(`/api/lobby/seeks/${encodeURIComponent(view.quick.id)}/cancel`);
      } catch (error) {
        say(error.message);
      }
    };
  }
  const games = view.games.map((g) => {
    const li = document.createElement("li");
    li.dataset.game = g.id;
    const [a, b] = SIDES[g.game] || Object.keys(g.players);
    const pa = g.players[a] || {};
    const pb = g.players[b] || {};
    const text = document.createElement("span");
    text.className = "what";
    text.append(who(pa.name, pa.rating, pa.provisional, pa.bot), ` ${t("lobby.versus")} `, who(pb.name, pb.rating, pb.provisional, pb.bot), " — ", describe(g));
    // the reader's own game: their seat to go back to (its url), not a game to watch
    const watch = document.createElement("a");
    watch.href = g.url;
    watch.className = g.mine ? "watch resume" : "watch";
    watch.textContent = t(g.mine ? "lobby.resume" : "lobby.watch");
    const nameOf = (p) => p.name || t("player.anonymous");
    const names = { a: nameOf(pa), b: nameOf(pb), game: t(`game.${g.game}`) };
    watch.setAttribute("aria-label", t(g.mine ? "lobby.resume_name" : "lobby.watch_name", names));
    if (g.mine) li.classList.add("mine");
    li.append(text, " ", watch);
    return li;
  });
  $("playing-list").replaceChildren(...games);
  $("playing-empty").hidden = games.length > 0;
  renderOnline(view.online);
}

// who is here now (on any server process): players by name, visitors counted
function renderOnline(online) {
  if (!online) return;
  const count = [t("lobby.online_count", { n: online.count })];
  if (online.anonymous) count.push(t("lobby.online_anonymous", { n: online.anonymous }));
  $("online-count").textContent = count.join(", ");
  $("online-list").replaceChildren(...online.players.map((p) => {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/@/${encodeURIComponent(p.name)}`;
    link.textContent = p.name;
    li.append(link);
    if (p.bot) li.append(" ", botBadge());
    return li;
  }));
  $("online-nobody").hidden = online.players.length > 0;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  socket.addEventListener("open", () => {
    retry = 500;
    $("lobby-connection").textContent = t("play.online");
    $("lobby-connection").classList.remove("offline");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "lobby") render(message);
    else if (message.type === "start") {
      play("turn");
      if (!leaving) notify(t("lobby.starting"), t("lobby.starting_body"), "lobby-start");
      openGame(message.url);
    }
  });
  socket.addEventListener("close", (event) => {
    $("lobby-connection").textContent = t("play.offline");
    $("lobby-connection").classList.add("offline");
    // a server restarting (1012) or going away (1001): connect again at once, elsewhere
    const restart = event.code === 1012 || event.code === 1001;
    setTimeout(connect, restart ? Math.random() * 250 : retry);
    if (!restart) retry = Math.min(retry * 2, 5000);
  });
}

setInterval(() => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
}, 25000);
wireToggles(t);
connect();
