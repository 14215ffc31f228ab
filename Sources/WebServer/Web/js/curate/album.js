// "Create Album": the Curation module makes "TO NAME yyyy-MM-dd HH.mm.ss" (" (2)"… when taken)
// of the whole list in score order; this confirms it with the album's name and a link to it.
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import { openDialog } from "../dialog.js";
import { albumPath } from "../screens/kit.js";
import * as api from "./api.js";

/** Creates the album and shows the confirmation; resolves to the album (album show + key). */
export async function createAlbum() {
  const album = await api.createAlbum();
  const count = album.count ?? album.entries?.length ?? 0;
  const link = h("a", { class: "button primary", href: `/albums/${albumPath(album.key)}` }, icon("album"), "Open the album");
  const done = h("button", { type: "button", class: "button", text: "Done" });
  const dialog = openDialog({
    title: "Album created",
    description: `“${album.name}” holds the ${plural(count, "photo")} of the list, best score first.`,
    content: [h("p", { class: "curate-album-name" }, icon("album"), h("span", { text: album.name }))],
    actions: [done, link],
    initialFocus: link,
  });
  dialog.element.classList.add("curate-album-dialog");
  done.addEventListener("click", () => dialog.close());
  return album;
}
