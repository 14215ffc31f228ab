// Tidy's first visit: the privacy promise in plain words and how the swiping works, then
// "Start tidying". Shown once per browser (localStorage), as the brief's onboarding screen; there
// is no permission to ask for — the photos are the library's, on this machine.
import { h, useStyles, setTitle } from "../dom.js";
import { icon } from "../icons.js";

const KEY = "shoebox.tidy.onboarded";

/** True until the user has pressed "Start tidying" once in this browser. */
export function needsOnboarding() {
  try {
    return localStorage.getItem(KEY) !== "1";
  } catch {
    return true; // storage refused (a locked-down profile): showing it again does no harm
  }
}

function promise(iconName, title, text) {
  return h("li", { class: "tidy-promise" }, icon(iconName), h("div", {}, h("h3", { text: title }), h("p", { text })));
}

// A key drawn as a key, read out as its name ("Right arrow"), then what it does.
function gesture(keyName, keyLabel, decision, how) {
  return h("li", { class: "tidy-gesture" },
    h("kbd", {}, h("span", { "aria-hidden": "true", text: keyName }), h("span", { class: "visually-hidden", text: `${keyLabel}: ` })),
    h("span", { class: "tidy-gesture-words", text: decision }),
    h("span", { class: "tidy-gesture-detail", text: how }));
}

/**
 * Fills `main` with the onboarding screen; resolves when the user presses "Start tidying" (the
 * flag is set first, so a reload goes straight to the photos).
 */
export function showOnboarding(main) {
  useStyles("tidy-screens");
  setTitle("Tidy");
  return new Promise((resolve) => {
    const start = h("button", { type: "button", class: "button primary tidy-start", text: "Start tidying" });
    const heading = h("h1", { class: "tidy-title", id: "tidy-onboarding-title", tabindex: "-1", text: "Tidy" });
    const screen = h("section", { class: "tidy-onboarding card", "aria-labelledby": "tidy-onboarding-title" },
      h("p", { class: "eyebrow", text: "Before you begin" }),
      heading,
      h("p", { class: "tidy-lede", text: "Go through your photos one at a time and decide, calmly, which to keep." }),
      h("div", { class: "tidy-rule", "aria-hidden": "true" }),
      h("div", { class: "tidy-onboarding-columns" },
        h("section", { "aria-labelledby": "tidy-promise-title" },
          h("h2", { id: "tidy-promise-title", text: "Your photos stay with you" }),
          h("ul", { class: "tidy-promises" },
            promise("shoebox", "Nothing leaves this machine",
              "Tidy works on the library here. It makes no network connection, asks for no account and tracks nothing you do."),
            promise("trash", "Nothing is deleted until you empty the trash",
              "Swiping left only marks a photo. You look over everything you marked before anything moves."),
            promise("restore", "Even then, it waits 30 days",
              "Emptying the trash puts the photos in Recently Deleted, where you can restore them for 30 days."))),
        h("section", { "aria-labelledby": "tidy-how-title" },
          h("h2", { id: "tidy-how-title", text: "How it works" }),
          h("ul", { class: "tidy-gestures" },
            gesture("→", "Right arrow", "Keep", "Swipe right. The photo stays in your library."),
            gesture("←", "Left arrow", "Delete", "Swipe left. The photo is marked for the trash."),
            gesture("↑", "Up arrow", "Maybe", "Swipe up. The photo is set aside to decide later."),
            gesture("⌫", "Backspace", "Undo", "The wax seal takes the last decision back.")),
          h("p", { class: "tidy-note", text: "Tap a photo, or press Space, to see it full screen." }))),
      h("div", { class: "tidy-onboarding-actions" }, start));
    main.replaceChildren(h("div", { class: "tidy-screen" }, screen));
    heading.focus();
    start.addEventListener("click", () => {
      try { localStorage.setItem(KEY, "1"); } catch { /* not kept: onboarding shows again next time */ }
      resolve();
    }, { once: true });
  });
}
