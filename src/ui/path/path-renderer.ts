/**
 * Imperative canvas drawing of the path (no React): stage boxes and lanes, queue occupancy and
 * peaks, the batches of a frame moving along the path, drops with their reason. Returns what the
 * click hit-test needs (where each drawn batch and lane ended up).
 *
 * Speed: batches are drawn with one Path2D per colour (a handful of fill/stroke calls whatever the
 * number of batches); text is drawn per stage, not per batch.
 * Truth: a batch of N identical packets is one mark whose size grows with N; the frame's
 * `sampled` flag is shown by the component (overlay), and lane density is drawn as a bar so a
 * sampled frame still shows how much passed.
 */
import type { PathFrame, PathLayout } from '../../protocol/path-frame';
import { categoryColour, DROP_COLOUR } from './palette';
import { type LaneGeom, laneFor, type PathGeometry, type Rect } from './path-geometry';

export type ColourBy = 'flow' | 'rss-queue' | 'vcpu';

export type PathSelection =
  /** A batch: `id` ≥ 0 for one that left or died, -1 for one still inside (then flow + seq name it). */
  | { kind: 'packet'; id: number; flow: number; seq: number; count: number }
  | { kind: 'stage'; host: number; stage: number; queue: number }
  | null;

export interface Theme {
  bg: string;
  fg: string;
  muted: string;
  stage: string;
  stageBorder: string;
  lane: string;
  fill: string;
  nitro: string;
  nitroBorder: string;
  select: string;
  /** Outline of batch marks ('' = none): the light Okabe–Ito hues (orange, sky blue, yellow) need an edge to stand out on a light lane. */
  markEdge: string;
  font: string;
}

export const DEFAULT_THEME: Theme = {
  bg: '#ffffff',
  fg: '#1b1f24',
  muted: '#57606a',
  stage: '#f6f8fa',
  stageBorder: '#8c959f',
  lane: '#eaeef2',
  fill: '#9fb3c8',
  nitro: '#fff8e6',
  nitroBorder: '#bf8700',
  select: '#000000',
  markEdge: 'rgba(27, 31, 36, 0.6)',
  font: 'system-ui, sans-serif',
};

/** Passage fates (engine/view/path-types.ts: PASSAGE_LEFT, PASSAGE_DROPPED, PASSAGE_INSIDE). */
const FATE_DROPPED = 1;
const FATE_INSIDE = 2;

export interface DrawOptions {
  colourBy: ColourBy;
  selection: PathSelection;
  reducedMotion: boolean;
  theme: Theme;
  /** Device pixel ratio the canvas backing store uses. */
  dpr: number;
}

/** What the hit-test needs after a draw: batch heads (x, y, frame index) and lanes. */
export interface HitData {
  n: number;
  x: Float32Array;
  y: Float32Array;
  index: Uint32Array;
}

export function allocHitData(capacity: number): HitData {
  return {
    n: 0,
    x: new Float32Array(capacity),
    y: new Float32Array(capacity),
    index: new Uint32Array(capacity),
  };
}

const NITRO_PART_FOR_REASON: Record<string, readonly string[]> = {
  flow_limit_exceeded: ['flow-limit'],
  bw_out_allowance_exceeded: ['bw-out'],
  bw_in_allowance_exceeded: ['bw-in'],
  pps_allowance_exceeded: ['pps'],
  conntrack_allowance_exceeded: ['conntrack'],
  vpc_route: ['flow-lookup'],
  nacl_deny: ['flow-lookup'],
  sg_deny: ['flow-lookup'],
  igw_limit_exceeded: ['bw-out'],
  // the card's own bandwidth, either way: beside the bandwidth part of the half that dropped it
  card_bandwidth_exceeded: ['bw-out', 'bw-in'],
  // Xen PV: dom0's queue for the guest, beside the netback part
  xen_backend_queue_full: ['netback'],
};

/** The part of a Nitro stage that holds its queue in this frame (frame.laneHeld), if any. */
function heldPart<P extends { id: string }>(
  s: { host: number; stage: number; parts: readonly P[] },
  layout: PathLayout,
  frame: PathFrame | null,
  laneIdx: ReadonlyMap<number, number>,
): P | undefined {
  if (!frame?.laneHeld) return undefined;
  const li = laneIdx.get((s.host * 16 + s.stage) * 65536);
  const code = li === undefined ? 0 : frame.laneHeld[li]!;
  return code ? nitroPartFor(s.parts, layout.dropReasons[code] ?? '') : undefined;
}

/** What holds a ring stage's packets in this frame (frame.laneHeld of a lane with packets), as the pills say it. */
function ringHeldBy(
  s: { host: number; stage: number; lanes: readonly { queue: number }[] },
  layout: PathLayout,
  frame: PathFrame | null,
  laneIdx: ReadonlyMap<number, number>,
): string | undefined {
  if (!frame?.laneHeld) return undefined;
  for (const l of s.lanes) {
    const li = laneIdx.get((s.host * 16 + s.stage) * 65536 + l.queue);
    const code = li === undefined ? 0 : frame.laneHeld[li]!;
    if (code && frame.laneOccupancy[li!]! > 0) {
      const reason = layout.dropReasons[code] ?? '';
      return SHORT_REASON[reason] ?? reason;
    }
  }
  return undefined;
}

