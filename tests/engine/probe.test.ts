import { describe, expect, it } from 'vitest';
import { PROBE_STAGES, Probe, type ProbeSink, type ProbeStage } from '../../src/engine/model/probe';
import type { Packet } from '../../src/engine/model/packet';

const pkt = { count: 1 } as Packet;

function listener(
  log: string[],
  name: string,
  stages?: { enter?: ProbeStage[]; leave?: ProbeStage[] },
): ProbeSink {
  return {
    ...(stages?.enter ? { enterStages: stages.enter } : {}),
    ...(stages?.leave ? { leaveStages: stages.leave } : {}),
    enter: (_t, _h, s) => log.push(`${name} enter ${s}`),
    leave: (_t, _h, s) => log.push(`${name} leave ${s}`),
    drop: (_t, _h, s) => log.push(`${name} drop ${s}`),
  };
}

function everyCall(p: Probe): void {
  for (const s of PROBE_STAGES) {
    p.sink?.enter(0, 0, s, 0, pkt);
    p.sink?.leave(0, 0, s, 0, pkt, -1);
  }
  p.sink?.drop(0, 0, 'qdisc', 0, pkt, 1, 'rx_ring_full', false);
}

describe('Probe', () => {
  it('is free (no sink) with no listener', () => {
    const p = new Probe();
    expect(p.sink).toBeNull();
    const detach = p.attach(listener([], 'a'));
    expect(p.sink).not.toBeNull();
    detach();
    expect(p.sink).toBeNull();
  });

  it('calls a listener only for the stages it asked for, every listener for drops, in attach order', () => {
    const p = new Probe();
    const log: string[] = [];
    p.attach(listener(log, 'all'));
    p.attach(listener(log, 'cap', { enter: ['tx_ring'], leave: ['rx_ring'] }));
    const detachChart = p.attach(listener(log, 'chart', { enter: ['socket_rx'], leave: ['tx_ring'] }));
    everyCall(p);
    expect(log.filter((l) => l.startsWith('all'))).toHaveLength(2 * PROBE_STAGES.length + 1);
    expect(log.filter((l) => !l.startsWith('all'))).toEqual([
      'cap enter tx_ring',
      'chart leave tx_ring',
      'cap leave rx_ring',
      'chart enter socket_rx',
      'cap drop qdisc',
      'chart drop qdisc',
    ]);
    // order within a stage is attach order
    expect(log.indexOf('all enter tx_ring')).toBeLessThan(log.indexOf('cap enter tx_ring'));
    expect(log.at(-3)).toBe('all drop qdisc');
    log.length = 0;
    detachChart();
    everyCall(p);
    expect(log.some((l) => l.startsWith('chart'))).toBe(false);
    expect(log.filter((l) => l.startsWith('cap'))).toEqual([
      'cap enter tx_ring',
      'cap leave rx_ring',
      'cap drop qdisc',
    ]);
  });

  it('a counting listener gets every crossing as countEnter/countLeave with the stage index, never enter/leave, and drops as before; refresh switches it back', () => {
    const p = new Probe();
    const log: string[] = [];
    let counting = true;
    const counter: ProbeSink = {
      get counting() {
        return counting;
      },
      countEnter: (i) => log.push(`count enter ${PROBE_STAGES[i]}`),
      countLeave: (i) => log.push(`count leave ${PROBE_STAGES[i]}`),
      enter: (_t, _h, s) => log.push(`counter enter ${s}`),
      leave: (_t, _h, s) => log.push(`counter leave ${s}`),
      drop: (_t, _h, s) => log.push(`counter drop ${s}`),
    };
    p.attach(counter);
    p.attach(listener(log, 'cap', { enter: ['tx_ring'], leave: ['rx_ring'] }));
    everyCall(p);
    const expected = PROBE_STAGES.flatMap((s) => [`count enter ${s}`, `count leave ${s}`]);
    expect(log.filter((l) => l.startsWith('count '))).toEqual(expected);
    expect(log.some((l) => l.startsWith('counter enter') || l.startsWith('counter leave'))).toBe(false);
    // the counter before the other listeners of a stage; drops reach both
    expect(log.indexOf('count enter tx_ring')).toBeLessThan(log.indexOf('cap enter tx_ring'));
    expect(log.filter((l) => l.includes('drop'))).toEqual(['counter drop qdisc', 'cap drop qdisc']);
    log.length = 0;
    counting = false;
    p.refresh();
    everyCall(p);
    expect(log.some((l) => l.startsWith('count '))).toBe(false);
    expect(log.filter((l) => l.startsWith('counter'))).toHaveLength(2 * PROBE_STAGES.length + 1);
  });
});
