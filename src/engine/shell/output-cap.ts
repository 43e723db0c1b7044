/**
 * The lab's cap on what one command's output may hold (issue 14): MAX_OUTPUT_CHARS of stdout (and
 * of stderr) per command, the rest counted and dropped with a note (runner.ts `record`). Tools that
 * print as they run keep their text in a CappedText, so a long run (iperf3 -P 128 -t 3600, sar over
 * hours) holds at most the cap while it runs, not only once it ends.
 */

/** Characters of stdout (and of stderr) kept per command; the rest is dropped with a note. */
export const MAX_OUTPUT_CHARS = 1_048_576;

/** Text kept up to MAX_OUTPUT_CHARS (or `max`); what comes after is counted, not kept. */
export class CappedText {
  text = '';
  /** Characters not kept. */
  cut = 0;

  constructor(
    first = '',
    private readonly max = MAX_OUTPUT_CHARS,
  ) {
    this.add(first);
  }

  add(s: string): void {
    const room = this.max - this.text.length;
    if (s.length <= room) this.text += s;
    else {
      if (room > 0) this.text += s.slice(0, room);
      this.cut += s.length - Math.max(0, room);
    }
  }
}
