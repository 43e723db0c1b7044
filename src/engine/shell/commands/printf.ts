/** C printf conversions the tools print with (glibc's behaviour for finite doubles). */

/**
 * C printf "%g" (precision 6): the style follows the exponent X of `x` rounded to 6 significant
 * digits, "%e" when X < -4 or X ≥ 6, else "%f" with 5 − X decimals; trailing zeros dropped.
 */
export function fmtG(x: number): string {
  if (x === 0) return '0';
  const [m, e] = x.toExponential(5).split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const mant = m!.includes('.') ? m!.replace(/0+$/, '').replace(/\.$/, '') : m!;
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const s = x.toFixed(5 - exp);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
