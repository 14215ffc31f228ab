// An accessible modal dialog after the W3C ARIA Authoring Practices "Dialog (Modal)" pattern:
// role="dialog" + aria-modal, named by its heading, focus moved in on open, Tab and Shift+Tab
// kept inside, Escape cancels, focus returned to what opened it. The page behind is made
// `inert` too, so a screen reader's virtual cursor cannot wander out either.
import { h } from "./dom.js";

let counter = 0;
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Opens a modal dialog. content: nodes for its body; actions: nodes for its button row.
 * initialFocus: the element to focus first (else the first focusable one).
 * onCancel: called on Escape or a click on the backdrop, before it closes.
 * Returns { element, close() }.
 */
export function openDialog({ title, description, content = [], actions = [], initialFocus, onCancel }) {
  counter += 1;
  const titleId = `dialog-title-${counter}`;
  const descriptionId = `dialog-desc-${counter}`;
  const opener = document.activeElement;
  const dialog = h("div", {
    class: "dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": titleId,
    "aria-describedby": description ? descriptionId : null,
  },
    h("h2", { id: titleId, text: title }),
    description ? h("p", { id: descriptionId, text: description }) : null,
    content,
    actions.length ? h("div", { class: "actions" }, actions) : null,
  );
  const backdrop = h("div", { class: "dialog-backdrop" }, dialog);
  const behind = [...document.body.children].filter((el) => el.id !== "toasts" && el !== backdrop);
  for (const el of behind) el.inert = true;

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    backdrop.remove();
    for (const el of behind) el.inert = false;
    if (opener && document.contains(opener)) opener.focus();
  };
  const cancel = () => { onCancel?.(); close(); };

  backdrop.addEventListener("mousedown", (event) => { if (event.target === backdrop) cancel(); });
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); event.stopPropagation(); cancel(); }
    else if (event.key === "Tab") trapTab(event, dialog);
  });
  document.body.append(backdrop);
  (initialFocus ?? dialog.querySelector(FOCUSABLE) ?? dialog).focus();
  return { element: dialog, close };
}

function trapTab(event, dialog) {
  const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  if (items.length === 0) { event.preventDefault(); return; }
  const first = items[0], last = items[items.length - 1];
  if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
  else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
}

/**
 * Asks for one line of text ("New album" → its name). Resolves to the trimmed text, or null
 * when cancelled. validate(text) may return an error message to show instead of closing.
 */
export function prompt({ title, label, value = "", confirm = "OK", description, validate }) {
  return new Promise((resolve) => {
    const inputId = `prompt-input-${counter + 1}`;
    const input = h("input", { type: "text", id: inputId, value, autocomplete: "off", "aria-describedby": `${inputId}-error` });
    const error = h("p", { class: "field-error", id: `${inputId}-error`, "aria-live": "polite" });
    const form = h("form", { novalidate: true }, h("label", { for: inputId, text: label }), input, error);
    const ok = h("button", { type: "button", class: "button primary", text: confirm });
    const cancel = h("button", { type: "button", class: "button", text: "Cancel" });
    const submit = () => {
      const text = input.value.trim();
      const problem = text === "" ? `${label} is empty` : validate?.(text);
      if (problem) { error.textContent = problem; input.setAttribute("aria-invalid", "true"); input.focus(); return; }
      dialog.close();
      resolve(text);
    };
    form.addEventListener("submit", (event) => { event.preventDefault(); submit(); });
    ok.addEventListener("click", submit);
    cancel.addEventListener("click", () => { dialog.close(); resolve(null); });
    const dialog = openDialog({ title, description, content: [form], actions: [cancel, ok], initialFocus: input, onCancel: () => resolve(null) });
    input.select();
  });
}

/**
 * Offers a list to pick one from ("Add to album" → which album). options: [{value, label, detail}].
 * extra: optional {label, value} button under the list (e.g. "New album…").
 * Resolves to the chosen value, or null when cancelled.
 */
export function choose({ title, description, options, extra, emptyText = "Nothing to choose from yet." }) {
  return new Promise((resolve) => {
    const pick = (value) => { dialog.close(); resolve(value); };
    const list = options.length
      ? h("ul", { class: "choices" }, options.map((option) => h("li", {},
          h("button", { type: "button", on: { click: () => pick(option.value) } },
            h("span", { text: option.label }),
            option.detail ? h("span", { class: "count", text: option.detail }) : null))))
      : h("p", { text: emptyText });
    const actions = [h("button", { type: "button", class: "button", text: "Cancel", on: { click: () => pick(null) } })];
    if (extra) actions.push(h("button", { type: "button", class: "button primary", text: extra.label, on: { click: () => pick(extra.value) } }));
    const dialog = openDialog({ title, description, content: [list], actions, onCancel: () => resolve(null) });
  });
}

/** Asks yes or no. Resolves true when confirmed. danger: the confirm button is wax red. */
export function confirmDialog({ title, message, confirm = "OK", danger = false }) {
  return new Promise((resolve) => {
    const yes = h("button", { type: "button", class: `button ${danger ? "danger" : "primary"}`, text: confirm });
    const no = h("button", { type: "button", class: "button", text: "Cancel" });
    const dialog = openDialog({ title, description: message, actions: [no, yes], initialFocus: no, onCancel: () => resolve(false) });
    yes.addEventListener("click", () => { dialog.close(); resolve(true); });
    no.addEventListener("click", () => { dialog.close(); resolve(false); });
  });
}
