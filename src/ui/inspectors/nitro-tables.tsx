/**
 * The Nitro card's state as NET402's "Flow Setup" slides draw it: Mapping State (adjacency →
 * target), ConnTrack (5-tuple, state, idle timer), Flow Cache (flow, state), with the conntrack
 * allowance and the processing-path counts. The same data `lab nitro show` prints.
 */
import type { NitroTables as Tables } from '../../protocol/path-frame';
import { fmtInt } from './format';
import './inspectors.css';

export function NitroTables({ tables: t }: { tables: Tables }) {
  return (
    <section className="inspector nitro-tables" aria-label={`Nitro state of ${t.host}`}>
      <h2>
        Nitro state · {t.host}
        {t.eniId ? <span className="inspector__muted"> ({t.eniId})</span> : null}
      </h2>
      <div className="nitro-tables__grid">
        <table className="inspector__table">
          <caption>Mapping State</caption>
          <thead>
            <tr>
              <th scope="col">Adjacency</th>
              <th scope="col">Target</th>
            </tr>
          </thead>
          <tbody>
            {t.adjacency.map((a) => (
              <tr key={a.target}>
                <td>{a.target}</td>
                <td>{a.state}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="inspector__table">
          <caption>ConnTrack</caption>
          <thead>
            <tr>
              <th scope="col">5-Tuple</th>
              <th scope="col">State</th>
              <th scope="col">Idle timer</th>
            </tr>
          </thead>
          <tbody>
            {t.conntrack.length === 0 && (
              <tr>
                <td colSpan={3} className="inspector__muted">
                  no tracked connections
                </td>
              </tr>
            )}
            {t.conntrack.map((c) => (
              <tr key={c.tuple}>
                <td className="inspector__mono">{c.tuple}</td>
                <td>
                  {c.state} · {c.tracking}
                </td>
                <td>
                  {fmtIdle(c.idleRemainingS)} of {fmtIdle(c.idleTimeoutS)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="inspector__table">
          <caption>Flow Cache</caption>
          <thead>
            <tr>
              <th scope="col">Flow</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {t.flowCache.length === 0 && (
              <tr>
                <td colSpan={2} className="inspector__muted">
                  empty
                </td>
              </tr>
            )}
            {t.flowCache.map((e) => (
              <tr key={e.flow}>
                <td className="inspector__mono">
                  {e.flow} <span className="inspector__muted">({e.direction})</span>
                </td>
                <td>{e.state}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="inspector__muted">
        conntrack allowance: {fmtInt(t.allowance.available)} of {fmtInt(t.allowance.max)} available,{' '}
        {fmtInt(t.allowance.exceeded)} exceeded · {plural(t.flowPath.slowPathPackets, 'packet')} on the
        processing path, {fmtInt(t.flowPath.acceleratedPackets)} accelerated,{' '}
        {plural(t.flowPath.flowSetups, 'flow setup')}, {fmtInt(t.flowPath.vpcDeniedPackets)} denied
      </p>
    </section>
  );
}

const plural = (n: number, what: string) => `${fmtInt(n)} ${what}${n === 1 ? '' : 's'}`;

/** An idle timer: seconds under 10 minutes ("179.5 s"), else the largest whole unit ("5 days", "2 h 30 min"). */
export function fmtIdle(s: number): string {
  if (s < 600) return `${s.toFixed(1)} s`;
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} day${d === 1 ? '' : 's'}`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}
