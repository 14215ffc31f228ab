// Keeps the next items' pictures loading ahead of the swipe (issue 30, "Speed"): the card shows
// the 1024 px thumbnail, so a card promoted from `ahead` paints from the cache, decoded already.
import { thumbURL } from "../media.js";

/** The first 8 hex digits of an asset's sha256: the version in its picture's URL. */
export const sha8 = (asset) => (asset?.sha256 ? asset.sha256.slice(0, 8) : "");

/** The card's picture (a video's poster frame): the 1024 px thumbnail. */
export const cardURL = (asset) => thumbURL(asset.id, sha8(asset), 1024);

/** A group member's picture in the card's strip. */
export const stripURL = (asset) => thumbURL(asset.id, sha8(asset), 256);

// The images asked for lately, kept referenced so that the browser neither drops the request
// nor the decoded picture before the card needs it. Old ones are let go (oldest first).
const KEEP = 24;
const held = new Map();

function hold(url) {
  if (held.has(url)) {
    const image = held.get(url);
    held.delete(url);
    held.set(url, image);
    return;
  }
  const image = new Image();
  image.decoding = "async";
  image.src = url;
  // decode() makes the picture ready to paint, not only downloaded; a failure shows later, on
  // the card itself.
  image.decode?.().catch(() => {});
  held.set(url, image);
  while (held.size > KEEP) held.delete(held.keys().next().value);
}

/** Starts loading the pictures of ITEMS (assets or groups: the best's card picture, every member's strip picture). */
export function prefetch(items) {
  for (const item of items ?? []) {
    if (!item) continue;
    const members = "group" in item ? item.items : [item];
    if (members.length === 0) continue;
    hold(cardURL(members[0]));
    if ("group" in item) for (const member of members) hold(stripURL(member));
  }
}
