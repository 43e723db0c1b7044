/**
 * What an embedded lab can show (the vocabulary of the embed flags `panels=` and `chart=`):
 * src/share/embed.ts parses and writes them, src/ui/embed-app.tsx draws them. One list here so
 * the link, the "Copy embed code" form and the page agree.
 *
 * Panels: `path` (the packet path), `chart` (one chart, chosen by `chart=`), `charts` (every chart
 * and the `ethtool -S` counters), `terminal` (the shell), `commands` (the experiment's commands as
 * buttons, with their output), `lessons`.
 */
export const EMBED_PANELS = ['path', 'chart', 'charts', 'terminal', 'commands', 'lessons'] as const;
export type EmbedPanel = (typeof EMBED_PANELS)[number];

/** An embed without `panels=`: compact, the path, one chart and the commands to click. */
export const DEFAULT_EMBED_PANELS: readonly EmbedPanel[] = ['path', 'chart', 'commands'];

/**
 * The views the `chart` panel can open on: each id is a chart of the charts panel
 * (src/ui/charts/chart-defs.ts, and the averaging ladder; a test checks each one is there).
 */
export const EMBED_CHARTS = [
  'rate',
  'ladder',
  'cloudwatch',
  'pps',
  'latency',
  'queues',
  'credits',
  'drops',
  'allowances',
] as const;
export type EmbedChart = (typeof EMBED_CHARTS)[number];
export const DEFAULT_EMBED_CHART: EmbedChart = 'rate';
