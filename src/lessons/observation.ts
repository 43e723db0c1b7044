/**
 * What a lesson step is checked against: plain, serialisable snapshots of what the lab reports
 * (ethtool -S counters, ring sizes, the Nitro card's flow statistics and conntrack, the instance
 * type's figures) at the start of the step and around every command, with each command's record
 * (exit code and the tool's structured result: iperf3's -J document, curl's and ab's figures).
 *
 * `snapshotLab` reads a lab through its public objects only and changes nothing (it does not even
 * expire idle conntrack entries: it counts the ones still live). It takes the Lab as a type, so
 * this module runs wherever the engine does (the worker, Node tests) and its output crosses the
 * worker boundary as data. `StepRecorder` builds an Observation from a session's records.
 */
import type { Lab } from '../engine';

export interface HostSnapshot {
  ip: string;
  type: string;
  baselineGbps: number;
  peakGbps: number;
  /** ethtool -S eth0, name → value. */
  counters: Record<string, number>;
  rxRing: number;
  txRing: number;
  flowSetups: number;
  slowPathPackets: number;
  acceleratedPackets: number;
  conntrackTracked: number;
  conntrackUntracked: number;
}

export interface LabSnapshot {
  atNs: number;
  hosts: Record<string, HostSnapshot>;
}

/** One command as the lab ran it (RunRecord's fields a check needs), with the lab around it. */
export interface ObservedCommand {
  host: string;
  command: string;
  exitCode: number;
  startNs: number;
  endNs: number;
  result: unknown;
  before: LabSnapshot;
  after: LabSnapshot;
}

export interface Observation {
  /** The first instance: where a predicate without `host` looks. */
  defaultHost: string;
  start: LabSnapshot;
  now: LabSnapshot;
  commands: ObservedCommand[];
}

export function snapshotLab(lab: Lab): LabSnapshot {
  const hosts: Record<string, HostSnapshot> = {};
  const now = lab.nowNs;
  for (const [name, inst] of lab.instances) {
    const counters: Record<string, number> = {};
    for (const [k, v] of inst.host.eth0.statistics()) counters[k] = v;
    const rings = inst.host.eth0.rings();
    let tracked = 0;
    let untracked = 0;
    for (const c of inst.nitro.flows.conntrack.values()) {
      if (now - c.lastSeenNs > c.timeoutNs) continue; // idle past its timeout: gone at the next lookup
      if (c.tracked) tracked++;
      else untracked++;
    }
    const fs = inst.nitro.flowStats;
    hosts[name] = {
      ip: inst.host.ip,
      type: inst.spec.name,
      baselineGbps: inst.spec.baselineBandwidthGbps.value,
      peakGbps: inst.spec.peakBandwidthGbps.value,
      counters,
      rxRing: rings.rx,
      txRing: rings.tx,
      flowSetups: fs.flowSetups,
      slowPathPackets: fs.slowPathPackets,
      acceleratedPackets: fs.acceleratedPackets,
      conntrackTracked: tracked,
      conntrackUntracked: untracked,
    };
  }
  return { atNs: now, hosts };
}

/** The fields of a RunRecord an observation keeps. */
export interface RecordLike {
  host: string;
  command: string;
  exitCode: number;
  startNs: number;
  endNs: number;
  result: unknown;
}

/**
 * Collects one step's observation: call `begin` when the step starts, `ran` with the records of
 * every line (and the snapshot taken just before it), `observation()` to check.
 */
export class StepRecorder {
  private start: LabSnapshot;
  private commands: ObservedCommand[] = [];

  constructor(
    private readonly lab: Lab,
    private readonly defaultHost = lab.instances.keys().next().value as string,
  ) {
    this.start = snapshotLab(lab);
  }

  /** Start a new step: the window begins now; earlier commands are forgotten. */
  begin(): void {
    this.start = snapshotLab(this.lab);
    this.commands = [];
  }

  snapshot(): LabSnapshot {
    return snapshotLab(this.lab);
  }

  /** Record the records one line produced; `before` is the snapshot taken before the line ran. */
  ran(records: readonly RecordLike[], before: LabSnapshot): void {
    const after = snapshotLab(this.lab);
    for (const r of records) {
      this.commands.push({
        host: r.host,
        command: r.command,
        exitCode: r.exitCode,
        startNs: r.startNs,
        endNs: r.endNs,
        result: r.result,
        before,
        after,
      });
    }
  }

  observation(): Observation {
    return {
      defaultHost: this.defaultHost,
      start: this.start,
      now: snapshotLab(this.lab),
      commands: [...this.commands],
    };
  }
}
