// Upload into the library: files dropped anywhere on the page (an overlay says where they go) or
// chosen with "Upload photos" (on a phone the picker offers the camera). Each file is POSTed
// whole to /api/upload?name=…; one toast follows the batch's progress. The library shows the
// new photos when the server's event says the index changed.
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import { toast, uploadFile } from "../api.js";

/**
 * "Upload photos": a button that opens the file picker of a file input kept in the page (visually
 * hidden, out of the tab order and of the accessibility tree: the button is the one control),
 * so tests can also hand the input files directly.
 */
export function uploadButton() {
  const input = h("input", {
    type: "file", multiple: true, accept: "image/*,video/*", class: "visually-hidden",
    tabindex: "-1", "aria-hidden": "true",
  });
  input.addEventListener("change", () => { uploadFiles([...input.files]); input.value = ""; });
  const button = h("button", { type: "button", class: "button primary", on: { click: () => input.click() } },
    icon("upload"), "Upload photos");
  return h("span", { class: "upload" }, button, input);
}

/** Shows the drop overlay while files are dragged over the page; uploads them on drop. */
export function enableDropUpload() {
  const overlay = h("div", { class: "drop-overlay", hidden: true, "aria-hidden": "true" },
    h("div", { class: "drop-card card" }, icon("upload"), "Drop to add to your library"));
  document.body.append(overlay);
  let depth = 0; // dragenter/dragleave fire for every child crossed; count them
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes("Files");
  document.addEventListener("dragenter", (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    overlay.hidden = false;
  });
  document.addEventListener("dragleave", (event) => {
    if (!hasFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  document.addEventListener("dragover", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  });
  document.addEventListener("drop", (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    uploadFiles([...event.dataTransfer.files]);
  });
}

/** Uploads files one after another (one disk, one index), reporting in one toast. */
export async function uploadFiles(files) {
  if (files.length === 0) return;
  const note = toast(`Uploading ${files[0].name}…`, { kind: "progress" });
  const done = [], failed = [];
  for (const [position, file] of files.entries()) {
    note.update(files.length > 1 ? `Uploading ${position + 1} of ${files.length}: ${file.name}` : `Uploading ${file.name}`);
    note.progress(0);
    try {
      done.push(await uploadFile(file, (fraction) => note.progress((position + fraction) / files.length)));
    } catch (error) {
      failed.push(file.name);
      toast(`${file.name} was not added: ${error.message}`, { kind: "error" });
    }
  }
  note.close();
  if (done.length) {
    const folder = done[0]?.path?.split("/").slice(0, -1).join("/") ?? "Imports";
    toast(`Added ${plural(done.length, "file")} to ${folder}.`, { kind: "success" });
  }
  return { done, failed };
}
