// The brief's error toast: "must select photos" when Share or Delete finds nothing selected.
// role="alert", so a screen reader says it at once; it leaves by itself, takes no focus and
// covers nothing that matters (bottom centre, above the page, clicks pass around it).
import { h } from "../dom.js";
import { icon } from "../icons.js";

const SHOWN_MS = 4500;
let region = null;

function alerts() {
  if (!region || !document.body.contains(region)) {
    region = h("div", { class: "curate-alerts" });
    document.body.append(region);
  }
  return region;
}

/**
 * Shows `title` (and a line of `detail`) as an alert toast for a few seconds. The same alert
 * asked for again while shown starts over (and is said again).
 */
export function alertToast(title, detail = "") {
  const holder = alerts();
  holder.replaceChildren();
  const element = h("div", { class: "toast error curate-alert", role: "alert" },
    icon("alert"),
    h("div", { class: "toast-body" },
      h("strong", { class: "curate-alert-title", text: title }),
      detail ? h("span", { class: "curate-alert-detail", text: detail }) : null));
  // Added on the next frame: a live region that receives its node anew is read again.
  requestAnimationFrame(() => holder.append(element));
  setTimeout(() => {
    element.classList.add("leaving");
    setTimeout(() => element.remove(), 320);
  }, SHOWN_MS);
  return element;
}

/** "must select photos", the brief's words, with what to do. */
export function mustSelect(action) {
  return alertToast("Must select photos",
    `Tick the photos to ${action} in the list, or use Select top photo, 5, 10 or 20.`);
}
