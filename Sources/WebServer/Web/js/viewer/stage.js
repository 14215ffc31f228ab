// The viewer's picture: a stage that clips, a mount sized to fit the picture (zoomed and panned
// by ZoomPan), the image itself — the 1024 px thumbnail at once, the full preview when it has
// loaded — or the video, the Live Photo's movie on request, and the face boxes.
import { h } from "../dom.js";
import { icon } from "../icons.js";

export const previewURL = (asset) => `/media/preview/${encodeURIComponent(asset.id)}?v=${asset.sha256.slice(0, 8)}`;
export const quickURL = (asset) => `/media/thumb/${encodeURIComponent(asset.id)}?size=1024&v=${asset.sha256.slice(0, 8)}`;
export const originalURL = (asset, download = false) => `/media/original/${encodeURIComponent(asset.id)}${download ? "?download=1" : ""}`;

/** Builds the picture for `asset` inside `mount`; returns { faces, playLive, isVideo }. */
export function renderMedia(asset, mount, altText) {
  mount.replaceChildren();
  const isVideo = asset.kind === "video";
  if (isVideo) mount.append(videoElement(asset, altText));
  else mount.append(imageElement(asset, altText));
  const faces = faceBoxes(asset, mount);
  return { faces, isVideo, playLive: () => playLive(asset, mount) };
}

function imageElement(asset, altText) {
  const image = h("img", { class: "viewer-image", alt: altText, src: quickURL(asset), decoding: "async", draggable: "false" });
  // Swap to the full preview once it is decoded, so the picture sharpens without a blank frame.
  const full = new Image();
  full.decoding = "async";
  full.src = previewURL(asset);
  full.decode().then(() => { image.src = full.src; })
    .catch(() => { if (!image.complete || image.naturalWidth === 0) image.replaceWith(unplayable(asset, "This picture could not be shown.")); });
  image.addEventListener("error", () => {
    // The thumbnail failed (not made yet, or damaged): try the preview directly.
    if (!image.src.includes("/media/preview/")) image.src = previewURL(asset);
  });
  return image;
}

function videoElement(asset, altText) {
  const video = h("video", {
    class: "viewer-video", controls: true, playsinline: true, preload: "metadata",
    poster: previewURL(asset), src: originalURL(asset), "aria-label": altText,
  });
  // A format this browser cannot decode (many .mov codecs, for one): say so, show the poster,
  // offer the file.
  video.addEventListener("error", () => video.replaceWith(unplayable(asset, "This browser cannot play this video.")), { once: true });
  return video;
}

/** The poster and a way to get the file, for what the browser cannot show. */
function unplayable(asset, message) {
  return h("div", { class: "unplayable" },
    h("img", { class: "viewer-image", src: previewURL(asset), alt: "" }),
    h("div", { class: "unplayable-note card" },
      icon("alert"),
      h("p", { text: message }),
      h("a", { class: "button primary", href: originalURL(asset, true), download: "" }, icon("download"), "Download the file")));
}

/** Plays a Live Photo's movie over the still, then hides it again. */
function playLive(asset, mount) {
  mount.querySelector(".live-video")?.remove();
  const video = h("video", {
    class: "live-video", src: `/media/live/${encodeURIComponent(asset.id)}`, autoplay: true, muted: true, playsinline: true, "aria-hidden": "true",
  });
  video.muted = true; // the attribute alone does not mute a video made in script
  const done = () => video.remove();
  video.addEventListener("ended", done, { once: true });
  video.addEventListener("error", done, { once: true });
  mount.append(video);
  return video;
}

/** Boxes over the faces, hidden until a name in the Details panel is hovered or focused. */
function faceBoxes(asset, mount) {
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
export function fitMount(stage, mount, asset) {
  const width = stage.clientWidth, height = stage.clientHeight;
  if (!width || !height || !asset.width || !asset.height) return;
  const scale = Math.min(width / asset.width, height / asset.height);
  mount.style.width = `${Math.floor(asset.width * scale)}px`;
  mount.style.height = `${Math.floor(asset.height * scale)}px`;
}
