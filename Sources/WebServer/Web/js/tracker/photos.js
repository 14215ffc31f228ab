// A miniature's photos, oldest first (by capture time, else the time added: the tracker's order),
// added from a file, from the library (picker.js), or — on a phone, paired over `serve --lan` —
// taken with its camera. The tracker takes JPEG, PNG and HEIC only, judged by content; a file
// that is not one is refused in its words (the saved state says it, as for any change).
// Each photo opens full size; Delete asks first, then removes the record and the file.
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import { confirmDialog, openDialog } from "../dialog.js";
import * as api from "./api.js";
import { formatWhen } from "./frame.js";
import { pickLibraryPhoto } from "./picker.js";

/** Whether to offer the camera: a touch device, or a page reached over the LAN (a paired phone). */
function offersCamera() {
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(location.hostname);
  return !local || matchMedia("(pointer: coarse)").matches;
}

const when = (photo) => (photo.taken_at ? `taken ${formatWhen(photo.taken_at)}` : `added ${formatWhen(photo.added_at)}`);

export function photoSection(mini, { save, onChange }) {
  const grid = h("ul", { class: "tracker-photos", "aria-labelledby": "tracker-photos-heading" });
  const status = h("p", { class: "tracker-hint", role: "status" });
  const file = h("input", { type: "file", accept: "image/jpeg,image/png,image/heic,image/heif,.heic,.heif", multiple: true, class: "visually-hidden", tabindex: "-1", "aria-hidden": "true", "aria-label": "Photo file" });
  const camera = h("input", { type: "file", accept: "image/*", capture: "environment", class: "visually-hidden", tabindex: "-1", "aria-hidden": "true", "aria-label": "Camera", dataset: { camera: "" } });
  const fromFile = h("button", { type: "button", class: "button", on: { click: () => file.click() } }, icon("upload"), h("span", { text: "Add from a file" }));
  const fromLibrary = h("button", { type: "button", class: "button", on: { click: () => addFromLibrary() } }, icon("photo"), h("span", { text: "Add from the library" }));
  const takePhoto = h("button", { type: "button", class: "button", hidden: !offersCamera(), on: { click: () => camera.click() } }, icon("camera"), h("span", { text: "Take a photo" }));

  async function refresh() {
    const photos = await api.photos(mini.id);
    grid.replaceChildren(...photos.map((p, i) => photoTile(p, i, { onDelete: () => remove(p) })));
    status.textContent = photos.length ? plural(photos.length, "photo") : "No photos yet.";
  }

  async function upload(files) {
    for (const f of files) {
      status.textContent = `Adding ${f.name}…`;
      const added = await save(() => api.uploadPhoto(mini.id, f, (x) => { status.textContent = `Adding ${f.name}… ${Math.round(x * 100)}%`; }));
      if (!added) { status.textContent = `${f.name} was not added.`; return; }
    }
    await refresh();
    await onChange();
  }

  async function addFromLibrary() {
    const asset = await pickLibraryPhoto();
    if (!asset) return;
    status.textContent = "Adding the photo from the library…";
    const added = await save(() => api.addLibraryPhoto(mini.id, asset));
    if (added) { await refresh(); await onChange(); } else status.textContent = "The photo was not added.";
    fromLibrary.focus();
  }

  async function remove(photo) {
    const sure = await confirmDialog({ title: "Delete this photo?", message: `The photo ${when(photo)} is deleted from the tracker, its file too. This cannot be undone.`, confirm: "Delete", danger: true });
    if (!sure) return;
    if (await save(() => api.removePhoto(photo.id))) { await refresh(); await onChange(); fromFile.focus(); }
  }

  for (const input of [file, camera]) {
    input.addEventListener("change", () => { const files = [...input.files]; input.value = ""; if (files.length) upload(files); });
  }
  refresh();
  return h("section", { class: "tracker-section", "aria-labelledby": "tracker-photos-heading" },
    h("h2", { id: "tracker-photos-heading", text: "Photos" }),
    h("p", { class: "tracker-hint", text: "JPEG, PNG or HEIC photos, oldest first. Each is copied into the tracker unchanged." }),
    h("div", { class: "tracker-actions" }, fromFile, fromLibrary, takePhoto, file, camera), status, grid);
}

function photoTile(photo, index, { onDelete }) {
  const label = `Photo ${index + 1}, ${when(photo)}`;
  const open = h("button", { type: "button", class: "tracker-photo-open", "aria-label": `View photo ${index + 1} full size`, on: { click: () => viewPhoto(photo, label) } },
    h("img", { src: api.photoURL(photo.id, 256), alt: "", loading: "lazy", decoding: "async" }));
  return h("li", { class: "tracker-photo", dataset: { id: photo.id } },
    h("figure", {}, open, h("figcaption", { text: label })),
    h("button", { type: "button", class: "button quiet", "aria-label": `Delete photo ${index + 1}`, on: { click: onDelete } }, icon("trash"), h("span", { text: "Delete" })));
}

function viewPhoto(photo, label) {
  const close = h("button", { type: "button", class: "button", text: "Close", on: { click: () => dialog.close() } });
  const dialog = openDialog({ title: label, content: [h("img", { class: "tracker-photo-full", src: api.photoURL(photo.id), alt: label })], actions: [close], initialFocus: close });
  dialog.element.classList.add("tracker-photo-dialog");
}
