/**
 * Embed mode: the flags a documentation page puts in the lab's hash
 * (`#…&embed=1&panels=path,chart,commands&chart=rate&controls=minimal&autoplay=1&t=2s&origin=https://docs.example.com`)
 * and the `<iframe>` snippet "Copy embed code" produces.
 *
 * Guarantees: parsing never throws; each flag is validated on its own and an invalid one is dropped
 * with a note (the rest still apply; `panels=` naming no panel, or `chart=` naming no chart, gets
 * the default and a note, never an empty frame); `origin` is accepted only as a bare http(s)
 * origin, since it is the one origin the postMessage bridge (bridge.ts) will talk to. The snippet
 * escapes every attribute value. Why the snippet's sandbox has the flags it has: docs/design.md,
 * "The embed sandbox".
 */
import { clip, formatHashParams, type LinkKey, parseHashParams } from './hash-params';
import { DEFAULT_EMBED_PANELS, EMBED_CHARTS, type EmbedChart } from '../state/embed-view';
import { formatLinkSeconds, PANELS, type Panel, parseLinkTime } from './codec';

export const CONTROLS = ['none', 'minimal', 'full'] as const;
export type Controls = (typeof CONTROLS)[number];

export interface EmbedFlags {
  /** `embed=1`: minimal chrome, no writes to storage or history, an "Open in the full lab" link. */
  embed: boolean;
  /** Panels shown (`panels=`); absent: the default (path, chart, commands). */
  panels?: Panel[];
  /** The view the `chart` panel opens on (`chart=`); absent: the rate chart. */
  chart?: EmbedChart;
  /** Playback controls: none, minimal (play/pause, time), full. Default: minimal when embedded, else full. */
  controls: Controls;
  /** Start playing once loaded. */
  autoplay: boolean;
  /** Simulated time to start at, integer ns (`t=`). */
  startNs?: number;
  /** The parent page's origin the postMessage bridge answers; absent: the bridge is off. */
  origin?: string;
}

/** Keys embed.ts owns in the hash (`panels` and `t` are shared with the view, same meaning). */
export const EMBED_KEYS: readonly LinkKey[] = [
  'embed',
  'panels',
  'chart',
  'controls',
  'autoplay',
  't',
  'origin',
];

/** A bare http(s) origin like https://docs.example.com or http://localhost:8080; null otherwise. */
export function parseOrigin(s: string): string | null {
  if (s.length > 256) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
  // the origin must be given as exactly that: no path, query, fragment or credentials
  return u.origin === s ? s : null;
}

const flag = (key: string, v: string, notes: string[]): boolean => {
  if (v === '1' || v === '') return true;
  if (v === '0') return false;
  notes.push(`${key}: "${clip(v)}" is not 1 or 0; ignored`);
  return false;
};

/** Read the embed flags of a hash. */
export function parseEmbedFlags(hash: string): { flags: EmbedFlags; notes: string[] } {
  const hp = parseHashParams(hash);
  const flags: EmbedFlags = { embed: false, controls: 'full', autoplay: false };
  if (!hp.ok) return { flags, notes: [hp.message] };
  const { params } = hp;
  const notes: string[] = [];
  const e = params.get('embed');
  if (e !== undefined) flags.embed = flag('embed', e, notes);
  flags.controls = flags.embed ? 'minimal' : 'full';
  const c = params.get('controls');
  if (c !== undefined) {
    if ((CONTROLS as readonly string[]).includes(c)) flags.controls = c as Controls;
    else notes.push(`controls: "${clip(c)}" is not ${CONTROLS.join(', ')}; ignored`);
  }
  const a = params.get('autoplay');
  if (a !== undefined) flags.autoplay = flag('autoplay', a, notes);
  const panels = params.get('panels');
  if (panels !== undefined) {
    // each unknown name is noted by the codec (parseView); none left: the default, not a blank frame
    const list = panels.split(',').filter((p): p is Panel => (PANELS as readonly string[]).includes(p));
    if (list.length > 0) flags.panels = [...new Set(list)];
    else if (flags.embed)
      notes.push(
        `panels: ${panels === '' ? 'empty' : `"${clip(panels)}" names no panel`}; showing ${DEFAULT_EMBED_PANELS.join(', ')}`,
      );
  }
  const chart = params.get('chart');
  if (chart !== undefined) {
    if ((EMBED_CHARTS as readonly string[]).includes(chart)) flags.chart = chart as EmbedChart;
    else
      notes.push(
        `chart: "${clip(chart)}" is not a chart (${EMBED_CHARTS.join(', ')}); showing ${EMBED_CHARTS[0]}`,
      );
  }
  const t = params.get('t');
  if (t !== undefined) {
    const ns = parseLinkTime(t);
    if (typeof ns === 'number') flags.startNs = ns;
  }
  const o = params.get('origin');
  if (o !== undefined) {
    const origin = parseOrigin(o);
    if (origin === null) {
      notes.push(
        `origin: "${clip(o)}" is not an origin like https://docs.example.com; the host-page API stays off`,
      );
    } else if (!flags.embed) {
      notes.push('origin: only used with embed=1; the host-page API stays off');
    } else flags.origin = origin;
  }
  return { flags, notes };
}

