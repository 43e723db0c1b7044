/**
 * The stage inspector: a queue, ring, shaper or the fabric: its parameters with their provenance
 * (documented / measured / assumed, and the source), its live state, its counts and drops by
 * reason, and its occupancy history (the change points the recorder holds) as a step chart.
 */
import type { StageInspection } from '../../protocol/path-frame';
import { fmtInt, fmtNs } from './format';
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
      <ul className="inspector__state">
        {s.state.map((x) => (
          <li key={x.name}>
            {x.name}: <strong>{x.value}</strong>
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

/** Occupancy over the held history, as a step line (SVG). */
function History({ ns, occ }: { ns: readonly number[]; occ: readonly number[] }) {
  if (ns.length < 2) return <p className="inspector__muted">No occupancy history yet.</p>;
  const W = 320;
  const H = 70;
  const t0 = ns[0]!;
  const t1 = ns[ns.length - 1]!;
  let max = 1;
  for (const v of occ) max = Math.max(max, v);
  const x = (t: number) => ((t - t0) / Math.max(1, t1 - t0)) * (W - 2) + 1;
  const y = (v: number) => H - 14 - (v / max) * (H - 20);
  let d = `M${x(ns[0]!)},${y(occ[0]!)}`;
  for (let i = 1; i < ns.length; i++) d += `H${x(ns[i]!).toFixed(1)}V${y(occ[i]!).toFixed(1)}`;
  return (
    <figure className="inspector__history">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        role="img"
        aria-label={`Occupancy from ${fmtNs(t0)} to ${fmtNs(t1)}, peak ${fmtInt(max)} packets`}
      >
        <path d={d} fill="none" stroke="currentColor" strokeWidth={1.2} />
        <text x={2} y={H - 2} fontSize={10} fill="currentColor">
          {fmtNs(t0)}
        </text>
        <text x={W - 2} y={H - 2} fontSize={10} textAnchor="end" fill="currentColor">
          {fmtNs(t1)}
        </text>
        <text x={2} y={10} fontSize={10} fill="currentColor">
          peak {fmtInt(max)} packets
        </text>
      </svg>
      <figcaption className="inspector__muted">
        Packets inside, over the last {ns.length} changes held
      </figcaption>
    </figure>
  );
}
