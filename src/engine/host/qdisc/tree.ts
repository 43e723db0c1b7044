/**
 * A device's traffic-control tree: the `QdiscTree` the host drives, plus the management operations
 * `tc` performs (the kernel side of RTM_NEWQDISC / RTM_DELQDISC / RTM_NEWTCLASS / RTM_DELTCLASS).
 * Boot state as attach_default_qdiscs: `mq` with one default qdisc per TX queue when there are
 * several, else the default qdisc at the root; deleting the root restores it; handle-0 qdiscs cannot
 * be changed or deleted. A requeued packet (dev_requeue_skb) is held per TX queue (mq) or per device
 * and returned first; a replaced qdisc loses its backlog silently (qdisc_reset).
 *
 * Sources: LINUX net/sched/sch_generic.c, sch_api.c (tc_modify_qdisc, tc_get_qdisc, qdisc_graft,
 * tc_ctl_tclass) for the decisions and extack texts.
 */
import { type Packet, qdiscBatchBytes } from '../../model/packet';
import {
  type ClassDump,
  displaySkbs,
  type HtbClassOptions,
  isTcError,
  type QdiscKind,
  type QdiscNode,
  type QdiscOptions,
  skbsOf,
  TC_H_ROOT,
  type TcResult,
  tcMajor,
  tcMake,
  tcMinor,
} from './common';
import { MqQdisc } from './mq';
import { createDefaultQdisc, createQdisc, type DefaultQdiscKind, QDISC_OPS } from './registry';
import type { QdiscContext, QdiscStats, QdiscTree } from './types';

export type { DefaultQdiscKind } from './registry';

/** One qdisc as `tc -s -j qdisc show` reports it. */
export interface QdiscDump {
  kind: QdiscKind;
  handle: number;
  parent: number;
  /** tcm_info: the reference count tc prints when it is not 1. */
  refcnt: number;
  options: Record<string, number | boolean | string>;
  stats: QdiscStats;
  xstats: Record<string, number> | null;
}

export interface QdiscModifyFlags {
  create: boolean;
  replace: boolean;
  excl: boolean;
}

export interface QdiscModifyRequest {
  flags: QdiscModifyFlags;
  /** tcm_parent: TC_H_ROOT, a classid, or 0 when not given. */
  parent: number;
  /** tcm_handle: 0 when not given. */
  handle: number;
  /** Kind and options; null when tc sent no kind. */
  opts: QdiscOptions | null;
}

export interface QdiscDeleteRequest {
  parent: number;
  handle: number;
  kind?: string;
}

export interface ClassModifyRequest {
  flags: QdiscModifyFlags;
  parent: number;
  classid: number;
  kind?: string;
  opts: HtbClassOptions | null;
}

/** What the host and `tc` get for a device: the data path plus management. */
export interface QdiscManager extends QdiscTree {
  modifyQdisc(req: QdiscModifyRequest, nowNs?: number): TcResult;
  deleteQdisc(req: QdiscDeleteRequest): TcResult;
  modifyClass(req: ClassModifyRequest): TcResult;
  deleteClass(req: { parent: number; classid: number }): TcResult;
  dumpQdiscs(): QdiscDump[];
  dumpClasses(): ClassDump[];
  numTxQueues(): number;
  /** The root node (tests and the host's statistics). */
  root(): QdiscNode;
}

export interface CreateQdiscTreeOptions {
  defaultQdisc: DefaultQdiscKind;
}

/** Build a device's qdisc tree in its boot state. */
export function createQdiscTree(ctx: QdiscContext, opts: CreateQdiscTreeOptions): QdiscManager {
  return new QdiscTreeImpl(ctx, opts.defaultQdisc);
}

