/**
 * Path-view benchmark page (tests/bench/path-view.bench.mjs drives it): renders <PathView> with a
 * synthetic frame of N batches (default 5,000; `?n=`) and a new time every animation frame, and
 * publishes the draw durations on `window.__pathBench` after `?frames=` frames (default 300).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { PathFrame } from '../../../src/protocol/path-frame';
import { PathView, type ColourBy } from '../../../src/ui/path/path-view';
import { syntheticFrame, syntheticLayout } from './synthetic';

const params = new URLSearchParams(location.search);
const N = Number(params.get('n') ?? 5000);
const FRAMES = Number(params.get('frames') ?? 300);
const layout = syntheticLayout(params.get('client') ?? 'c7i.large', params.get('server') ?? 'c7i.large');
const base = syntheticFrame(layout, N, 1_000_000);

declare global {
  interface Window {
    __pathBench?: { drawMs: number[]; drawRasterMs: number[]; intervalsMs: number[]; n: number };
  }
}

function Bench() {
  const [frame, setFrame] = useState<PathFrame>(base);
  const [colourBy, setColourBy] = useState<ColourBy>('flow');
  const draws = useRef<number[]>([]);
  const stamps = useRef<number[]>([]);
  const rasters = useRef<number[]>([]);
  const onFrameDrawn = useCallback((ms: number) => {
    draws.current.push(ms);
    // a 1-pixel readback forces the canvas's deferred drawing to be rasterised now: draw + raster
    // is the whole cost of the frame's picture, without React scheduling or compositing
    const c = document.querySelector('canvas');
    const t0 = performance.now();
    c?.getContext('2d')?.getImageData(0, 0, 1, 1);
    rasters.current.push(ms + (performance.now() - t0));
    stamps.current.push(performance.now());
  }, []);
  useEffect(() => {
    let k = 0;
    let raf = 0;
    const tick = () => {
      k++;
      // move the window forward 100 ns per frame: every batch moves, all stay in view
      setFrame({ ...base, fromNs: base.fromNs + k * 100, toNs: base.toNs + k * 100 });
      if (k < FRAMES) raf = requestAnimationFrame(tick);
      else {
        const s = stamps.current;
        window.__pathBench = {
          drawMs: draws.current.slice(1),
          drawRasterMs: rasters.current.slice(1),
          intervalsMs: s.slice(1).map((t, i) => t - s[i]!),
          n: N,
        };
      }
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, []);
  return (
    <PathView
      layout={layout}
      frame={frame}
      selection={null}
      onSelect={() => {}}
      colourBy={colourBy}
      onColourByChange={setColourBy}
      onFrameDrawn={onFrameDrawn}
    />
  );
}

createRoot(document.getElementById('root')!).render(<Bench />);
