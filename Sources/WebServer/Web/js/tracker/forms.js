// Form fields whose problems are said in place: a label, the control, and a message under it
// that the control names (aria-describedby) and marks (aria-invalid) when the tracker refused
// its value. The tracker's refusals name their field (the API's "field": game_system, army,
// name, type, steps…), which is how a message finds its control (data-field).
import { h } from "../dom.js";

let counter = 0;

/** A labelled field: `control` gets an id, data-field = `name`, and a message line under it. */
export function field(label, control, { name, hint, className = "" } = {}) {
  counter += 1;
  const id = control.id || `tracker-field-${counter}`;
  control.id = id;
  if (name) control.dataset.field = name;
  const hintLine = hint ? h("p", { class: "tracker-hint", id: `${id}-hint`, text: hint }) : null;
  const error = h("p", { class: "tracker-field-error", id: `${id}-error`, hidden: true });
  control.setAttribute("aria-describedby", [hintLine?.id, error.id].filter(Boolean).join(" "));
  return h("div", { class: `tracker-field ${className}`.trim() }, h("label", { for: id, text: label }), control, hintLine, error);
}

/** Marks `control` invalid with `message` shown under it (its field's message line). */
export function markInvalid(control, message) {
  control.setAttribute("aria-invalid", "true");
  const line = document.getElementById(`${control.id}-error`);
  if (line) { line.textContent = message; line.hidden = false; }
}

/** Takes the mark and the message away (the value was accepted, or is being edited). */
export function clearInvalid(control) {
  if (!control) return;
  control.removeAttribute("aria-invalid");
  const line = document.getElementById(`${control.id}-error`);
  if (line) { line.textContent = ""; line.hidden = true; }
}

/**
 * Shows a refusal of a field's value in place: on the control in `scope` whose data-field is the
 * error's field (focused, so the message is heard), else on `fallback`. True when it did; false
 * for an error about no field (a full disk), which the saved state says.
 */
export function showFieldError(scope, error, fallback = null) {
  if (!error?.field) return false;
  const control = scope.querySelector(`[data-field="${CSS.escape(error.field)}"]`) || fallback;
  if (!control) return false;
  markInvalid(control, error.message);
  control.focus();
  return true;
}

/** Clears every mark in `scope` (before a new attempt). */
export function clearAll(scope) {
  for (const control of scope.querySelectorAll("[aria-invalid]")) clearInvalid(control);
}

/** Editing a marked control takes its mark away. */
export function clearOnInput(control) {
  control.addEventListener("input", () => clearInvalid(control));
  return control;
}
