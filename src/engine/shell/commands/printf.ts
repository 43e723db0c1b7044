/**
 * Numbers as glibc's printf prints them: "%.*f" and "%.*g" (exact ties round to even, where
 * JavaScript's toFixed rounds them up). Source: glibc printf_fp.
 */

/** True if x's exact binary value lies exactly halfway at decimal place d+1 (C and JS round these differently). */
function exactTie(x: number, d: number): { truncated: string } | undefined {
  const probe = Math.abs(x).toFixed(Math.min(100, d + 1));
  if (!probe.endsWith('5')) return undefined;
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf('.');
  if (!/^50*$/.test(exact.slice(dot + 1 + d))) return undefined;
  return { truncated: d === 0 ? exact.slice(0, dot) : exact.slice(0, dot + 1 + d) };
}

/** printf("%.{d}f", x) as glibc does it (exact ties round to even; JS toFixed rounds them up). */
export function cFixed(x: number, d: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const js = x.toFixed(d);
  const tie = exactTie(x, d);
  if (!tie) return js;
  const last = tie.truncated.charCodeAt(tie.truncated.length - 1) - 48;
  if (last % 2 === 0) return (x < 0 ? '-' : '') + tie.truncated;
  return js;
}

/** printf("%.{p}g", x) (no '#' flag: trailing zeros removed). */
export function cG(x: number, p: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const P = p === 0 ? 1 : p;
  const expForm = x.toExponential(P - 1);
  const X = Number(expForm.slice(expForm.indexOf('e') + 1));
  if (X < -4 || X >= P) {
    let [mant, ex] = expForm.split('e') as [string, string];
    if (mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '');
    const e = Number(ex);
    const mag = String(Math.abs(e)).padStart(2, '0');
    return `${mant}e${e < 0 ? '-' : '+'}${mag}`;
  }
  let s = cFixed(x, P - 1 - X);
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
  return s;
}
