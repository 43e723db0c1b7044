/**
 * Synthetic path frames for the path-view benchmark and screenshots: a real lab's layout, and a
 * frame of `n` batches spread over every stage and lane, with occupancy, drops and flows, as the
 * recorder would produce them at a high rate. Deterministic (a fixed LCG).
 */
import { createLab } from '../../../src/engine/session/runner';
import { PathRecorder } from '../../../src/engine/view/path-recorder';
import { allocPathFrame } from '../../../src/engine/view/path-types';
import type { PathFrame, PathLayout } from '../../../src/protocol/path-frame';
import { parseScenario } from '../../../src/scenario/schema';

export function syntheticLayout(clientType = 'c7i.large', serverType = 'c7i.large'): PathLayout {
  const s = parseScenario({
    version: 1,
    instances: [
      { name: 'client', type: clientType },
      { name: 'server', type: serverType },
    ],
  });
  if (!s.ok) throw new Error(s.errors.join());
  return new PathRecorder(createLab(s.scenario)).layout();
}

export function syntheticFrame(layout: PathLayout, n: number, toNs: number, windowNs = 50_000): PathFrame {
  const f = allocPathFrame(n);
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const fromNs = toNs - windowNs;
  f.fromNs = fromNs;
  f.toNs = toNs;
  const flows = 16;
  const stageNames = layout.stages;
  const fabric = stageNames.indexOf('fabric');
  for (let i = 0; i < n; i++) {
    const flow = 1 + (i % flows);
    const host = flow % 2 === 1 ? 0 : 1;
    const code = Math.floor(rnd() * stageNames.length);
    const name = stageNames[code]!;
    const rxSide = name === 'nitro_ingress' || name === 'rx_ring' || name === 'socket_rx';
    const h = code === fabric ? host : rxSide ? 1 - host : host;
    const inst = layout.instances[h]!;
    const st = inst.stages.find((s) => s.code === code);
    const q = st ? Math.floor(rnd() * st.lanes.length) : 0;
    const enter = fromNs + rnd() * windowNs;
    // every batch is still moving at toNs (and for the benchmark's 30 µs): 5,000 in view
    const dwell = windowNs + 40_000 + rnd() * 60_000;
    f.id[i] = i;
    f.enterNs[i] = enter;
    f.exitNs[i] = enter + dwell;
    f.host[i] = h;
    f.stage[i] = code;
    f.queue[i] = st?.lanes[q]?.queue ?? 0;
    f.flow[i] = flow;
    f.count[i] = 1 + Math.floor(rnd() * 44);
    f.bytes[i] = f.count[i]! * 9001;
    f.cpu[i] = -1;
    f.fate[i] = i % 97 === 0 ? 1 : 0;
    f.reason[i] = i % 97 === 0 ? layout.dropReasons.indexOf('rx_ring_full') : 0;
  }
  f.n = n;
  f.totalPassages = n * 3;
  f.totalPackets = n * 3 * 22;
  f.sampled = true;
  f.stride = 3;
  let nl = 0;
  for (const inst of layout.instances)
    for (const s of inst.stages)
      for (const l of s.lanes) {
        f.laneHost[nl] = inst.index;
        f.laneStage[nl] = s.code;
        f.laneQueue[nl] = l.queue;
        const cap = l.capacityPackets || 4000;
        f.laneOccupancy[nl] = Math.floor(rnd() * cap * 0.7);
        f.lanePeak[nl] = Math.min(cap, f.laneOccupancy[nl]! + Math.floor(rnd() * cap * 0.3));
        nl++;
      }
  f.lanes = nl;
  const rxRing = stageNames.indexOf('rx_ring');
  f.drops = 3;
  for (let k = 0; k < 3; k++) {
    f.dropNs[k] = toNs - k * 1000;
    f.dropHost[k] = 1;
    f.dropStage[k] = rxRing;
    f.dropQueue[k] = k % 2;
    f.dropFlow[k] = 1;
    f.dropCount[k] = 120;
    f.dropReason[k] = layout.dropReasons.indexOf('rx_ring_full');
  }
  f.dropTotal = 360;
  f.flows = flows;
  for (let k = 0; k < flows; k++) {
    f.flowId[k] = k + 1;
    f.flowSrc[k] = (k + 1) % 2 === 1 ? 0 : 1;
    f.flowDst[k] = 1 - f.flowSrc[k]!;
    f.flowRxQueue[k] = k % 2;
    f.flowRxCpu[k] = k % 2;
    f.flowTxQueue[k] = (k + 1) % 2;
  }
  return f;
}
