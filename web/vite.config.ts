import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { Plugin, Rollup } from 'vite';
import { defineConfig } from 'vitest/config';

// In development the api runs as a separate process; in production one origin serves everything.
const apiOrigin = process.env.MESHWORK_API_ORIGIN ?? 'http://127.0.0.1:3000';

/**
 * Sonner writes its stylesheet into a <style> element at run time, which the site's
 * Content-Security-Policy (`style-src 'self'`, no nonce) refuses. The same rules ship as
 * sonner/dist/styles.css, which src/app/toaster.tsx imports; this drops the run-time copy.
 * The build fails if a sonner upgrade changes the code it expects.
 */
function sonnerStylesFromFile(): Plugin {
  const injector = 'function __insertCSS(code) {';
  return {
    name: 'sonner-styles-from-file',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.mjs$/.test(id)) return null;
      if (!code.includes(injector)) this.error(`sonner no longer defines "${injector}": review sonnerStylesFromFile in web/vite.config.ts`);
      return { code: code.replace(injector, `${injector}\n  return;`), map: null };
    },
  };
}

/**
 * Every page preloads the one font file its text is set in (src/index.css), so the browser
 * fetches it beside the stylesheet instead of after it. The build fails if the file is gone.
 */
function preloadLatinFont(): Plugin {
  return {
    name: 'preload-latin-font',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return []; // the dev server serves the font as it is asked for
        const font = Object.values(bundle).find((file) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(file.fileName));
        if (!font) throw new Error('No Inter Latin font in the build: review preloadLatinFont in web/vite.config.ts');
        const attrs = { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${font.fileName}`, crossorigin: '' };
        return [{ tag: 'link', attrs, injectTo: 'head' }];
      },
    },
  };
}

/**
 * React Router publishes two builds and its package exports only the one with development
 * warnings, whatever the mode; a production build takes the other, where they are switched off
 * and dropped as dead code.
 */
const reactRouterWithoutDevWarnings = {
  find: /^react-router$/,
  replacement: path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production/index.mjs'),
};

/**
 * A chunk's file is named after the site's start or the page it holds, else after the first
 * module of the site's own it holds, else as Rollup names it. Merged chunks (build below)
 * would otherwise keep the name of whichever small chunk went into them: the site's start
 * was "account-format".
 */
function chunkName(chunk: Rollup.PreRenderedChunk): string {
  const own = chunk.moduleIds.filter((id) => id.includes('/web/src/'));
  const main = own.find((id) => id.endsWith('/app/start.tsx')) ?? own.find((id) => id.endsWith('-page.tsx')) ?? own[0];
  return main ? path.basename(main).replace(/\.\w+$/, '') : chunk.name;
}

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss(), sonnerStylesFromFile(), preloadLatinFont()],
  resolve: {
    alias: [
      // The contracts are shared with the api so every validation message is written once; the
      // package's source is bundled (its built CommonJS is for Node).
      { find: '@meshwork/contracts', replacement: fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) },
      ...(mode === 'production' ? [reactRouterWithoutDevWarnings] : []),
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Vite's preloading adds a <link rel=modulepreload> to the page for every chunk a lazy page
    // imports, as the page starts: each costs the main thread milliseconds on a phone, in the
    // tasks that wake the page. The browser fetches a module's imports as soon as it has the
    // module anyway; stylesheets are still loaded before the page that needs them.
    modulePreload: false,
    // Chunks under 10 kB (many held one icon or one helper shared by two pages) join a chunk
    // their importers load anyway: /pricing started 15 requests for its modules, now 6, and
    // every request costs a phone's main thread too. Only code without side effects moves.
    rollupOptions: { output: { experimentalMinChunkSize: 10_000, chunkFileNames: (chunk) => `assets/${chunkName(chunk)}-[hash].js` } },
  },
  server: { proxy: { '/api': apiOrigin } },
  test: { include: ['src/**/*.spec.{ts,tsx}'] },
}));
