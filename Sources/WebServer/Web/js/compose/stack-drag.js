// Reordering the story by dragging a tile, with Pointer Events (mouse, pen and touch alike), as
// the brief asks: the tile is lifted — raised, a little larger, its shadow deeper — and follows
// the pointer up and down while the others slide aside to show where it will land.
// A mouse or pen drag starts after a few pixels of movement; a touch drag after a long press
// (holding still), so that a swipe still scrolls the page. Escape puts the tile back.
// Nothing is decided here: onDrop(id, to) asks for the photo `id` to go to position `to` (from 1).

const SLOP = 6;      // px a mouse moves before a press becomes a drag (a touch that moves this much scrolls)
const HOLD = 400;    // ms a finger holds still before the tile lifts
const EDGE = 56;     // px from the window's edge where the page scrolls by itself

export function enableStackDrag(stack, onDrop) {
  const list = stack.list;
  let press = null;  // {tile, pointerId, x, y, type, timer}
  let drag = null;   // {tiles, from, to, tops, height, shift, startY, pointerY, raf}

  list.addEventListener("dragstart", (event) => event.preventDefault()); // no native image drag
  // A long press on touch would open the context menu (or the image's) instead of lifting.
  list.addEventListener("contextmenu", (event) => { if (press?.type === "touch" || drag) event.preventDefault(); });
  list.addEventListener("pointerdown", (event) => {
    const tile = event.target.closest(".compose-tile");
    if (!tile || drag || event.button !== 0 || event.target.closest("button")) return;
    press = { tile, pointerId: event.pointerId, x: event.clientX, y: event.clientY, type: event.pointerType };
    if (press.type === "touch") {
      tile.classList.add("compose-pressing");
      press.timer = setTimeout(() => lift(), HOLD);
    }
  });
  list.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (!drag && moved > SLOP) {
      if (press.type === "touch") { cancelPress(); return; }
      lift();
    }
    if (drag) follow(event.clientY);
  });
  list.addEventListener("pointerup", (event) => finish(event, true));
  list.addEventListener("pointercancel", (event) => finish(event, false));
  // Once a touch drag has begun the page must not scroll under the finger.
  list.addEventListener("touchmove", (event) => { if (drag) event.preventDefault(); }, { passive: false });
  document.addEventListener("keydown", (event) => {
    if (drag && event.key === "Escape") { event.preventDefault(); end(false); }
  });

  function cancelPress() {
    clearTimeout(press?.timer);
    press?.tile.classList.remove("compose-pressing");
    press = null;
  }

  function lift() {
    clearTimeout(press.timer);
    const tiles = [...list.children];
    const from = tiles.indexOf(press.tile);
    if (from < 0) { cancelPress(); return; }
    // Where each tile is, in page coordinates (the page may scroll during the drag).
    const rects = tiles.map((tile) => tile.getBoundingClientRect());
    const tops = rects.map((r) => r.top + window.scrollY);
    const height = rects[from].height;
    const shift = tiles.length > 1 ? Math.abs(tops[1] - tops[0]) : height;
    try { list.setPointerCapture(press.pointerId); } catch { /* the pointer is gone already */ }
    press.tile.classList.remove("compose-pressing");
    press.tile.classList.add("compose-lifted");
    list.classList.add("compose-dragging");
    drag = { tiles, from, to: from, tops, height, shift, startY: press.y + window.scrollY, pointerY: press.y, raf: 0 };
    autoScroll();
  }

  function follow(clientY) {
    drag.pointerY = clientY;
    const { tiles, from, tops, height, shift } = drag;
    const last = tiles.length - 1;
    // The tile stays within the stack.
    const dy = Math.max(tops[0] - tops[from], Math.min(tops[last] - tops[from], clientY + window.scrollY - drag.startY));
    tiles[from].style.transform = `translateY(${dy}px) scale(1.03)`;
    const centre = tops[from] + dy + height / 2;
    // Its place: past the middle of another tile (held at the stack's end, it reaches that tile's).
    let to = from;
    for (let i = from + 1; i <= last; i += 1) if (centre >= tops[i] + height / 2) to = i;
    for (let i = from - 1; i >= 0; i -= 1) if (centre <= tops[i] + height / 2) to = i;
    drag.to = to;
    tiles.forEach((tile, i) => {
      if (i === from) return;
      const offset = from < i && i <= to ? -shift : to <= i && i < from ? shift : 0;
      tile.style.transform = offset ? `translateY(${offset}px)` : "";
    });
  }

  /** Scrolls while the pointer rests near the top or bottom edge, so the whole story is in reach. */
  function autoScroll() {
    if (!drag) return;
    const y = drag.pointerY;
    const speed = y < EDGE ? -(EDGE - y) / 3 : y > innerHeight - EDGE ? (y - innerHeight + EDGE) / 3 : 0;
    if (speed) {
      window.scrollBy(0, speed);
      follow(y);
    }
    drag.raf = requestAnimationFrame(autoScroll);
  }

  function finish(event, drop) {
    if (!press || event.pointerId !== press.pointerId) return;
    const wasDragging = Boolean(drag);
    cancelPress();
    if (wasDragging) end(drop);
  }

  function end(drop) {
    const { tiles, from, to, raf } = drag;
    cancelAnimationFrame(raf);
    drag = null;
    press = null;
    const moved = drop && to !== from;
    // A moved tile goes to its place at once (the server's answer redraws the stack right after);
    // a tile put back slides home.
    if (moved) list.classList.add("compose-settling");
    for (const tile of tiles) tile.style.transform = "";
    tiles[from].classList.remove("compose-lifted");
    list.classList.remove("compose-dragging");
    if (moved) list.insertBefore(tiles[from], to > from ? tiles[to].nextSibling : tiles[to]);
    requestAnimationFrame(() => list.classList.remove("compose-settling"));
    if (moved) onDrop(tiles[from].dataset.id, to + 1);
  }
}
