/**
 * Attaching the full metrics recorder to a lab (createLab with `settings.record` or
 * `{ metrics: true }`, the UI, `lab record on`). Recording starts at the current instant: series
 * before it are empty. Idempotent: a lab has at most one recorder.
 */
import type { Lab } from './lab';
import { MetricsRecorder } from '../metrics/recorder';

export function attachRecorder(lab: Lab): MetricsRecorder {
  if (lab.metrics) return lab.metrics;
  const insts = [...lab.instances.values()];
  const rec = new MetricsRecorder(
    insts.map((i) => i.name),
    {
      counters: (h) => {
        const nitro = insts[h]!.nitro;
        const c = nitro.counters();
        return [
          ['bw_in_allowance_exceeded', c.bw_in_allowance_exceeded],
          ['bw_out_allowance_exceeded', c.bw_out_allowance_exceeded],
          ['pps_allowance_exceeded', c.pps_allowance_exceeded],
          ['conntrack_allowance_exceeded', c.conntrack_allowance_exceeded],
          ['linklocal_allowance_exceeded', c.linklocal_allowance_exceeded],
          ['conntrack_allowance_available', nitro.conntrackAvailable()],
        ];
      },
    },
  );
  rec.nowNs = lab.nowNs;
  lab.probe.attach(rec);
  lab.metrics = rec;
  return rec;
}
