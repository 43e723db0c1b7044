/**
 * Exports: a chart's series and the counters as CSV and JSON, iperf3's -J document of a run, and
 * PNG pictures of a chart (its SVG with the computed styles written in as presentation
 * attributes, drawn on a canvas under its title and legend) or of any canvas (the path view).
 * Files are handed to the browser as a Blob behind an object URL (the CSP allows blob:).
 */
import type { CounterSet, ToolRun } from '../../protocol/sim-api';
import type { ChartDef } from './chart-defs';

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(v: string | number): string {
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Simulated ns as seconds, exact to the nanosecond. */
function seconds(ns: number): string {
  return (ns / 1e9).toFixed(9).replace(/\.?0+$/, '');
}

/** A value at 12 significant digits (what float noise a rate's division leaves is not data). */
function num(v: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(12)) : Number.NaN;
}

function csv(rows: Array<Array<string | number>>): string {
  return `${rows.map((r) => r.map(field).join(',')).join('\r\n')}\r\n`;
}

/** The CSV column of a chart's values, named with the unit: "value_Gbit/s". */
export function valueColumn(def: ChartDef): string {
  return `value_${def.unit}`;
}

/**
 * A chart's series in [fromNs, toNs] (what is on screen), one row per segment: the line's label,
 * the segment's start and end in seconds (equal for a point) and its value in the chart's unit.
 * A step with no data (latency with no packet) has an empty value.
 */
export function chartCsv(def: ChartDef, fromNs: number, toNs: number): string {
  const rows: Array<Array<string | number>> = [['series', 'from_s', 'to_s', valueColumn(def)]];
  for (const l of def.lines)
    for (const s of l.segs) {
      if (s.x1 < fromNs || s.x0 > toNs) continue;
      rows.push([l.label, seconds(s.x0), seconds(s.x1), num(s.y)]);
    }
  return csv(rows);
}

export function chartJson(def: ChartDef, fromNs: number, toNs: number): string {
  return JSON.stringify(
    {
      chart: def.title,
      unit: def.unit,
      source: def.source,
      window: { from_s: fromNs / 1e9, to_s: toNs / 1e9 },
      series: def.lines.map((l) => ({
        label: l.label,
        points: l.segs
          .filter((s) => !(s.x1 < fromNs || s.x0 > toNs))
          .map((s) => ({
            from_s: Number(seconds(s.x0)),
            to_s: Number(seconds(s.x1)),
            value: Number.isFinite(s.y) ? num(s.y) : null,
          })),
      })),
    },
    null,
    2,
  );
}

/** `ethtool -S eth0` of every instance: host, counter, value. */
export function countersCsv(counters: readonly CounterSet[]): string {
  const rows: Array<Array<string | number>> = [['host', 'counter', 'value']];
  for (const c of counters)
    c.names.forEach((name, i) => {
      rows.push([c.host, name, c.values[i]!]);
    });
  return csv(rows);
}

export function countersJson(counters: readonly CounterSet[], atNs: number): string {
  const hosts: Record<string, Record<string, number>> = {};
  for (const c of counters) hosts[c.host] = Object.fromEntries(c.names.map((n, i) => [n, c.values[i]!]));
  return JSON.stringify({ tool: 'ethtool -S eth0', sim_time_s: atNs / 1e9, hosts }, null, 2);
}

/** An iperf3 run's -J document (start, intervals, end) as `iperf3 -J` prints it. */
export function iperfJson(run: ToolRun): string {
  return run.iperf3Json ?? `${JSON.stringify(run.result, null, '\t')}\n`;
}

/** Whether a run has an iperf3 -J document to download. */
export function hasIperfJson(run: ToolRun): boolean {
  const r = run.result as { start?: unknown; intervals?: unknown; end?: unknown } | null;
  return /^\s*iperf3\b/.test(run.command) && !!r && typeof r === 'object' && 'start' in r && 'end' in r;
}

/** A file name: lab, what, simulated time. */
export function fileName(what: string, atNs: number, ext: string): string {
  const slug = what
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `ec2-netlab-${slug}-t${(atNs / 1e9).toFixed(3)}s.${ext}`;
}