/** The Nitro part of a stage that a drop reason belongs to (undefined: not a Nitro part's drop). */
export function nitroPartFor<P extends { id: string }>(parts: readonly P[], reason: string): P | undefined {
  for (const id of NITRO_PART_FOR_REASON[reason] ?? []) {
    const p = parts.find((x) => x.id === id);
    if (p) return p;
  }
  return undefined;
}

/** Drop reasons as the pills on the canvas say them (the legend and inspectors give the counter names). */
export const SHORT_REASON: Record<string, string> = {
  bw_out_allowance_exceeded: 'bw_out allowance',
  bw_in_allowance_exceeded: 'bw_in allowance',
  pps_allowance_exceeded: 'PPS allowance',
  flow_limit_exceeded: 'per-flow limit',
  igw_limit_exceeded: 'IGW limit',
  card_bandwidth_exceeded: 'card bandwidth',
  xen_backend_queue_full: 'dom0 queue full',
  rx_ring_full: 'RX ring full',
  qdisc_overlimit: 'qdisc limit',
  codel_drop: 'CoDel drop',
  fq_codel_memory_limit: 'fq_codel memory',
  socket_rcvbuf_full: 'rcvbuf full',
  no_listener: 'no listener',
  mtu_exceeded: 'MTU exceeded',
  conntrack_allowance_exceeded: 'conntrack allowance',
  linklocal_allowance_exceeded: 'link-local allowance',
  vpc_route: 'no route',
  nacl_deny: 'NACL deny',
  sg_deny: 'SG deny',
  ip_reassembly_failed: 'reassembly failed',
  srd_retransmitted: 'SRD resent',
};

/** Position of a point `frac` (0 = entered, 1 = leaves) along a lane; `jitter` ∈ [0,1) spreads batches across it. */
function lanePoint(l: LaneGeom, frac: number, jitter: number, out: { x: number; y: number }): void {
  const r = l.rect;
  const f = frac < 0 ? 0 : frac > 1 ? 1 : frac;
  // a batch mark (radius up to 6 px) stays inside its lane
  const inset = Math.min(6, r.w / 4);
  out.x = r.x + inset + jitter * Math.max(0, r.w - 2 * inset);
  out.y = l.dir === 1 ? r.y + f * r.h : r.y + r.h - f * r.h;
}

/**
 * A colour's batch marks: circles, or past a thousand of them squares of the same area on whole
 * pixels (axis-aligned pixel rectangles are what a software rasteriser fills fastest).
 */
function drawMarks(ctx: CanvasRenderingContext2D, m: number[], squares: boolean, edge: string): void {
  if (squares) {
    for (let k = 0; k < m.length; k += 3) {
      const side = Math.max(2, Math.round(m[k + 2]! * 1.772)); // the circle's area
      ctx.fillRect(Math.round(m[k]! - side / 2), Math.round(m[k + 1]! - side / 2), side, side);
    }
    return;
  }
  const p = new Path2D();
  for (let k = 0; k < m.length; k += 3) {
    const x = m[k]!;
    const y = m[k + 1]!;
    const r = m[k + 2]!;
    p.moveTo(x + r, y);
    p.arc(x, y, r, 0, Math.PI * 2);
  }
  ctx.fill(p);
  if (edge) {
    ctx.strokeStyle = edge;
    ctx.lineWidth = 0.75;
    ctx.stroke(p);
  }
}

function roundRect(ctx: CanvasRenderingContext2D, r: Rect, radius: number): void {
  ctx.beginPath();
  ctx.roundRect(r.x, r.y, r.w, r.h, radius);
}

/** One formatter for every count drawn (toLocaleString builds one per call: a tenth of a busy picture's drawing). */
const INT_FORMAT = new Intl.NumberFormat('en-US');

function fmtInt(n: number): string {
  return INT_FORMAT.format(Math.round(n));
}

/** A count in at most four characters: 262, 1.2k, 34k, 1.5M (exact counts are in the drops list). */
function fmtCompact(n: number): string {
  if (n < 1000) return fmtInt(n);
  if (n < 1e4) return `${(n / 1e3).toFixed(1)}k`;
  if (n < 1e6) return `${Math.round(n / 1e3)}k`;
  return `${(n / 1e6).toFixed(1)}M`;
}

/** `text` cut with an ellipsis to fit `maxW` px in the current font (never squeezed: squeezed glyphs are unreadable). */
export function fitText(ctx: CanvasRenderingContext2D, text: string, maxW: number): string {
  if (maxW <= 0) return '';
  if (ctx.measureText(text).width <= maxW) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid).trimEnd()}…`).width <= maxW) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo).trimEnd()}…`;
}

/** A drop pill's background: vermillion darkened so its white text has ≥ 4.5:1 contrast. */
const DROP_PILL = '#B34700';

