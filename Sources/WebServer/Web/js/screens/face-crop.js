// One face, cut from its photo's 256-px thumbnail in the browser: the server has no crop
// endpoint, and the thumbnail is already cached for the grid. The <img> keeps its alt text and
// is scaled and shifted inside a round frame (overflow hidden) so that the face box, with a
// margin, fills it. Box coordinates are normalised to the upright image, as the thumbnail is.

import { h } from '../dom.js';
import { thumbURL } from './kit.js';

const MARGIN = 1.7; // the crop's side, in face-box sizes: some hair and chin around the face
// Below this many pixels of crop in the 256-px thumbnail the face would be blown up blurry in
// its ~120-px (240 device px) circle, so the 1024-px thumbnail is used instead.
const SMALL_CROP = 200;

/**
 * @param {{asset_id: string, x: number, y: number, w: number, h: number, sha8?: string}} face
 * @param {string} alt  what the picture shows, or "" when the text beside it says so
 */
export function faceCrop(face, alt) {
  const frame = h('span', { class: 'sb-face' });
  if (!face?.asset_id) {
    frame.classList.add('sb-face-none');
    if (alt) frame.append(h('span', { class: 'visually-hidden', text: alt }));
    return frame;
  }
  const small = Math.max(face.w, face.h) * MARGIN * 256 < SMALL_CROP;
  const img = h('img', { src: thumbURL(face.asset_id, face.sha8, small ? 1024 : 256), alt, decoding: 'async', loading: 'lazy', draggable: 'false' });
  const place = () => placeFace(img, face);
  img.addEventListener('load', place);
  if (img.complete && img.naturalWidth) place();
  frame.append(img);
  return frame;
}

function placeFace(img, box) {
  const W = img.naturalWidth;
  const H = img.naturalHeight;
  if (!W || !H) return;
  // A square around the face in the thumbnail's pixels, as large as the margin asks but never
  // larger than the picture; its centre is pulled inwards so the frame shows no empty edge.
  const side = Math.min(Math.max(box.w * W, box.h * H) * MARGIN, W, H);
  const cx = clamp((box.x + box.w / 2) * W, side / 2, W - side / 2);
  const cy = clamp((box.y + box.h / 2) * H, side / 2, H - side / 2);
  // Percentages of the (square) frame, so the crop follows the frame's CSS size.
  Object.assign(img.style, {
    width: `${(W / side) * 100}%`,
    height: `${(H / side) * 100}%`,
    left: `${-((cx - side / 2) / side) * 100}%`,
    top: `${-((cy - side / 2) / side) * 100}%`,
  });
  img.classList.add('sb-face-placed');
}

function clamp(value, lo, hi) {
  return Math.min(Math.max(value, lo), hi);
}
