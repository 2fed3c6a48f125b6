import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the api runs as a separate process; in production one origin serves everything.
const apiOrigin = process.env.MESHWORK_API_ORIGIN ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '/api': apiOrigin } },
});
