import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// In development the api runs as a separate process; in production one origin serves everything.
const apiOrigin = process.env.MESHWORK_API_ORIGIN ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  // The account schemas are shared with the api so every validation message is written once.
  resolve: { alias: { '@contracts': fileURLToPath(new URL('../contracts/src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '/api': apiOrigin } },
  test: { include: ['src/**/*.spec.{ts,tsx}'] },
});
