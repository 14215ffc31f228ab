// The questions Tidy asks between swipes. Each is a modal dialog (js/dialog.js) whose title is
// the question itself, so a screen reader announces the question as the dialog's name; Escape or
// a click outside answers "no".
import { h, plural } from "../dom.js";
import { openDialog } from "../dialog.js";

/** Asks TITLE; resolves true for the `yes` button, false for `no`, Escape or a click outside. */
function ask({ title, message, yes, no }) {
  return new Promise((resolve) => {
    const answer = (value) => { dialog.close(); resolve(value); };
    const yesButton = h("button", { type: "button", class: "button primary", text: yes, on: { click: () => answer(true) } });
    const noButton = h("button", { type: "button", class: "button", text: no, on: { click: () => answer(false) } });
    const dialog = openDialog({ title, description: message, actions: [noButton, yesButton], initialFocus: yesButton, onCancel: () => resolve(false) });
    dialog.element.classList.add("tidy-prompt");
  });
}

/** After keeping one of a group: "Delete the other 3 similar photos?" */
export function askDeleteOthers(n) {
  return ask({
    title: `Delete the other ${plural(n, "similar photo")}?`,
    message: n === 1
      ? "It is only marked: nothing is deleted until you empty the trash."
      : "They are only marked: nothing is deleted until you empty the trash.",
    yes: n === 1 ? "Delete it" : "Delete them",
    no: "Not now",
  });
}

/** When a session is through: "You marked 12 photos for deletion. Review now?" */
export function askReviewMarked(x) {
  return ask({
    title: `You marked ${plural(x, "photo")} for deletion. Review now?`,
    message: "Nothing has been deleted yet. Look them over, restore any you want to keep, then empty the trash.",
    yes: "Review now",
    no: "Not now",
  });
}

/** When everything is reviewed: "Ready to tackle your 4 maybes?" */
export function askTackleMaybes(x) {
  return ask({
    title: `Ready to tackle your ${plural(x, "maybe")}?`,
    message: "Every other photo has been looked at. Swipe through the ones you put aside to decide them now.",
    yes: "Start",
    no: "Not now",
  });
}
