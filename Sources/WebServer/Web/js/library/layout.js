// The library grid's geometry, kept apart from the DOM so it is cheap to recompute: items are
// grouped by month, each month is a heading row followed by rows of square tiles, and every row
// has a fixed height, so the row at any scroll offset is found by binary search (100,000
// items are ~20,000 rows; nothing is measured in the DOM).
import { formatMonth } from "../dom.js";

// Item fields from GET /api/library: [id, taken_epoch|null, kind, w, h, sha8, duration|null].
export const ID = 0, EPOCH = 1, KIND = 2, WIDTH = 3, HEIGHT = 4, SHA8 = 5, DURATION = 6;

/**
 * Orders items newest first — what a person opening their library wants to see — with the
 * undated ones ("Date unknown") last, and groups them into months.
 * The server lists in date order (oldest first, ties by path); reversing it, rather than sorting
 * again, makes the grid exactly `list`'s order backwards.
 * Returns { items, groups: [{label, start, count, epoch}] } (start/count index into items).
 */
export function groupByMonth(serverItems) {
  const dated = [], undated = [];
  for (const item of serverItems) (item[EPOCH] === null ? undated : dated).push(item);
  dated.reverse();
  const items = dated.concat(undated);
  const groups = [];
  // Items run newest first, so a month is a run of epochs in [monthStart, monthEnd): a Date is
  // made once per month, not once per item (100,000 items).
  let monthStart = Infinity, monthEnd = -Infinity;
  for (let index = 0; index < dated.length; index += 1) {
    const epoch = dated[index][EPOCH];
    if (epoch < monthStart || epoch >= monthEnd) {
      const date = new Date(epoch * 1000);
      monthStart = new Date(date.getFullYear(), date.getMonth(), 1).getTime() / 1000;
      monthEnd = new Date(date.getFullYear(), date.getMonth() + 1, 1).getTime() / 1000;
      groups.push({ label: formatMonth(epoch), start: index, count: 0, epoch });
    }
    groups[groups.length - 1].count += 1;
  }
  if (undated.length) groups.push({ label: "Date unknown", start: dated.length, count: undated.length, epoch: null });
  return { items, groups };
}

/**
 * Rows for a grid `width` pixels wide. Returns an object with
 *   columns, tile (px), gap, height (total px), rowCount,
 *   rows: {y: Float64Array, start: Int32Array (item index, or -1 for a heading), group: Int32Array},
 *   rowAt(y) → the row index covering y, rowOfItem(index), rowHeight(row).
 */
export function computeLayout(groups, width, { target = 180, minTile = 96, gap = 6, headingHeight = 60 } = {}) {
  const columns = Math.max(2, Math.floor((width + gap) / (Math.max(minTile, Math.min(target, width / 2)) + gap)));
  const tile = Math.floor((width - gap * (columns - 1)) / columns);
  const tileRow = tile + gap;
  let rowCount = 0;
  for (const group of groups) rowCount += 1 + Math.ceil(group.count / columns);
  const y = new Float64Array(rowCount + 1);
  const start = new Int32Array(rowCount);
  const group = new Int32Array(rowCount);
  const firstRowOfGroup = new Int32Array(groups.length);
  let row = 0, top = 0;
  groups.forEach((g, gi) => {
    firstRowOfGroup[gi] = row;
    y[row] = top; start[row] = -1; group[row] = gi; top += headingHeight; row += 1;
    for (let offset = 0; offset < g.count; offset += columns) {
      y[row] = top; start[row] = g.start + offset; group[row] = gi; top += tileRow; row += 1;
    }
  });
  y[rowCount] = top;

  const rowAt = (offset) => {
    let lo = 0, hi = rowCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (y[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return Math.max(0, lo);
  };
  const groupOfItem = (index) => {
    let lo = 0, hi = groups.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (groups[mid].start <= index) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  const rowOfItem = (index) => {
    const gi = groupOfItem(index);
    return firstRowOfGroup[gi] + 1 + Math.floor((index - groups[gi].start) / columns);
  };
  const countInRow = (r) => {
    if (start[r] < 0) return 0;
    const g = groups[group[r]];
    return Math.min(columns, g.start + g.count - start[r]);
  };
  return {
    columns, tile, gap, height: top, rowCount, headingHeight,
    rows: { y, start, group }, firstRowOfGroup,
    rowAt, rowOfItem, groupOfItem, countInRow,
    rowHeight: (r) => y[r + 1] - y[r],
  };
}
