/**
 * A run of the model to an instant (opening a link with its time, a seek past the end): how far it
 * got ("Running to t = 600.000000 s: 37 %"), about how long is left at the pace so far, and Cancel,
 * which stops where the model has got to and leaves the lab there, usable (LabController.cancelRun).
 * Shown only while such a run is going on.
 */
import { useId } from 'react';
import { formatSimTime } from '../state/app-store';
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
  const span = run.toNs - run.fromNs;
  const frac = span > 0 ? Math.min(1, Math.max(0, (nowNs - run.fromNs) / span)) : 1;
  const pct = Math.floor(frac * 100);
  const elapsedS = (performance.now() - run.startedMs) / 1000;
  // an estimate only once there is something to go on
  const left = frac >= 0.01 && elapsedS >= 1 ? formatWallLeft((elapsedS * (1 - frac)) / frac) : null;
  return (
    <div className="run-progress" data-testid="run-progress">
      <span id={labelId} className="run-progress-label">
        Running to t = {formatSimTime(run.toNs)}: {pct} %
      </span>
      <progress aria-labelledby={labelId} max={100} value={pct} />
      <span className="run-progress-left">
        {left ?? 'estimating the time left…'} · Cancel stops where it has got to
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
