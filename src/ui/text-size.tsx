/**
 * The projector mode: "Larger text" in the header zooms the whole lab (CSS zoom on the app: text,
 * controls, charts and the path picture, which redraws at the zoomed resolution), for a trainer's
 * screen at the back of a room: by 1.3 where the stage has room for it, less on a small stage (a
 * 1280×800 projector: about 1.16, so the zoomed stage is still one screen, not a page that scrolls
 * under the sticky time controls). Remembered across reloads in localStorage (never in embed mode,
 * which writes nothing to storage).
 */
import { useEffect, useState } from 'react';
import { browserStorage } from './welcome';

export const TEXT_SIZE_KEY = 'ec2-netlab.large-text';
/** The zoom of the larger-text mode (styles.css, [data-text-size="large"], --large-zoom). */
export const LARGE_ZOOM = 1.3;
/** The least zoom the mode gives a small stage (still visibly larger). */
export const MIN_LARGE_ZOOM = 1.1;
/** The stage's layout (styles.css, min-width 1100px) and the height its content needs, in CSS px before the zoom. */
const STAGE_MIN_W = 1100;
const STAGE_MIN_H = 690;

/**
 * The zoom for a `w` × `h` window: LARGE_ZOOM, or less where the zoomed stage would be narrower than
 * its layout or taller than the window (never below MIN_LARGE_ZOOM). Narrower than the stage (the
 * page scrolls there anyway): LARGE_ZOOM.
 */
export function largeZoom(w: number, h: number): number {
  if (w < STAGE_MIN_W) return LARGE_ZOOM;
  const fit = Math.min(LARGE_ZOOM, w / STAGE_MIN_W, h / STAGE_MIN_H);
  return Math.round(Math.max(MIN_LARGE_ZOOM, fit) * 100) / 100;
}

export function TextSizeButton({ embed }: { embed: boolean }) {
  const [large, setLarge] = useState(() => {
    if (embed) return false;
    try {
      return browserStorage()?.getItem(TEXT_SIZE_KEY) === '1';
    } catch {
      return false;
    }
  });
  useEffect(() => {
    const root = document.documentElement;
    if (!large) {
      delete root.dataset.textSize;
      root.style.removeProperty('--large-zoom');
      // the picture and the charts measure their boxes again at the new zoom
      window.dispatchEvent(new Event('resize'));
      return;
    }
    root.dataset.textSize = 'large';
    let zoom = '';
    const apply = (e?: Event) => {
      const z = String(largeZoom(innerWidth, innerHeight));
      if (z === zoom) return;
      zoom = z;
      root.style.setProperty('--large-zoom', z);
      // (a window resize reaches the picture and the charts by itself)
      if (!e) window.dispatchEvent(new Event('resize'));
    };
    apply();
    addEventListener('resize', apply);
    return () => removeEventListener('resize', apply);
  }, [large]);
  const toggle = () => {
    const next = !large;
    setLarge(next);
    if (embed) return;
    try {
      browserStorage()?.setItem(TEXT_SIZE_KEY, next ? '1' : '0');
    } catch {
      // storage refused: the choice lasts this visit
    }
  };
  return (
    <button
      type="button"
      aria-pressed={large}
      onClick={toggle}
      aria-label="A+ Larger text"
      title="Larger text: zoom the whole lab for a projector (remembered)"
    >
      A+
    </button>
  );
}
