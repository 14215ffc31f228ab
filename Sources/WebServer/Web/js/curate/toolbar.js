// The list's buttons, named as the brief names them: "Select top photo", "Select top 5",
// "Select top 10", "Select top 20" (each replacing the selection), "Share", "Delete",
// "Create Album". Each calls back; a button shows it is busy while its action runs.
import { h } from "../dom.js";
import { icon } from "../icons.js";

export const TOP_COUNTS = [1, 5, 10, 20];

export class CurationToolbar {
  /** actions: { top(n), share(), remove(), album() }, each may return a promise. */
  constructor(actions) {
    const button = (label, iconName, action, kind = "") => {
      const b = h("button", { type: "button", class: `button ${kind}` }, iconName ? icon(iconName) : null, label);
      b.addEventListener("click", () => this.#run(b, action));
      return b;
    };
    this.element = h("div", { class: "curate-toolbar" },
      h("div", { class: "curate-group", role: "group", "aria-label": "Select the best" },
        TOP_COUNTS.map((n) => button(n === 1 ? "Select top photo" : `Select top ${n}`, null, () => actions.top(n)))),
      h("div", { class: "curate-group", role: "group", "aria-label": "With the selected photos" },
        button("Share", "download", actions.share, "primary"),
        button("Delete", "trash", actions.remove)),
      h("div", { class: "curate-group", role: "group", "aria-label": "With the whole list" },
        button("Create Album", "album", actions.album)));
  }

  async #run(button, action) {
    if (button.getAttribute("aria-disabled") === "true") return;
    // aria-disabled rather than disabled: focus stays on the button for the next press.
    button.setAttribute("aria-disabled", "true");
    button.classList.add("busy");
    try {
      await action();
    } finally {
      button.removeAttribute("aria-disabled");
      button.classList.remove("busy");
    }
  }
}