class QdiscTreeImpl implements QdiscManager {
  private rootQ!: QdiscNode;
  /** The root when it is `mq` (each TX queue dequeues its own child), else null: set with the root. */
  private mq: MqQdisc | null = null;
  rootIsMq = false;
  /** Creation order of visible qdiscs (the dump lists the most recent first after the root). */
  private readonly visible = new Map<QdiscNode, number>();
  private seq = 0;
  private nextAutoHandle = 0x8001;
  /** Requeued packets: per TX queue with mq at the root, slot 0 otherwise. */
  private requeued: Packet[][] = [];
  /** Batches held in `requeued`, and the skbs they stand for. */
  private requeuedBatches = 0;
  private requeuedSkbs = 0;
  private readonly requeueCounts = new Map<QdiscNode, number>();

  constructor(
    private readonly ctx: QdiscContext,
    private readonly defaultKind: DefaultQdiscKind,
  ) {
    this.attachDefault();
    // known before the data path first asks: a first answer computed there deoptimized the host's
    // dequeue loop (compiled against a known answer) in every new lab
    this.shaping = this.anyShapes();
  }

  get rootKind(): string {
    return this.rootQ.kind;
  }
  root(): QdiscNode {
    return this.rootQ;
  }
  numTxQueues(): number {
    return this.ctx.numTxQueues();
  }

  private makeDefault(): QdiscNode {
    return createDefaultQdisc(this.ctx, this.defaultKind);
  }

  /** attach_default_qdiscs: mq + defaults on multi-queue devices, the default at the root otherwise. */
  private attachDefault(): void {
    this.visible.clear();
    const n = this.ctx.numTxQueues();
    if (n > 1 && !QDISC_OPS[this.defaultKind].noQueue) {
      const mq = new MqQdisc(n, () => this.makeDefault());
      mq.parent = TC_H_ROOT;
      this.setRoot(mq);
      // mq_attach hashes its children in queue order; the dump lists the newest first (:n … :1).
      for (const c of mq.children) this.visible.set(c, this.seq++);
    } else {
      const q = this.makeDefault();
      q.parent = TC_H_ROOT;
      this.setRoot(q);
    }
    this.resetRequeue();
  }

  private setRoot(q: QdiscNode): void {
    this.rootQ = q;
    this.mq = q instanceof MqQdisc ? q : null;
    this.rootIsMq = this.mq !== null;
  }

  private resetRequeue(): void {
    const slots = this.mq !== null ? this.mq.children.length : 1;
    this.requeued = Array.from({ length: slots }, () => []);
    this.requeuedBatches = 0;
    this.requeuedSkbs = 0;
  }

  // ---- data path ----

  enqueue(p: Packet, nowNs: number): void {
    // `mark` is per-stage scratch: the qdiscs own it from here (tbf's MARK_SEGMENTED).
    p.mark = 0;
    this.rootQ.enqueue(p, nowNs);
  }

  dequeue(txq: number, nowNs: number): Packet | null {
    const mq = this.mq;
    if (this.requeuedBatches > 0) {
      const slot = mq ? this.requeued[this.slotOf(txq)] : this.requeued[0];
      if (slot && slot.length > 0) {
        const p = slot.shift()!;
        this.requeuedBatches--;
        this.requeuedSkbs = this.requeuedBatches === 0 ? 0 : this.requeuedSkbs - skbsOf(p);
        return p;
      }
    }
    return mq !== null ? mq.dequeueTx(txq, nowNs) : this.rootQ.dequeue(nowNs);
  }

  private slotOf(txq: number): number {
    const n = this.requeued.length;
    return txq >= 0 && txq < n ? txq : ((txq % n) + n) % n;
  }

  requeue(p: Packet): void {
    const mq = this.mq;
    const slot = mq ? this.slotOf(p.txq) : 0;
    this.requeued[slot]!.push(p);
    this.requeuedBatches++;
    this.requeuedSkbs += skbsOf(p);
    const owner = mq ? mq.children[slot]! : this.rootQ;
    this.requeueCounts.set(owner, (this.requeueCounts.get(owner) ?? 0) + 1);
  }

  /** Whether any qdisc in the tree can hold packets back on a timer (QdiscOps.shapes); null = recompute. */
  private shaping: boolean | null = null;

