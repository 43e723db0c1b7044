/**
 * The packet inspector: one batch's 5-tuple, size and flow; how the sender picked its TX queue and
 * how the receiver's RSS steered it (hash → indirection entry → queue → vCPU); the flow-setup
 * decisions on each Nitro card (the rules that matched); and every stage it passed with its time
 * and what was decided there, down to where and why it died. Presentational: data in, onClose out.
 */
import type { PacketInspection } from '../../protocol/path-frame';
import { fmtInt, fmtNs, hex32 } from './format';
import './inspectors.css';

export interface PacketInspectorProps {
  inspection: PacketInspection | null;
  /** Shown when the recorder no longer holds the packet (or none is selected). */
  missing?: string;
  onClose: () => void;
}

export function PacketInspector({ inspection: p, missing, onClose }: PacketInspectorProps) {
  if (!p)
    return (
      <aside className="inspector" aria-label="Packet inspector">
        <header className="inspector__head">
          <h2>Packet</h2>
          <button type="button" onClick={onClose} aria-label="Close packet inspector">
            ×
          </button>
        </header>
        <p className="inspector__muted">{missing ?? 'Click a packet in the path to inspect it.'}</p>
      </aside>
    );
  const t = p.tuple;
  const tuple =
    t.proto === 'icmp'
      ? `icmp ${t.srcIp} → ${t.dstIp}`
      : `${t.proto} ${t.srcIp}:${t.srcPort} → ${t.dstIp}:${t.dstPort}`;
  const died = p.visits.find((v) => v.fate === 'dropped');
  return (
    <aside className="inspector" aria-label="Packet inspector" data-testid="packet-inspector">
      <header className="inspector__head">
        <h2>
          Packet <span className="inspector__mono">{tuple}</span>
        </h2>
        <button type="button" onClick={onClose} aria-label="Close packet inspector">
          ×
        </button>
      </header>
      <p>
        A batch of <strong>{fmtInt(p.count)}</strong> identical packet{p.count === 1 ? '' : 's'} of{' '}
        <strong>{fmtInt(p.sizeBytes)} B</strong> (IP length), flow #{p.flowId}, first{' '}
        {t.proto === 'tcp' ? `sequence number ${fmtInt(p.seq)}` : `datagram #${fmtInt(p.seq)}`};{' '}
        {p.sender ?? 'outside'} → {p.receiver ?? 'outside'}.
      </p>
      {died && (
        <p className="inspector__drop" role="status">
          ✕ Dropped at {died.label} on {died.host}: <strong>{died.dropReason}</strong>
        </p>
      )}

      <h3>Queue selection</h3>
      <dl className="inspector__chain">
        {p.tx && (
          <>
            <dt>Sender ({p.sender}) TX queue</dt>
            <dd>
              skb hash <code>{hex32(p.tx.skbHash)}</code> → reciprocal_scale(hash, {p.tx.queues}) → TX queue{' '}
              <strong>{p.tx.queue}</strong>
            </dd>
          </>
        )}
        {p.rss && (
          <>
            <dt>Receiver ({p.receiver}) RX queue</dt>
            <dd>
              {p.rss.ntupleRule !== null ? (
                <>
                  n-tuple rule {p.rss.ntupleRule} → RX queue <strong>{p.rss.queue}</strong> (RSS bypassed)
                </>
              ) : (
                <>
                  {p.rss.hashFunction} hash <code>{hex32(p.rss.hash)}</code> → indirection entry{' '}
                  <code>
                    {p.rss.indirIndex} of {p.rss.indirSize}
                  </code>{' '}
                  → RX queue <strong>{p.rss.queue}</strong>
                </>
              )}{' '}
              → interrupt/NAPI on <strong>vCPU {p.rss.cpu}</strong>
            </dd>
          </>
        )}
      </dl>

      <h3>Flow setup on the Nitro cards</h3>
      {p.flowSetup.length === 0 && <p className="inspector__muted">No Nitro card evaluated this flow.</p>}
      {p.flowSetup.map((c) => (
        <div key={`${c.host}-${c.direction}`}>
          <p className="inspector__sub">
            {c.host} ({c.direction}): flow cache {c.cacheState ?? 'no entry'}
            {c.conntrack ? `; conntrack ${c.conntrack}` : '; not in conntrack'}
          </p>
          <table className="inspector__table">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Result</th>
                <th scope="col">Rule that decided</th>
              </tr>
            </thead>
            <tbody>
              {c.stages.map((s) => (
                <tr key={s.stage} className={s.result === 'deny' || s.result === 'drop' ? 'is-deny' : ''}>
                  <td>{s.stage}</td>
                  <td>{s.result}</td>
                  <td>
                    {s.rule}
                    {s.resourceId ? <span className="inspector__muted"> [{s.resourceId}]</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}

      <h3>Stages passed</h3>
      <ol className="inspector__visits">
        {p.visits.map((v) => (
          <li key={`${v.host}-${v.stage}-${v.enterNs}`} className={v.fate === 'dropped' ? 'is-drop' : ''}>
            <span className="inspector__time">{fmtNs(v.enterNs)}</span>
            <span>
              <strong>{v.label}</strong> · {v.host}
              {v.stage.endsWith('ring') || v.stage === 'qdisc' ? ` · queue ${v.queue}` : ''}
              {v.exitNs !== null ? ` · ${fmtNs(v.exitNs - v.enterNs)}` : ''}
              <br />
              <span className="inspector__muted">{v.decision}</span>
            </span>
          </li>
        ))}
      </ol>
      {p.expired && <p className="inspector__muted">Older stages fell out of the recorder's history.</p>}
    </aside>
  );
}
