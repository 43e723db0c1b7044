/**
 * <LadderChart>: the averaging ladder. One instance's bytes out around one instant at 10 µs, 1 ms,
 * 1 s, 1 minute and 5 minutes (./ladder-data.ts), strips stacked finest first, each strip's extent
 * shaded on the next coarser one and joined to it, like a zoom ladder: the eye follows the same
 * bytes from the model's batches down to CloudWatch's flat line. Heights share one Gbit/s scale
 * (a period's bytes as a mean rate), so averaging flattens the bars as it does the numbers; a bar
 * above the scale (a 10 µs bar of a burst at the host link's rate) is cut with a mark. The words say the same for a
 * screen reader. Presentational: the ladder comes in as a prop.
 */
import { formatInstant, formatSpan } from './time-axis';
import { type Ladder, type LadderStrip, ladderSummary, ladderValue } from './ladder-data';

const STRIP_H = 34;
const LABEL_H = 16;
const JOIN_H = 14;
/** Shortest strip, and its join, when the charts region is too short for the full ladder. */
const MIN_STRIP_H = 18;
const COMPACT_JOIN_H = 8;
/** Room above the strips: the title and the line saying which burst (it may wrap). */
const CAPTION_H = 48;
const PAD_L = 8;
const PAD_R = 8;

/** What a strip's bar at the instant says, short (the strip's line). */
function stripLine(s: LadderStrip): string {
  if (s.peak === null) return ''; // the strip itself says why
  const at = s.atFocus ? ladderValue(s.atFocus.value, s.unit) : 'nothing';
  const peak =
    s.atFocus && s.atFocus.value === s.peak.value ? '' : ` · largest ${ladderValue(s.peak.value, s.unit)}`;
  return `${at} at the instant${peak}`;
}

/** Where a strip starts and how wide it is: "from 1.623000 s, 1 ms" (a start before 0: the clock's period before the lab). */
function spanLabel(s: LadderStrip): string {
  const span = s.toNs - s.fromNs;
  const from = s.fromNs < 0 ? `−${formatSpan(-s.fromNs)}` : formatInstant(s.fromNs, s.binNs);
  return `from ${from}, ${formatSpan(span)} wide`;
}

/** The shared height scale: the largest bar of the strips from 1 ms on (10 µs bars may go over it). */
function scaleOf(l: Ladder): number {
  let m = 0;
  for (const s of l.strips.slice(1))
    for (const b of s.bars) if (Number.isFinite(b.gbps) && b.gbps > m) m = b.gbps;
  if (m === 0) for (const b of l.strips[0]?.bars ?? []) if (Number.isFinite(b.gbps) && b.gbps > m) m = b.gbps;
  return m > 0 ? m : 1;
}

/**
 * The strips' and joins' heights: the full ladder, or, in a charts region shorter than it (the
 * stage at 1280×800, where the microburst preset opens on it), strips short enough that all five,
 * down to CloudWatch's 5 minutes, are in view at once. `regionH` 0: the page scrolls, full size.
 */
export function ladderSizes(regionH: number, strips = 5): { strip: number; join: number } {
  const full = strips * (LABEL_H + STRIP_H + JOIN_H) - JOIN_H + 4;
  const room = regionH - CAPTION_H;
  if (regionH <= 0 || room >= full) return { strip: STRIP_H, join: JOIN_H };
  const strip = Math.floor((room - 4 + COMPACT_JOIN_H) / strips - LABEL_H - COMPACT_JOIN_H);
  return { strip: Math.max(MIN_STRIP_H, Math.min(STRIP_H, strip)), join: COMPACT_JOIN_H };
}

