/**
 * Time controls: Play/Pause, Step, Speed (log scale, 1 µs/s to 10 min/s), Rewind, "run until",
 * and the simulated clock in a status region named "Simulated time". Keyboard: space play/pause,
 * "." step, "[" and "]" slower/faster (when focus is not in a text field).
 */
import { useEffect, useState } from 'react';
import type { RunUntil } from '../protocol/sim-api';
import { formatSimTime, formatSpeed, SPEED_MAX_NS_PER_S, SPEED_MIN_NS_PER_S } from '../state/app-store';
import { useApp, useLab } from './context';

const LOG_MIN = Math.log10(SPEED_MIN_NS_PER_S);
const LOG_MAX = Math.log10(SPEED_MAX_NS_PER_S);

export function TimeControls() {
  const lab = useLab();
  const playing = useApp((s) => s.playback.playing);
  const speed = useApp((s) => s.playback.speedNsPerS);
  const nowNs = useApp((s) => s.playback.nowNs);
  const lagging = useApp((s) => s.playback.lagging);
  const runUntil = useApp((s) => s.playback.runUntil);
  const loading = useApp((s) => s.scenario.loading);
  const [until, setUntil] = useState('first-drop');
  const [untilTime, setUntilTime] = useState('1');

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.key === ' ') {
        e.preventDefault();
        lab.togglePlay();
      } else if (e.key === '.') void lab.step();
      else if (e.key === ']') lab.faster();
      else if (e.key === '[') lab.slower();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [lab]);

  const go = () => {
    let cond: RunUntil;
    if (until === 'time') cond = { kind: 'time', atNs: Math.round(Number(untilTime) * 1e9) };
    else if (until === 'counter')
      cond = { kind: 'counter-moves', host: 'client', counter: 'bw_out_allowance_exceeded' };
    else if (until === 'credits') cond = { kind: 'credits-empty' };
    else cond = { kind: 'first-drop' };
    lab.runUntil(cond);
  };

  return (
    <section className="time-controls" aria-label="Time controls">
      <button
        type="button"
        className="primary"
        onClick={() => lab.togglePlay()}
        disabled={loading}
        aria-label={playing ? 'Pause' : 'Play'}
        aria-keyshortcuts="Space"
      >
        <span aria-hidden="true">{playing ? '❚❚ ' : '▶ '}</span>
        {playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={() => void lab.step()} disabled={loading} aria-keyshortcuts=".">
        Step
      </button>
      <button
        type="button"
        onClick={() => void lab.rewind(nowNs - speed)}
        disabled={loading}
        title="Back one second of wall time at this speed (rebuilds and replays)"
      >
        Rewind
      </button>
      <label className="speed">
        <span>Speed</span>
        <input
          type="range"
          aria-label="Speed"
          aria-valuetext={formatSpeed(speed)}
          aria-keyshortcuts="[ ]"
          min={LOG_MIN}
          max={LOG_MAX}
          step={0.01}
          value={Math.log10(speed)}
          onChange={(e) => lab.setSpeed(10 ** Number(e.target.value))}
        />
        <output>{formatSpeed(speed)}</output>
      </label>
      <div className="clock" role="status" aria-label="Simulated time" aria-live="off">
        <span className="clock-label">t =</span> <span data-testid="sim-time">{formatSimTime(nowNs)}</span>
        {lagging && playing ? <span className="lag"> (model-bound: slower than asked)</span> : null}
      </div>
      <fieldset className="run-until">
        <legend className="visually-hidden">Run until</legend>
        <label>
          Run until{' '}
          <select value={until} onChange={(e) => setUntil(e.target.value)}>
            <option value="first-drop">first drop</option>
            <option value="counter">bw_out_allowance_exceeded moves</option>
            <option value="credits">burst credits run out</option>
            <option value="time">a time (s)</option>
          </select>
        </label>
        {until === 'time' ? (
          <input
            aria-label="Run until time in seconds"
            className="until-time"
            value={untilTime}
            onChange={(e) => setUntilTime(e.target.value)}
            inputMode="decimal"
          />
        ) : null}
        <button type="button" onClick={go} disabled={loading}>
          Go
        </button>
        {runUntil ? <span className="pending">waiting for {runUntil.kind.replace('-', ' ')}…</span> : null}
      </fieldset>
    </section>
  );
}
