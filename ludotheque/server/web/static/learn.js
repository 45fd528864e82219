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

if (!root.dataset.account) {
  for (const course of root.querySelectorAll(".course")) {
    const total = Number(course.dataset.total);
    const done = Math.min(total, kept(course.dataset.game).length);
    course.dataset.done = String(done);
    course.querySelector("progress").value = done;
    course.querySelector(".course-count").textContent = fill(words["learn.progress"], { done, total });
    const go = course.querySelector(".course-go");
    go.firstChild.textContent = words[done === 0 ? "learn.start" : done < total ? "learn.continue" : "learn.again"];
  }
}
