// The story once exported: shown as the server drew it (its JPEG rendition — most browsers cannot
// show HEIC), and the HEIC given on request: "Share" where the browser can share a file
// (navigator.canShare), "Download HEIC" always, and "Save to library" (into Collages/). The
// story lives in the server's memory until then: nothing is saved unless asked.
import { h, formatBytes, plural } from "../dom.js";
import { icon } from "../icons.js";
import { toast } from "../api.js";
import { save } from "./api.js";

/** The HEIC as a File, when this browser can hand files to the system's share sheet; else null. */
async function shareableFile(story) {
  if (typeof navigator.canShare !== "function" || typeof navigator.share !== "function") return null;
  const response = await fetch(story.heic);
  if (!response.ok) return null;
  const file = new File([await response.blob()], story.name, { type: "image/heic" });
  return navigator.canShare({ files: [file] }) ? file : null;
}

/**
 * Fills `section` with the story `story` (POST /api/composer/export's answer). onNew(): the
 * person starts another story. Returns the story's <img> (shown once it has loaded).
 */
export function showResult(section, story, { onNew }) {
  const count = story.photos.length;
  const title = h("h1", { id: "compose-result-title", tabindex: "-1", text: "Your story" });
  const image = h("img", {
    src: story.jpeg, width: story.width, height: story.height, class: "compose-story",
    alt: `The story: ${plural(count, "photo")} stacked top to bottom, ${story.width} by ${story.height} pixels`,
  });
  const figure = h("figure", { class: "compose-result-figure", "aria-busy": "true" }, image);
  const loaded = () => figure.removeAttribute("aria-busy");
  image.addEventListener("load", loaded, { once: true });
  image.addEventListener("error", () => { loaded(); toast("The story's picture could not be shown; the HEIC can still be downloaded.", { kind: "error" }); }, { once: true });

  const download = h("a", {
    class: "button", href: `${story.heic}?download=1`, download: story.name,
  }, icon("download"), "Download HEIC");
  const share = h("button", { type: "button", class: "button primary", hidden: true }, icon("share"), "Share");
  const saveButton = h("button", { type: "button", class: "button" }, icon("album"), "Save to library");
  const saved = h("p", { class: "compose-saved", role: "status" });
  const again = h("button", { type: "button", class: "button", text: "New story", on: { click: () => onNew() } });

  let file = null;
  shareableFile(story).then((f) => {
    file = f;
    share.hidden = !f;
    // Where the system shares files, sharing is the way; the download stays for a computer.
    if (!f) download.classList.add("primary");
  }).catch(() => download.classList.add("primary"));
  share.addEventListener("click", async () => {
    try { await navigator.share({ files: [file], title: story.name }); } catch (error) {
      if (error?.name !== "AbortError") toast(`The story could not be shared: ${error.message}`, { kind: "error" });
    }
  });
  saveButton.addEventListener("click", async () => {
    saveButton.disabled = true;
    saveButton.setAttribute("aria-busy", "true");
    saveButton.lastChild.textContent = "Saving…";
    try {
      const answer = await save(story.render);
      saveButton.lastChild.textContent = "Saved to library";
      saved.replaceChildren(`Saved as ${answer.saved.path}. `,
        h("a", { href: `/asset/${encodeURIComponent(answer.saved.id)}`, text: "Open it in the library" }));
    } catch (error) {
      saveButton.disabled = false;
      saveButton.lastChild.textContent = "Save to library";
      toast(`The story could not be saved: ${error.message}`, { kind: "error" });
    } finally {
      saveButton.removeAttribute("aria-busy");
    }
  });

  section.replaceChildren(
    h("div", { class: "screen-head" },
      h("div", {}, h("p", { class: "eyebrow", text: "Compose" }), title,
        h("p", { class: "compose-summary", text: `${story.width} × ${story.height} HEIC, ${formatBytes(story.size)}, ${plural(count, "photo")}` }))),
    h("div", { class: "compose-result-body" },
      figure,
      h("div", { class: "compose-result-actions card" },
        h("h2", { text: "Keep it" }),
        h("p", { class: "compose-note", text: "The story is not saved anywhere yet: share it, download the HEIC, or save it into the library’s Collages folder." }),
        h("div", { class: "compose-buttons" }, share, download, saveButton),
        saved,
        h("div", { class: "compose-buttons compose-again" }, again))));
  title.focus();
  return image;
}
