/**
 * The projector mode: "Larger text" in the header zooms the whole lab by 1.3 (CSS zoom on the app:
 * text, controls, charts and the path picture, which redraws at the zoomed resolution), for a
 * trainer's screen at the back of a room. Remembered across reloads in localStorage (never in
 * embed mode, which writes nothing to storage).
 */
import { useEffect, useState } from 'react';
import { browserStorage } from './welcome';

export const TEXT_SIZE_KEY = 'ec2-netlab.large-text';
/** The zoom of the larger-text mode (styles.css, [data-text-size="large"]). */
export const LARGE_ZOOM = 1.3;

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
    if (large) root.dataset.textSize = 'large';
    else delete root.dataset.textSize;
    // the picture and the charts measure their boxes again at the new zoom
    window.dispatchEvent(new Event('resize'));
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
