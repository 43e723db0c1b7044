/**
 * A tiny fake QdiscContext and packet factory for qdisc tests: records drops by reason, lets a test
 * set MTU, txqueuelen, TX queue count and per-socket pacing rates.
 */
import type { Flow, Packet } from '../../../src/engine/model/packet';
import type { QdiscContext, QdiscDropReason } from '../../../src/engine/host/qdisc/types';

export interface FakeCtx extends QdiscContext {
  drops: Record<string, number>;
  dropped: Packet[];
  pacing: Map<number, number>;
  setMtu(m: number): void;
}

export function fakeCtx(opts: { mtu?: number; txQueueLen?: number; numTxQueues?: number } = {}): FakeCtx {
  let mtu = opts.mtu ?? 1500;
  const drops: Record<string, number> = {};
  const dropped: Packet[] = [];
  const pacing = new Map<number, number>();
  return {
    drops,
    dropped,
    pacing,
    setMtu: (m) => {
      mtu = m;
    },
    mtu: () => mtu,
    txQueueLen: () => opts.txQueueLen ?? 1000,
    numTxQueues: () => opts.numTxQueues ?? 1,
    drop: (p: Packet, count: number, reason: QdiscDropReason) => {
      drops[reason] = (drops[reason] ?? 0) + count;
      dropped.push({ ...p, count });
    },
    socketPacingRateBytesPerSec: (socketId: number) => pacing.get(socketId) ?? Number.POSITIVE_INFINITY,
  };
}

let nextFlowId = 1;
export function flow(opts: { skbHash?: number; socketId?: number; proto?: 'tcp' | 'udp' } = {}): Flow {
  const id = nextFlowId++;
  return {
    id,
    tuple: {
      srcIp: '10.0.0.1',
      dstIp: '10.0.0.2',
      proto: opts.proto ?? 'tcp',
      srcPort: 40000 + id,
      dstPort: 5201,
    },
    skbHash: opts.skbHash ?? (id * 2654435761) >>> 0,
    socketId: opts.socketId ?? id,
  };
}

/** A batch of `count` packets of IP size `sizeBytes` (qdisc bytes = size + 14). */
export function pkt(
  f: Flow,
  opts: { count?: number; sizeBytes?: number; tos?: number; seq?: number; txq?: number } = {},
): Packet {
  const size = opts.sizeBytes ?? 1500;
  return {
    flow: f,
    count: opts.count ?? 1,
    sizeBytes: size,
    payloadBytes: size - 52,
    seq: opts.seq ?? 0,
    ack: 0,
    flags: 0,
    sack: null,
    window: 65535,
    tos: opts.tos ?? 0,
    sentAtNs: 0,
    enqueuedAtNs: 0,
    txq: opts.txq ?? 0,
    mark: 0,
  };
}
