/**
 * The lab's Content-Security-Policy, as it appears in index.html's <meta http-equiv> (a static
 * site has no response headers of its own). The built site is self-contained and works offline
 * once loaded; the policy makes the browser refuse any request to another host.
 *
 * Why each source is here:
 * - default-src 'self': everything not listed below comes from the lab's own origin only.
 * - script-src 'self': the bundle is external files; no inline script, no eval (zod's JIT probe
 *   is refused and it falls back to its interpreter: set `z.config({ jitless: true })` to skip
 *   the probe and its console report).
 * - worker-src 'self' blob:: the simulation runs in a module worker built as its own file; blob:
 *   in case a worker is ever inlined by Vite (`?worker&inline`).
 * - connect-src 'self': nothing is fetched from elsewhere (links live in the hash, never sent).
 * - img-src 'self' data: blob:: Vite inlines small assets as data: URLs; PNG export makes blobs.
 * - style-src 'self': the CSS is extracted to files; React and D3 set styles through the CSSOM
 *   (element.style), which CSP allows. Adding <style> elements or style="" attributes as markup
 *   would need 'unsafe-inline'.
 * - object-src 'none', base-uri 'self', form-action 'none': no plugins, no <base> hijack, no forms.
 * A <meta> policy cannot set frame-ancestors (embedding is allowed anywhere, on purpose) and
 * does not govern workers (their policy comes from their own response headers): hosts that can
 * set headers should send the same policy as a header too.
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