  nextWakeNs(nowNs: number): number {
    if (this.shaping === null) this.shaping = this.anyShapes();
    if (!this.shaping) return Number.POSITIVE_INFINITY;
    // Requeued packets wait for their TX ring to be woken by the driver, not for a watchdog: reporting
    // them here would re-arm the watchdog at the current instant forever.
    return this.rootQ.nextWakeNs(nowNs);
  }

  private anyShapes(): boolean {
    return this.dumpQdiscs().some((q) => QDISC_OPS[q.kind].shapes);
  }

  backlogPackets(): number {
    return displaySkbs(this.rootQ.qlen() + this.requeuedSkbs);
  }

  backlogBytes(): number {
    let b = this.rootQ.backlogBytes();
    if (this.requeuedBatches > 0) for (const s of this.requeued) for (const p of s) b += qdiscBatchBytes(p);
    return b;
  }

  // ---- lookup helpers ----

  private allNodes(): QdiscNode[] {
    const out: QdiscNode[] = [];
    const walk = (q: QdiscNode): void => {
      out.push(q);
      for (const c of q.childQdiscs()) walk(c);
    };
    walk(this.rootQ);
    return out;
  }

  /** qdisc_lookup: by non-zero handle anywhere in the tree. */
  private lookup(handle: number): QdiscNode | null {
    if (!handle) return null;
    for (const q of this.allNodes()) if (q.handle === handle) return q;
    return null;
  }

  private parentOf(q: QdiscNode): QdiscNode | null {
    for (const n of this.allNodes()) if (n.childQdiscs().includes(q)) return n;
    return null;
  }

  /** qdisc_leaf with the kernel's extack texts. */
  private leafOf(p: QdiscNode, classid: number): QdiscNode | null | { err: TcResult } {
    if (!p.classOps) return { err: { errno: 'EOPNOTSUPP', extack: 'Parent qdisc is not classful' } };
    if (!p.classOps.has(classid)) return { err: { errno: 'ENOENT', extack: 'Specified class not found' } };
    return p.classOps.leaf(classid);
  }

  private allocHandle(): number {
    for (let i = 0; i < 0x8000; i++) {
      const h = tcMake(this.nextAutoHandle, 0);
      this.nextAutoHandle = this.nextAutoHandle >= 0xffff ? 0x8000 : this.nextAutoHandle + 1;
      if (!this.lookup(h)) return h;
    }
    return 0;
  }

  // ---- management ----

  modifyQdisc(req: QdiscModifyRequest, nowNs = 0): TcResult {
    this.shaping = null;
    const { flags, handle } = req;
    const clid = req.parent;
    const kind = req.opts?.kind;
    let p: QdiscNode | null = null;
    let q: QdiscNode | null = null;
    let create = false;
    if (clid) {
      if (clid !== TC_H_ROOT) {
        p = this.lookup(tcMake(tcMajor(clid), 0));
        if (!p) return { errno: 'ENOENT', extack: 'Failed to find specified qdisc' };
        const l = this.leafOf(p, clid);
        if (l && 'err' in l) return l.err;
        q = l;
      } else {
        q = this.rootQ;
      }
      // It may be default qdisc, ignore it.
      if (q && q.handle === 0) q = null;
      if (!q || !handle || q.handle !== handle) {
        if (handle) {
          if (q && !flags.replace) return { errno: 'EEXIST', extack: 'NLM_F_REPLACE needed to override' };
          if (tcMinor(handle)) return { errno: 'EINVAL', extack: 'Invalid minor handle' };
          q = this.lookup(handle);
          if (!q) create = true;
          else {
            if (flags.excl) return { errno: 'EEXIST', extack: 'Exclusivity flag on, cannot override' };
            if (kind && kind !== q.kind) return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
            if (q === p || (p && this.isAncestor(q, p))) {
              return { errno: 'ELOOP', extack: 'Qdisc parent/child loop detected' };
            }
            return { errno: 'EOPNOTSUPP', extack: 'moving an existing qdisc is not simulated in ec2-netlab' };
          }
        } else if (!q) {
          create = true;
        } else if (flags.create && flags.replace && (flags.excl || (kind && kind !== q.kind))) {
          create = true;
        }
      }
    } else {
      if (!handle) return { errno: 'EINVAL', extack: 'Handle cannot be zero' };
      q = this.lookup(handle);
    }

    if (!create) {
      if (!q) return { errno: 'ENOENT', extack: 'Specified qdisc not found' };
      if (flags.excl) return { errno: 'EEXIST', extack: 'Exclusivity flag on, cannot modify' };
      if (kind && kind !== q.kind) return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
      if (!req.opts) return {};
      return q.change(req.opts);
    }

    // create_n_graft
    if (!flags.create)
      return { errno: 'ENOENT', extack: 'Qdisc not found. To create specify NLM_F_CREATE flag' };
    if (!req.opts) return { errno: 'ENOENT', extack: 'Specified qdisc kind is unknown' };
    if (!clid) return { errno: 'EINVAL' };
    if (p?.classOps && !p.classOps.canGraft(clid)) return { errno: 'EINVAL' };
    const h = handle || this.allocHandle();
    const made = createQdisc(this.ctx, req.opts, clid, nowNs);
    if ('errno' in made) return made.errno as TcResult;
    made.handle = h;
    if (made instanceof MqQdisc) made.setHandle(h);
    return this.graft(p, clid, made);
  }

