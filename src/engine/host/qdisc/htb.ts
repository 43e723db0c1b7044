/**
 * htb: Hierarchy Token Bucket. Each class has two token buckets kept in nanoseconds as in the
 * kernel (`tokens` at `rate`, `ctokens` at `ceil`) and a mode (CANT_SEND, CAN_SEND, MAY_BORROW);
 * dequeue serves by level, then `prio`, then DRR with the class `quantum`; sending charges the leaf
 * and its ancestors as htb_charge_class does. Unclassified traffic goes to the `default` class or,
 * without one, the direct queue.
 *
 * Sources: LINUX net/sched/sch_htb.c; IPROUTE2 tc/q_htb.c, tc-htb(8) (docs/domain-facts.md §6.3).
 * Modes, borrowing, batches and counters in detail: docs/design.md, "htb".
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  addStats,
  admit,
  BatchDeque,
  type ClassDump,
  type ClassOps,
  displaySkbs,
  emptyStats,
  type HtbClassOptions,
  type HtbOptions,
  type QdiscNode,
  type QdiscOptions,
  skbsOf,
  type TcResult,
  tcMake,
  tcMajor,
  tcMinor,
} from './common';
import { FifoQdisc } from './fifo';
import type { QdiscContext, QdiscStats } from './types';

const TC_HTB_MAXDEPTH = 8;
const TC_HTB_NUMPRIO = 8;
/** cl->mbuffer: tokens never go below -60 s and the clock diff is capped at 60 s. */
const MBUFFER_NS = 60e9;

const CAN_SEND = 0;
const MAY_BORROW = 1;
const CANT_SEND = 2;

export class HtbClass {
  parent: HtbClass | null;
  children: HtbClass[] = [];
  level = 0;
  rate = 0;
  ceil = 0;
  bufferNs = 0;
  cbufferNs = 0;
  tokens = 0;
  ctokens = 0;
  tC: number;
  prio = 0;
  quantum = 0;
  userQuantum = 0;
  /** DRR deficit per level (cl->leaf.deficit[level]): own-rate and borrowed turns are separate rounds. */
  readonly deficit = new Float64Array(TC_HTB_MAXDEPTH);
  leaf: QdiscNode | null = null;
  leafIsDefault = true;
  mode = CAN_SEND;
  bytes = 0;
  packets = 0;
  overlimits = 0;
  lends = 0;
  borrows = 0;
  /** Drops of leaf qdiscs that were replaced (kept so class stats stay monotonic). */
  pastDrops = 0;

  constructor(
    readonly classid: number,
    parent: HtbClass | null,
    nowNs: number,
  ) {
    this.parent = parent;
    this.tC = nowNs;
  }
}

export class HtbQdisc implements QdiscNode {
  readonly kind = 'htb';
  handle = 0;
  parent = 0;
  r2q = 10;
  defcls = 0;
  directQlen: number;
  private readonly classes = new Map<number, HtbClass>();
  /** Leaves in classid order (the kernel's rb-tree order). */
  private leaves: HtbClass[] = [];
  private readonly direct = new BatchDeque();
  /** direct_packets_stat: skbs that took the direct queue (drops at it are in st.drops). */
  private directPkts = 0;
  private readonly st: QdiscStats = emptyStats();
  /** DRR pointer per (level, prio): classid of the class being served. */
  private readonly rrPtr = new Map<number, number>();
  private levelScratch = new Int32Array(0);
  private lastNowNs = 0;
  readonly classOps: ClassOps;

  constructor(
    private readonly ctx: QdiscContext,
    opts?: HtbOptions,
  ) {
    // htb_init: direct_qlen defaults to the device's txqueuelen (at least 2).
    this.directQlen = Math.max(ctx.txQueueLen(), 2);
    if (opts) this.apply(opts);
    this.classOps = this.makeClassOps();
  }

  private apply(o: HtbOptions): void {
    if (o.r2q !== undefined) this.r2q = o.r2q;
    if (o.defcls !== undefined) this.defcls = o.defcls;
    if (o.directQlen !== undefined) this.directQlen = o.directQlen;
  }

  private rebuildLeaves(): void {
    this.leaves = [...this.classes.values()]
      .filter((c) => c.level === 0)
      .sort((a, b) => a.classid - b.classid);
    this.levelScratch = new Int32Array(this.leaves.length);
  }

  /**
   * Classification hook standing in for tc filters / SO_PRIORITY (skb->priority = classid selects that
   * class directly in htb_classify). Returns a classid, or 0 to use the `default` class.
   */
  classifier: ((p: Packet) => number) | null = null;

