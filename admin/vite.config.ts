import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// In development the api runs as a separate process; in production one origin serves everything.
const apiOrigin = process.env.MESHWORK_API_ORIGIN ?? 'http://127.0.0.1:3000';

const vendorChunks: Record<string, RegExp> = {
  react: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
  mui: /[\\/]node_modules[\\/](@mui|@emotion)[\\/]/,
  'react-admin': /[\\/]node_modules[\\/](react-admin|ra-[^\\/]+)[\\/]/,
};

/** Libraries only lazily loaded screens use (the Analytics charts, the model upload's hashing): left to travel with them. */
const screenOnly =
  /[\\/]node_modules[\\/](recharts|victory-vendor|d3-[^\\/]+|internmap|@reduxjs|redux|redux-thunk|immer|reselect|react-redux|es-toolkit|decimal\.js-light|eventemitter3|tiny-invariant|hash-wasm)[\\/]/;

function vendorChunk(id: string): string | undefined {
  if (!id.includes('node_modules') || screenOnly.test(id)) return undefined;
  return Object.entries(vendorChunks).find(([, pattern]) => pattern.test(id))?.[0] ?? 'vendor';
}

export default defineConfig({
  plugins: [react()],
  // The contracts' source is bundled (the package's built CommonJS is for Node).
  resolve: { alias: { '@meshwork/contracts': fileURLToPath(new URL('../contracts/src/index.ts', import.meta.url)) } },
  // The console is served by the same origin as the customer site, under /admin/.
  base: '/admin/',
  // The api swaps this for a fresh nonce in every answer (api/src/platform/http/static-sites.ts);
  // emotion reads it from the csp-nonce meta tag Vite adds (src/app/csp-nonce.ts).
  html: { cspNonce: 'MESHWORK_CSP_NONCE' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      // Vendor code changes far less often than the console: separate chunks stay cached across deploys.
      output: { manualChunks: vendorChunk },
    },
  },
  server: { proxy: { '/api': apiOrigin } },
});
