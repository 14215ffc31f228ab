// The tracker's saved state, one place on every tracker screen: each change is sent at once and
// this says where it stands — "Saving…" while one is on its way, "Saved" once the tracker has
// written it, and when one fails, why, in the tracker's own words (the disk is full, a photo is
// not an image…). Progress is a polite status; a failure is an alert, and stays until the next
// change is saved.
import { h } from "../dom.js";
import { icon } from "../icons.js";

const TIME = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });

export function savedState() {
  const status = h("span", { class: "tracker-saved-text", role: "status", "aria-live": "polite", text: "Changes are saved as you make them" });
  const alert = h("span", { class: "tracker-saved-error", role: "alert" });
  const element = h("div", { class: "tracker-saved", dataset: { state: "idle" } }, icon("check"), status, alert);
  let pending = 0;

  function paint(state, text) {
    element.dataset.state = state;
    element.firstChild.replaceWith(icon(state === "error" ? "alert" : state === "saving" ? "clock" : "check"));
    if (state === "error") {
      status.textContent = "";
      alert.textContent = `Not saved: ${text}`;
    } else {
      alert.textContent = "";
      status.textContent = text;
    }
  }

  /**
   * Runs `action` (a change sent to the server) with the state shown around it. Resolves to its
   * answer, or to undefined when it failed: the failure is said here, unless `onError(error)`
   * said it in place (under the field it names: it returns true), when this only points there.
   */
  async function save(action, { onError } = {}) {
    pending += 1;
    paint("saving", "Saving…");
    try {
      const answer = await action();
      pending -= 1;
      if (pending === 0) paint("saved", `Saved at ${TIME.format(new Date())}`);
      return answer;
    } catch (error) {
      pending -= 1;
      const inPlace = onError?.(error) === true;
      paint("error", inPlace ? "a value was refused; the field is marked and says why" : error?.message ?? String(error));
      return undefined;
    }
  }

  return { element, save, fail: (message) => paint("error", message) };
}