  enqueue(p: Packet, nowNs: number): void {
    this.lastNowNs = nowNs;
    const chosen = this.classifier ? this.classifier(p) : 0;
    const cl = this.classes.get(chosen || tcMake(tcMajor(this.handle), this.defcls));
    if (!cl || cl.level !== 0 || !cl.leaf) {
      // htb_enqueue: the direct queue takes an skb while its qlen < direct_qlen.
      const kept = admit(this.ctx, p, this.directQlen - this.direct.skbs, this.st);
      if (!kept) return;
      this.direct.pushBack(kept);
      this.directPkts += skbsOf(kept);
      return;
    }
    cl.leaf.enqueue(p, nowNs);
  }

  /** The level at which a leaf can send now, or -1 (htb_class_mode up the borrowing chain). */
  private sendLevel(leaf: HtbClass, nowNs: number): number {
    let cl: HtbClass | null = leaf;
    while (cl) {
      const diff = Math.min(nowNs - cl.tC, MBUFFER_NS);
      if (cl.ctokens + diff < 0) return -1;
      if (cl.tokens + diff >= 0) return cl.level;
      cl = cl.parent;
    }
    return -1;
  }

  private classMode(cl: HtbClass, nowNs: number): number {
    const diff = Math.min(nowNs - cl.tC, MBUFFER_NS);
    if (cl.ctokens + diff < 0) return CANT_SEND;
    if (cl.tokens + diff >= 0) return CAN_SEND;
    return MAY_BORROW;
  }

  /** htb_charge_class: account `bytes` sent by `leaf` lending at `level`. */
  private charge(leaf: HtbClass, level: number, p: Packet, nowNs: number): void {
    const bytes = qdiscBatchBytes(p);
    let cl: HtbClass | null = leaf;
    while (cl) {
      const diff = Math.min(nowNs - cl.tC, MBUFFER_NS);
      if (cl.level >= level) {
        if (cl.level === level) cl.lends++;
        let toks = Math.min(cl.tokens + diff, cl.bufferNs) - (bytes * 1e9) / cl.rate;
        if (toks <= -MBUFFER_NS) toks = 1 - MBUFFER_NS;
        cl.tokens = toks;
      } else {
        cl.borrows++;
        cl.tokens += diff;
      }
      let ctoks = Math.min(cl.ctokens + diff, cl.cbufferNs) - (bytes * 1e9) / cl.ceil;
      if (ctoks <= -MBUFFER_NS) ctoks = 1 - MBUFFER_NS;
      cl.ctokens = ctoks;
      cl.tC = nowNs;
      const old = cl.mode;
      cl.mode = this.classMode(cl, nowNs);
      if (cl.mode === CANT_SEND && old !== CANT_SEND) {
        cl.overlimits++;
        this.st.overlimits++;
      }
      cl.bytes += bytes;
      cl.packets += p.count;
      cl = cl.parent;
    }
  }

  dequeue(nowNs: number): Packet | null {
    this.lastNowNs = nowNs;
    const d = this.direct.popFront();
    if (d) {
      this.st.packets += d.count;
      this.st.bytes += qdiscBatchBytes(d);
      return d;
    }
    const n = this.leaves.length;
    // Leaves whose qdisc returned nothing this round are skipped (htb_dequeue_tree's retry).
    for (let attempt = 0; attempt < n; attempt++) {
      let bestLevel = TC_HTB_MAXDEPTH;
      let bestPrio = TC_HTB_NUMPRIO;
      let backlogged = false;
      for (let i = 0; i < n; i++) {
        const cl = this.leaves[i]!;
        const lv = cl.leaf && cl.leaf.qlen() > 0 ? this.sendLevel(cl, nowNs) : -2;
        this.levelScratch[i] = lv;
        if (lv === -2) continue;
        backlogged = true;
        if (lv < 0) continue;
        if (lv < bestLevel || (lv === bestLevel && cl.prio < bestPrio)) {
          bestLevel = lv;
          bestPrio = cl.prio;
        }
      }
      if (!backlogged || bestLevel === TC_HTB_MAXDEPTH) {
        if (backlogged) this.st.overlimits++;
        return null;
      }
      const key = bestLevel * TC_HTB_NUMPRIO + bestPrio;
      const ptr = this.rrPtr.get(key) ?? 0;
      let pick = -1;
      let first = -1;
      for (let i = 0; i < n; i++) {
        const cl = this.leaves[i]!;
        if (this.levelScratch[i] !== bestLevel || cl.prio !== bestPrio) continue;
        if (first < 0) first = i;
        if (cl.classid >= ptr) {
          pick = i;
          break;
        }
      }
      if (pick < 0) pick = first;
      const cl = this.leaves[pick]!;
      const p = cl.leaf!.dequeue(nowNs);
      if (!p) {
        // Leaf qdisc is throttled or dropped everything: move on to the next class.
        this.rrPtr.set(key, cl.classid + 1);
        continue;
      }
      const bytes = qdiscBatchBytes(p);
      // htb_dequeue_tree: the deficit of the level being served; a negative one earns a quantum
      // and passes the turn on.
      const deficit = (cl.deficit[bestLevel] ?? 0) - bytes;
      cl.deficit[bestLevel] = deficit < 0 ? deficit + cl.quantum : deficit;
      if (deficit < 0) {
        this.rrPtr.set(key, cl.classid + 1);
      } else {
        this.rrPtr.set(key, cl.classid);
      }
      this.charge(cl, bestLevel, p, nowNs);
      this.st.packets += p.count;
      this.st.bytes += bytes;
      return p;
    }
    return null;
  }

