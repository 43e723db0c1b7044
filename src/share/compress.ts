/**
 * Bytes for the URL: raw DEFLATE (fflate) and base64url (RFC 4648 §5, no padding).
 *
 * Guarantees: decoding never throws (errors come back as values); inflating stops as soon as the
 * output passes the caller's limit, so a small "zip bomb" in a link costs at most one chunk of
 * work past the limit (DEFLATE expands at most ~1032:1, so < 0.6 MB per 512-byte chunk).
 */
import { deflateSync, Inflate } from 'fflate';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export function base64urlEncode(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]!;
  }
  return out;
}

export function base64urlDecode(s: string): Uint8Array | { error: string } {
  if (s.length % 4 === 1) return { error: 'the data is cut short (its length is not possible in base64url)' };
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? INDEX[c]! : -1;
    if (v < 0) return { error: `the data has a character that is not base64url at position ${i + 1}` };
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >>> bits) & 0xff;
    }
  }
  return out.subarray(0, o);
}

export function deflate(bytes: Uint8Array): Uint8Array {
  return deflateSync(bytes, { level: 9, mem: 8 });
}

const CHUNK = 512;

/** Inflate raw DEFLATE, refusing output larger than maxBytes. */
export function inflateLimited(bytes: Uint8Array, maxBytes: number): Uint8Array | { error: string } {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const inf = new Inflate((chunk, final) => {
    chunks.push(chunk);
    total += chunk.length;
    if (final) done = true;
  });
  try {
    for (let i = 0; i < bytes.length; i += CHUNK) {
      inf.push(bytes.subarray(i, i + CHUNK), i + CHUNK >= bytes.length);
      if (total > maxBytes) return { error: `the data unpacks to more than ${maxBytes} bytes` };
    }
    if (bytes.length === 0) inf.push(bytes, true);
  } catch (e) {
    return { error: `the compressed data is damaged (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!done) return { error: 'the compressed data is cut short' };
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