export function LadderChart({
  ladder,
  width,
  regionH = 0,
}: {
  ladder: Ladder | null;
  width: number;
  /** The height of the region the charts scroll in (0: the page scrolls): the ladder fits it. */
  regionH?: number;
}) {
  if (!ladder)
    return (
      <figure className="chart ladder" data-chart="ladder">
        <figcaption>
          <span className="chart-title">The averaging ladder</span>{' '}
          <span className="muted">waiting for the lab</span>
        </figcaption>
      </figure>
    );
  if (ladder.focus === 'idle')
    return (
      <figure className="chart ladder" data-chart="ladder">
        <figcaption>
          <span className="chart-title">The averaging ladder: one burst at five time scales</span>
        </figcaption>
        <p className="muted ladder-idle">
          {ladder.host} has sent nothing yet. Run a command (iperf3 -c server …): its burst appears here at 10
          µs, 1 ms, 1 s and as CloudWatch's 1- and 5-minute datapoints, one above the other.
        </p>
      </figure>
    );
  const words = ladderSummary(ladder, (ns) => formatInstant(ns, 1e6));
  const top = scaleOf(ladder);
  const plotW = Math.max(100, width - PAD_L - PAD_R);
  const { strip: stripH, join: joinH } = ladderSizes(regionH, ladder.strips.length);
  const block = LABEL_H + stripH + joinH;
  const height = ladder.strips.length * block - joinH + 4;
  const xOf = (s: LadderStrip, t: number) =>
    PAD_L + ((Math.max(s.fromNs, Math.min(s.toNs, t)) - s.fromNs) / (s.toNs - s.fromNs)) * plotW;
  return (
    <figure className="chart ladder" data-chart="ladder" aria-labelledby="ladder-title">
      <figcaption>
        <span className="chart-title" id="ladder-title">
          The averaging ladder: one burst at five time scales
        </span>
        <span className="muted">{words[0]}</span>
      </figcaption>
      <svg width={width} height={height} aria-hidden="true" className="ladder-svg">
        {ladder.strips.map((s, i) => {
          const y0 = i * block;
          const py = y0 + LABEL_H;
          const finer = i > 0 ? ladder.strips[i - 1]! : null;
          const hOf = (g: number) => Math.min(stripH, (g / top) * stripH);
          return (
            <g key={s.id} data-strip={s.id}>
              {finer ? (
                // the finer strip's extent on this one, joined to the finer strip's full width
                <>
                  <polygon
                    className="ladder-join"
                    points={`${PAD_L},${y0 - joinH + 2} ${PAD_L + plotW},${y0 - joinH + 2} ${xOf(s, finer.toNs)},${py} ${xOf(s, finer.fromNs)},${py}`}
                  />
                  <rect
                    className="ladder-extent"
                    x={xOf(s, finer.fromNs)}
                    y={py}
                    width={Math.max(2, xOf(s, finer.toNs) - xOf(s, finer.fromNs))}
                    height={stripH}
                  />
                </>
              ) : null}
              <text x={PAD_L} y={y0 + 12} className="ladder-label">
                <tspan className="ladder-name">{s.title}</tspan>
                <tspan dx="8" className="ladder-value">
                  {stripLine(s)}
                </tspan>
              </text>
              <rect x={PAD_L} y={py} width={plotW} height={stripH} className="ladder-bg" />
              {s.bars.map((b) => {
                if (!Number.isFinite(b.gbps) || b.gbps <= 0) return null;
                const x0 = xOf(s, b.fromNs);
                const w = Math.max(
                  1,
                  xOf(s, b.toNs) - x0 - (plotW / ((s.toNs - s.fromNs) / s.binNs) > 4 ? 1 : 0),
                );
                const h = Math.max(1, hOf(b.gbps));
                const cut = b.gbps > top * 1.0001;
                const at = s.atFocus === b;
                return (
                  <g key={b.fromNs}>
                    <rect
                      x={x0}
                      y={py + stripH - h}
                      width={w}
                      height={h}
                      className={`ladder-bar ladder-bar--${s.id}${at ? ' ladder-bar--at' : ''}`}
                    />
                    {cut ? <rect x={x0} y={py - 3} width={w} height={2} className="ladder-cut" /> : null}
                  </g>
                );
              })}
              {s.peak === null ? (
                <text
                  x={PAD_L + plotW / 2}
                  y={py + stripH / 2 + 4}
                  textAnchor="middle"
                  className="ladder-empty"
                >
                  {s.empty}
                </text>
              ) : null}
              <line
                x1={xOf(s, ladder.focusNs)}
                x2={xOf(s, ladder.focusNs)}
                y1={py}
                y2={py + stripH}
                className="ladder-focus"
              />
              {/* where the strip lies, when it fits beside its name (about 6.5 px a character at 11-12 px) */}
              {(s.title.length + stripLine(s).length + spanLabel(s).length + 4) * 6.5 < plotW ? (
                <text x={PAD_L + plotW} y={y0 + 12} textAnchor="end" className="ladder-span">
                  {spanLabel(s)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <p className="muted note ladder-note">
        Heights share one scale ({top.toFixed(top < 10 ? 2 : 1)} Gbit/s at the top: a period's bytes as its
        mean rate); a bar cut with a mark goes above it. The shaded band on each strip is the strip above it.
        Click a chart to choose the instant.{ladder.batchNote ? ` ${ladder.batchNote}` : ''}
      </p>
      <ul className="visually-hidden" data-testid="ladder-words">
        {words.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
    </figure>
  );
}