  nextWakeNs(nowNs: number): number {
    if (this.direct.packets > 0) return nowNs;
    let wake = Number.POSITIVE_INFINITY;
    for (const leaf of this.leaves) {
      if (!leaf.leaf || leaf.leaf.qlen() === 0) continue;
      if (this.sendLevel(leaf, nowNs) >= 0) {
        const w = leaf.leaf.nextWakeNs(nowNs);
        wake = Math.min(wake, Number.isFinite(w) ? Math.max(w, nowNs) : nowNs);
        continue;
      }
      // Earliest instant a bucket on the borrowing chain turns non-negative.
      let cl: HtbClass | null = leaf;
      while (cl) {
        const diff = Math.min(nowNs - cl.tC, MBUFFER_NS);
        const ct = cl.ctokens + diff;
        if (ct < 0) {
          wake = Math.min(wake, nowNs + Math.ceil(-ct));
          break;
        }
        const t = cl.tokens + diff;
        if (t < 0) wake = Math.min(wake, nowNs + Math.ceil(-t));
        cl = cl.parent;
      }
    }
    return wake;
  }

  qlen(): number {
    let n = this.direct.skbs;
    for (const c of this.leaves) n += c.leaf ? c.leaf.qlen() : 0;
    return n;
  }
  backlogBytes(): number {
    let n = this.direct.bytes;
    for (const c of this.leaves) n += c.leaf ? c.leaf.backlogBytes() : 0;
    return n;
  }
  stats(): QdiscStats {
    let drops = displaySkbs(this.st.drops);
    for (const c of this.classes.values()) drops += c.pastDrops + (c.leaf ? c.leaf.stats().drops : 0);
    return { ...this.st, drops, backlogBytes: this.backlogBytes(), backlogPackets: displaySkbs(this.qlen()) };
  }
  dumpOptions(): Record<string, number> {
    return {
      r2q: this.r2q,
      default: this.defcls,
      direct_packets_stat: displaySkbs(this.directPkts),
      direct_qlen: this.directQlen,
    };
  }
  xstats(): null {
    return null;
  }
  change(opts: QdiscOptions): TcResult {
    if (opts.kind !== 'htb') return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    this.apply(opts);
    return {};
  }
  reset(): void {
    this.direct.clear();
    for (const c of this.classes.values()) c.leaf?.reset();
  }
  childQdiscs(): QdiscNode[] {
    const out: QdiscNode[] = [];
    for (const c of this.leaves) if (c.leaf) out.push(c.leaf);
    return out;
  }

  /** The class record (tests and `tc -s class show`). */
  getClass(classid: number): HtbClass | undefined {
    return this.classes.get(classid);
  }

  private setParams(cl: HtbClass, o: HtbClassOptions): string | undefined {
    cl.rate = o.rate;
    cl.ceil = o.ceil;
    cl.bufferNs = o.bufferNs;
    cl.cbufferNs = o.cbufferNs;
    cl.prio = Math.min(o.prio, TC_HTB_NUMPRIO - 1);
    cl.userQuantum = o.quantum;
    let warning: string | undefined;
    if (o.quantum) {
      cl.quantum = o.quantum;
    } else {
      cl.quantum = Math.floor(o.rate / this.r2q);
      const hex = cl.classid.toString(16).toUpperCase();
      if (cl.quantum < 1000) {
        warning = `sch_htb: quantum of class ${hex} is small. Consider r2q change.`;
        cl.quantum = 1000;
      } else if (cl.quantum > 200000) {
        warning = `sch_htb: quantum of class ${hex} is big. Consider r2q change.`;
        cl.quantum = 200000;
      }
    }
    return warning;
  }

  private newLeafQdisc(classid: number): QdiscNode {
    // htb_change_class: a new leaf gets a default pfifo (limit = txqueuelen).
    const q = new FifoQdisc(this.ctx, 'pfifo');
    q.parent = classid;
    return q;
  }

