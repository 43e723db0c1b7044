/** `ethtool -S eth0` of each instance, live; counters that moved in the last change are highlighted. */
import { useState } from 'react';
import { countersCsv, countersJson, download, fileName } from './charts/export';
import { useApp } from './context';

export function CountersPanel() {
  const counters = useApp((s) => s.results.counters);
  const moved = useApp((s) => s.results.moved);
  const [showZero, setShowZero] = useState(false);
  const embed = useApp((s) => s.env.embed);
  const nowNs = useApp((s) => s.playback.nowNs);
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
              onClick={() => download(countersCsv(counters), fileName('ethtool-S', nowNs, 'csv'), 'text/csv')}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="small"
              aria-label="Export JSON: ethtool -S counters"
              onClick={() =>
                download(
                  countersJson(counters, nowNs),
                  fileName('ethtool-S', nowNs, 'json'),
                  'application/json',
                )
              }
            >
              Export JSON
            </button>
          </span>
        ) : null}
      </div>
      <div className="counter-hosts">
        {counters.map((c) => {
          const m = new Set(moved[c.host] ?? []);
          return (
            <table key={c.host}>
              <caption>{c.host}</caption>
              <tbody>
                {c.names.map((name, i) => {
                  const v = c.values[i]!;
                  if (!showZero && v === 0 && !m.has(name)) return null;
                  return (
                    <tr key={name} className={m.has(name) ? 'moved' : undefined}>
                      <th scope="row" title={name}>
                        {name}
                      </th>
                      <td>{v.toLocaleString('en-US')}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          );
        })}
      </div>
    </section>
  );
}
