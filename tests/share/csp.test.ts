/**
 * The built site is static and self-contained: index.html carries the Content-Security-Policy of
 * src/share/csp.ts, the dev server drops it (Vite injects inline scripts there), and the production
 * build (made here, into a temporary directory) has no inline script and no absolute URL to
 * another host in its HTML, JS or CSS, except the few strings listed below that are identifiers
 * or message text, never fetched.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/share/csp';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Absolute URLs allowed in the bundle, each with the reason it is not a request. */
const ALLOWED: Array<[RegExp, string]> = [
  [
    /^http:\/\/www\.w3\.org\/(2000\/svg|1999\/xlink|1999\/xhtml|XML\/1998\/namespace|2000\/xmlns\/|1998\/Math\/MathML)$/,
    'XML namespace names (React DOM, D3), compared, never fetched',
  ],
  [/^https:\/\/react\.dev\/errors\/$/, "text of React's production error messages"],
  // The simulation worker's chunk (the engine and zod) holds text, never fetched (connect-src is 'self'):
  [/^http:\/\/\[\$\{e\}\]$/, "zod's IPv6 check (a URL it builds and parses locally)"],
  [/^https?:\/\/json-schema\.org\/draft[-\w/]*schema#?$/, "zod's JSON Schema $schema identifiers"],
  [
    /^https:\/\/(software\.es\.net\/iperf\/|github\.com\/esnet\/iperf)$/,
    'printed by the simulated iperf3 (its help text)',
  ],
  [
    /^https:\/\/www\.gnu\.org\/(software\/coreutils\/(\$\{[\w$]+\}|[a-z]+)?|software\/grep\/|gethelp\/|software\/gawk\/manual\/html_node\/Bugs\.html\.)$/,
    "printed by the simulated GNU tools' --help texts (coreutils, grep, gawk: their closing lines)",
  ],
  [
    /^http:\/\/\$\{[\w$]+\}\/$/,
    "the terminal's Tab completion of curl's URL (http://INSTANCE/), never fetched",
  ],
  [/^http:\/\/nginx\.(org|com)\/$/, "printed by the simulated web server (nginx's default page)"],
  [
    /^http:\/\/(localhost|127\.0\.0\.1):\*;?$/,
    "embed-example.html's frame-src: the loopback labs it may frame when trying the API locally",
  ],
  [
    /^https:\/\/docs\.aws\.amazon\.com\/AWSEC2\/latest\/UserGuide\/ec2-instance-metadata\.html$/,
    'printed by the simulated ec2-metadata (its help text)',
  ],
  [
    /^http:\/\/169\.254\.169\.254\/$/,
    "IMDS's link-local address in the simulated curl's refusal message (no browser can reach it)",
  ],
  [/^http:\/\/www\.(zeustech\.net|apache\.org)\/$/, "printed by the simulated ab (ApacheBench's banner)"],
  // The embed form's placeholder and the embed flags' messages name a documentation origin
  [
    /^https:\/\/docs\.example\.com;?$/,
    'example.com is reserved for documentation (RFC 2606): a placeholder and message text, never fetched',
  ],
  // The main chunk carries the lessons' commands (curl http://server/…): the lab's simulated hosts,
  // dot-less names and private addresses that only the engine resolves, never the browser
  [
    /^https?:\/\/(server|client|web-server|app-server|10(\.\d{1,3}){3})(:\d+)?(\/[\w./-]*)?$/,
    "the lab's simulated hosts in lesson commands (typed into the simulated shell, never fetched)",
  ],
];

const CSP_META = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe('content security policy', () => {
  it('index.html carries the policy, and the policy names no other host', () => {
    const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
    expect(CSP_META.exec(html)?.[1]).toBe(CONTENT_SECURITY_POLICY);
    const sources = CONTENT_SECURITY_POLICY.split(';').flatMap((d) => d.trim().split(/\s+/).slice(1));
    for (const s of sources) expect(["'self'", "'none'", 'data:', 'blob:']).toContain(s);
  });

  it('the dev server drops it (its inline React Refresh preamble would be refused)', async () => {
    const { createServer } = await import('vite');
    // own cache dir, no dependency scan: node_modules is shared with other worktrees
    const cacheDir = mkdtempSync(join(tmpdir(), 'netlab-vite-cache-'));
    const server = await createServer({
      root: ROOT,
      cacheDir,
      logLevel: 'silent',
      server: { middlewareMode: true, hmr: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      const html = await server.transformIndexHtml('/', readFileSync(join(ROOT, 'index.html'), 'utf8'));
      expect(html).not.toContain('Content-Security-Policy');
      expect(html).toContain('<div id="root">');
    } finally {
      await server.close();
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

describe('the production build', () => {
  let out = '';
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'netlab-build-'));
    const r = spawnSync(
      join(ROOT, 'node_modules/.bin/vite'),
      ['build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        // a clean environment: Vitest's NODE_ENV=test would make Vite bundle React's development
        // build, which is not what users get
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '' },
      },
    );
    if (r.status !== 0) throw new Error(`vite build failed:\n${r.stderr}${r.stdout}`);
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('keeps the policy and has no inline script', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(CSP_META.exec(html)?.[1]).toBe(CONTENT_SECURITY_POLICY);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      // a file of the site, by a relative URL (the build works under any sub-path: vite.config base)
      expect(attrs).toMatch(/\bsrc="\.\/[^/]/);
      expect(body!.trim()).toBe('');
    }
  });

  it('names no other host in its HTML, JS or CSS', () => {
    const found: string[] = [];
    const built = files(out).filter((f) => /\.(html|m?js|css)$/.test(f));
    expect(built.some((f) => f.endsWith('.js'))).toBe(true);
    for (const f of built) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`)<>\\]*/gi)) {
        if (!ALLOWED.some(([re]) => re.test(m[0]))) found.push(`${f.slice(out.length)}: ${m[0]}`);
      }
      // protocol-relative references in markup and CSS
      for (const m of text.matchAll(/(?:src|href)\s*=\s*["']\/\/[^"']*|url\(\s*["']?\/\/[^)]*/gi)) {
        found.push(`${f.slice(out.length)}: ${m[0]}`);
      }
    }
    expect(found).toEqual([]);
  });
});
