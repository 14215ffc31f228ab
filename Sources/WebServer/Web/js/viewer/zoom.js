// Zoom and pan for the viewer's picture: a CSS transform on the mount (translate + scale) inside
// a fixed stage. Scale 1 is "fit" (the whole picture in the stage); up to MAX_SCALE. Wheel zooms
// about the pointer, two pointers pinch, one pointer drags when zoomed in, a double-click
// toggles 2× at the point. Keys (+ − 0) are the screen's, through zoomBy/reset.

const MAX_SCALE = 8;

export class ZoomPan {
  /** stage: the clipping box; mount: the element transformed; onChange(scale) after each change. */
  /** onSwipe(direction): a horizontal swipe at fit scale (+1 next, −1 previous), for phones. */
  constructor(stage, mount, { onChange = () => {}, onSwipe = () => {} } = {}) {
    this.stage = stage;
    this.mount = mount;
    this.onChange = onChange;
    this.onSwipe = onSwipe;
    this.scale = 1;
    this.x = 0;
    this.y = 0;
    this.pointers = new Map();
    stage.addEventListener("wheel", (event) => this.#onWheel(event), { passive: false });
    stage.addEventListener("pointerdown", (event) => this.#onPointerDown(event));
    stage.addEventListener("pointermove", (event) => this.#onPointerMove(event));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      stage.addEventListener(type, (event) => this.#onPointerUp(event));
    }
    stage.addEventListener("dblclick", (event) => {
      if (event.target.closest("button, a, video")) return;
      const point = this.#local(event);
      if (this.scale > 1) this.reset(); else this.zoomTo(2, point.x, point.y);
    });
  }

  /** Multiplies the scale by `factor` about a point in stage coordinates (default: its centre). */
  zoomBy(factor, cx, cy) { this.zoomTo(this.scale * factor, cx, cy); }

  zoomTo(scale, cx = this.stage.clientWidth / 2, cy = this.stage.clientHeight / 2) {
    const next = Math.min(MAX_SCALE, Math.max(1, scale));
    // Keep the picture point under (cx, cy) where it is: the origin is the stage's centre.
    const ox = cx - this.stage.clientWidth / 2, oy = cy - this.stage.clientHeight / 2;
    this.x = ox - (ox - this.x) * (next / this.scale);
    this.y = oy - (oy - this.y) * (next / this.scale);
    this.scale = next;
    this.#apply();
  }

  panBy(dx, dy) { this.x += dx; this.y += dy; this.#apply(); }

  reset() { this.scale = 1; this.x = 0; this.y = 0; this.#apply(); }

  #apply() {
    // The picture may not leave the stage: at scale s it can move (s − 1) × half its size.
    const limitX = (this.mount.offsetWidth * (this.scale - 1)) / 2;
    const limitY = (this.mount.offsetHeight * (this.scale - 1)) / 2;
    this.x = Math.max(-limitX, Math.min(limitX, this.x));
    this.y = Math.max(-limitY, Math.min(limitY, this.y));
    this.mount.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    this.stage.classList.toggle("zoomed", this.scale > 1);
    this.onChange(this.scale);
  }

  #local(event) {
    const box = this.stage.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  #onWheel(event) {
    event.preventDefault();
    const point = this.#local(event);
    // deltaY in lines (Firefox) or pixels; a trackpad pinch arrives as a ctrl+wheel with small deltas.
    const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
    this.zoomBy(Math.exp(-delta * (event.ctrlKey ? 0.01 : 0.0025)), point.x, point.y);
  }

  #onPointerDown(event) {
    if (event.target.closest("button, a, video")) return;
    this.stage.setPointerCapture(event.pointerId);
    this.pointers.set(event.pointerId, this.#local(event));
    this.swipeStart = this.pointers.size === 1 ? this.#local(event) : null;
    if (this.pointers.size === 2) this.pinch = this.#pinchState();
  }

  #onPointerMove(event) {
    const previous = this.pointers.get(event.pointerId);
    if (!previous) return;
    const point = this.#local(event);
    this.pointers.set(event.pointerId, point);
    if (this.pointers.size >= 2 && this.pinch) {
      const now = this.#pinchState();
      this.zoomTo(this.scale * (now.distance / Math.max(1, this.pinch.distance)), now.cx, now.cy);
      this.panBy(now.cx - this.pinch.cx, now.cy - this.pinch.cy);
      this.pinch = now;
    } else if (this.scale > 1) {
      this.stage.classList.add("panning");
      this.panBy(point.x - previous.x, point.y - previous.y);
    }
  }

  #onPointerUp(event) {
    if (!this.pointers.has(event.pointerId)) return;
    const end = this.#local(event);
    this.pointers.delete(event.pointerId);
    if (this.swipeStart && this.scale === 1 && this.pointers.size === 0 && event.type === "pointerup") {
      const dx = end.x - this.swipeStart.x, dy = end.y - this.swipeStart.y;
      if (Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy) * 1.5) this.onSwipe(dx < 0 ? 1 : -1);
    }
    if (this.pointers.size < 2) this.pinch = null;
    if (this.pointers.size === 0) this.stage.classList.remove("panning");
  }

  #pinchState() {
    const [a, b] = [...this.pointers.values()];
    return { distance: Math.hypot(a.x - b.x, a.y - b.y), cx: (a.x + b.x) / 2, cy: (a.y + b.y) / 2 };
  }
}
