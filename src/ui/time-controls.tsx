/**
 * Time controls: Play/Pause, Step (to the next model event, the next packet at a chosen stage, or
 * one frame), Speed (auto by default: src/sim-client/auto-speed.ts; or the log-scale slider, 1 µs/s to
 * 10 min/s, whose arrow keys move one 1-2-5 notch and Page Up/Down a decade), Rewind, "run until" (first drop, a chosen
 * counter moving, credits running out, a time), the simulated clock in a status region named
 * "Simulated time", and the scrubber over the time reached. Keyboard: space play/pause, "." step,
 * "[" and "]" slower/faster (when focus is not in a text field).
 */
import { useEffect, useMemo, useState } from 'react';
import { STEP_STAGES, type StepStage } from '../lib/step-stages';
import type { RunUntil } from '../protocol/sim-api';
import {
  type AutoPhase,
  formatSimTime,
  formatSpeed,
  SPEED_MAX_NS_PER_S,
  SPEED_MIN_NS_PER_S,
  type SpeedMode,
  type StepChoice,
  speedNotch,
  untilText,
} from '../state/app-store';
import { useApp, useLab } from './context';
import { TimeScrubber } from './time-scrubber';

const LOG_MIN = Math.log10(SPEED_MIN_NS_PER_S);
/** The slider's step, in decades. */
export const SPEED_SLIDER_STEP = 0.01;
/**
 * The slider's top, on its step grid (a range input's End lands on the grid: log10(600e9) =
 * 11.778 would give 11.77, 9.81 min/s); speedFromSlider clamps it to 10 min/s.
 */
export const SPEED_SLIDER_MAX =
  LOG_MIN +
  Math.ceil((Math.log10(SPEED_MAX_NS_PER_S) - LOG_MIN) / SPEED_SLIDER_STEP - 1e-9) * SPEED_SLIDER_STEP;

/**
 * Notches a key moves the Speed slider by (SPEED_NOTCHES: 1, 2, 5 per decade): an arrow one, Page
 * Up / Page Down a decade. (Home and End go to the ends as a range input does.)
 */
export const SPEED_KEY_NOTCHES: Readonly<Record<string, number>> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
  PageUp: 3,
  PageDown: -3,
};

/**
 * What the speed reads: "auto · 24 µs/s", "auto · jumping to the next packet", "2 ms/s"; paused,
 * auto says only "auto" (it chooses again when the lab plays).
 */
export function speedLabel(mode: SpeedMode, phase: AutoPhase, nsPerS: number, playing = true): string {
  if (mode !== 'auto') return formatSpeed(nsPerS);
  if (!playing) return 'auto';
  if (phase === 'skip') return 'auto · jumping to the next packet';
  if (phase === 'quiet') return `auto · ${formatSpeed(nsPerS)} (nothing running)`;
  return `auto · ${formatSpeed(nsPerS)}`;
}

/** The speed a slider position asks for, within [1 µs/s, 10 min/s]. */
export const speedFromSlider = (v: number): number =>
  Math.min(SPEED_MAX_NS_PER_S, Math.max(SPEED_MIN_NS_PER_S, 10 ** v));
/** The counters offered first (the allowance counters: what the talk watches). */
const ALLOWANCE_COUNTERS = [
  'bw_out_allowance_exceeded',
  'bw_in_allowance_exceeded',
  'pps_allowance_exceeded',
  'conntrack_allowance_exceeded',
  'linklocal_allowance_exceeded',
];

/** The step picker's value for a choice, and back. */
const stepValue = (c: StepChoice) => (c.kind === 'packet' ? `packet:${c.stage}` : c.kind);
function stepChoice(v: string, host: string): StepChoice {
  if (v === 'event' || v === 'frame') return { kind: v };
  const stage = v.slice('packet:'.length) as StepStage;
  return host ? { kind: 'packet', stage, host } : { kind: 'packet', stage };
}

