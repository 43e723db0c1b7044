/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    react(),
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
  worker: { format: 'es' },
  build: { target: 'es2022' },
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
