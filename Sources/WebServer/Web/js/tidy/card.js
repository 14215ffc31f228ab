// The photo card of the swipe screen (brief 004, "Photo Card Design"): a mounted print, 3:4, in
// a 12 px frame with the inner matte; a group of similar shots is one card, best first, with a
// strip of its members to keep one of them. Also the two cards stacked behind it.
import { h } from "../dom.js";
import { icon } from "../icons.js";
import { formatDuration } from "../library/tiles.js";
import { formatTakenDay } from "../viewer/details.js";
import { cardURL, stripURL } from "./prefetch.js";

/**
 * An item's members still to decide: a group's open assets best first (a member kept on its own
 * stays in `items` but leaves `open`), or the asset itself.
 */
export function membersOf(item) {
  if (!item) return [];
  if (!("group" in item)) return [item];
  return Array.isArray(item.open) ? item.items.filter((asset) => item.open.includes(asset.id)) : item.items;
}

/** What identifies what a card shows: the same key means the same card (a group minus a member is another). */
export function itemKey(item) {
  if (!item) return "";
  return membersOf(item).map((asset) => `${asset.id}:${asset.sha256 ?? ""}`).join(",");
}

const fileName = (asset) => (asset.path ?? "").split("/").pop() || "Untitled";

/**
 * The picture's alternative text: "Photo taken 12 March 2021" (a video: "Video taken …"), the
 * day as the camera's clock had it (as the viewer says it), else the file's name.
 */
export function altText(asset) {
  const day = asset.taken_at ? formatTakenDay(String(asset.taken_at)) : "Date unknown";
  if (day === "Date unknown") return fileName(asset);
  return `${asset.kind === "video" ? "Video" : "Photo"} taken ${day}`;
}

const GROUP_WORDS = { duplicate: "identical copies", near_identical: "near-identical copies", similar: "similar shots" };

/** "4 similar shots, best first" */
export function groupLabel(item) {
  return `${membersOf(item).length} ${GROUP_WORDS[item.kind] ?? "similar shots"}, best first`;
}

// A picture close to 3:4 fills the print; a landscape or panorama is shown whole on the matte.
function fitClass(asset) {
  const { width, height, orientation } = asset;
  if (!width || !height) return "cover";
  const turned = orientation >= 5 && orientation <= 8;
  const ratio = turned ? height / width : width / height;
  return Math.abs(ratio / 0.75 - 1) < 0.2 ? "cover" : "contain";
}

function picture(asset, { eager }) {
  const img = h("img", {
    class: `tidy-picture ${fitClass(asset)}`, src: cardURL(asset), alt: altText(asset),
    draggable: "false", decoding: eager ? "sync" : "async",
  });
  return img;
}

function badges(asset) {
  const out = [];
  if (asset.kind === "video") {
    out.push(h("span", { class: "tidy-play", "aria-hidden": "true" }, icon("play")));
    if (asset.duration) out.push(h("span", { class: "tidy-badge", "aria-hidden": "true", text: formatDuration(asset.duration) }));
  } else if (asset.live_video) {
    out.push(h("span", { class: "tidy-badge", "aria-hidden": "true" }, icon("live"), "Live"));
  }
  return out;
}

/**
 * The card in front: a <figure> whose image is named by its alt text; a group also has its
 * caption and strip. onKeepMember(asset, index) when a member's "Keep" is chosen.
 * Returns {element, shown()} — shown() the asset whose picture is on the card now.
 */
export function buildCard(item, { onKeepMember } = {}) {
  const members = membersOf(item);
  let current = members[0];
  const photo = h("div", { class: "tidy-photo" }, picture(current, { eager: true }), badges(current));
  const element = h("figure", { class: "tidy-card tidy-card-front" }, photo);
  element.dataset.key = itemKey(item);
  if ("group" in item && members.length > 1) {
    element.classList.add("tidy-group");
    const show = (asset) => {
      if (asset === current) return;
      current = asset;
      photo.replaceChildren(picture(asset, { eager: true }), badges(asset));
    };
    const strip = h("div", { class: "tidy-strip", role: "group", "aria-label": "Keep one of these" },
      members.map((asset, index) => h("button", {
        type: "button", class: "tidy-member", title: "Keep this photo",
        "aria-label": `Keep photo ${index + 1} of ${members.length}`,
        on: {
          click: () => onKeepMember?.(asset, index),
          pointerenter: () => show(asset),
          focus: () => show(asset),
        },
      }, h("img", { src: stripURL(asset), alt: "", draggable: "false" }),
         index === 0 ? h("span", { class: "tidy-best", "aria-hidden": "true", text: "Best" }) : null)));
    element.append(h("figcaption", { class: "tidy-group-label", text: groupLabel(item) }), strip);
    element.addEventListener("pointerleave", () => show(members[0]));
    return { element, shown: () => current };
  }
  return { element, shown: () => current };
}

/** A card stacked behind (depth 1: the middle one, 2: the furthest), showing a coming item's picture. */
export function buildBackCard(item, depth) {
  const asset = membersOf(item)[0];
  const element = h("div", { class: `tidy-card tidy-card-back tidy-back-${depth}`, "aria-hidden": "true" },
    h("div", { class: "tidy-photo" },
      asset ? h("img", { class: `tidy-picture ${fitClass(asset)}`, src: cardURL(asset), alt: "", draggable: "false" }) : null));
  element.dataset.key = itemKey(item);
  return element;
}
