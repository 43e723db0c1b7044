/**
 * The URL hash as a list of `key=value` options (`#v=2&p=exp1&t=1.5s&embed=1`): the one reader
 * shared by the scenario codec (codec.ts) and the embed flags (embed.ts), so both agree on which
 * keys exist and how values are escaped.
 *
 * Guarantees: never throws; refuses a hash longer than MAX_HASH_CHARS before looking at it; keeps
 * the first of repeated keys and says so; a malformed %-escape drops that one option with a note.
 * Values are plain strings: nothing here is evaluated or rendered.
 */

/** Longest hash read (characters). Typical links are < 2,000; a full custom VPC stays far below this. */
export const MAX_HASH_CHARS = 32_768;
/** More options than any link the lab writes; guards against `#a&a&a&…`. */
const MAX_OPTIONS = 64;

/** Every key a lab link may carry: scenario (codec.ts), view (codec.ts), embed (embed.ts). */
export const LINK_KEYS = [
  // scenario
  'v',
  's',
  'p',
  'ph',
  'd',
  // view
  't',
  'sel',
  'panels',
  'theme',
  'lesson',
  'step',
  // embed
  'embed',
  'chart',
  'controls',
  'autoplay',
  'origin',
] as const;
export type LinkKey = (typeof LINK_KEYS)[number];

export type HashParamsResult =
  | { ok: true; params: Map<string, string>; notes: string[] }
  | { ok: false; message: string };

/** Split `#a=1&b=2` (the leading `#` is optional) into options. */
export function parseHashParams(hash: string): HashParamsResult {
  if (hash.length > MAX_HASH_CHARS) {
    return {
      ok: false,
      message: `the link is ${hash.length} characters long, more than the ${MAX_HASH_CHARS} this lab reads`,
    };
  }
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new Map<string, string>();
  const notes: string[] = [];
  if (body === '') return { ok: true, params, notes };
  const parts = body.split('&');
  if (parts.length > MAX_OPTIONS) {
    return {
      ok: false,
      message: `the link has ${parts.length} options, more than the ${MAX_OPTIONS} this lab reads`,
    };
  }
  for (const part of parts) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent(rawKey);
      value = decodeURIComponent(rawValue);
    } catch {
      notes.push(`${clip(rawKey)}: not a valid %-escaped option; ignored`);
      continue;
    }
    if (!(LINK_KEYS as readonly string[]).includes(key)) {
      notes.push(`${clip(key)}: not a lab link option; ignored`);
      continue;
    }
    if (params.has(key)) {
      notes.push(`${key}: given more than once; the first value is used`);
      continue;
    }
    params.set(key, value);
  }
  return { ok: true, params, notes };
}

// characters left unescaped in values: base64url, names, numbers, lists, origins (RFC 3986 fragment)
const SAFE = /^[A-Za-z0-9\-._~:/,@!$'()*+;]*$/;

/** Join options into `#k=v&…` in the given order, escaping what a fragment cannot carry. */
export function formatHashParams(entries: ReadonlyArray<readonly [LinkKey, string]>): string {
  const parts = entries.map(([k, v]) => `${k}=${SAFE.test(v) ? v : encodeURIComponent(v)}`);
  return `#${parts.join('&')}`;
}

/** A user-supplied string shortened for a message. */
export function clip(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
