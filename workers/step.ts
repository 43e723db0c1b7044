/**
 * A single step of the lab (the UI's step buttons): exactly one model event, or on to the event in
 * which the next packet reaches a stage, with a report of what moved in words.
 */
import type { Lab, Packet, ProbeSink, ProbeStage, Timeline } from '../src/engine';
import { STEP_STAGES, type StepReport, type StepTarget } from '../src/protocol/sim-api';
import type { ServiceRun } from './service-run';

/** Events a "step to the next packet at a stage" may process before it gives up (well inside the client's 4 s request limit). */
const STEP_MAX_EVENTS = 1_000_000;

/**
 * Single step: exactly one model event, or on to the event in which the next packet reaches a
 * stage (the scheduler stops right after it). A packet reaching a receiving card is shown when
 * it lands there: the model hands it over as the sender releases it, one fabric delay earlier.
 */
export function stepTo(
  tl: Timeline<ServiceRun>,
  lab: Lab,
  target: StepTarget,
  horizonNs: number,
  onGrid: (ns: number) => void,
): { events: number; report: StepReport } {
  const hosts = [...lab.instances.keys()];
  const hostIdx = target.kind === 'packet' && target.host ? hosts.indexOf(target.host) : -1;
  const moves: StepReport['moves'] = [];
  const stage = target.kind === 'packet' ? target.stage : null;
  let hit: StepReport['moves'][number] | null = null;
  const note = (
    atNs: number,
    host: number,
    st: ProbeStage,
    queue: number,
    pkt: Packet,
    what: 'entered' | 'left' | 'dropped',
    count: number,
    reason?: string,
  ) => {
    const m = {
      atNs,
      host,
      hostName: hosts[host] ?? '?',
      stage: st,
      queue,
      flow: pkt.flow.id,
      seq: pkt.seq,
      count,
      what,
      ...(reason ? { reason } : {}),
    };
    if (moves.length < 16) moves.push(m);
    if (stage && !hit && st === stage && what === 'entered' && (hostIdx < 0 || host === hostIdx)) {
      hit = m;
      lab.sched.halted = true;
    }
  };
  const sink: ProbeSink = {
    enter: (t, h, st, q, p) => note(t, h, st, q, p, 'entered', p.count),
    leave: (t, h, st, q, p) => note(t, h, st, q, p, 'left', p.count),
    drop: (t, h, st, q, p, n, reason) => note(t, h, st, q, p, 'dropped', n, reason),
  };
  const detach = lab.probe.attach(sink);
  const startNs = lab.nowNs;
  let events = 0;
  try {
    if (target.kind === 'event') {
      events = tl.advance(Number.POSITIVE_INFINITY, 1, onGrid).events;
    } else {
      // from event instant to event instant: when no packet comes, the clock stays at the last
      // instant something happened (or where it was, when nothing is scheduled), never at the horizon
      const horizon = Math.max(horizonNs, startNs);
      while (!hit && events < STEP_MAX_EVENTS) {
        const next = lab.sched.peekTime();
        if (!(next <= horizon)) break;
        const r = tl.advance(next, STEP_MAX_EVENTS - events, onGrid);
        events += r.events;
        if (r.events === 0 && !lab.sched.halted && lab.nowNs < next) break;
      }
    }
  } finally {
    detach();
    lab.sched.halted = false;
  }
  const h = hit as StepReport['moves'][number] | null;
  if (h) {
    // on to the instant the packet is there: a receiving card gets the batch one fabric delay
    // after the sender released it (when the model hands it over), a ring when the DMA lands
    const there = h.atNs + (h.stage === 'nitro_ingress' ? lab.oneWayDelayNs() : 0);
    if (there > lab.nowNs) events += tl.advance(there, Number.POSITIVE_INFINITY, onGrid).events;
    h.atNs = there;
  }
  const packet = target.kind === 'packet' ? h : (moves[0] ?? null);
  let summary: string;
  if (target.kind === 'packet') {
    const where = `${stageLabel(target.stage)}${target.host ? ` on ${target.host}` : ''}`;
    const secs = (ns: number) => `${(ns / 1e9).toFixed(6)} s`;
    const ahead = `${Number(((horizonNs - startNs) / 1e9).toPrecision(3))} s`;
    if (h) summary = `${describe(h)} (${events} model event${events === 1 ? '' : 's'} later)`;
    else if (events === 0)
      summary = `No packet is coming to ${where}: nothing is scheduled in the next ${ahead} (the lab is idle; start a command first). The clock stays at ${secs(lab.nowNs)}`;
    else if (events >= STEP_MAX_EVENTS)
      summary = `No packet reached ${where} in ${events.toLocaleString('en-US')} model events; stopped at ${secs(lab.nowNs)} (step again to look further)`;
    else
      summary = `No packet is coming to ${where} in the next ${ahead}: ${events.toLocaleString('en-US')} model event${events === 1 ? '' : 's'} (timers, no packet there); the clock is at the last of them, ${secs(lab.nowNs)}`;
  } else if (events === 0) summary = 'Nothing is scheduled: the lab is idle (start a command first)';
  else if (moves.length === 0)
    summary = 'One model event with no packet movement (a timer, a protocol or an application step)';
  else
    summary =
      moves.map(describe).slice(0, 3).join('; ') + (moves.length > 3 ? ` (+${moves.length - 3} more)` : '');
  return {
    events,
    report: {
      kind: target.kind,
      found: target.kind === 'packet' ? h !== null : events > 0,
      atNs: lab.nowNs,
      fromNs: startNs,
      summary,
      packet,
      moves,
    },
  };
}

const STAGE_LABELS: Record<string, string> = Object.fromEntries(STEP_STAGES.map((s) => [s.stage, s.label]));

function stageLabel(stage: string): string {
  return STAGE_LABELS[stage] ?? stage;
}

function describe(m: StepReport['moves'][number]): string {
  const pk = `${m.count} packet${m.count === 1 ? '' : 's'} of flow ${m.flow} (seq ${m.seq})`;
  const where = `${stageLabel(m.stage)}${m.queue > 0 ? ` queue ${m.queue}` : ''} on ${m.hostName}`;
  if (m.what === 'dropped') return `${pk} dropped at ${where}: ${m.reason ?? 'unknown reason'}`;
  return `${pk} ${m.what} ${where}`;
}