/** Hand a file to the browser (an <a download> on an object URL, revoked once the click is done). */
export function download(data: Blob | string, name: string, type = 'text/plain'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Styles that make an SVG look as on screen, written in as presentation attributes. */
const SVG_STYLE_PROPS = [
  'fill',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'fill-opacity',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
] as const;

/**
 * The SVG as a standalone document: every element's computed style copied in as attributes (CSS
 * classes and variables do not reach an SVG drawn as an image), with an explicit size.
 */
export function standaloneSvg(svg: SVGSVGElement, background: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll('*')];
  const dst = [clone, ...clone.querySelectorAll('*')];
  src.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const d = dst[i]!;
    for (const p of SVG_STYLE_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v && v !== 'normal' && v !== 'auto') d.setAttribute(p, v);
    }
    d.removeAttribute('class');
  });
  const w = svg.width.baseVal.value || svg.getBoundingClientRect().width;
  const h = svg.height.baseVal.value || svg.getBoundingClientRect().height;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(w));
  clone.setAttribute('height', String(h));
  const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', background);
  clone.insertBefore(bg, clone.firstChild);
  return new XMLSerializer().serializeToString(clone);
}

export interface LegendEntry {
  label: string;
  colour: string;
  dash?: string;
}

/**
 * A chart as a PNG: the title and legend drawn as on screen (canvas text), the SVG below. Twice
 * the CSS size for sharp text.
 */
export async function chartPng(
  svg: SVGSVGElement,
  title: string,
  subtitle: string,
  legend: readonly LegendEntry[],
  colours: { bg: string; fg: string; muted: string; font: string },
): Promise<Blob> {
  const scale = 2;
  const w = svg.width.baseVal.value || svg.getBoundingClientRect().width;
  const h = svg.height.baseVal.value || svg.getBoundingClientRect().height;
  // legend rows: wrap entries to the width
  const probe = document.createElement('canvas').getContext('2d')!;
  probe.font = `12px ${colours.font}`;
  const rows: Array<Array<{ e: LegendEntry; x: number }>> = [[]];
  let x = 8;
  for (const e of legend) {
    const ew = 26 + probe.measureText(e.label).width + 14;
    if (x + ew > w - 8 && rows.at(-1)!.length > 0) {
      rows.push([]);
      x = 8;
    }
    rows.at(-1)!.push({ e, x });
    x += ew;
  }
  const head = 44 + rows.length * 18;
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round((h + head + 6) * scale);
  const ctx = canvas.getContext('2d')!;
  ctx.scale(scale, scale);
  ctx.fillStyle = colours.bg;
  ctx.fillRect(0, 0, w, h + head + 6);
  ctx.fillStyle = colours.fg;
  ctx.font = `600 14px ${colours.font}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(title, 8, 13);
  ctx.font = `12px ${colours.font}`;
  ctx.fillStyle = colours.muted;
  ctx.fillText(subtitle, 8, 31);
  rows.forEach((row, r) => {
    const y = 44 + r * 18 + 8;
    for (const { e, x: ex } of row) {
      ctx.strokeStyle = e.colour;
      ctx.lineWidth = 2;
      ctx.setLineDash(e.dash ? e.dash.split(/\s+/).map(Number) : []);
      ctx.beginPath();
      ctx.moveTo(ex, y);
      ctx.lineTo(ex + 20, y);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = colours.muted;
      ctx.fillText(e.label, ex + 26, y);
    }
  });
  const img = await svgImage(standaloneSvg(svg, colours.bg));
  ctx.drawImage(img, 0, head, w, h);
  return canvasPng(canvas);
}

function svgImage(xml: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([xml], { type: 'image/svg+xml' }));
  const img = new Image();
  return new Promise((resolve, reject) => {
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('the chart could not be drawn as an image'));
    };
    img.src = url;
  });
}

/** A canvas's pixels as a PNG blob. */
export function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('the picture could not be encoded'))),
      'image/png',
    ),
  );
}
