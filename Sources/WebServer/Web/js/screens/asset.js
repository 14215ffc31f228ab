// The viewer (/asset/ID): the picture full size (zoom and pan), previous/next in the grid's
// order with ← →, the Details panel, video and Live Photo playback, download and trash.
// Stepping replaces the URL (history.replaceState) rather than loading a page, so Back returns
// to where the viewer was opened from.
import { h, useStyles, setTitle } from "../dom.js";
import { icon } from "../icons.js";
import { getJSON, toast } from "../api.js";
import { moveToTrash } from "../library/actions.js";
import { backTo, knownMedia, setReturnItem } from "../library/order.js";
import { ZoomPan } from "../viewer/zoom.js";
import { renderMedia, faceBoxes, fitMount, originalURL, quickURL, pictureOf } from "../viewer/stage.js";
import { detailsPanel, formatTakenDay } from "../viewer/details.js";
import { Neighbours } from "../viewer/neighbours.js";

const KIND_NAMES = { photo: "Photo", screenshot: "Screenshot", video: "Video" };

function toolButton(label, iconName, onClick, { showLabel = false, kind = "" } = {}) {
  // Icon buttons keep their name as visually hidden text, which also serves as the tooltip.
  return h("button", { type: "button", class: `button ${showLabel ? "" : "icon"} ${kind}`, title: showLabel ? null : label, on: { click: onClick } },
    icon(iconName), h("span", { class: showLabel ? "label" : "visually-hidden", text: label }));
}

/** "Photo, 28 April 2017, Reykjavík, Iceland, with Tom" — the picture's alt text. */
function describe(asset) {
  const parts = [KIND_NAMES[asset.kind] ?? "Item", formatTakenDay(asset.taken_at)];
  if (asset.place) parts.push([asset.place.city, asset.place.country].filter(Boolean).join(", "));
  if (asset.persons?.length) parts.push(`with ${asset.persons.join(" and ")}`);
  return parts.filter(Boolean).join(", ");
}