export interface EmbedSnippetOptions {
  /** The iframe's accessible title. Default "ec2-netlab: EC2 networking lab". */
  title?: string;
  /** Pixels, or a percentage like "100%". Default 800 × 600. */
  width?: number | string;
  height?: number | string;
  panels?: Panel[];
  /** The view of the `chart` panel. */
  chart?: EmbedChart;
  controls?: Controls;
  autoplay?: boolean;
  startNs?: number;
  /** Origin of the page that will host the frame, to turn on the postMessage API. */
  origin?: string;
}

export const EMBED_SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

const escapeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function size(v: number | string | undefined, fallback: number, what: string): string {
  if (v === undefined) return String(fallback);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 100 && v <= 4000) return String(v);
  if (typeof v === 'string' && /^(100|[1-9]?\d)%$/.test(v)) return v;
  throw new Error(`embedSnippet: ${what} must be 100–4000 pixels or a percentage, not ${String(v)}`);
}

/** The lab URL with embed flags set in its hash (replacing any embed flags it had). */
export function embedUrl(url: string, opts: EmbedSnippetOptions = {}): string {
  const u = new URL(url);
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new Error(`embedUrl: not an http(s) URL: ${url}`);
  const keep = u.hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part !== '' && !(EMBED_KEYS as readonly string[]).includes(part.split('=')[0] ?? ''));
  const add: Array<[LinkKey, string]> = [['embed', '1']];
  if (opts.panels) add.push(['panels', opts.panels.join(',')]);
  if (opts.chart) add.push(['chart', opts.chart]);
  if (opts.controls) add.push(['controls', opts.controls]);
  if (opts.autoplay) add.push(['autoplay', '1']);
  // in seconds, as the share link writes it (what a person reads and edits: t=2.0665s)
  if (opts.startNs !== undefined) add.push(['t', formatLinkSeconds(opts.startNs)]);
  if (opts.origin !== undefined) {
    const o = parseOrigin(opts.origin);
    if (o === null)
      throw new Error(`embedUrl: "${opts.origin}" is not an origin like https://docs.example.com`);
    add.push(['origin', o]);
  }
  const extra = formatHashParams(add).slice(1);
  u.hash = keep.length > 0 ? `${keep.join('&')}&${extra}` : extra;
  return u.toString();
}

/** The `<iframe>` HTML for "Copy embed code". Throws on an invalid URL, size or origin. */
export function embedSnippet(url: string, opts: EmbedSnippetOptions = {}): string {
  const src = embedUrl(url, opts);
  const title = opts.title ?? 'ec2-netlab: EC2 networking lab';
  const attrs = [
    `src="${escapeAttr(src)}"`,
    `title="${escapeAttr(title)}"`,
    `width="${size(opts.width, 800, 'width')}"`,
    `height="${size(opts.height, 600, 'height')}"`,
    `sandbox="${EMBED_SANDBOX}"`,
    'loading="lazy"',
    'style="border: 0"',
  ];
  return `<iframe ${attrs.join(' ')}></iframe>`;
}
