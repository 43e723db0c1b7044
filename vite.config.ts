/// <reference types="vitest/config" />
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { serviceWorkerSource } from './src/share/service-worker.ts';

/** Files under `dir`, relative to it, with '/' separators. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split('\\').join('/'));
    }
  };
  walk(dir);
  return out;
}

/**
 * Writes sw.js beside index.html: the service worker that precaches this build's every file (the
 * bundle, the worker, the public/ files) so a reload without network opens the lab. Its version is
 * a hash of those files' contents, so a new build is a new worker (src/share/service-worker.ts).
 */
function serviceWorker(): Plugin {
  return {
    name: 'netlab-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const hash = createHash('sha256');
      const files: string[] = [];
      for (const [name, item] of Object.entries(bundle).sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (name.endsWith('.map')) continue;
        files.push(name);
        hash.update(name);
        hash.update(item.type === 'chunk' ? item.code : item.source);
      }
      const publicDir = join(import.meta.dirname, 'public');
      for (const name of filesUnder(publicDir)) {
        files.push(name);
        hash.update(name);
        hash.update(readFileSync(join(publicDir, name)));
      }
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: serviceWorkerSource(files, hash.digest('hex').slice(0, 16)),
      });
    },
  };
}

/** The app's libraries in chunks of their own: cached across lab versions, none over 500 kB. */
const VENDOR_CHUNKS = {
  groups: [
    { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
    { name: 'zod', test: /node_modules[\\/]zod[\\/]/, priority: 2 },
    { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
  ],
};

export default defineConfig({
  plugins: [
    react(),
    serviceWorker(),
    // The CSP <meta> in index.html is for the built site. Vite's dev server injects inline scripts
    // (the React Refresh preamble) and <style> elements that the policy forbids: drop it in dev only.
    {
      name: 'netlab-csp-dev-only',
      apply: 'serve',
      transformIndexHtml: (html: string) =>
        html.replace(
          /\s*<!-- The built site talks[^>]*-->\s*<meta\s+http-equiv="Content-Security-Policy"[^>]*>/,
          '',
        ),
    },
  ],
  // relative URLs: the same build works at a domain root and under any sub-path (README, Publishing)
  base: './',
  worker: {
    format: 'es',
    rolldownOptions: { output: { codeSplitting: VENDOR_CHUNKS } },
  },
  build: {
    target: 'es2022',
    rolldownOptions: { output: { codeSplitting: VENDOR_CHUNKS } },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/e2e/**'],
          testTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: { name: 'dom', environment: 'happy-dom', include: ['tests/**/*.test.tsx'] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/e2e/setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
