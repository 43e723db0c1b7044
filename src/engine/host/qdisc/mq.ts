/**
 * mq: the multi-queue root, one child qdisc per TX queue, which the host dequeues for its own queue;
 * its classes are the queues (`:1` … `:n`), each grafting a child. Only at the root of a
 * multi-queue device. Sources: LINUX net/sched/sch_mq.c.
 */
import type { Packet } from '../../model/packet';
import {
  addStats,
  type ClassDump,
  type ClassOps,
  emptyStats,
  type QdiscNode,
  TC_H_ROOT,
  type TcResult,
  tcMajor,
  tcMake,
  tcMinor,
} from './common';
import type { QdiscStats } from './types';

/** mq: one child per TX queue; the host dequeues each child for its own queue (sch_mq.c). */
export class MqQdisc implements QdiscNode {
  readonly kind = 'mq';
  handle = 0;
  parent = TC_H_ROOT;
  readonly children: QdiscNode[];
  readonly classOps: ClassOps;
  /** Which children are defaults (created by mq itself). */
  private readonly isDefault: boolean[];

  constructor(
    n: number,
    private readonly makeDefault: () => QdiscNode,
  ) {
    this.children = [];
    this.isDefault = [];
    for (let i = 0; i < n; i++) {
      const c = makeDefault();
      c.parent = tcMake(0, i + 1);
      this.children.push(c);
      this.isDefault.push(true);
    }
    this.classOps = this.makeClassOps();
  }

  /** Re-parent children after the mq handle is known. */
  setHandle(h: number): void {
    this.handle = h;
    this.children.forEach((c, i) => {
      c.parent = tcMake(tcMajor(h), i + 1);
    });
  }

  private pick(txq: number): QdiscNode {
    const n = this.children.length;
    return this.children[txq >= 0 && txq < n ? txq : ((txq % n) + n) % n]!;
  }
  enqueue(p: Packet, nowNs: number): void {
    this.pick(p.txq).enqueue(p, nowNs);
  }
  dequeueTx(txq: number, nowNs: number): Packet | null {
    return this.pick(txq).dequeue(nowNs);
  }
  dequeue(nowNs: number): Packet | null {
    for (const c of this.children) {
      const p = c.dequeue(nowNs);
      if (p) return p;
    }
    return null;
  }
  nextWakeNs(nowNs: number): number {
    let t = Number.POSITIVE_INFINITY;
    for (const c of this.children) t = Math.min(t, c.nextWakeNs(nowNs));
    return t;
  }
  qlen(): number {
    let n = 0;
    for (const c of this.children) n += c.qlen();
    return n;
  }
  backlogBytes(): number {
    let n = 0;
    for (const c of this.children) n += c.backlogBytes();
    return n;
  }
  /** mq_dump: the sum of the children's statistics. */
  stats(): QdiscStats {
    const s = emptyStats();
    for (const c of this.children) addStats(s, c.stats());
    return s;
  }
  dumpOptions(): Record<string, never> {
    return {};
  }
  xstats(): null {
    return null;
  }
  change(): TcResult {
    return { errno: 'EINVAL', extack: 'Change operation not supported by specified qdisc' };
  }
  reset(): void {
    for (const c of this.children) c.reset();
  }
  childQdiscs(): QdiscNode[] {
    return [...this.children];
  }
  private makeClassOps(): ClassOps {
    const index = (id: number): number =>
      tcMajor(id) === tcMajor(this.handle) && tcMinor(id) >= 1 && tcMinor(id) <= this.children.length
        ? tcMinor(id) - 1
        : -1;
    return {
      has: (id) => index(id) >= 0,
      leaf: (id) => (index(id) >= 0 ? this.children[index(id)]! : null),
      canGraft: (id) => index(id) >= 0,
      graft: (id, q): TcResult => {
        const i = index(id);
        if (i < 0) return { errno: 'ENOENT', extack: 'Specified class not found' };
        this.children[i]!.reset();
        const next = q ?? this.makeDefault();
        next.parent = id;
        this.children[i] = next;
        this.isDefault[i] = q === null;
        return {};
      },
      dump: (): ClassDump[] =>
        this.children.map((c, i) => ({
          kind: 'mq',
          classid: tcMake(tcMajor(this.handle), i + 1),
          parent: TC_H_ROOT,
          leafHandle: c.handle,
          options: {},
          stats: c.stats(),
          xstats: null,
        })),
      change: () => ({ errno: 'EOPNOTSUPP' }),
      remove: () => ({ errno: 'EOPNOTSUPP' }),
    };
  }
}
