/**
 * `ethtool -S eth0` of each instance, live, as one table with a column per instance (the sender's
 * tx beside the receiver's rx, names in full); counters that moved in the last change are
 * highlighted (the cell, and the row's name).
 */
import { useState } from 'react';
import { countersCsv, countersJson, download, fileName } from './charts/export';
import { useApp, useAppStore } from './context';

export function CountersPanel() {
  const counters = useApp((s) => s.results.counters);
  const moved = useApp((s) => s.results.moved);
  const [showZero, setShowZero] = useState(false);
  const embed = useApp((s) => s.env.embed);
  // the clock is read when an export is asked for: subscribing would re-render the table every frame
  const store = useAppStore();
  const nowNs = () => store.getState().playback.nowNs;
  // the union of the hosts' counter names, in the first host's order, then each other host's extras
  const names: string[] = [];
  const seen = new Set<string>();
  for (const c of counters)
    for (const n of c.names)
      if (!seen.has(n)) {
        seen.add(n);
        names.push(n);
      }
  const cols = counters.map((c) => ({
    host: c.host,
    at: new Map(c.names.map((n, i) => [n, i])),
    values: c.values,
    moved: new Set(moved[c.host] ?? []),
  }));
  return (
    <section className="panel counters" aria-label="ethtool -S counters">
      <div className="panel-head">
        <h2>
          <code>ethtool -S eth0</code>
        </h2>
        <label>
          <input type="checkbox" checked={showZero} onChange={(e) => setShowZero(e.target.checked)} /> show
          zeros
        </label>
        {!embed && counters.length > 0 ? (
          <span className="panel-export">
            <button
              type="button"
              className="small"
              aria-label="Export CSV: ethtool -S counters"
              onClick={() =>
                download(countersCsv(counters), fileName('ethtool-S', nowNs(), 'csv'), 'text/csv')
              }
            >
              Export CSV
            </button>
            <button
              type="button"
              className="small"
              aria-label="Export JSON: ethtool -S counters"
              onClick={() =>
                download(
                  countersJson(counters, nowNs()),
                  fileName('ethtool-S', nowNs(), 'json'),
                  'application/json',
                )
              }
            >
              Export JSON
            </button>
          </span>
        ) : null}
      </div>
      <table>
        <thead>
          <tr>
            <th scope="col">counter</th>
            {cols.map((c) => (
              <th scope="col" key={c.host}>
                {c.host}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {names.map((name) => {
            const cells = cols.map((c) => {
              const i = c.at.get(name);
              return { v: i === undefined ? null : c.values[i]!, moved: c.moved.has(name) };
            });
            const anyMoved = cells.some((x) => x.moved);
            if (!showZero && !anyMoved && cells.every((x) => !x.v)) return null;
            return (
              <tr key={name} className={anyMoved ? 'moved' : undefined}>
                <th scope="row" title={name}>
                  {name}
                </th>
                {cells.map((x, k) => (
                  <td key={cols[k]!.host} className={x.moved ? 'moved' : undefined}>
                    {x.v === null ? '' : x.v.toLocaleString('en-US')}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
