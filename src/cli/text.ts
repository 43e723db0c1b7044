/** Text the CLI reads from files and writes to a terminal. */

/** C0 controls but newline and tab, DEL, C1 controls (a string: a regex literal of them reads badly). */
const CONTROL = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]';

/** Whether `text` holds a character terminalSafe would show instead of sending. */
export function hasTerminalControl(text: string): boolean {
  return new RegExp(CONTROL).test(text);
}

/**
 * Text from a scenario or a command line made safe for a terminal: control characters other than
 * newline and tab are shown as cat -v shows them (ESC as ^[, DEL as ^?, C1 as M-^X), so a scenario
 * file cannot move the cursor, retitle the window or hide what ran.
 */
export function terminalSafe(text: string): string {
  return text.replace(new RegExp(CONTROL, 'g'), (c) => {
    const code = c.charCodeAt(0);
    if (code === 0x7f) return '^?';
    if (code >= 0x80) return `M-^${String.fromCharCode((code - 0x80 + 0x40) & 0x7f)}`;
    return `^${String.fromCharCode(code + 0x40)}`;
  });
}

/** Strip a UTF-8 byte-order mark, which editors on Windows put at the start of a file. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
