// "Share": the selected originals, unchanged. Where the browser can hand files to the system's
// share sheet (navigator.canShare with files: phones, some desktops) they go there as files
// fetched byte for byte from /media/original; elsewhere they download — one file as itself,
// several as one zip whose entries are stored, not recompressed (GET /media/curation/share).
import { h, plural } from "../dom.js";
import { toast } from "../api.js";
import * as api from "./api.js";

/** Files the share sheet would take? (Asked with a tiny stand-in: the real ones are fetched after.) */
export function canShareFiles() {
  try {
    return typeof navigator.canShare === "function" && typeof navigator.share === "function"
      && navigator.canShare({ files: [new File([new Uint8Array(1)], "photo.jpg", { type: "image/jpeg" })] });
  } catch {
    return false;
  }
}

/** Shares or downloads the selection (the caller has checked something is selected). */
export async function shareSelection() {
  const { files } = await api.sharedFiles();
  const photos = files.filter((f) => !f.companion).length;
  if (canShareFiles()) {
    const shared = await shareSheet(files, photos);
    if (shared !== "unsupported") return shared;
  }
  download(files, photos);
  return "downloaded";
}

async function shareSheet(files, photos) {
  const note = toast(`Preparing ${plural(photos, "photo")} to share…`, { kind: "progress" });
  try {
    const objects = [];
    let done = 0;
    for (const f of files) {
      const response = await fetch(f.url);
      if (!response.ok) throw new Error(`${f.name} could not be read (${response.status})`);
      const blob = await response.blob();
      objects.push(new File([blob], f.name, { type: blob.type || "application/octet-stream" }));
      note.progress(++done / files.length);
    }
    if (!navigator.canShare({ files: objects })) { note.close(); return "unsupported"; }
    note.close();
    await navigator.share({ files: objects });
    toast(`Shared ${plural(photos, "photo")}, unchanged.`, { kind: "success" });
    return "shared";
  } catch (error) {
    note.close();
    if (error?.name === "AbortError") return "cancelled";
    // The sheet refused (the tap's permission ran out while the files were read): download.
    if (error?.name === "NotAllowedError") return "unsupported";
    throw error;
  }
}

function download(files, photos) {
  const link = h("a", { href: api.DOWNLOAD_URL, download: "", hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  toast(files.length === 1
    ? `Downloading ${files[0].name}, the original unchanged.`
    : `Downloading ${plural(photos, "photo")} as a zip: ${plural(files.length, "original")}, unchanged.`, { kind: "success" });
}
