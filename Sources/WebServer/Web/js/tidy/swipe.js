// The swipe screen (brief 004, "Main Swipe Screen"): one card at a time — delete ←, keep →,
// maybe ↑ — by drag, keys or the buttons. Every decision goes to the server the moment it is
// made (so a closed tab loses nothing); the card moves at once from what was fetched ahead, and
// the server's answer, when it comes, is what stays on screen.
import { h, setTitle } from "../dom.js";
import { icon } from "../icons.js";
import { toast } from "../api.js";
import { onLibraryChange } from "../events.js";
import * as api from "./api.js";
import { buildCard, buildBackCard, membersOf, itemKey, altText } from "./card.js";
import { attachDrag, flyOut, flyIn, isDragging } from "./drag.js";
import { prefetch } from "./prefetch.js";
import { createProgress } from "./progress.js";
import { openDetail } from "./detail.js";
import { openFilterSheet } from "./filter-sheet.js";
import { askDeleteOthers, askReviewMarked, askTackleMaybes } from "./prompts.js";
import { emptyState } from "./empty-state.js";

const DIRECTION = { delete: "left", keep: "right", maybe: "up" };
const DECISION = { left: "delete", right: "keep", up: "maybe" };
const SAID = { delete: "Marked for deletion", keep: "Kept", maybe: "Set aside as maybe" };

// Line drawings the shared set lacks, in its manner (24×24, strokes in currentColor).
function glyph(...paths) {
  return h("svg:svg", { viewBox: "0 0 24 24", width: "24", height: "24", fill: "none", stroke: "currentColor",
    "stroke-width": "1.6", "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true",
    focusable: "false", class: "icon" }, paths.map((d) => h("svg:path", { d })));
}
const filterGlyph = () => glyph("M4 7h16M7 12h10M10 17h4");
const questionGlyph = () => glyph("M9.2 9.2a2.8 2.8 0 1 1 4 2.5c-.8.4-1.2 1-1.2 1.9v.6M12 17.6v.1");
const undoGlyph = () => glyph("M9 14.5L4.5 10 9 5.5", "M4.5 10h10a5 5 0 0 1 0 10H11");

/** Whether keys belong to something else now: a dialog, an overlay, a text field. */
function keysTaken(target) {
  if (document.querySelector('[aria-modal="true"], dialog[open]')) return true;
  return target instanceof Element && Boolean(target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]'));
}

/** The status after deciding COUNT assets, before the server says (it always has the last word). */
function advanced(status, count, decision) {
  const position = Math.min(status.total, status.position + count);
  return { ...status, position, done: position >= status.total,
    marked: status.marked + (decision === "delete" ? count : 0),
    maybe: status.maybe + (decision === "maybe" ? count : 0) };
}

function layout() {
  const part = (tag, className, attrs = {}, ...children) => h(tag, { class: className, ...attrs }, ...children);
  const parts = {
    filter: part("button", "tidy-filter", { type: "button", "aria-label": "Filter" }, filterGlyph()),
    maybe: part("button", "tidy-maybe", { type: "button", "aria-label": "Maybe", "aria-keyshortcuts": "ArrowUp" },
      part("span", "tidy-maybe-mark", {}, questionGlyph()), part("span", "tidy-maybe-label", { text: "Maybe" })),
    deleteSide: part("div", "tidy-side tidy-side-delete", { "aria-hidden": "true" },
      part("span", "tidy-side-mark", {}, icon("close")), part("span", "tidy-side-label", { text: "Delete" })),
    keepSide: part("div", "tidy-side tidy-side-keep", { "aria-hidden": "true" },
      part("span", "tidy-side-mark", {}, icon("heart")), part("span", "tidy-side-label", { text: "Keep" })),
    deck: part("div", "tidy-deck"),
    done: part("div", "tidy-done", { hidden: true, tabindex: "-1" }),
    deleteButton: part("button", "tidy-action tidy-delete", { type: "button", "aria-keyshortcuts": "ArrowLeft" },
      icon("trash"), part("span", "", { text: "Delete" })),
    undo: part("button", "tidy-undo", { type: "button", "aria-label": "Undo", "aria-keyshortcuts": "Control+Z Backspace" }, undoGlyph()),
    keepButton: part("button", "tidy-action tidy-keep", { type: "button", "aria-keyshortcuts": "ArrowRight" },
      part("span", "", { text: "Keep" }), icon("heart")),
    said: part("p", "visually-hidden", { role: "status", "aria-live": "polite" }),
    progress: createProgress(),
  };
  parts.section = part("section", "tidy", { "aria-labelledby": "tidy-title", "aria-busy": "true" },
    part("header", "tidy-head", {},
      part("span", "tidy-spacer", { "aria-hidden": "true" }),
      part("h1", "tidy-title", { id: "tidy-title", text: "Tidy" }),
      parts.filter),
    part("div", "tidy-stage", {},
      part("div", "tidy-top", {}, parts.maybe),
      part("div", "tidy-row", {}, parts.deleteSide, parts.deck, parts.keepSide),
      parts.done,
      part("div", "tidy-actions", {}, parts.deleteButton, parts.undo, parts.keepButton)),
    parts.progress.element,
    parts.said);
  return parts;
}

