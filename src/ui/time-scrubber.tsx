/**
 * The timeline scrubber: a slider named "Timeline: simulated time position" (its visible label
 * first) over [0, furthest instant reached]. Moving it back restores that instant exactly (the
 * worker's checkpoints plus replay, with the run-to progress and Cancel when it takes a while);
 * forward runs to it. While dragging, the target is shown and seeks are coalesced: one in flight,
 * then the latest position (a move while a long one runs calls that one off, also one made before
 * it showed its progress). Keyboard: ←/→ 1 % of the range, PageUp/PageDown 10 %,
 * Home/End the ends (the slider's own keys, made proportional).
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { formatSimTime } from '../state/app-store';
import { useApp, useAppStore, useLab } from './context';

/** Quiet time after the last move before a drag seeks (ms): a drag does not queue every pixel. */
const SEEK_DEBOUNCE_MS = 120;

export function TimeScrubber() {
  const lab = useLab();
  const store = useAppStore();
  const nowNs = useApp((s) => s.playback.nowNs);
  const furthest = useApp((s) => s.playback.furthestNs);
  const checkpoints = useApp((s) => s.playback.checkpoints);
  const seeking = useApp((s) => s.playback.seeking);
  /** A seek is showing its progress (a replay of more than one request, or a run forward). */
  const long = useApp((s) => s.playback.runTo !== null);
  const loading = useApp((s) => s.scenario.loading);
  /** Where the user put the thumb, until the lab is there. */
  const [target, setTarget] = useState<number | null>(null);
  const pending = useRef<number | null>(null);
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  // a move made while the seek's first request ran, when that seek turns out long: the newest
  // position wins there too (without this it waited for the whole replay)
  useEffect(() => {
    if (long && busy.current && pending.current !== null) lab.cancelRun();
  }, [long, lab]);

  const end = Math.max(furthest, nowNs);
  const seekNow = async (ns: number) => {
    pending.current = ns;
    if (busy.current) {
      // a long one (a replay with its progress bar) is called off: the newest position wins
      if (store.getState().playback.runTo) lab.cancelRun();
      return;
    }
    busy.current = true;
    try {
      while (pending.current !== null) {
        const t = pending.current;
        pending.current = null;
        await lab.seek(t);
      }
    } finally {
      busy.current = false;
      setTarget(null);
    }
  };
  const seekSoon = (ns: number) => {
    setTarget(ns);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      void seekNow(ns);
    }, SEEK_DEBOUNCE_MS);
  };
  const seekAt = (ns: number) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setTarget(ns);
    void seekNow(ns);
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const cur = target ?? nowNs;
    const by = (f: number) => Math.min(end, Math.max(0, Math.round(cur + f * end)));
    let next: number | null = null;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') next = by(-0.01);
    else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') next = by(0.01);
    else if (e.key === 'PageDown') next = by(-0.1);
    else if (e.key === 'PageUp') next = by(0.1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = end;
    if (next === null) return;
    e.preventDefault();
    seekSoon(next);
  };

  const shown = target ?? nowNs;
  const pct = (ns: number) => (end > 0 ? (100 * ns) / end : 0);
  return (
    <div className="scrubber">
      <span className="scrubber-label" aria-hidden="true">
        Timeline
      </span>
      <span className="scrubber-end" aria-hidden="true">
        0 s
      </span>
      <div className="scrubber-track">
        <input
          type="range"
          aria-label="Timeline: simulated time position"
          aria-valuetext={`${formatSimTime(shown)} of ${formatSimTime(end)}`}
          min={0}
          max={end}
          step="any"
          value={shown}
          disabled={loading || end === 0}
          onChange={(e) => seekSoon(Number(e.target.value))}
          onPointerUp={(e) => seekAt(Number((e.target as HTMLInputElement).value))}
          onKeyDown={onKey}
        />
        <div className="scrubber-marks" aria-hidden="true">
          {checkpoints.map((t) => (
            <span key={t} className="scrubber-mark" style={{ left: `${pct(t)}%` }} />
          ))}
        </div>
      </div>
      <span className="scrubber-end" aria-hidden="true">
        {formatSimTime(end)}
      </span>
      <span className="scrubber-state" aria-live="polite">
        {target !== null || seeking ? `going to ${formatSimTime(shown)}…` : ''}
      </span>
    </div>
  );
}
