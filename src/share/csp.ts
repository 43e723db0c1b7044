/**
 * The lab's Content-Security-Policy, as it appears in index.html's <meta http-equiv> (a static
 * site has no response headers of its own): everything from the lab's own origin, no inline script
 * or eval, no request to another host; the built site is self-contained and works offline once
 * loaded. Hosts that can set headers should send the same policy as a header too (a <meta> policy
 * cannot set frame-ancestors and does not govern workers).
 *
 * Why each source is there: docs/design.md, "Content-Security-Policy".
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');