  private isAncestor(a: QdiscNode, b: QdiscNode): boolean {
    let x: QdiscNode | null = b;
    while (x) {
      if (x === a) return true;
      x = this.parentOf(x);
    }
    return false;
  }

  /** qdisc_graft: attach `q` (null = default) at the root or under class `clid` of `p`. */
  private graft(p: QdiscNode | null, clid: number, q: QdiscNode | null): TcResult {
    if (clid === TC_H_ROOT || !p) {
      for (const n of this.allNodes()) this.visible.delete(n);
      this.rootQ.reset();
      if (!q) {
        this.attachDefault();
        return {};
      }
      q.parent = TC_H_ROOT;
      this.setRoot(q);
      this.visible.set(q, this.seq++);
      if (q instanceof MqQdisc) for (const c of q.children) this.visible.set(c, this.seq++);
      this.resetRequeue();
      return {};
    }
    if (!p.classOps) return { errno: 'EOPNOTSUPP' };
    const old = p.classOps.leaf(clid);
    if (old) for (const n of this.subtree(old)) this.visible.delete(n);
    const r = p.classOps.graft(clid, q);
    if (isTcError(r)) return r;
    if (q) this.visible.set(q, this.seq++);
    else if (p instanceof MqQdisc) {
      const fresh = p.classOps.leaf(clid);
      if (fresh) this.visible.set(fresh, this.seq++);
    }
    return {};
  }

  private subtree(q: QdiscNode): QdiscNode[] {
    const out: QdiscNode[] = [q];
    for (const c of q.childQdiscs()) out.push(...this.subtree(c));
    return out;
  }

  deleteQdisc(req: QdiscDeleteRequest): TcResult {
    this.shaping = null;
    const clid = req.parent;
    let p: QdiscNode | null = null;
    let q: QdiscNode | null;
    if (clid) {
      if (clid !== TC_H_ROOT) {
        p = this.lookup(tcMake(tcMajor(clid), 0));
        if (!p) return { errno: 'ENOENT', extack: 'Failed to find qdisc with specified classid' };
        const l = this.leafOf(p, clid);
        if (l && 'err' in l) return l.err;
        q = l;
      } else {
        q = this.rootQ;
      }
      if (!q) return { errno: 'ENOENT', extack: 'Cannot find specified qdisc on specified device' };
      if (req.handle && q.handle !== req.handle) return { errno: 'EINVAL', extack: 'Invalid handle' };
    } else {
      q = this.lookup(req.handle);
      if (!q) return { errno: 'ENOENT', extack: 'Failed to find qdisc with specified handle' };
    }
    if (req.kind && req.kind !== q.kind) return { errno: 'EINVAL', extack: 'Invalid qdisc name' };
    if (!clid) return { errno: 'EINVAL', extack: 'Classid cannot be zero' };
    if (q.handle === 0) return { errno: 'ENOENT', extack: 'Cannot delete qdisc with handle of zero' };
    return this.graft(p, clid, null);
  }