/**
 * Shows the swipe screen in MAIN. navigate(path) moves to another Tidy view (/tidy/trash).
 * initial: an answer of the server to start from (a new session just made), else GET /api/tidy.
 * Returns {destroy()}.
 */
export async function showSwipe(main, { navigate, initial } = {}) {
  setTitle("Tidy");
  const ui = layout();
  main.replaceChildren(ui.section);

  let state = { item: null, ahead: [], status: null };
  let front = null, detachDrag = null;
  let history = [];            // what undo brings back at once: [{item, direction, status}]
  let generation = 0, destroyed = false;
  const waiting = [];          // the requests sent or queued, oldest first: does each advance?
  let queue = Promise.resolve();
  let syncLater = false, deferred = null;

  const say = (text) => { ui.said.textContent = text; };
  const busy = () => waiting.length > 0 || isDragging(front?.element);

  // ---- Drawing ----
  function renderDeck({ enterFrom = null } = {}) {
    detachDrag?.(); detachDrag = null; front = null;
    const flying = [...ui.deck.querySelectorAll(".leaving")];
    const nodes = backCards();
    if (state.item) {
      front = buildCard(state.item, { onKeepMember: keepMember });
      nodes.push(front.element);
      detachDrag = attachDrag(front.element, {
        canStart: () => !keysTaken(null) && state.item !== null,
        onMove: (dx, dy, size) => lean(dx, dy, size),
        onRelease: (direction, motion) => decide(DECISION[direction], motion),
        onCancel: () => { lean(0, 0); afterDrag(); },
        onTap: () => openShown(),
      });
      if (enterFrom) flyIn(front.element, enterFrom);
    } else if (state.status && !state.status.done) {
      nodes.push(h("div", { class: "tidy-card tidy-card-front tidy-waiting" }, h("p", { text: "One moment…" })));
    }
    ui.deck.replaceChildren(...nodes, ...flying);
    lean(0, 0);
    showDone();
  }

  // The indicator of the way the card leans comes up to full opacity with the drag.
  function lean(dx, dy, size) {
    const reach = (d, extent) => (size ? Math.min(1, Math.max(0, d / (0.35 * extent))) : 0);
    setLean(ui.deleteSide, reach(-dx, size?.width));
    setLean(ui.keepSide, reach(dx, size?.width));
    setLean(ui.maybe, Math.abs(dy) > Math.abs(dx) ? reach(-dy, size?.height) : 0);
  }
  function setLean(element, amount) {
    const mark = element.firstElementChild, rest = element === ui.maybe ? 0.6 : 0.4;
    mark.style.opacity = amount > 0 ? String(Math.min(1, rest + amount)) : "";
    element.classList.toggle("leaning", amount > 0);
  }

  // Through: the empty state in the card's place (made again only when the figures change, so
  // that focus and the screen reader's place in it stay).
  let doneFor = null;
  function showDone() {
    const done = Boolean(state.status?.done) && !state.item;
    ui.section.classList.toggle("is-done", done);
    for (const button of [ui.deleteButton, ui.keepButton, ui.maybe]) button.disabled = !state.item;
    ui.done.hidden = !done;
    const figures = done ? JSON.stringify(state.status) : null;
    if (figures === doneFor) return;
    doneFor = figures;
    ui.done.replaceChildren(done ? emptyState(state.status, {
      onFilter: () => chooseFilter(),
      onMaybes: () => startFilter("maybe"),
      onTrash: () => navigate?.("/tidy/trash"),
    }) : "");
    // Focus on a button just disabled, or nowhere: to the empty state, which says what next.
    const focused = document.activeElement;
    if (done && (!focused || focused === document.body || focused.disabled)) ui.done.focus({ preventScroll: true });
  }

  // ---- The server's answers ----
  function apply({ item, status, ahead }) {
    const changed = itemKey(item) !== itemKey(state.item) || (!item && !state.item);
    state = { item: item ?? null, ahead: ahead ?? [], status };
    prefetch(state.ahead);
    ui.progress.update(status);
    if (changed) renderDeck();
    else refreshBacks();
  }

  // The cards behind follow `ahead` without touching the one in front (it may be held).
  function refreshBacks() {
    const shown = [...ui.deck.querySelectorAll(".tidy-card-back")];
    const wanted = [state.ahead[1], state.ahead[0]].filter(Boolean);
    if (shown.map((el) => el.dataset.key).join("|") !== wanted.map(itemKey).join("|")) {
      for (const el of shown) el.remove();
      ui.deck.prepend(...backCards());
    }
    showDone();
  }

  const backCards = () => [state.ahead[1] && buildBackCard(state.ahead[1], 2),
    state.ahead[0] && buildBackCard(state.ahead[0], 1)].filter(Boolean);

  function settle(answer, { prompts = false } = {}) {
    if (destroyed) return;
    const next = { item: "next" in answer ? answer.next : answer.item, status: answer.status, ahead: answer.ahead };
    if (isDragging(front?.element)) { deferred = next; return; }
    apply(next);
    if (prompts && next.status?.done && !next.item) whenDone(next.status);
  }

  /**
   * Runs CALL after every earlier request (decisions keep their order); the last answer is
   * shown. An answer with more decisions still to send only tells what comes after them.
   * advances: CALL decides the whole item under review (the server moves on by one item).
   */
  function enqueue(call, { prompts = false, advances = false, retrying = false } = {}) {
    const mine = generation;
    waiting.push(advances);
    queue = queue.then(async () => {
      if (mine !== generation) { waiting.shift(); return; }  // decided on a state an error undid
      try {
        const answer = await call();
        waiting.shift();
        if (mine !== generation) return;
        if (waiting.length === 0) settle(answer, { prompts });
        else if (waiting.every(Boolean)) lookAhead(answer, waiting.length);
      } catch (error) {
        waiting.shift();
        generation += 1;
        if (destroyed) return;
        // An answer's own words (e.g. "nothing to undo: …"), or the connection that failed.
        if (!retrying) toast(error.status ? error.message : `Shoebox could not be reached (${error.message})`, { kind: "error" });
        // Nothing more is decided until the server has said where the session stands: a
        // decision goes to the item under review there, which may not be the card shown.
        history = [];
        state = { ...state, item: null, ahead: [] };
        renderDeck();
        const resync = () => enqueue(() => api.current(), { retrying: true });
        if (retrying) setTimeout(resync, 3000); else resync();   // the server away: ask again, quietly
      }
      if (waiting.length === 0 && syncLater) quietSync();
    });
    return queue;
  }

  // While K more decisions are on their way, the server's [next, …ahead] from K on is what
  // comes after the card on screen: fast swipes never run out of cards to show.
  function lookAhead(answer, k) {
    if (destroyed) return;
    const coming = ["next" in answer ? answer.next : answer.item, ...(answer.ahead ?? [])].filter(Boolean);
    if (!state.item) {
      if (!coming[k] || isDragging(front?.element)) return;
      state = { ...state, item: coming[k], ahead: coming.slice(k + 1) };
      prefetch(state.ahead);
      renderDeck();
      return;
    }
    const known = [state.item, ...state.ahead];
    const at = coming.findIndex((item) => itemKey(item) === itemKey(known[known.length - 1]));
    const more = at < 0 ? [] : coming.slice(at + 1, at + 1 + Math.max(0, 4 - known.length));
    if (more.length === 0) return;
    state = { ...state, ahead: [...state.ahead, ...more] };
    prefetch(more);
    refreshBacks();
  }

  // A change elsewhere (another tab, the CLI, the watcher): shown when nothing is under way.
  function quietSync() {
    if (destroyed) return;
    if (busy()) { syncLater = true; return; }
    syncLater = false;
    enqueue(() => api.current());
  }

  function afterDrag() {
    if (deferred && waiting.length === 0) { const next = deferred; deferred = null; apply(next); }
    else deferred = null;
    if (syncLater && waiting.length === 0) quietSync();
  }

  // ---- Deciding ----
  function decide(decision, motion = null, call = () => api.decide(decision)) {
    if (!state.item) return;
    const item = state.item, direction = DIRECTION[decision];
    history.push({ item, direction, status: state.status });
    if (history.length > 100) history.shift();
    const leaving = front?.element;
    state = { item: state.ahead[0] ?? null, ahead: state.ahead.slice(1),
      status: advanced(state.status, membersOf(item).length, decision) };
    if (leaving) {
      leaving.classList.add("leaving");
      leaving.classList.remove("dragging");
      flyOut(leaving, direction, motion ?? {}).then(() => leaving.remove());
    }
    renderDeck();
    ui.progress.update(state.status);
    say(state.item ? `${SAID[decision]}. Next: ${altText(front.shown())}.` : `${SAID[decision]}.`);
    enqueue(call, { prompts: true, advances: true });
    afterDrag();
  }

  function undo() {
    const last = history.pop();
    if (last) {
      state = { item: last.item, ahead: [state.item, ...state.ahead].filter(Boolean).slice(0, 3), status: last.status };
      renderDeck({ enterFrom: last.direction });
      ui.progress.update(state.status);
    }
    say("Undone.");
    enqueue(() => api.undo());
  }

  // One member of a group kept: the others marked too, or the group stays with the rest.
  async function keepMember(asset) {
    const item = state.item;
    if (!item || !("group" in item)) return;
    const members = membersOf(item);
    const others = members.length - 1;
    const deleteOthers = others > 0 && await askDeleteOthers(others);
    if (state.item !== item || destroyed) return;
    if (deleteOthers) {
      decide("keep", null, () => api.decide("keep", { id: asset.id, others: "delete" }));
      return;
    }
    history.push({ item, direction: null, status: state.status });
    const rest = members.filter((member) => member.id !== asset.id);
    state = { ...state, item: { ...item, open: rest.map((member) => member.id) } };
    renderDeck();
    say(`Kept photo. ${rest.length} left in this group.`);
    enqueue(() => api.decide("keep", { id: asset.id }), { prompts: true });
  }

  async function whenDone(status) {
    if (status.marked > 0) {
      if (await askReviewMarked(status.marked)) navigate?.("/tidy/trash");
    } else if (status.unreviewed === 0 && status.maybe > 0) {
      if (await askTackleMaybes(status.maybe)) startFilter("maybe");
    }
  }

  function startFilter(filter) {
    history = [];
    enqueue(() => api.startFilter(filter));
  }

  async function chooseFilter() {
    const answer = await openFilterSheet({ current: state.status?.filter, status: state.status });
    if (!answer || destroyed) return;
    history = [];
    enqueue(async () => answer);
  }

  function openShown() {
    const asset = front?.shown();
    if (asset) openDetail(asset);
  }

  // ---- Keys and buttons ----
  function onKey(event) {
    if (event.defaultPrevented || event.altKey || keysTaken(event.target)) return;
    const key = event.key;
    if (event.ctrlKey || event.metaKey) {
      if (key.toLowerCase() === "z" && !event.shiftKey) { event.preventDefault(); if (!event.repeat) undo(); }
      return;
    }
    if (event.repeat && key !== " " && key !== "Enter") { if (key.startsWith("Arrow") || key === "Backspace") event.preventDefault(); return; }
    const onControl = event.target instanceof Element && event.target.closest("button, a, summary, [role=button]");
    const decision = { ArrowLeft: "delete", ArrowRight: "keep", ArrowUp: "maybe" }[key];
    if (decision) { event.preventDefault(); if (!isDragging(front?.element)) decide(decision); }
    else if (key === "Backspace") { event.preventDefault(); undo(); }
    else if ((key === " " || key === "Enter") && !onControl && state.item) { event.preventDefault(); openShown(); }
  }

  ui.filter.addEventListener("click", () => chooseFilter());
  ui.maybe.addEventListener("click", () => decide("maybe"));
  ui.deleteButton.addEventListener("click", () => decide("delete"));
  ui.keepButton.addEventListener("click", () => decide("keep"));
  ui.undo.addEventListener("click", () => undo());
  document.addEventListener("keydown", onKey);
  const unsubscribe = onLibraryChange(() => quietSync());

  try {
    apply(initial ?? await api.current());
  } catch (error) {
    toast(`Tidy could not start: ${error.message}`, { kind: "error" });
  }
  ui.section.removeAttribute("aria-busy");

  return {
    destroy() {
      destroyed = true;
      document.removeEventListener("keydown", onKey);
      unsubscribe();
      detachDrag?.();
    },
  };
}