/** Wire packets dropped per Nitro part in the frame, keyed `stageKey|partId`. */
function partDrops(g: PathGeometry, layout: PathLayout, f: PathFrame | null): Map<string, number> {
  const out = new Map<string, number>();
  if (!f) return out;
  for (let i = 0; i < f.drops; i++) {
    const s = g.stageByKey.get(f.dropHost[i]! * 16 + f.dropStage[i]!);
    const part = s && nitroPartFor(s.parts, layout.dropReasons[f.dropReason[i]!] ?? '');
    if (!s || !part) continue;
    const k = `${s.host * 16 + s.stage}|${part.id}`;
    out.set(k, (out.get(k) ?? 0) + f.dropCount[i]!);
  }
  return out;
}

/** The application box's label, longest first: the first that fits is drawn. */
export const APP_LABELS = [
  'Application (iperf3 / testpmd)  ·  sends ↓   receives ↑',
  'Application  ·  sends ↓   receives ↑',
  'App  ·  ↓ sends  ↑ receives',
  'App ↓ ↑',
] as const;

/** Draw one frame. `hit` is refilled with the positions of the batches drawn. */
export function drawPath(
  ctx: CanvasRenderingContext2D,
  g: PathGeometry,
  layout: PathLayout,
  frame: PathFrame | null,
  opts: DrawOptions,
  hit: HitData,
): void {
  const t = opts.theme;
  ctx.setTransform(opts.dpr, 0, 0, opts.dpr, 0, 0);
  ctx.fillStyle = t.bg;
  ctx.fillRect(0, 0, g.width, g.height);
  ctx.textBaseline = 'alphabetic';

  // ---- the lane index of the frame, for occupancy lookups
  const laneIdx = new Map<number, number>();
  if (frame)
    for (let i = 0; i < frame.lanes; i++)
      laneIdx.set((frame.laneHost[i]! * 16 + frame.laneStage[i]!) * 65536 + frame.laneQueue[i]!, i);

  // ---- columns: title, application, Nitro card background
  for (const h of g.hosts) {
    ctx.fillStyle = t.fg;
    ctx.font = `600 15px ${t.font}`;
    ctx.fillText(h.title, h.column.x, h.column.y + 15);
    ctx.font = `12px ${t.font}`;
    ctx.fillStyle = t.muted;
    ctx.fillText(h.subtitle, h.column.x, h.column.y + 31, h.column.w);
    roundRect(ctx, h.app, 4);
    ctx.fillStyle = t.stage;
    ctx.fill();
    ctx.strokeStyle = t.stageBorder;
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.fillStyle = t.fg;
    ctx.font = `12px ${t.font}`;
    ctx.textAlign = 'center';
    // the longest form that fits the box (a narrow picture: an embed, a phone)
    const appLabel =
      APP_LABELS.find((l) => ctx.measureText(l).width <= h.app.w - 8) ?? APP_LABELS[APP_LABELS.length - 1]!;
    ctx.fillText(appLabel, h.app.x + h.app.w / 2, h.app.y + 17);
    ctx.textAlign = 'left';
    roundRect(ctx, h.nitroCard, 6);
    ctx.fillStyle = t.nitro;
    ctx.fill();
    ctx.strokeStyle = t.nitroBorder;
    ctx.lineWidth = 1.5;
    ctx.stroke();
    ctx.fillStyle = t.nitroBorder;
    ctx.font = `600 12px ${t.font}`;
    ctx.fillText(h.hostLayerLabel, h.nitroCard.x + 6, h.nitroCard.y + 12);
  }

  // ---- stages, lanes, occupancy
  const cpuLoad = new Map<number, number>();
  const dropsInPart = partDrops(g, layout, frame);
  for (const s of g.stages) {
    const nitro = s.name.startsWith('nitro');
    if (!nitro) {
      roundRect(ctx, s.rect, 4);
      ctx.fillStyle = t.stage;
      ctx.fill();
      ctx.strokeStyle = t.stageBorder;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    ctx.fillStyle = t.fg;
    ctx.font = `600 11px ${t.font}`;
    const ringSize = s.lanes[0]?.capacity ?? 0;
    const head =
      s.name === 'tx_ring' || s.name === 'rx_ring'
        ? `${s.label} (${s.lanes.length} × ${ringSize})`
        : s.name === 'qdisc'
          ? `qdisc · ${s.layout.parts[0]?.label ?? ''}`
          : s.label;
    // a TX ring waiting for the Nitro card's budget (the egress PPS allowance gating its fetch) says
    // so after its name: "TX rings (2 × 512), held by PPS allowance", narrower without the size,
    // then "TX rings · PPS allowance", "TX rings · PPS"
    const ringHeld = s.name === 'tx_ring' ? ringHeldBy(s, layout, frame, laneIdx) : undefined;
    if (!nitro && ringHeld) {
      const w = s.rect.w - 8;
      const forms = [
        `${head}, held by ${ringHeld}`,
        `${s.label}, held by ${ringHeld}`,
        `${s.label} · ${ringHeld}`,
        `${s.label} · ${ringHeld.replace(/ allowance$/, '')}`,
      ];
      const shown = forms.find((x) => ctx.measureText(x).width <= w) ?? forms[3]!;
      ctx.fillText(fitText(ctx, shown, w), s.rect.x + 4, s.rect.y + 11);
    } else if (!nitro) ctx.fillText(head, s.rect.x + 4, s.rect.y + 11, s.rect.w - 8);
    // what holds a Nitro stage's queue now (a limit or an allowance): that part is outlined
    const held = nitro ? heldPart(s, layout, frame, laneIdx) : undefined;
    for (const p of s.parts) {
      const r = p.rect;
      const dropped = dropsInPart.get(`${s.host * 16 + s.stage}|${p.id}`) ?? 0;
      roundRect(ctx, r, 3);
      ctx.fillStyle = t.bg;
      ctx.fill();
      ctx.strokeStyle = dropped > 0 ? DROP_COLOUR : p === held ? t.fg : t.nitroBorder;
      ctx.lineWidth = dropped > 0 || p === held ? 2 : 0.75;
      ctx.stroke();
      // two lines (name, then detail) when 13 px apart fit; else one: "name · detail"
      const two = r.h >= 29;
      // a drop is a pill at the part's right, "✕ count", on the detail line when there are two (the
      // name stays whole); the reason is the part, and the list under the picture names it
      let pillW = 0;
      // on two lines the pill goes where it leaves the text whole: beside the name when the name
      // fits next to it, else on the detail line
      let pillOnName = false;
      if (dropped > 0) {
        ctx.font = `700 11px ${t.font}`;
        // the count alone when the part's short name would not fit beside "✕ count" on one line
        let txt = `✕ ${fmtCompact(dropped)}`;
        if (!two) {
          const room = r.w - 10 - ctx.measureText(txt).width - 14;
          ctx.font = `600 11px ${t.font}`;
          if (ctx.measureText(p.short ?? p.label).width > room) txt = fmtCompact(dropped);
          ctx.font = `700 11px ${t.font}`;
        }
        pillW = ctx.measureText(txt).width + 10;
        if (two) {
          // (at 11 px: the name takes 11 px rather than lose letters, below)
          ctx.font = `600 11px ${t.font}`;
          pillOnName = ctx.measureText(p.label).width <= r.w - 10 - pillW - 4;
          ctx.font = `700 11px ${t.font}`;
        }
        const px = r.x + r.w - pillW - 3;
        const py = !two ? r.y + (r.h - 15) / 2 : pillOnName ? r.y + 2 : r.y + r.h - 17;
        ctx.fillStyle = DROP_PILL;
        roundRect(ctx, { x: px, y: py, w: pillW, h: 15 }, 7);
        ctx.fill();
        ctx.fillStyle = '#ffffff';
        ctx.fillText(txt, px + 5, py + 11);
      }
      const beside = pillW ? pillW + 4 : 0;
      ctx.fillStyle = t.fg;
      const labelW = r.w - 10 - (two && !pillOnName ? 0 : beside);
      ctx.font = `600 11.5px ${t.font}`;
      // a name may take 11 px rather than lose letters, or its short form ("BW out") when narrow
      if (ctx.measureText(p.label).width > labelW) ctx.font = `600 11px ${t.font}`;
      const name =
        p.short && ctx.measureText(p.label).width > labelW && ctx.measureText(p.short).width <= labelW
          ? p.short
          : p.label;
      const label = fitText(ctx, name, labelW);
      const ly = r.y + (two ? 13 : r.h / 2 + 4);
      ctx.fillText(label, r.x + 5, ly);
      ctx.fillStyle = t.muted;
      if (two) {
        ctx.font = `11px ${t.font}`;
        ctx.fillText(fitText(ctx, p.detail, r.w - 10 - (pillOnName ? 0 : beside)), r.x + 5, r.y + 26);
      } else if (label === name) {
        // on one line the setting follows the name when it fits whole (a cut "1…" says nothing;
        // the part's inspector gives it)
        const lw = ctx.measureText(label).width;
        ctx.font = `11px ${t.font}`;
        const rest = ` · ${p.detail}`;
        if (ctx.measureText(rest).width <= labelW - lw) ctx.fillText(rest, r.x + 5 + lw, ly);
      }
    }
    for (const l of s.lanes) {
      ctx.fillStyle = t.lane;
      ctx.fillRect(l.rect.x, l.rect.y, l.rect.w, l.rect.h);
      const li = laneIdx.get((l.host * 16 + l.stage) * 65536 + l.queue);
      if (li === undefined || !frame) continue;
      const occ = frame.laneOccupancy[li]!;
      const peak = frame.lanePeak[li]!;
      // rings fill against their size; other queues against their own peak (labelled with the number)
      const ref = l.capacity > 0 ? l.capacity : Math.max(peak, 1);
      // the Nitro shaper queue is a gauge at the card's edge (its parts fill the stage)
      const gr = nitro ? { x: l.rect.x + l.rect.w - 7, y: l.rect.y + 4, w: 7, h: l.rect.h - 8 } : l.rect;
      if (nitro) {
        ctx.fillStyle = t.lane;
        ctx.fillRect(gr.x, gr.y, gr.w, gr.h);
      }
      const fh = Math.min(1, occ / ref) * gr.h;
      const ph = Math.min(1, peak / ref) * gr.h;
      ctx.fillStyle = t.fill;
      // queues build up from where packets leave: the bottom going down, the top going up
      if (l.dir === 1) ctx.fillRect(gr.x, gr.y + gr.h - fh, gr.w, fh);
      else ctx.fillRect(gr.x, gr.y, gr.w, fh);
      if (peak > 0) {
        ctx.strokeStyle = t.fg;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        const py = l.dir === 1 ? gr.y + gr.h - ph : gr.y + ph;
        ctx.moveTo(gr.x, py);
        ctx.lineTo(gr.x + gr.w, py);
        ctx.stroke();
      }
      if (s.lanes.length <= 8 && (occ > 0 || peak > 0) && l.rect.w > 26) {
        ctx.fillStyle = t.fg;
        ctx.font = `11px ${t.font}`;
        const txt =
          l.capacity > 0 ? `${fmtInt(occ)}/${l.capacity}` : `${fmtInt(occ)} queued (peak ${fmtInt(peak)})`;
        if (nitro) {
          // the count sits under the parts, where no packet passes
          // (narrow: the count alone; the lane's peak line still shows the peak)
          const pw = (s.parts[0]?.rect.w ?? s.rect.w - l.rect.w) - 4;
          const short = `${fmtInt(occ)} queued`;
          // the queue says what holds it ("171 queued, held by Bandwidth out", narrower "171 held by
          // BW out", then "171 · BW out" beside the outlined part), else the count alone
          const name = held?.short ?? held?.label;
          const byLong = held && occ > 0 ? `${fmtInt(occ)} queued, held by ${held.label}` : null;
          const by = held && occ > 0 ? `${fmtInt(occ)} held by ${name}` : null;
          const byShort = held && occ > 0 ? `${fmtInt(occ)} · ${name}` : null;
          const shown =
            [byLong, by, byShort, txt, short].find((x) => x && ctx.measureText(x).width <= pw) ?? short;
          ctx.fillText(fitText(ctx, shown, pw), s.rect.x + 4, s.rect.y + s.rect.h - 4);
        } else
          ctx.fillText(
            fitText(ctx, txt, l.rect.w - 4),
            l.rect.x + 2,
            l.dir === 1 ? l.rect.y + 11 : l.rect.y + l.rect.h - 3,
          );
      }
    }
    if (s.lanes.length <= 8 && (s.name === 'tx_ring' || s.name === 'rx_ring'))
      for (const l of s.lanes) {
        ctx.fillStyle = t.muted;
        ctx.font = `11px ${t.font}`;
        ctx.fillText(`q${l.queue}`, l.rect.x + 2, l.dir === 1 ? l.rect.y + l.rect.h - 3 : l.rect.y + 11);
      }
  }

  // ---- fabric
  const fr = g.fabric.rect;
  roundRect(ctx, fr, 6);
  ctx.fillStyle = t.stage;
  ctx.fill();
  ctx.strokeStyle = t.stageBorder;
  ctx.lineWidth = 1;
  ctx.stroke();
  drawFabricHead(ctx, g, layout, frame, t);

  if (!frame) {
    hit.n = 0;
    drawCpus(ctx, g, cpuLoad, t);
    return;
  }

  // ---- batches
  const flowRow = new Map<number, number>();
  for (let i = 0; i < frame.flows; i++) flowRow.set(frame.flowId[i]!, i);
  const colourKey = (flow: number): number => {
    const r = flowRow.get(flow);
    if (opts.colourBy === 'flow') return flow;
    if (r === undefined) return -1;
    return opts.colourBy === 'rss-queue' ? frame.flowRxQueue[r]! : frame.flowRxCpu[r]!;
  };
  /** Batch marks per colour: (x, y, radius) triples. */
  const heads = new Map<number, number[]>();
  // past a thousand marks, squares: a software rasteriser fills them several times faster than circles
  const many = frame.n > 1000;
  // trails show motion; past 1,500 of them they only cost rasterising time (every batch keeps its mark)
  const trailStride = Math.max(1, Math.ceil(frame.n / 1500));
  const waiting = new Map<LaneGeom, number[]>();
  const trails = new Map<number, Path2D>();
  const drops = new Path2D();
  const p0 = { x: 0, y: 0 };
  const p1 = { x: 0, y: 0 };
  const from = frame.fromNs;
  const to = frame.toNs;
  const fabricLane = g.fabric.lanes[0]!;
  const hostX = (host: number, side: 'tx' | 'rx') => {
    const h = g.hosts[host];
    if (!h) return side === 'tx' ? fr.x : fr.x + fr.w;
    const r = side === 'tx' ? h.tx : h.rx;
    return r.x + r.w / 2;
  };
  let nh = 0;
  const cap = hit.x.length;
  for (let i = 0; i < frame.n; i++) {
    const stage = frame.stage[i]!;
    const flow = frame.flow[i]!;
    const enter = frame.enterNs[i]!;
    const fate = frame.fate[i]!;
    // in flight on the fabric: its arrival is one one-way latency after it left
    const exit =
      fate === FATE_INSIDE && stage === g.fabric.stage ? enter + layout.fabricOneWayNs : frame.exitNs[i]!;
    const span = exit - enter;
    const fa = span > 0 ? Math.min(1, Math.max(0, (from - enter) / span)) : 1;
    const fb = span > 0 ? Math.min(1, Math.max(0, (to - enter) / span)) : 1;
    // a batch still inside the stage at `to` is drawn where it is; one that already left only as
    // its trail (where it went during the window), so exits do not pile up at the lane ends
    const inside = exit > to || fate === FATE_INSIDE;
    // reduced motion: no batch is drawn between two places; one inside a stage is drawn in that
    // stage's queue (arrival order), one that already left is not drawn, a drop stays where it died
    const still = opts.reducedMotion && fate !== FATE_DROPPED;
    // the vCPUs' NAPI load: every batch a vCPU took off an RX ring in this window (with or without motion)
    if (fate !== FATE_DROPPED && frame.cpu[i]! >= 0 && layout.stages[stage] === 'rx_ring') {
      const k = frame.host[i]! * 4096 + frame.cpu[i]!;
      cpuLoad.set(k, (cpuLoad.get(k) ?? 0) + frame.count[i]!);
    }
    if (still && !inside) continue;
    const jitter = (((flow * 0.618034 + frame.queue[i]! * 0.31) % 1) + 1) % 1;
    if (stage === g.fabric.stage) {
      const r = flowRow.get(flow);
      const src = frame.host[i]!;
      const dst = r !== undefined ? frame.flowDst[r]! : -1;
      const xa = hostX(src, 'tx');
      const xb = dst >= 0 ? hostX(dst, 'rx') : fr.x + fr.w - 6;
      const y = fabricLane.rect.y + 6 + jitter * (fabricLane.rect.h - 12);
      p0.x = still ? (xa + xb) / 2 : xa + (xb - xa) * fa;
      p0.y = y;
      p1.x = still ? p0.x : xa + (xb - xa) * fb;
      p1.y = y;
    } else {
      const l = laneFor(g, frame.host[i]!, stage, frame.queue[i]!);
      if (!l) continue;
      if (fate === FATE_INSIDE || still) {
        // waiting with no known exit yet (or any batch inside, without motion): drawn as a queue, below, in arrival order
        let w = waiting.get(l);
        if (!w) waiting.set(l, (w = []));
        w.push(i);
        continue;
      }
      lanePoint(l, fa, jitter, p0);
      lanePoint(l, fb, jitter, p1);
      if (fate === FATE_DROPPED) {
        // a drop in a Nitro part is marked beside that part (the allowance or check that dropped it)
        const st = g.stageByKey.get(frame.host[i]! * 16 + stage);
        const part = st ? nitroPartFor(st.parts, layout.dropReasons[frame.reason[i]!] ?? '') : undefined;
        if (part) p1.y = part.rect.y + part.rect.h / 2;
      }
    }
    if (fate === FATE_DROPPED) {
      drops.moveTo(p1.x - 3, p1.y - 3);
      drops.lineTo(p1.x + 3, p1.y + 3);
      drops.moveTo(p1.x + 3, p1.y - 3);
      drops.lineTo(p1.x - 3, p1.y + 3);
      if (nh < cap) {
        hit.x[nh] = p1.x;
        hit.y[nh] = p1.y;
        hit.index[nh] = i;
        nh++;
      }
      continue;
    }
    const key = colourKey(flow);
    if (!opts.reducedMotion && i % trailStride === 0 && (p0.x !== p1.x || p0.y !== p1.y)) {
      let tr = trails.get(key);
      if (!tr) trails.set(key, (tr = new Path2D()));
      // 1 px wide on a pixel centre: a vertical trail then covers whole pixels (cheap to rasterise)
      const tx = Math.floor(p1.x) + 0.5;
      tr.moveTo(p0.x === p1.x ? tx : p0.x, p0.y);
      tr.lineTo(p0.x === p1.x ? tx : p1.x, p1.y);
    }
    if (!inside) continue;
    let hp = heads.get(key);
    if (!hp) heads.set(key, (hp = []));
    const c = frame.count[i]!;
    hp.push(p1.x, p1.y, Math.min(6, 1.8 + Math.log2(c) * 0.6));
    if (nh < cap) {
      hit.x[nh] = p1.x;
      hit.y[nh] = p1.y;
      hit.index[nh] = i;
      nh++;
    }
  }
  // queues: the oldest batch nearest the exit, the newest at the tail
  for (const [l, list] of waiting) {
    list.sort((a, b) => frame.enterNs[a]! - frame.enterNs[b]!);
    const step = Math.min(7, l.rect.h / Math.max(1, list.length));
    for (let r = 0; r < list.length; r++) {
      const i = list[r]!;
      const flow = frame.flow[i]!;
      const jitter = (((flow * 0.618034 + r * 0.37) % 1) + 1) % 1;
      lanePoint(l, 1, jitter, p1);
      p1.y -= l.dir * (r + 0.5) * step;
      let hp = heads.get(colourKey(flow));
      if (!hp) heads.set(colourKey(flow), (hp = []));
      hp.push(p1.x, p1.y, Math.min(6, 1.8 + Math.log2(frame.count[i]!) * 0.6));
      if (nh < cap) {
        hit.x[nh] = p1.x;
        hit.y[nh] = p1.y;
        hit.index[nh] = i;
        nh++;
      }
    }
  }
  hit.n = nh;
  ctx.lineWidth = 1;
  ctx.globalAlpha = 0.5;
  for (const [k, p] of trails) {
    ctx.strokeStyle = categoryColour(k);
    ctx.stroke(p);
  }
  ctx.globalAlpha = 1;
  for (const [k, marks] of heads) {
    ctx.fillStyle = categoryColour(k);
    drawMarks(ctx, marks, many, t.markEdge);
  }
  ctx.strokeStyle = DROP_COLOUR;
  ctx.lineWidth = 2;
  ctx.stroke(drops);

  drawCpus(ctx, g, cpuLoad, t);
  drawDropLabels(ctx, g, layout, frame, t);
  drawSelection(ctx, g, frame, opts, hit);
}

/**
 * The fabric's header: where the instances sit, its one-way latency (an assumed parameter), the
 * round trip it implies at least, and the rate crossing it in this picture.
 */
function drawFabricHead(
  ctx: CanvasRenderingContext2D,
  g: PathGeometry,
  layout: PathLayout,
  f: PathFrame | null,
  t: Theme,
): void {
  const fr = g.fabric.rect;
  const left = `VPC fabric · ${layout.placementLabel}`;
  const lat = `one-way ${fmtLatency(layout.fabricOneWayNs)} (assumed) · RTT ≥ ${fmtLatency(2 * layout.fabricOneWayNs)}`;
  // what crossed the fabric in this picture's window, as a rate (bytes when the frame carries
  // batches, packets in a fast-forward); not an "in flight" count: the model hands a batch over
  // at once, so instantaneous counts would show batches, not the wire
  let flight = '';
  if (f && f.toNs > f.fromNs) {
    let entered = 0;
    for (let i = 0; i < f.lanes; i++) if (f.laneStage[i] === g.fabric.stage) entered += f.laneDensity[i]!;
    let bytes = 0;
    let packets = 0;
    if (f.detail)
      for (let i = 0; i < f.n; i++)
        if (f.stage[i] === g.fabric.stage && f.enterNs[i]! >= f.fromNs && f.enterNs[i]! < f.toNs) {
          bytes += f.bytes[i]!;
          packets += f.count[i]!;
        }
    const sec = (f.toNs - f.fromNs) / 1e9;
    if (bytes > 0 && !f.sampled) flight = `crossing ${fmtRate((bytes * 8) / sec)}`;
    // a sampled frame carries some batches: every packet that entered, at the carried batches' mean size
    else if (bytes > 0 && entered > 0)
      flight = `crossing ≈ ${fmtRate((entered * (bytes / packets) * 8) / sec)}`;
    else if (entered > 0) flight = `crossing ${fmtPps(entered / sec)}`;
  }
  ctx.fillStyle = t.fg;
  ctx.font = `600 12px ${t.font}`;
  ctx.fillText(fitText(ctx, left, fr.w * 0.4), fr.x + 8, fr.y + 15);
  const lw = Math.min(ctx.measureText(left).width, fr.w * 0.4);
  ctx.font = `11px ${t.font}`;
  ctx.fillStyle = t.muted;
  const right = flight ? `${lat} · ${flight}` : lat;
  ctx.textAlign = 'right';
  ctx.fillText(fitText(ctx, right, fr.w - lw - 32), fr.x + fr.w - 8, fr.y + 15);
  ctx.textAlign = 'left';
}

function fmtRate(bps: number): string {
  if (bps >= 1e9) return `${(bps / 1e9).toFixed(1)} Gbit/s`;
  if (bps >= 1e6) return `${(bps / 1e6).toFixed(1)} Mbit/s`;
  return `${(bps / 1e3).toFixed(1)} kbit/s`;
}

function fmtPps(pps: number): string {
  return pps >= 1e6 ? `${(pps / 1e6).toFixed(2)} Mpps` : `${fmtInt(pps / 1e3)} kpps`;
}

function drawCpus(ctx: CanvasRenderingContext2D, g: PathGeometry, load: Map<number, number>, t: Theme): void {
  for (const h of g.hosts) {
    if (h.cpus.length === 0) continue;
    const r0 = h.cpus[0]!.rect;
    ctx.fillStyle = t.fg;
    ctx.font = `600 11px ${t.font}`;
    ctx.fillText('Interrupt → NAPI on vCPU', r0.x, r0.y - 3, h.rx.w);
    let max = 1;
    for (const c of h.cpus) max = Math.max(max, load.get(h.index * 4096 + c.cpu) ?? 0);
    for (const c of h.cpus) {
      const v = load.get(h.index * 4096 + c.cpu) ?? 0;
      roundRect(ctx, c.rect, 3);
      ctx.fillStyle = t.stage;
      ctx.fill();
      if (v > 0) {
        ctx.globalAlpha = 0.25 + 0.6 * (v / max);
        ctx.fillStyle = categoryColour(c.cpu);
        ctx.fill();
        ctx.globalAlpha = 1;
      }
      ctx.strokeStyle = t.stageBorder;
      ctx.lineWidth = 1;
      ctx.stroke();
      if (c.rect.w > 18) {
        ctx.fillStyle = t.fg;
        ctx.font = `11px ${t.font}`;
        ctx.fillText(`${c.cpu}`, c.rect.x + 3, c.rect.y + 12);
      }
    }
  }
}

/** One label per (host, stage, reason): "✕ 1,234 dropped · rx_ring_full", placed where it happened. */
function drawDropLabels(
  ctx: CanvasRenderingContext2D,
  g: PathGeometry,
  layout: PathLayout,
  f: PathFrame,
  t: Theme,
): void {
  const agg = new Map<string, { host: number; stage: number; reason: number; count: number }>();
  for (let i = 0; i < f.drops; i++) {
    const k = `${f.dropHost[i]}|${f.dropStage[i]}|${f.dropReason[i]}`;
    const a = agg.get(k);
    if (a) a.count += f.dropCount[i]!;
    else
      agg.set(k, {
        host: f.dropHost[i]!,
        stage: f.dropStage[i]!,
        reason: f.dropReason[i]!,
        count: f.dropCount[i]!,
      });
  }
  const stacked = new Map<string, number>();
  ctx.font = `600 11px ${t.font}`;
  for (const a of agg.values()) {
    const reason = layout.dropReasons[a.reason] ?? '?';
    let r: Rect;
    if (a.stage === g.fabric.stage) r = g.fabric.lanes[0]!.rect;
    else {
      const s = g.stageByKey.get(a.host * 16 + a.stage);
      if (!s) continue;
      // a drop in a Nitro part is marked on the part itself (see the stages above)
      if (nitroPartFor(s.parts, reason)) continue;
      r = s.rect;
    }
    const sk = `${r.x}|${r.y}`;
    const nth = stacked.get(sk) ?? 0;
    stacked.set(sk, nth + 1);
    const text = `✕ ${fmtInt(a.count)} ${SHORT_REASON[reason] ?? reason}`;
    const w = ctx.measureText(text).width + 10;
    // right-aligned in the stage, below its heading
    const x = Math.max(2, Math.min(r.x + r.w - w - 2, g.width - w - 2));
    const y = r.y + (r.h > 40 ? r.h / 2 - 8 : Math.max(1, (r.h - 16) / 2)) + nth * 18;
    ctx.fillStyle = DROP_PILL;
    roundRect(ctx, { x, y, w, h: 16 }, 8);
    ctx.fill();
    ctx.fillStyle = '#ffffff';
    ctx.fillText(text, x + 5, y + 12);
  }
}

function drawSelection(
  ctx: CanvasRenderingContext2D,
  g: PathGeometry,
  f: PathFrame,
  opts: DrawOptions,
  hit: HitData,
): void {
  const sel = opts.selection;
  if (!sel) return;
  ctx.strokeStyle = opts.theme.select;
  ctx.lineWidth = 2;
  if (sel.kind === 'stage') {
    const l = laneFor(g, sel.host, sel.stage, sel.queue);
    const r = l?.rect ?? (sel.stage === g.fabric.stage ? g.fabric.rect : undefined);
    if (r) ctx.strokeRect(r.x - 1.5, r.y - 1.5, r.w + 3, r.h + 3);
    return;
  }
  // the selected passage and, fainter, the other batches of its flow
  for (let k = 0; k < hit.n; k++) {
    const i = hit.index[k]!;
    if (sel.id >= 0 ? f.id[i] === sel.id : f.flow[i] === sel.flow && f.seq[i] === sel.seq) {
      ctx.beginPath();
      ctx.arc(hit.x[k]!, hit.y[k]!, 8, 0, Math.PI * 2);
      ctx.stroke();
    }
  }
}

function fmtLatency(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(1)} ms` : `${(ns / 1e3).toFixed(0)} µs`;
}

/** Index (into the frame) of the batch nearest (x, y) within `radius` px, or -1. */
export function hitPacket(hit: HitData, x: number, y: number, radius = 8): number {
  let best = -1;
  let bd = radius * radius;
  for (let k = 0; k < hit.n; k++) {
    const dx = hit.x[k]! - x;
    const dy = hit.y[k]! - y;
    const d = dx * dx + dy * dy;
    if (d <= bd) {
      bd = d;
      best = hit.index[k]!;
    }
  }
  return best;
}

/** The lane (host, stage, queue) under (x, y), the fabric, or null. */
export function hitStage(
  g: PathGeometry,
  x: number,
  y: number,
): { host: number; stage: number; queue: number } | null {
  for (const s of g.stages) {
    for (const l of s.lanes)
      if (x >= l.rect.x && x <= l.rect.x + l.rect.w && y >= s.rect.y && y <= s.rect.y + s.rect.h)
        return { host: l.host, stage: l.stage, queue: l.queue };
    // a Nitro stage's parts (flow lookup, buckets) open the stage too
    const l0 = s.lanes[0];
    if (
      l0 &&
      s.parts.length > 0 &&
      x >= s.rect.x &&
      x <= s.rect.x + s.rect.w &&
      y >= s.rect.y &&
      y <= s.rect.y + s.rect.h
    )
      return { host: l0.host, stage: l0.stage, queue: l0.queue };
  }
  const fr = g.fabric.rect;
  if (x >= fr.x && x <= fr.x + fr.w && y >= fr.y && y <= fr.y + fr.h)
    return { host: 0, stage: g.fabric.stage, queue: 0 };
  return null;
}
