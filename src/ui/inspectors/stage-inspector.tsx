/**
 * The stage inspector: a queue, ring, shaper or the fabric: its parameters with their provenance
 * (documented / measured / assumed, and the source), its live state, its counts and drops by
 * reason, and its occupancy history (the change points the recorder holds) as a step chart.
 */
import type { StageInspection } from '../../protocol/path-frame';
import { fmtInt, fmtNs, fmtStateValue } from './format';
import './inspectors.css';

export interface StageInspectorProps {
  inspection: StageInspection;
  onClose: () => void;
}

export function StageInspector({ inspection: s, onClose }: StageInspectorProps) {
  const lanes = s.stage.endsWith('ring') || s.stage === 'qdisc';
  return (
    <aside className="inspector" aria-label="Stage inspector" data-testid="stage-inspector">
      <header className="inspector__head">
        <h2>
          {s.label}
          {lanes ? ` · queue ${s.queue}` : ''} <span className="inspector__muted">on {s.host}</span>
        </h2>
        <button type="button" onClick={onClose} aria-label="Close stage inspector">
          ×
        </button>
      </header>
      {s.mechanism && (
        <ul className="inspector__mechanism">
          {s.mechanism.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      <ul className="inspector__state">
        {s.state.map((x) => (
          <li key={x.name}>
            {x.name}: <strong>{fmtStateValue(x.value)}</strong>
          </li>
        ))}
        <li>
          entered {fmtInt(s.enteredPackets)} · left {fmtInt(s.leftPackets)} · dropped{' '}
          <strong className={s.droppedPackets > 0 ? 'inspector__drop-text' : ''}>
            {fmtInt(s.droppedPackets)}
          </strong>{' '}
          packets
        </li>
        {s.dropsByReason.map((d) => (
          <li key={d.reason} className="inspector__drop-text">
            ✕ {fmtInt(d.packets)} dropped: {d.reason}
          </li>
        ))}
      </ul>
      <History ns={s.historyNs} occ={s.historyOccupancy} />
      <h3>Parameters</h3>
      <table className="inspector__table">
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Value</th>
            <th scope="col">Mark</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {s.params.map((p) => (
            <tr key={p.name}>
              <td>{p.name}</td>
              <td>{p.value}</td>
              <td>
                <span className={`mark mark--${p.provenance}`} title={p.note}>
                  {p.provenance}
                </span>
              </td>
              <td>
                {p.source}
                {p.note && (
                  <details>
                    <summary>why</summary>
                    {p.note}
                  </details>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}

/**
 * Occupancy over the held history (SVG). Per pixel column: the range it took (a band, min to max)
 * and its time-weighted mean (a line), so a queue that fills and drains many times per pixel reads
 * as a band of its swing, not as a solid block of step lines.
 */
export function historyColumns(
  ns: readonly number[],
  occ: readonly number[],
  cols: number,
): { min: Float64Array; max: Float64Array; mean: Float64Array } {
  const t0 = ns[0]!;
  const span = Math.max(1, ns[ns.length - 1]! - t0);
  const min = new Float64Array(cols).fill(Number.POSITIVE_INFINITY);
  const max = new Float64Array(cols).fill(Number.NEGATIVE_INFINITY);
  const area = new Float64Array(cols);
  const colNs = span / cols;
  // each held value lasts from its change to the next; it covers the columns it overlaps
  for (let i = 0; i < ns.length; i++) {
    const a = ns[i]! - t0;
    const b = i + 1 < ns.length ? ns[i + 1]! - t0 : a;
    const v = occ[i]!;
    const c0 = Math.min(cols - 1, Math.floor(a / colNs));
    const c1 = Math.min(cols - 1, Math.floor(b / colNs));
    for (let c = c0; c <= c1; c++) {
      min[c] = Math.min(min[c]!, v);
      max[c] = Math.max(max[c]!, v);
      const lo = Math.max(a, c * colNs);
      const hi = Math.min(b, (c + 1) * colNs);
      if (hi > lo) area[c]! += v * (hi - lo);
    }
  }
  const mean = area.map((x) => x / colNs);
  return { min, max, mean };
}

function History({ ns, occ }: { ns: readonly number[]; occ: readonly number[] }) {
  if (ns.length < 2) return <p className="inspector__muted">No occupancy history yet.</p>;
  const W = 320;
  const H = 74;
  const cols = W - 2;
  const t0 = ns[0]!;
  const t1 = ns[ns.length - 1]!;
  let peak = 1;
  for (const v of occ) peak = Math.max(peak, v);
  const y = (v: number) => H - 14 - (v / peak) * (H - 30);
  const { min, max, mean } = historyColumns(ns, occ, cols);
  let band = '';
  let back = '';
  let line = '';
  for (let c = 0; c < cols; c++) {
    const x = (c + 1.5).toFixed(1);
    band += `${c === 0 ? 'M' : 'L'}${x},${y(max[c]!).toFixed(1)}`;
    back = `L${x},${y(min[c]!).toFixed(1)}${back}`;
    line += `${c === 0 ? 'M' : 'L'}${x},${y(mean[c]!).toFixed(1)}`;
  }
  return (
    <figure className="inspector__history">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={`Occupancy from ${fmtNs(t0)} to ${fmtNs(t1)}, peak ${fmtInt(peak)} packets`}
      >
        <path d={`${band}${back}Z`} fill="currentColor" fillOpacity={0.2} stroke="none" />
        <path d={line} fill="none" stroke="currentColor" strokeWidth={1.2} />
        <text x={2} y={H - 2} fontSize={10} fill="currentColor">
          {fmtNs(t0)}
        </text>
        <text x={W - 2} y={H - 2} fontSize={10} textAnchor="end" fill="currentColor">
          {fmtNs(t1)}
        </text>
        <text x={2} y={10} fontSize={10} fill="currentColor">
          peak {fmtInt(peak)} packets
        </text>
      </svg>
      <figcaption className="inspector__muted">
        Packets inside over the last {ns.length.toLocaleString('en-US')} changes held: the band is the range
        in each pixel's time, the line its time-weighted mean
      </figcaption>
    </figure>
  );
}
