/** Helpers for golden tests: run a scenario's script and read iperf3's -J results. */
import { createLab, runScript, type RunRecord } from '../../src/engine/session/runner';
import { parseScenario, type ScenarioInput } from '../../src/scenario/schema';

export function runLab(
  input: Partial<Omit<ScenarioInput, 'version'>> & { version?: number },
  script: string[],
): { runs: RunRecord[]; lab: ReturnType<typeof createLab> } {
  const parsed = parseScenario({ version: 1, ...input });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const lab = createLab(parsed.scenario);
  const runs = runScript(lab, script);
  return { runs, lab };
}

export function pair(type: string, placement = 'cluster'): Partial<ScenarioInput> {
  return {
    placement: placement as ScenarioInput['placement'],
    instances: [
      { name: 'client', type },
      { name: 'server', type },
    ],
  };
}

type Json = Record<string, unknown>;
const obj = (x: unknown) => x as Json;

/** iperf3 -J end figures in Gbps. */
export function iperfEnd(run: RunRecord) {
  const end = obj(obj(run.result).end);
  const streams = (end.streams as Json[]).map((s) => {
    const snd = obj(s.sender ?? s.udp);
    const rcv = obj(s.receiver ?? s.udp);
    return {
      sentGbps: Number(snd.bits_per_second) / 1e9,
      recvGbps: Number(rcv.bits_per_second) / 1e9,
      retr: Number(snd.retransmits ?? 0),
    };
  });
  const sumSent = obj(end.sum_sent);
  const sumRecv = obj(end.sum_received);
  const udp = end.sum ? obj(end.sum) : null;
  return {
    streams,
    sentGbps: Number(sumSent.bits_per_second) / 1e9,
    recvGbps: Number(sumRecv.bits_per_second) / 1e9,
    sentPackets: udp ? Number(udp.packets) : 0,
    lostPackets: udp ? Number(udp.lost_packets) : 0,
    lostPercent: udp ? Number(udp.lost_percent) : 0,
  };
}

/** Per-interval SUM Gbps as the client printed them (sender side). */
export function intervalSums(run: RunRecord): number[] {
  const ivs = obj(run.result).intervals as Json[];
  return ivs.map((iv) => Number(obj(iv.sum).bits_per_second) / 1e9);
}

export function counter(run: RunRecord, name: string): number {
  const v = obj(run.result)[name];
  if (typeof v !== 'number') throw new Error(`no counter ${name} in ${run.command}`);
  return v;
}

export const within = (x: number, target: number, tol: number) => Math.abs(x - target) <= target * tol;

export const fmt = (x: number, d = 2) => x.toFixed(d);