  private makeClassOps(): ClassOps {
    return {
      has: (id) => this.classes.has(id),
      leaf: (id) => this.classes.get(id)?.leaf ?? null,
      canGraft: (id) => this.classes.get(id)?.level === 0,
      graft: (id, q): TcResult => {
        const cl = this.classes.get(id);
        if (!cl) return { errno: 'ENOENT', extack: 'Specified class not found' };
        if (cl.level !== 0) return { errno: 'EINVAL' };
        if (cl.leaf) {
          cl.pastDrops += cl.leaf.stats().drops;
          cl.leaf.reset();
        }
        cl.leaf = q ?? this.newLeafQdisc(id);
        cl.leafIsDefault = q === null;
        cl.leaf.parent = id;
        return {};
      },
      dump: () => this.dumpClasses(),
      change: (classid, parentid, o, create) => this.changeClass(classid, parentid, o, create),
      remove: (classid): TcResult => {
        const cl = this.classes.get(classid);
        if (!cl) return { errno: 'ENOENT' };
        if (cl.children.length > 0) return { errno: 'EBUSY', extack: 'HTB class in use' };
        cl.leaf?.reset();
        this.classes.delete(classid);
        const par = cl.parent;
        if (par) {
          par.children = par.children.filter((c) => c !== cl);
          if (par.children.length === 0) {
            // The parent becomes a leaf again with a fresh default qdisc (htb_parent_to_leaf).
            par.level = 0;
            par.tokens = par.bufferNs;
            par.ctokens = par.cbufferNs;
            par.tC = this.lastNowNs;
            par.leaf = this.newLeafQdisc(par.classid);
            par.leafIsDefault = true;
          }
        }
        this.rebuildLeaves();
        return {};
      },
    };
  }

  private changeClass(
    classid: number,
    parentid: number,
    o: HtbClassOptions | null,
    create: boolean,
  ): TcResult {
    const existing = this.classes.get(classid);
    if (!o || !o.rate || !o.ceil) return { errno: 'EINVAL' };
    if (existing) {
      const w = this.setParams(existing, o);
      return w ? { warning: w } : {};
    }
    if (!create) return { errno: 'ENOENT' };
    // New class: valid classid within this qdisc's major, unknown parent means a root class.
    if (!classid || tcMajor(classid) !== tcMajor(this.handle) || tcMinor(classid) === 0)
      return { errno: 'EINVAL' };
    const parent = this.classes.get(parentid) ?? null;
    if (parent?.parent && parent.parent.level < 2)
      return { errno: 'EINVAL', extack: 'sch_htb: tree is too deep' };
    const cl = new HtbClass(classid, parent, this.lastNowNs);
    const w = this.setParams(cl, o);
    cl.tokens = cl.bufferNs;
    cl.ctokens = cl.cbufferNs;
    if (parent) {
      if (parent.level === 0) {
        // Leaf turns into an inner class: its queue is purged (htb_parent_to_leaf's reverse).
        if (parent.leaf) {
          parent.pastDrops += parent.leaf.stats().drops;
          parent.leaf.reset();
        }
        parent.leaf = null;
        parent.level = (parent.parent ? parent.parent.level : TC_HTB_MAXDEPTH) - 1;
      }
      parent.children.push(cl);
    }
    cl.leaf = this.newLeafQdisc(classid);
    this.classes.set(classid, cl);
    this.rebuildLeaves();
    return w ? { warning: w } : {};
  }

  private dumpClasses(): ClassDump[] {
    const out: ClassDump[] = [];
    const ordered = [...this.classes.values()].sort((a, b) => a.classid - b.classid);
    for (const c of ordered) {
      const leafStats = c.leaf ? c.leaf.stats() : emptyStats();
      const stats = emptyStats();
      addStats(stats, { ...leafStats, bytes: 0, packets: 0, overlimits: 0, requeues: 0 });
      stats.bytes = c.bytes;
      stats.packets = c.packets;
      stats.drops += c.pastDrops;
      stats.overlimits = c.overlimits;
      out.push({
        kind: 'htb',
        classid: c.classid,
        parent: c.parent ? c.parent.classid : 0xffffffff,
        leafHandle: c.leaf && !c.leafIsDefault ? c.leaf.handle : 0,
        options: {
          prio: c.prio,
          quantum: c.quantum,
          rate: c.rate,
          ceil: c.ceil,
          buffer_ns: c.bufferNs,
          cbuffer_ns: c.cbufferNs,
          level: c.level,
        },
        stats,
        xstats: {
          lended: c.lends,
          borrowed: c.borrows,
          giants: 0,
          // xstats tokens are in psched ticks (ns >> 6), as the kernel reports them.
          tokens: Math.trunc(c.tokens / 64),
          ctokens: Math.trunc(c.ctokens / 64),
        },
      });
    }
    return out;
  }
}
