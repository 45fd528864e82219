// The lessons' index: a guest's progress is kept in this browser (localStorage, as the lesson
// page writes it); an account's comes from the server, already in the page.
const root = document.getElementById("learn-root");
const words = JSON.parse(document.getElementById("learn-words").textContent);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? values[name] : `{${name}}`));

export function kept(game) {
  try {
    const found = JSON.parse(localStorage.getItem(`lessons.${game}`) || "[]");
    return Array.isArray(found) ? found : [];
  } catch {
    return [];
  }
}

// a course's line: its steps done, its progress bar, its link's words
function show(course, done) {
  const total = Number(course.dataset.total);
  done = Math.min(total, done);
  course.dataset.done = String(done);
  course.querySelector("progress").value = done;
  course.querySelector(".course-count").textContent = fill(words["learn.progress"], { done, total });
  const go = course.querySelector(".course-go");
  go.firstChild.textContent = words[done === 0 ? "learn.start" : done < total ? "learn.continue" : "learn.again"];
}

// an account takes what this browser kept before signing in (as a lesson's page does): the
// index shows it at once, and another browser finds it with the account
async function giveToAccount(course) {
  const game = course.dataset.game;
  const steps = kept(game);
  if (!steps.length) return;
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
  try {
    const reply = await fetch("/api/lessons/progress", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ game, steps }),
    });
    if (!reply.ok) return; // kept in the browser for another time
    const { solved } = await reply.json();
    localStorage.removeItem(`lessons.${game}`);
    show(course, (solved[game] || []).length);
  } catch {
    /* kept in the browser for another time */
  }
}

for (const course of root.querySelectorAll(".course")) {
  if (!root.dataset.account) show(course, kept(course.dataset.game).length);
  else giveToAccount(course);
}
