// Reordering a TileList by dragging, with pointer events (mouse, pen and touch alike).
// A mouse drag starts after a few pixels of movement so that a click still opens the photo;
// a touch drag starts after a long press, so that a swipe still scrolls the page.
// While dragging, a bar between two tiles shows where the photos will land; the dragged tiles
// (the whole selection when the grabbed tile is selected) follow as one small ghost.

import { h } from '../dom.js';

const MOUSE_SLOP = 6;      // px before a press becomes a drag
const TOUCH_HOLD = 400;    // ms of holding still before a touch becomes a drag
const EDGE = 56;           // px from the window's edge where the page scrolls by itself

/**
 * @param {import('./tile-list.js').TileList} list
 * @param {(keys: string[]) => void} onDrop  receives every key in the new order (only when it changed)
 */
export function enableDragReorder(list, onDrop) {
  const root = list.element;
  let press = null;   // {key, pointerId, x, y, type, timer}
  let drag = null;    // {keys, ghost, indicator, target: {key, after} | null, x, y, raf}

  root.addEventListener('dragstart', (event) => event.preventDefault()); // no native image drag
  root.addEventListener('pointerdown', (event) => {
    const option = event.target.closest('[role=option]');
    if (!option || event.button !== 0 || event.target.closest('.sb-check')) return;
    press = { key: option.dataset.key, pointerId: event.pointerId, x: event.clientX, y: event.clientY, type: event.pointerType };
    if (press.type === 'touch') press.timer = setTimeout(() => start(event), TOUCH_HOLD);
  });
  root.addEventListener('pointermove', (event) => {
    if (!press || event.pointerId !== press.pointerId) return;
    const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
    if (!drag && press.type === 'touch' && moved > MOUSE_SLOP) cancelPress();
    else if (!drag && press.type !== 'touch' && moved > MOUSE_SLOP) start(event);
    if (drag) follow(event.clientX, event.clientY);
  });
  root.addEventListener('pointerup', (event) => finish(event, true));
  root.addEventListener('pointercancel', (event) => finish(event, false));
  // Once a touch drag has begun the page must not scroll under the finger.
  root.addEventListener('touchmove', (event) => { if (drag) event.preventDefault(); }, { passive: false });
  document.addEventListener('keydown', (event) => {
    if (drag && event.key === 'Escape') { event.preventDefault(); end(false); }
  });

  function cancelPress() {
    clearTimeout(press?.timer);
    press = null;
  }

  function start(event) {
    clearTimeout(press.timer);
    const keys = list.selected.has(press.key)
      ? list.items.map((item) => String(list.options.keyOf(item))).filter((key) => list.selected.has(key))
      : [press.key];
    root.setPointerCapture(press.pointerId);
    const source = list.optionFor(press.key)?.querySelector('img');
    const ghost = h('div', { class: 'sb-drag-ghost', 'aria-hidden': 'true' },
      source ? h('img', { src: source.currentSrc || source.src, alt: '' }) : null,
      keys.length > 1 ? h('span', { class: 'sb-drag-count', text: String(keys.length) }) : null);
    const indicator = h('div', { class: 'sb-drop-indicator', 'aria-hidden': 'true' });
    document.body.append(ghost, indicator);
    for (const key of keys) list.optionFor(key)?.classList.add('sb-dragging');
    root.classList.add('sb-drag-active');
    drag = { keys, ghost, indicator, target: null, x: event.clientX, y: event.clientY, raf: 0 };
    follow(event.clientX, event.clientY);
    autoScroll();
  }

  function follow(x, y) {
    drag.x = x;
    drag.y = y;
    drag.ghost.style.transform = `translate(${x + 12}px, ${y + 12}px)`;
    drag.target = targetAt(x, y);
    placeIndicator();
  }

  /** The tile the pointer is nearest to (among those not being moved) and its side. */
  function targetAt(x, y) {
    let best = null;
    for (const option of root.children) {
      if (drag.keys.includes(option.dataset.key)) continue;
      const r = option.getBoundingClientRect();
      const dx = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
      const dy = y < r.top ? r.top - y : y > r.bottom ? y - r.bottom : 0;
      const distance = dy * 4 + dx; // the row matters more than the column
      if (!best || distance < best.distance) {
        best = { key: option.dataset.key, after: x > r.left + r.width / 2, distance, rect: r };
      }
    }
    return best;
  }

  function placeIndicator() {
    const { indicator, target } = drag;
    indicator.hidden = !target;
    if (!target) return;
    const r = target.rect;
    const gap = 4;
    indicator.style.left = `${(target.after ? r.right + gap : r.left - gap) + window.scrollX - 2}px`;
    indicator.style.top = `${r.top + window.scrollY}px`;
    indicator.style.height = `${r.height}px`;
  }

  /** Scrolls while the pointer rests near the top or bottom edge, so far tiles can be reached. */
  function autoScroll() {
    if (!drag) return;
    const speed = drag.y < EDGE ? -(EDGE - drag.y) / 3 : drag.y > innerHeight - EDGE ? (drag.y - innerHeight + EDGE) / 3 : 0;
    if (speed) {
      window.scrollBy(0, speed);
      follow(drag.x, drag.y);
    }
    drag.raf = requestAnimationFrame(autoScroll);
  }

  function finish(event, drop) {
    if (!press || event.pointerId !== press.pointerId) return;
    const wasDragging = Boolean(drag);
    cancelPress();
    if (!wasDragging) return;
    // The click that follows this pointerup must not open the photo or toggle it.
    list.suppressClick = true;
    setTimeout(() => { list.suppressClick = false; }, 0);
    end(drop);
  }

  function end(drop) {
    const { keys, target, ghost, indicator, raf } = drag;
    cancelAnimationFrame(raf);
    ghost.remove();
    indicator.remove();
    root.classList.remove('sb-drag-active');
    for (const option of root.querySelectorAll('.sb-dragging')) option.classList.remove('sb-dragging');
    drag = null;
    press = null;
    if (!drop || !target) return;
    const all = list.items.map((item) => String(list.options.keyOf(item)));
    const rest = all.filter((key) => !keys.includes(key));
    const at = rest.indexOf(target.key) + (target.after ? 1 : 0);
    const order = [...rest.slice(0, at), ...keys, ...rest.slice(at)];
    if (order.some((key, i) => key !== all[i])) onDrop(order, keys);
  }
}
