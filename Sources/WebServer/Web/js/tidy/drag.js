// Dragging the card with a mouse, pen or finger (Pointer Events): it follows the pointer, tilts
// with its horizontal offset, and on release either flies out (past a third of its width, or a
// fast flick) or springs back. Moves write a transform in requestAnimationFrame and read no
// layout, so a drag never makes a long task (issue 30, "Speed").

const SLOP = 6;               // px before a press becomes a drag (a smaller move is a tap)
const THRESHOLD = 0.35;       // of the card's width (height for up) to decide on release
const FLICK = 0.55;           // px/ms: a release this fast decides from a shorter distance
const FLICK_MIN = 24;         // px: … but not from a twitch
const TILT = 0.06;            // degrees per px of horizontal offset
const MAX_TILT = 18;

/** Whether the user asked for less motion (read each time: it can change while the page is open). */
export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The card's transform for an offset (no tilt under reduced motion). */
export function dragTransform(dx, dy, reduce = reducedMotion()) {
  const tilt = reduce ? 0 : Math.max(-MAX_TILT, Math.min(MAX_TILT, dx * TILT));
  return `translate3d(${dx}px, ${dy}px, 0) rotate(${tilt}deg)`;
}

/** The direction a release decides ("left" | "right" | "up"), or null to spring back. */
export function releaseDirection(dx, dy, vx, vy, width, height) {
  const horizontal = Math.abs(dx) >= Math.abs(dy);
  if (horizontal) {
    const far = Math.abs(dx) > THRESHOLD * width;
    const flick = Math.abs(vx) > FLICK && Math.abs(dx) > FLICK_MIN && Math.sign(vx) === Math.sign(dx);
    return far || flick ? (dx < 0 ? "left" : "right") : null;
  }
  const far = -dy > THRESHOLD * height;
  const flick = vy < -FLICK && -dy > FLICK_MIN;
  return far || flick ? "up" : null;
}

/**
 * Makes ELEMENT draggable. Callbacks:
 *   canStart(event) → false to ignore a press (a dialog open, a decision being drawn…);
 *   onStart(); onMove(dx, dy, {width, height}) in the animation frame that moved it;
 *   onRelease(direction, {dx, dy, vx, vy}) for a decision (the caller flies it out);
 *   onCancel() after it sprang back; onTap(event) for a press without a drag (not on a button).
 * Returns detach().
 */
export function attachDrag(element, { canStart = () => true, onStart, onMove, onRelease, onCancel, onTap } = {}) {
  let press = null;           // {id, x, y, width, height, dragging, samples, dx, dy}
  let frame = 0;
  let swallowClick = false;

  const paint = () => {
    frame = 0;
    if (!press?.dragging) return;
    element.style.transform = dragTransform(press.dx, press.dy);
    onMove?.(press.dx, press.dy, press);
  };

  function down(event) {
    if (press || event.button !== 0 || !event.isPrimary || !canStart(event)) return;
    // One layout read per press, none per move.
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, width: element.offsetWidth,
      height: element.offsetHeight, dragging: false, samples: [], dx: 0, dy: 0, target: event.target };
  }

  function move(event) {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x, dy = event.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < SLOP) return;
      press.dragging = true;
      // Captured only now, so that a tap on a member's button inside the card stays its click.
      try { element.setPointerCapture(press.id); } catch { /* the pointer is gone already */ }
      element.classList.add("dragging");
      onStart?.();
    }
    press.dx = dx; press.dy = dy;
    press.samples.push([event.timeStamp, dx, dy]);
    if (press.samples.length > 6) press.samples.shift();
    if (!frame) frame = requestAnimationFrame(paint);
  }

  // Velocity over the last ~100 ms of a press's samples (px/ms).
  function velocity(ended, now) {
    const recent = ended.samples.filter(([t]) => now - t < 100);
    if (recent.length < 2) return { vx: 0, vy: 0 };
    const [t0, x0, y0] = recent[0], [t1, x1, y1] = recent[recent.length - 1];
    const dt = Math.max(1, t1 - t0);
    return { vx: (x1 - x0) / dt, vy: (y1 - y0) / dt };
  }

  function up(event) {
    if (!press || event.pointerId !== press.id) return;
    const ended = press;
    press = null;
    if (frame) { cancelAnimationFrame(frame); frame = 0; }
    if (!ended.dragging) {
      const onControl = ended.target instanceof Element && ended.target.closest("button, a, input");
      if (event.type === "pointerup" && !onControl) onTap?.(event);
      return;
    }
    swallowClick = true;
    setTimeout(() => { swallowClick = false; }, 0);
    element.classList.remove("dragging");
    const { vx, vy } = event.type === "pointerup" ? velocity(ended, event.timeStamp) : { vx: 0, vy: 0 };
    const direction = event.type === "pointerup"
      ? releaseDirection(ended.dx, ended.dy, vx, vy, ended.width, ended.height) : null;
    if (direction) onRelease?.(direction, { dx: ended.dx, dy: ended.dy, vx, vy });
    else springBack(element).then(() => onCancel?.());
  }

  // A drag's pointerup is followed by a click on whatever is under it: not a tap.
  const click = (event) => { if (swallowClick) { event.stopPropagation(); event.preventDefault(); } };

  element.addEventListener("pointerdown", down);
  element.addEventListener("pointermove", move);
  element.addEventListener("pointerup", up);
  element.addEventListener("pointercancel", up);
  element.addEventListener("click", click, true);
  element.addEventListener("dragstart", (event) => event.preventDefault());
  return () => {
    element.removeEventListener("pointerdown", down);
    element.removeEventListener("pointermove", move);
    element.removeEventListener("pointerup", up);
    element.removeEventListener("pointercancel", up);
    element.removeEventListener("click", click, true);
  };
}

