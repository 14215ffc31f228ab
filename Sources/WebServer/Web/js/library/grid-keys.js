// Keyboard for the library grid, after the ARIA APG grid pattern (one tab stop, arrows move):
// arrows move focus (Up/Down keep the column, skipping month headings), Home/End the row's
// ends, Ctrl+Home/End the first/last item, Page Up/Down a screenful; Space toggles the focused
// item, Shift+arrow extends the selection, Ctrl/Cmd+A selects all, Escape clears, Enter opens.
import { ID } from "./layout.js";

export function handleGridKey(grid, event) {
  if (!grid.layout || grid.items.length === 0) return;
  const index = grid.focusIndex;
  const target = targetFor(grid, event, index);
  if (target !== null) {
    event.preventDefault();
    if (event.shiftKey && grid.anchor === null) grid.anchor = index;
    grid.focusItem(target);
    if (event.shiftKey) grid.selectRange(grid.focusIndex);
    else grid.anchor = grid.focusIndex;
    return;
  }
  const mod = event.ctrlKey || event.metaKey;
  if (event.key === " " || event.key === "Spacebar") {
    event.preventDefault();
    if (event.shiftKey) grid.selectRange(index, { add: true }); else grid.toggle(index);
  } else if (event.key === "Enter") {
    event.preventDefault();
    grid.onOpen(index);
  } else if (event.key === "Escape" && grid.selected.size) {
    event.preventDefault();
    grid.setSelection([]);
  } else if (mod && (event.key === "a" || event.key === "A")) {
    event.preventDefault();
    grid.setSelection(grid.items.map((item) => item[ID]));
  }
}

/** The item index a navigation key moves to, or null when the key is not a move. */
function targetFor(grid, event, index) {
  const layout = grid.layout;
  const row = layout.rowOfItem(index);
  const rowStart = layout.rows.start[row];
  const column = index - rowStart;
  const mod = event.ctrlKey || event.metaKey;
  switch (event.key) {
    case "ArrowRight": return Math.min(grid.items.length - 1, index + 1);
    case "ArrowLeft": return Math.max(0, index - 1);
    case "ArrowDown": return verticalMove(layout, row, column, +1) ?? index;
    case "ArrowUp": return verticalMove(layout, row, column, -1) ?? index;
    case "Home": return mod ? 0 : rowStart;
    case "End": return mod ? grid.items.length - 1 : rowStart + layout.countInRow(row) - 1;
    case "PageDown": case "PageUp": {
      const rowsPerScreen = Math.max(1, Math.floor(window.innerHeight / (layout.tile + layout.gap)) - 1);
      let target = row;
      for (let step = 0; step < rowsPerScreen; step += 1) {
        const next = nextTileRow(layout, target, event.key === "PageDown" ? +1 : -1);
        if (next === null) break;
        target = next;
      }
      return layout.rows.start[target] + Math.min(column, layout.countInRow(target) - 1);
    }
    default: return null;
  }
}

function nextTileRow(layout, row, direction) {
  for (let r = row + direction; r >= 0 && r < layout.rowCount; r += direction) {
    if (layout.rows.start[r] >= 0) return r;
  }
  return null;
}

// Up/Down keep the column where the next row has one; a short last row takes its last item.
function verticalMove(layout, row, column, direction) {
  const next = nextTileRow(layout, row, direction);
  if (next === null) return null;
  return layout.rows.start[next] + Math.min(column, layout.countInRow(next) - 1);
}
