// The selection toolbar under the grid: "3 selected" and what can be done with them. Each action
// calls the server's POST endpoint (the same entry points the CLI uses) and says the outcome in
// a toast; failures say the server's one line.
import { h, plural } from "../dom.js";
import { icon } from "../icons.js";
import { getJSON, postJSON, toast } from "../api.js";
import { choose, prompt } from "../dialog.js";

const NEW_ALBUM = Symbol("new album");

/** Asks which user album to add `ids` to (or a new one's name) and adds them. Shared with the viewer. */
export async function addToAlbum(ids) {
  const albums = (await getJSON("/api/albums")).filter((album) => album.kind === "user");
  const choice = await choose({
    title: "Add to album",
    description: `Choose the album to add ${plural(ids.length, "item")} to.`,
    options: albums.map((album) => ({ value: album.key, label: album.name, detail: plural(album.count, "item") })),
    extra: { label: "New album…", value: NEW_ALBUM },
    emptyText: "You have no albums of your own yet.",
  });
  if (choice === null) return null;
  if (choice === NEW_ALBUM) {
    const name = await prompt({ title: "New album", label: "Album name", confirm: "Create album" });
    if (name === null) return null;
    const album = await postJSON("/api/albums", { name, ids });
    toast(`Created the album “${album.name}” with ${plural(ids.length, "item")}.`, { kind: "success" });
    return album;
  }
  const album = await postJSON(`/api/albums/${encodeURIComponent(choice)}/add`, { ids });
  toast(`Added ${plural(ids.length, "item")} to “${album.name}”.`, { kind: "success" });
  return album;
}

/** Moves `ids` to Recently Deleted. Shared with the viewer. */
export async function moveToTrash(ids) {
  const moved = await postJSON("/api/trash", { ids });
  const count = Array.isArray(moved) ? moved.length : ids.length;
  toast(`Moved ${plural(count, "item")} to Recently Deleted; they can be restored from there.`, { kind: "success" });
  return moved;
}

export class SelectionBar {
  /** grid: the LibraryGrid whose selection this acts on; refresh(): re-fetch after a change. */
  constructor(grid, refresh) {
    this.grid = grid;
    this.count = h("span", { class: "count", "aria-live": "polite" });
    const button = (label, iconName, action, kind = "") => h("button", {
      type: "button", class: `button ${kind}`, on: { click: () => this.#run(action) },
    }, icon(iconName), label);
    this.element = h("section", { class: "selection-bar card", "aria-label": "Selection", hidden: true },
      this.count,
      button("Move to Recently Deleted", "trash", async (ids) => {
        await moveToTrash(ids);
        this.grid.setSelection([]);
        await refresh();
      }, "danger"),
      button("Add to album", "album", (ids) => addToAlbum(ids)),
      button("Add to curation", "star", async (ids) => {
        await postJSON("/api/curation/add", { ids });
        toast(`Added ${plural(ids.length, "item")} to the curation.`, { kind: "success" });
      }),
      button("Add to composer", "compose", async (ids) => {
        await postJSON("/api/composer/add", { ids });
        toast(`Added ${plural(ids.length, "item")} to the composer.`, { kind: "success" });
      }),
      button("Clear selection", "close", async () => this.grid.setSelection([])),
    );
  }

  /** Called by the grid whenever its selection changes. */
  update(selected) {
    this.element.hidden = selected.size === 0;
    this.count.textContent = `${selected.size.toLocaleString()} selected`;
  }

  async #run(action) {
    const ids = this.grid.selectedIds();
    if (ids.length === 0) return;
    const buttons = [...this.element.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    try {
      await action(ids);
    } catch (error) {
      toast(error.message, { kind: "error" });
    } finally {
      for (const b of buttons) b.disabled = false;
      // The bar hides when the selection empties; focus goes back to the grid, not to <body>.
      if (this.element.hidden || !this.element.contains(document.activeElement)) this.grid.focusItem(this.grid.focusIndex);
    }
  }
}