export async function show(main, params) {
  useStyles("asset");
  main.classList.add("viewer-main");
  const neighbours = new Neighbours();
  let asset = null;     // the asset shown, once its details have arrived
  let currentId = null; // the asset shown or being loaded (what ← → step from)
  let picture = null;   // what the stage shows (sized from)
  let media = null;
  let loading = 0;

  const heading = h("h1", { class: "viewer-title", text: "Loading…" });
  const position = h("p", { class: "eyebrow viewer-position" });
  const previous = toolButton("Previous", "chevronLeft", () => step(-1));
  const next = toolButton("Next", "chevronRight", () => step(1));
  const zoomOut = toolButton("Zoom out", "zoomOut", () => zoom.zoomBy(1 / 1.5));
  const zoomIn = toolButton("Zoom in", "zoomIn", () => zoom.zoomBy(1.5));
  const live = toolButton("Play Live Photo", "live", () => media?.playLive(), { showLabel: true });
  const download = h("a", { class: "button", href: "#", download: "" }, icon("download"), h("span", { class: "label", text: "Download original" }));
  const trash = toolButton("Move to Recently Deleted", "trash", () => trashThis(), { showLabel: true, kind: "danger" });
  // Back to where the viewer was opened from: the library, an album, a person.
  const origin = backTo(params.id);
  const back = h("a", { class: "button", href: origin.href }, icon("arrowLeft"), h("span", { class: "label", text: origin.label }));
  back.addEventListener("click", (event) => { event.preventDefault(); goBack(); });

  const mount = h("div", { class: "viewer-mount" });
  const stage = h("div", { class: "viewer-stage" }, mount);
  const side = h("div", { class: "viewer-side" });
  const zoom = new ZoomPan(stage, mount, {
    onChange: (scale) => { zoomOut.disabled = scale <= 1; zoomIn.disabled = scale >= 8; },
    onSwipe: (direction) => step(direction),
  });

  live.hidden = true;
  const tools = h("div", { class: "viewer-tools", role: "group", "aria-label": "Picture" }, previous, next, zoomOut, zoomIn, live, download, trash);
  const body = h("div", { class: "viewer-body" }, stage, side);
  main.replaceChildren(
    h("div", { class: "viewer-bar" }, back, h("div", { class: "viewer-heading" }, position, heading), tools),
    body,
  );
  new ResizeObserver(() => { if (picture) { fitMount(stage, mount, picture); zoom.reset(); } }).observe(stage);
  document.addEventListener("keydown", onKey);

  // The picture: drawn at once when the grid's order knows it (its kind, size and version),
  // else when the asset has arrived; drawn again only if the asset says otherwise.
  function showPicture(shown, altText) {
    picture = shown;
    fitMount(stage, mount, picture);
    zoom.reset();
    media = renderMedia(picture, mount, altText);
    zoomIn.disabled = media.isVideo;
    zoomOut.disabled = true;
  }

  async function display(id) {
    const ticket = ++loading;
    currentId = id;
    const known = knownMedia(id);
    if (known && !tools.hidden) {
      asset = null;
      heading.textContent = "Loading…";
      showPicture(known, KIND_NAMES[known.kind] ?? "Item");
    }
    let loaded;
    try {
      loaded = await getJSON(`/api/assets/${encodeURIComponent(id)}`);
    } catch (error) {
      if (ticket !== loading) return;
      asset = null;
      heading.textContent = error.status === 404 ? "Not found" : "Not available";
      tools.hidden = true;
      body.classList.add("failed");
      body.replaceChildren(h("section", { class: "empty card" }, icon("alert"),
        h("h2", { text: error.status === 404 ? "This photo is not in the library" : "This photo could not be loaded" }),
        h("p", { text: error.message })));
      return;
    }
    if (ticket !== loading) return; // a later step won
    if (tools.hidden) { tools.hidden = false; body.classList.remove("failed"); body.replaceChildren(stage, side); }
    asset = loaded;
    setReturnItem(asset.id);
    const day = formatTakenDay(asset.taken_at);
    heading.textContent = day;
    setTitle(`${KIND_NAMES[asset.kind] ?? "Item"}, ${day}`);
    const actual = pictureOf(asset);
    if (!known || !media || media.sha8 !== actual.sha8 || known.kind !== actual.kind || !mount.contains(media.element)) {
      showPicture(actual, describe(asset));
    } else {
      picture = actual;
      if (known.width !== actual.width || known.height !== actual.height) fitMount(stage, mount, picture);
      media.element.setAttribute(media.isVideo ? "aria-label" : "alt", describe(asset));
    }
    const faces = faceBoxes(asset, mount);
    live.hidden = !(asset.live_video_id || asset.live_video);
    download.href = originalURL(asset, true);
    side.replaceChildren(detailsPanel(asset, faces));
    updateSteps();
  }

  function updateSteps() {
    if (!asset || !neighbours.ids) return;
    position.textContent = neighbours.describe(asset.id);
    previous.disabled = neighbours.step(asset.id, -1) === null;
    next.disabled = neighbours.step(asset.id, 1) === null;
    // Warm the cache for the neighbours' quick images, so a step shows something at once.
    for (const s of [-1, 1]) {
      const id = neighbours.step(asset.id, s);
      const known = id && knownMedia(id);
      if (known) new Image().src = quickURL(known);
      else if (id) getJSON(`/api/assets/${encodeURIComponent(id)}`).then((a) => { new Image().src = quickURL(pictureOf(a)); }).catch(() => {});
    }
  }

  function step(direction) {
    if (!currentId || !neighbours.ids) return;
    const id = neighbours.step(currentId, direction);
    if (!id) return;
    history.replaceState(history.state, "", `/asset/${encodeURIComponent(id)}`);
    display(id);
  }

  function goBack() {
    if (currentId) setReturnItem(currentId);
    window.location.assign(origin.href);
  }

  async function trashThis() {
    if (!asset) return;
    const gone = asset.id;
    try {
      await moveToTrash([gone]);
    } catch (error) {
      toast(error.message, { kind: "error" });
      return;
    }
    const following = neighbours.remove(gone);
    if (!following) { goBack(); return; }
    history.replaceState(history.state, "", `/asset/${encodeURIComponent(following)}`);
    display(following);
  }

  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, video, [role=dialog]")) return;
    const actions = {
      ArrowLeft: () => step(-1), ArrowRight: () => step(1),
      "+": () => zoom.zoomBy(1.5), "=": () => zoom.zoomBy(1.5), "-": () => zoom.zoomBy(1 / 1.5), "0": () => zoom.reset(),
      Escape: () => (zoom.scale > 1 ? zoom.reset() : goBack()),
    };
    if (!actions[event.key]) return;
    event.preventDefault();
    actions[event.key]();
  }

  // The picture first; the order (maybe a fetch of the whole library) after, in parallel.
  await Promise.all([
    display(params.id),
    neighbours.load(params.id).then(updateSteps).catch((error) => toast(`Previous and next are unavailable: ${error.message}`, { kind: "error" })),
  ]);
}