export function TimeControls() {
  const lab = useLab();
  const playing = useApp((s) => s.playback.playing);
  const speed = useApp((s) => s.playback.speedNsPerS);
  const speedMode = useApp((s) => s.playback.speedMode);
  const autoPhase = useApp((s) => s.playback.autoPhase);
  const speedText = speedLabel(speedMode, autoPhase, speed, playing);
  const nowNs = useApp((s) => s.playback.nowNs);
  const lagging = useApp((s) => s.playback.lagging);
  const step = useApp((s) => s.playback.step);
  const lastStep = useApp((s) => s.playback.lastStep);
  const armed = useApp((s) => s.playback.runUntil);
  const runTo = useApp((s) => s.playback.runTo);
  const loading = useApp((s) => s.scenario.loading);
  const instances = useApp((s) => s.scenario.instances);
  const counters = useApp((s) => s.results.counters);
  const [until, setUntil] = useState('first-drop');
  const [untilTime, setUntilTime] = useState('1');
  const [untilError, setUntilError] = useState<string | null>(null);
  const [counterHost, setCounterHost] = useState('');
  const [counter, setCounter] = useState('bw_out_allowance_exceeded');
  const host = counterHost || instances[0]?.name || 'client';
  const stepHost = step.kind === 'packet' ? (step.host ?? '') : '';

  // every ethtool -S counter of the chosen instance, the allowance counters first
  const counterNames = useMemo(() => {
    const names = counters.find((c) => c.host === host)?.names ?? [];
    const first = ALLOWANCE_COUNTERS.filter((n) => names.includes(n) || names.length === 0);
    return [...first, ...names.filter((n) => !first.includes(n))];
  }, [counters, host]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.key === ' ') {
        // Space presses a focused button, tab, link or summary: it plays only from elsewhere
        if (t?.closest('button, a[href], summary, [role="tab"], [role="button"], [contenteditable="true"]'))
          return;
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
    setUntilError(null);
    if (until === 'time') {
      const s = Number(untilTime.trim());
      if (untilTime.trim() === '' || !Number.isFinite(s) || s < 0) {
        setUntilError(`"${untilTime}" is not a time in seconds (e.g. 1.5)`);
        return;
      }
      const atNs = Math.round(s * 1e9);
      if (atNs <= nowNs) {
        // a time already passed: go back to it (restored exactly, as the timeline does)
        void lab.seek(atNs);
        return;
      }
      cond = { kind: 'time', atNs };
    } else if (until === 'counter') cond = { kind: 'counter-moves', host, counter };
    else if (until === 'credits') cond = { kind: 'credits-empty' };
    else cond = { kind: 'first-drop' };
    void lab.runUntil(cond);
  };

  return (
    <section className="time-controls" aria-label="Time controls">
      <div className="time-row">
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
        <span className="step-group">
          <button
            type="button"
            onClick={() => void lab.step()}
            disabled={loading}
            aria-keyshortcuts="."
            title="Advance to what 'Step to' says, with the clock paused"
          >
            Step
          </button>
          <label>
            <span className="visually-hidden">Step to</span>
            <select
              aria-label="Step to"
              value={stepValue(step)}
              onChange={(e) => lab.setStep(stepChoice(e.target.value, stepHost))}
            >
              <option value="event">to the next event</option>
              <optgroup label="to the next packet entering">
                {STEP_STAGES.map((s) => (
                  <option key={s.stage} value={`packet:${s.stage}`}>
                    next packet at {s.label}
                  </option>
                ))}
              </optgroup>
              <option value="frame">one frame of time at this speed</option>
            </select>
          </label>
          {step.kind === 'packet' ? (
            <label>
              <span className="visually-hidden">Step on instance</span>
              <select
                aria-label="Step on instance"
                value={stepHost}
                onChange={(e) => lab.setStep(stepChoice(stepValue(step), e.target.value))}
              >
                <option value="">either instance</option>
                {instances.map((i) => (
                  <option key={i.name} value={i.name}>
                    on {i.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </span>
        <button
          type="button"
          onClick={() => void lab.rewind(nowNs - speed)}
          disabled={loading}
          title="Back one second of wall time at this speed (restored exactly; the scrubber goes anywhere)"
        >
          Rewind
        </button>
        <span className="speed-group">
          <button
            type="button"
            className="small"
            aria-pressed={speedMode === 'auto'}
            onClick={() => lab.setSpeed(speedMode === 'auto' ? speed : 'auto')}
            title="Auto speed: slow enough to follow the packets while they move (a batch crosses the fabric in about half a second), a jump over the stretches where none moves. The slider sets a speed of your own."
          >
            Auto
          </button>
          <label className="speed">
            <span>Speed</span>
            <input
              type="range"
              aria-label="Speed"
              aria-valuetext={speedText}
              aria-keyshortcuts="[ ]"
              min={LOG_MIN}
              max={SPEED_SLIDER_MAX}
              step={SPEED_SLIDER_STEP}
              value={Math.log10(speed)}
              onChange={(e) => lab.setSpeed(speedFromSlider(Number(e.target.value)))}
              onKeyDown={(e) => {
                const n = SPEED_KEY_NOTCHES[e.key];
                if (n === undefined) return;
                e.preventDefault();
                lab.setSpeed(speedNotch(speed, n));
              }}
            />
            <output data-testid="speed-text">{speedText}</output>
          </label>
        </span>
        <div className="clock" role="status" aria-label="Simulated time" aria-live="off">
          <span className="clock-label">t =</span> <span data-testid="sim-time">{formatSimTime(nowNs)}</span>
          {lagging && playing ? <span className="lag"> (model-bound: slower than asked)</span> : null}
        </div>
      </div>
      <div className="time-row">
        <TimeScrubber />
        <fieldset className="run-until">
          <legend className="visually-hidden">Run until</legend>
          <label>
            Run until{' '}
            <select
              value={until}
              onChange={(e) => {
                setUntil(e.target.value);
                setUntilError(null);
              }}
            >
              <option value="first-drop">first drop</option>
              <option value="counter">a counter moves</option>
              <option value="credits">burst credits run out</option>
              <option value="time">a time (s), or back to it</option>
            </select>
          </label>
          {until === 'time' ? (
            <input
              aria-label="Run until time in seconds"
              aria-invalid={untilError ? true : undefined}
              className="until-time"
              value={untilTime}
              onChange={(e) => setUntilTime(e.target.value)}
              inputMode="decimal"
            />
          ) : null}
          {until === 'counter' ? (
            <>
              <select
                aria-label="Counter of instance"
                value={host}
                onChange={(e) => setCounterHost(e.target.value)}
              >
                {instances.map((i) => (
                  <option key={i.name} value={i.name}>
                    {i.name}
                  </option>
                ))}
              </select>
              <select aria-label="Counter" value={counter} onChange={(e) => setCounter(e.target.value)}>
                {counterNames.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <button type="button" onClick={go} disabled={loading}>
            Go
          </button>
          {armed && !runTo ? (
            <span className="pending">
              armed: runs until {untilText(armed)} as soon as a command starts{' '}
              <button type="button" className="small" onClick={() => lab.cancelRun()}>
                Disarm
              </button>
            </span>
          ) : null}
          {untilError ? (
            <span className="until-error" role="alert">
              {untilError}
            </span>
          ) : null}
        </fieldset>
      </div>
      {lastStep ? (
        <p className="step-report" data-testid="step-report">
          <strong>Step</strong> → {formatSimTime(lastStep.atNs)}: {lastStep.summary}
        </p>
      ) : null}
    </section>
  );
}
