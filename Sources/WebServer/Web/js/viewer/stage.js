// The viewer's picture: a stage that clips, a mount sized to fit the picture (zoomed and panned
// by ZoomPan), the image itself — the 1024 px thumbnail at once, the full preview when it has
// loaded — or the video, the Live Photo's movie on request, and the face boxes.
import { h } from "../dom.js";
import { icon } from "../icons.js";
import { thumbURL, previewURL as mediaPreviewURL, originalURL as mediaOriginalURL } from "../media.js";

// A "picture" is what the stage needs: { id, kind: "photo"|"screenshot"|"video", width, height,
// sha8 } — from the grid's order (js/library/order.js knownMedia) before the asset's details
// have arrived, or from the asset itself (pictureOf).

/** The picture of an asset as GET /api/assets/ID gives it. */
export function pictureOf(asset) {
  return { id: asset.id, kind: asset.kind, width: asset.width, height: asset.height, sha8: asset.sha256?.slice(0, 8) ?? null };
}

export const previewURL = (picture) => mediaPreviewURL(picture.id, picture.sha8);
export const quickURL = (picture) => thumbURL(picture.id, picture.sha8, 1024);
export const originalURL = (picture, download = false) => mediaOriginalURL(picture.id, download);

/**
 * Builds the picture inside `mount` (its face boxes come later, with the asset: faceBoxes);
 * returns { image|video element, isVideo, playLive, sha8 }.
 */
export function renderMedia(picture, mount, altText) {
  mount.replaceChildren();
  const isVideo = picture.kind === "video";
  const element = isVideo ? videoElement(picture, altText) : imageElement(picture, altText);
  mount.append(element);
  return { element, isVideo, sha8: picture.sha8, playLive: () => playLive(picture, mount) };
}

function imageElement(picture, altText) {
  // fetchpriority: the one picture of the page; app.js has asked for it already when it could.
  const image = h("img", { class: "viewer-image", alt: altText, src: quickURL(picture), decoding: "async", draggable: "false", fetchpriority: "high" });
  // Swap to the full preview once it is decoded, so the picture sharpens without a blank frame.
  const full = new Image();
  full.decoding = "async";
  full.fetchPriority = "high";
  full.src = previewURL(picture);
  full.decode().then(() => { image.src = full.src; })
    .catch(() => { if (!image.complete || image.naturalWidth === 0) image.replaceWith(unplayable(picture, "This picture could not be shown.")); });
  image.addEventListener("error", () => {
    // The thumbnail failed (not made yet, or damaged): try the preview directly.
    if (!image.src.includes("/media/preview/")) image.src = previewURL(picture);
  });
  return image;
}

function videoElement(picture, altText) {
  const video = h("video", {
    class: "viewer-video", controls: true, playsinline: true, preload: "metadata",
    poster: previewURL(picture), src: originalURL(picture), "aria-label": altText,
  });
  // A format this browser cannot decode (many .mov codecs, for one): say so, show the poster,
  // offer the file.
  video.addEventListener("error", () => video.replaceWith(unplayable(picture, "This browser cannot play this video.")), { once: true });
  return video;
}

/** The poster and a way to get the file, for what the browser cannot show. */
function unplayable(picture, message) {
  return h("div", { class: "unplayable" },
    h("img", { class: "viewer-image", src: previewURL(picture), alt: "" }),
    h("div", { class: "unplayable-note card" },
      icon("alert"),
      h("p", { text: message }),
      h("a", { class: "button primary", href: originalURL(picture, true), download: "" }, icon("download"), "Download the file")));
}

/** Plays a Live Photo's movie over the still, then hides it again. */
function playLive(picture, mount) {
  mount.querySelector(".live-video")?.remove();
  const video = h("video", {
    class: "live-video", src: `/media/live/${encodeURIComponent(picture.id)}`, autoplay: true, muted: true, playsinline: true, "aria-hidden": "true",
  });
  video.muted = true; // the attribute alone does not mute a video made in script
  const done = () => video.remove();
  video.addEventListener("ended", done, { once: true });
  video.addEventListener("error", done, { once: true });
  mount.append(video);
  return video;
}

/** Boxes over the asset's faces, hidden until a name in the Details panel is hovered or focused. */
export function faceBoxes(asset, mount) {
  for (const old of mount.querySelectorAll(".face-box")) old.remove();
  const boxes = (asset.faces ?? []).map((face) => {
    const box = h("div", { class: "face-box", hidden: true, "aria-hidden": "true" },
      h("span", { class: "face-name", text: face.name ?? "Unnamed person" }));
    Object.assign(box.style, { left: `${face.x * 100}%`, top: `${face.y * 100}%`, width: `${face.w * 100}%`, height: `${face.h * 100}%` });
    mount.append(box);
    return box;
  });
  return {
    show(index) { boxes.forEach((box, i) => { box.hidden = i !== index; }); },
    hide() { for (const box of boxes) box.hidden = true; },
  };
}

/** Sizes the mount to the largest box of the picture's proportions that fits the stage. */
export function fitMount(stage, mount, picture) {
  const width = stage.clientWidth, height = stage.clientHeight;
  if (!width || !height || !picture.width || !picture.height) return;
  const scale = Math.min(width / picture.width, height / picture.height);
  mount.style.width = `${Math.floor(picture.width * scale)}px`;
  mount.style.height = `${Math.floor(picture.height * scale)}px`;
}