/** Whether a drag is under way on any card (live updates wait for it). */
export const isDragging = (element) => element?.classList.contains("dragging") ?? false;

// Springs back to rest: a short overshoot, like paper settling (no motion when reduced).
function springBack(element) {
  const from = element.style.transform;
  element.style.transform = "";
  if (!from || reducedMotion()) return Promise.resolve();
  const animation = element.animate([{ transform: from }, { transform: "none" }],
    { duration: 320, easing: "cubic-bezier(0.34, 1.4, 0.64, 1)" });
  return animation.finished.catch(() => {});
}

/**
 * Flies a decided card out toward DIRECTION from where it is, at least as fast as it was
 * thrown (momentum), easing out. Instant under reduced motion. Resolves when it is off.
 */
export function flyOut(element, direction, { dx = 0, dy = 0, vx = 0, vy = 0 } = {}) {
  if (reducedMotion()) return Promise.resolve();
  const width = innerWidth, height = innerHeight;
  const from = element.style.transform || dragTransform(dx, dy);
  let tx = dx, ty = dy;
  if (direction === "up") ty = -height;
  else { tx = (direction === "left" ? -1 : 1) * width; ty = dy + (vy || 0) * 120; }
  const distance = Math.hypot(tx - dx, ty - dy);
  const speed = Math.max(Math.hypot(vx, vy), 2.2);   // px/ms
  const duration = Math.max(160, Math.min(380, distance / speed));
  element.style.transform = dragTransform(tx, ty);
  const animation = element.animate(
    [{ transform: from, opacity: 1 }, { transform: dragTransform(tx, ty), opacity: 0.4 }],
    { duration, easing: "cubic-bezier(0.2, 0.6, 0.35, 1)", fill: "forwards" });
  return animation.finished.catch(() => {});
}

/** The reverse of flyOut for an undone card: in from DIRECTION to rest. */
export function flyIn(element, direction) {
  if (reducedMotion() || !direction) return Promise.resolve();
  const tx = direction === "up" ? 0 : (direction === "left" ? -1 : 1) * innerWidth * 0.6;
  const ty = direction === "up" ? -innerHeight * 0.6 : 0;
  const animation = element.animate(
    [{ transform: dragTransform(tx, ty), opacity: 0.4 }, { transform: "none", opacity: 1 }],
    { duration: 300, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)" });
  return animation.finished.catch(() => {});
}
