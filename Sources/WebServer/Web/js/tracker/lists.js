// The recipe editor's lists: steps (ordered: moved with "Move up"/"Move down" or Alt+↑/↓) and
// paints and techniques. Each entry is a labelled text field; a change (an entry left edited, a
// move, a removal) hands the whole list to `onCommit`, which saves it at once — the tracker takes
// a list whole. "Add …" only adds an empty field: nothing is sent until it has been typed in.
import { h } from "../dom.js";
import { icon } from "../icons.js";

let counter = 0;

/**
 * A list editor. title: "Steps"; one: "step" (entries' names); name: the API field ("steps");
 * ordered: steps are. Returns {element, values(), showError(message), clearError()}.
 */
export function listEditor({ title, one, name, ordered = false, items = [], onCommit = () => {} }) {
  counter += 1;
  const id = `tracker-list-${counter}`;
  const list = h(ordered ? "ol" : "ul", { class: "tracker-entries", "aria-labelledby": `${id}-title` });
  const error = h("p", { class: "tracker-field-error", id: `${id}-error`, hidden: true });
  const add = h("button", { type: "button", class: "button quiet" }, icon("plus"), h("span", { text: `Add ${one}` }));
  const values = () => [...list.querySelectorAll("input")].map((input) => input.value);
  const commit = () => onCommit(values());

  function row(value) {
    const input = h("input", { type: "text", value, autocomplete: "off", dataset: { field: name }, "aria-describedby": error.id });
    const entry = h("li", { class: "tracker-entry" }, h("label", { class: "tracker-entry-label" }), input);
    const move = (by) => {
      const rows = [...list.children], at = rows.indexOf(entry), to = at + by;
      if (to < 0 || to >= rows.length) return;
      if (by < 0) list.insertBefore(entry, rows[to]); else list.insertBefore(entry, rows[to].nextSibling);
      renumber();
      input.focus();
      commit();
    };
    if (ordered) {
      entry.append(
        h("button", { type: "button", class: "button icon quiet tracker-move-up", on: { click: () => move(-1) } }, icon("chevronLeft")),
        h("button", { type: "button", class: "button icon quiet tracker-move-down", on: { click: () => move(1) } }, icon("chevronRight")));
      input.addEventListener("keydown", (event) => {
        if (event.altKey && (event.key === "ArrowUp" || event.key === "ArrowDown")) { event.preventDefault(); move(event.key === "ArrowUp" ? -1 : 1); }
      });
    }
    entry.append(h("button", { type: "button", class: "button icon quiet tracker-remove", on: { click: () => {
      const next = entry.nextElementSibling ?? entry.previousElementSibling;
      entry.remove();
      renumber();
      (next?.querySelector("input") ?? add).focus();
      commit();
    } } }, icon("close")));
    input.addEventListener("input", () => { input.removeAttribute("aria-invalid"); });
    input.addEventListener("change", commit);
    return entry;
  }

  /** Labels and button names follow the position: "Step 2", "Move step 2 up". */
  function renumber() {
    [...list.children].forEach((entry, i) => {
      const label = `${one[0].toUpperCase()}${one.slice(1)} ${i + 1}`;
      const input = entry.querySelector("input");
      input.id = `${id}-${i}`;
      entry.querySelector("label").setAttribute("for", input.id);
      entry.querySelector("label").textContent = ordered ? `${i + 1}.` : label;
      input.setAttribute("aria-label", label);
      entry.querySelector(".tracker-move-up")?.setAttribute("aria-label", `Move ${one} ${i + 1} up`);
      entry.querySelector(".tracker-move-down")?.setAttribute("aria-label", `Move ${one} ${i + 1} down`);
      entry.querySelector(".tracker-remove").setAttribute("aria-label", `Remove ${one} ${i + 1}`);
      const up = entry.querySelector(".tracker-move-up"), down = entry.querySelector(".tracker-move-down");
      if (up) up.disabled = i === 0;
      if (down) down.disabled = i === list.children.length - 1;
    });
  }

  add.addEventListener("click", () => {
    list.append(row(""));
    renumber();
    list.lastElementChild.querySelector("input").focus();
  });
  list.append(...items.map(row));
  renumber();
  const element = h("section", { class: "tracker-list-editor", "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title`, text: title }), list, error, add);
  return {
    element,
    values,
    showError(message) {
      error.textContent = message;
      error.hidden = false;
      const blanks = [...list.querySelectorAll("input")].filter((i) => !i.value.trim());
      for (const input of blanks) input.setAttribute("aria-invalid", "true");
      (blanks[0] ?? list.querySelector("input") ?? add).focus();
    },
    clearError() {
      error.hidden = true;
      error.textContent = "";
      for (const input of list.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    },
  };
}
