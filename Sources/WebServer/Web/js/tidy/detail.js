// Tidy's photo detail: the photo full screen over everything, zoomed by wheel or pinch and panned
// (ZoomPan, as the viewer does), a video played with its controls, a Live Photo's movie on a
// button or a press-and-hold. It is a modal dialog (js/dialog.js: focus kept inside, Escape
// closes, focus goes back to what opened it) named by the photo.
import { h, useStyles, formatBytes } from "../dom.js";
import { icon } from "../icons.js";
import { openDialog } from "../dialog.js";
import { ZoomPan } from "../viewer/zoom.js";
import { renderMedia, fitMount, pictureOf } from "../viewer/stage.js";
import { formatTakenDay } from "../viewer/details.js";

const KIND_WORDS = { photo: "Photo", screenshot: "Screenshot", video: "Video" };
const HOLD_MS = 350; // how long a press must last to play a Live Photo, as on a phone

/** The file's name without its folders. */
export function fileName(asset) {
  const parts = String(asset.path ?? "").split("/");
  return parts[parts.length - 1] || asset.id;
}

/** "Photo taken 12 March 2021", or "Photo IMG_0001.PNG" when the date is unknown. */
export function photoName(asset) {
  const kind = KIND_WORDS[asset.kind] ?? "Photo";
  return asset.taken_at ? `${kind} taken ${formatTakenDay(asset.taken_at)}` : `${kind} ${fileName(asset)}`;
}

/** The caption's facts: day, size, pixels, score. */
function facts(asset) {
  const score = typeof asset.score === "number" ? `Score ${asset.score.toFixed(2)}` : "Not scored yet";
  return [
    asset.taken_at ? formatTakenDay(asset.taken_at) : "Date unknown",
    formatBytes(asset.size),
    asset.width && asset.height ? `${asset.width.toLocaleString()} × ${asset.height.toLocaleString()} px` : null,
    score,
  ].filter(Boolean);
}

function tool(label, iconName, onClick, { showLabel = false } = {}) {
  return h("button", { type: "button", class: `button ${showLabel ? "" : "icon"}`, title: showLabel ? null : label, on: { click: onClick } },
    icon(iconName), h("span", { class: showLabel ? "label" : "visually-hidden", text: label }));
}

/**
 * Opens the asset full screen. Resolves when it is closed (Escape, the Close button), focus
 * back on what had it.
 */
export function openDetail(asset) {
  useStyles("asset", "tidy-screens"); // the viewer's stage, picture and video rules, then ours
  return new Promise((resolve) => {
    const picture = pictureOf(asset);
    const isVideo = asset.kind === "video";
    const isLive = Boolean(asset.live_video || asset.live_video_id);
    const mount = h("div", { class: "viewer-mount tidy-detail-mount" });
    const stage = h("div", { class: "viewer-stage tidy-detail-stage" }, mount);
    const zoomOut = tool("Zoom out", "zoomOut", () => zoom?.zoomBy(1 / 1.5));
    const zoomIn = tool("Zoom in", "zoomIn", () => zoom?.zoomBy(1.5));
    const live = tool("Play Live Photo", "live", () => playLive(), { showLabel: true });
    const closeButton = tool("Close", "close", () => finish(), { showLabel: true });
    const tools = h("div", { class: "tidy-detail-tools", role: "group", "aria-label": "Photo" },
      isVideo ? null : [zoomOut, zoomIn], isLive ? live : null, closeButton);
    const caption = h("p", { class: "tidy-detail-caption" },
      h("span", { class: "tidy-detail-file", text: fileName(asset) }),
      facts(asset).map((fact) => h("span", { text: fact })));
    const dialog = openDialog({ title: photoName(asset), content: [tools, stage, caption], initialFocus: closeButton, onCancel: () => done() });
    dialog.element.classList.add("tidy-detail");
    dialog.element.parentElement.classList.add("tidy-detail-backdrop");
    dialog.element.querySelector("h2").classList.add("tidy-detail-title");
    document.documentElement.classList.add("tidy-detail-open"); // the page behind does not scroll

    const media = renderMedia(picture, mount, photoName(asset));
    const zoom = isVideo ? null : new ZoomPan(stage, mount, {
      onChange: (scale) => { zoomOut.disabled = scale <= 1; zoomIn.disabled = scale >= 8; },
    });
    const refit = () => { fitMount(stage, mount, picture); zoom?.reset(); };
    const resize = new ResizeObserver(refit);
    resize.observe(stage);
    refit();
    const stopHold = isLive ? holdToPlay(stage, () => zoom === null || zoom.scale === 1, () => playLive()) : () => {};

    function playLive() { return media.playLive(); }

    dialog.element.addEventListener("keydown", (event) => {
      // The swipe screen listens on the document: its keys must not decide while this is open.
      if (event.key !== "Tab" && event.key !== "Escape") event.stopPropagation();
      if (!zoom || event.altKey || event.ctrlKey || event.metaKey || event.target.closest("video")) return;
      const pan = 60;
      const actions = {
        "+": () => zoom.zoomBy(1.5), "=": () => zoom.zoomBy(1.5), "-": () => zoom.zoomBy(1 / 1.5), "0": () => zoom.reset(),
        ArrowLeft: () => zoom.panBy(pan, 0), ArrowRight: () => zoom.panBy(-pan, 0),
        ArrowUp: () => zoom.panBy(0, pan), ArrowDown: () => zoom.panBy(0, -pan),
      };
      if (!actions[event.key]) return;
      event.preventDefault();
      actions[event.key]();
    });

    let closed = false;
    function done() {
      if (closed) return;
      closed = true;
      resize.disconnect();
      document.documentElement.classList.remove("tidy-detail-open");
      stopHold();
      mount.querySelectorAll("video").forEach((video) => video.pause());
      resolve();
    }
    function finish() { dialog.close(); done(); }
  });
}

/**
 * Plays the Live Photo's movie while a pointer is held on the still (after HOLD_MS without
 * moving, at fit scale), and stops it when the pointer lets go. Returns a function that stops
 * listening.
 */
function holdToPlay(stage, atFit, play) {
  let timer = null, start = null, video = null;
  const cancel = () => { clearTimeout(timer); timer = null; };
  const down = (event) => {
    if (event.target.closest("button, a, video") || !atFit()) return;
    start = { x: event.clientX, y: event.clientY };
    cancel();
    timer = setTimeout(() => { timer = null; video = play(); }, HOLD_MS);
  };
  const move = (event) => {
    if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 8) cancel();
  };
  const up = () => { cancel(); start = null; video?.remove(); video = null; };
  stage.addEventListener("pointerdown", down);
  stage.addEventListener("pointermove", move);
  for (const type of ["pointerup", "pointercancel"]) stage.addEventListener(type, up);
  stage.addEventListener("contextmenu", (event) => { if (video || timer) event.preventDefault(); });
  return () => { cancel(); video?.remove(); };
}
