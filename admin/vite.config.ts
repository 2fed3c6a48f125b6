import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// In development the api runs as a separate process; in production one origin serves everything.
const apiOrigin = process.env.MESHWORK_API_ORIGIN ?? 'http://127.0.0.1:3000';

/**
 * React itself in a chunk of its own: every screen needs all of it, so it costs the first load
 * nothing extra and stays cached across deploys. Other libraries are left to Rollup, which puts
 * each module with the screens that use it: a chunk per library would hold everything any
 * screen uses, and the first load would fetch it all (406 KB of script where 300 is the budget).
 */
function vendorChunk(id: string): string | undefined {
  return /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'react' : undefined;
}

export default defineConfig({
  plugins: [react()],
  // The contracts' source is bundled (the package's built CommonJS is for Node).
  resolve: {
    alias: {
      '@meshwork/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)),
      'react-router-dom': fileURLToPath(new URL('src/app/react-router-dom-without-data-router.ts', import.meta.url)),
    },
  },
  // The console is served by the same origin as the customer site, under /admin/.
  base: '/admin/',
  // The api swaps this for a fresh nonce in every answer (api/src/platform/http/static-sites.ts);
  // emotion reads it from the csp-nonce meta tag Vite adds (src/app/csp-nonce.ts).
  html: { cspNonce: 'MESHWORK_CSP_NONCE' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      output: { manualChunks: vendorChunk },
    },
  },
  server: { proxy: { '/api': apiOrigin } },
});
