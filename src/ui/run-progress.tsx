/**
 * A run of the model to an instant (opening a link with its time, a seek past the end): how far it
 * got ("Running to t = 600.000000 s: 37 %"), about how long is left at the pace measured over the
 * last few seconds (src/lib/pace.ts), and Cancel, which stops where the model has got to and leaves
 * the lab there, usable (LabController.cancelRun). A seek back replaying from a checkpoint shows
 * the same bar ("Going back to …"); its Cancel returns the lab to the instant it was at.
 * Shown only while such a run is going on.
 */
import { useId } from 'react';
import { measuredPace, wallSecondsLeft } from '../lib/pace';
import { formatSimTime, formatSpeed } from '../state/app-store';
import { useApp, useLab } from './context';

/** "about 40 s left", "about 12 min left", "about 3 h left". */
export function formatWallLeft(s: number): string {
  if (s < 90) return `about ${Math.max(1, Math.round(s))} s left`;
  if (s < 90 * 60) return `about ${Math.round(s / 60)} min left`;
  return `about ${Math.round(s / 3600)} h left`;
}

export function RunProgress() {
  const lab = useLab();
  const run = useApp((s) => s.playback.runTo);
  const nowNs = useApp((s) => s.playback.nowNs);
  const labelId = useId();
  if (!run) return null;
  if (run.until !== undefined) return <UntilProgress until={run.until} fromNs={run.fromNs} />;
  const at = run.atNs ?? nowNs;
  const span = run.toNs - run.fromNs;
  const frac = span > 0 ? Math.min(1, Math.max(0, (at - run.fromNs) / span)) : 1;
  const pct = Math.floor(frac * 100);
  // at the pace measured over the last few seconds (simulated ns per wall ms), once there is one
  const s = wallSecondsLeft(run.pace, run.toNs, performance.now());
  const left = s === null ? null : formatWallLeft(s);
  // a replay to the instant the lab is at: the picture of the packets there (after a run without detail)
  const redraw = run.back !== undefined && run.back.originNs === run.toNs;
  const verb = redraw ? 'Drawing the packets at' : run.back ? 'Going back to' : 'Running to';
  const cancels = redraw
    ? 'Cancel keeps the lab as it is, with the counts-only picture'
    : run.back
      ? `Cancel returns to ${formatSimTime(run.back.originNs)}, where the lab was`
      : 'Cancel stops where it has got to';
  return (
    <div className="run-progress" data-testid="run-progress">
      <span id={labelId} className="run-progress-label">
        {verb} t = {formatSimTime(run.toNs)}: {pct} %
      </span>
      <progress aria-labelledby={labelId} max={100} value={pct} />
      <span className="run-progress-left">
        {left ?? 'estimating the time left…'} · {cancels}
      </span>
      <button
        type="button"
        onClick={() => lab.cancelRun()}
        title={
          run.back
            ? 'Stop going back: the lab returns to the instant it was at, as it was'
            : 'Stop here: the lab stays at the instant reached, ready to play on; nothing typed is lost'
        }
      >
        Cancel
      </button>
    </div>
  );
}

/**
 * A "run until" a condition (a drop, a counter moving, credits running out): no end is known, so
 * the bar is indeterminate; the clock reached and the pace the model keeps (simulated time per
 * wall second) say how it goes.
 */
function UntilProgress({ until, fromNs }: { until: string; fromNs: number }) {
  const lab = useLab();
  const nowNs = useApp((s) => s.playback.nowNs);
  const pace = useApp((s) => s.playback.runTo?.pace ?? []);
  const labelId = useId();
  const rate = measuredPace(pace);
  return (
    <div className="run-progress" data-testid="run-progress">
      <span id={labelId} className="run-progress-label">
        Running until {until}: t = {formatSimTime(nowNs)}
      </span>
      <progress aria-labelledby={labelId} />
      <span className="run-progress-left">
        {rate === null
          ? 'as fast as the model goes'
          : `${formatSpeed(rate * 1000)} (as fast as the model goes, from ${formatSimTime(fromNs)})`}{' '}
        · Cancel stops where it has got to
      </span>
      <button
        type="button"
        onClick={() => lab.cancelRun()}
        title="Stop here: the lab stays at the instant reached, ready to play on; nothing typed is lost"
      >
        Cancel
      </button>
    </div>
  );
}