  /** tc_ctl_tclass (RTM_NEWTCLASS): locate the qdisc, then create or change the class. */
  modifyClass(req: ClassModifyRequest): TcResult {
    this.shaping = null;
    const located = this.locateClassQdisc(req.parent, req.classid);
    if ('errno' in located) return located;
    const q = located.q;
    const clid = located.classid;
    if (!q.classOps) return { errno: 'EINVAL' };
    const exists = clid !== 0 && q.classOps.has(clid);
    if (!exists && !req.flags.create) return { errno: 'ENOENT' };
    if (exists && req.flags.excl) return { errno: 'EEXIST' };
    if (req.kind && req.kind !== q.kind) return { errno: 'EINVAL' };
    const parentId = req.parent === TC_H_ROOT ? TC_H_ROOT : req.parent;
    const r = q.classOps.change(clid, parentId, req.opts, !exists);
    if (isTcError(r)) return r;
    return r;
  }

  deleteClass(req: { parent: number; classid: number }): TcResult {
    this.shaping = null;
    const located = this.locateClassQdisc(req.parent, req.classid);
    if ('errno' in located) return located;
    const q = located.q;
    if (!q.classOps?.has(located.classid)) return { errno: 'ENOENT' };
    const leaf = q.classOps.leaf(located.classid);
    const r = q.classOps.remove(located.classid);
    if (!isTcError(r) && leaf) for (const n of this.subtree(leaf)) this.visible.delete(n);
    return r;
  }

  /** Step 1 of tc_ctl_tclass: find the qdisc X:0 that owns the class. */
  private locateClassQdisc(
    portid: number,
    clid: number,
  ): { q: QdiscNode; classid: number } | (TcResult & { errno: 'EINVAL' | 'ENOENT' }) {
    let qid = tcMajor(clid);
    if (portid !== TC_H_ROOT) {
      const qid1 = tcMajor(portid);
      if (qid && qid1) {
        if (qid !== qid1) return { errno: 'EINVAL' };
      } else if (qid1) {
        qid = qid1;
      } else if (qid === 0) {
        qid = tcMajor(this.rootQ.handle);
      }
      if (clid && tcMajor(clid) === 0) clid = tcMake(qid, tcMinor(clid));
    } else {
      qid = tcMajor(this.rootQ.handle);
    }
    const q = this.lookup(tcMake(qid, 0)) ?? (qid === 0 ? this.rootQ : null);
    if (!q) return { errno: 'ENOENT' };
    return { q, classid: clid };
  }

  dumpQdiscs(): QdiscDump[] {
    const n = this.ctx.numTxQueues();
    const root = this.rootQ;
    const out: QdiscDump[] = [this.dumpOne(root, root instanceof MqQdisc ? 1 : n + 1)];
    if (QDISC_OPS[root.kind].noQueue) out[0]!.refcnt = 2;
    const rest = this.allNodes()
      .filter((q) => q !== root && this.visible.has(q))
      .sort((a, b) => this.visible.get(b)! - this.visible.get(a)!);
    for (const q of rest) out.push(this.dumpOne(q, 1));
    return out;
  }

  private dumpOne(q: QdiscNode, refcnt: number): QdiscDump {
    const stats = q.stats();
    if (q instanceof MqQdisc) {
      for (const c of q.children) stats.requeues += this.requeueCounts.get(c) ?? 0;
    } else {
      stats.requeues += this.requeueCounts.get(q) ?? 0;
    }
    return {
      kind: q.kind,
      handle: q.handle,
      parent: q.parent,
      refcnt,
      options: q.dumpOptions(),
      stats,
      xstats: q.xstats(),
    };
  }

  dumpClasses(): ClassDump[] {
    const out: ClassDump[] = [];
    for (const q of this.allNodes())
      if (q.classOps && (q === this.rootQ || this.visible.has(q))) out.push(...q.classOps.dump());
    return out;
  }
}
