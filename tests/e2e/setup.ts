/**
 * Global setup of the e2e project: build the site with Vite's JS API and serve dist/ with
 * preview() on a free port; tests get the URL through inject('baseUrl').
 */
import type { TestProject } from 'vitest/node';
import { build, preview } from 'vite';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  // Vitest sets NODE_ENV=test, which would give React's development build (docs/toolchain.md, gotcha 1)
  const prev = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  // the tests drive the lab through window.__netlab (src/main.tsx), which only such a build has
  process.env.VITE_NETLAB_TEST_HOOKS = '1';
  try {
    await build({ mode: 'production', logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = prev;
  }
  const server = await preview({ logLevel: 'warn', preview: { port: 4174, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('preview server has no URL');
  project.provide('baseUrl', url);
  return async () => {
    await server.close();
  };
}
