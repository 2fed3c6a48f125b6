import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The host's window: built into ui/dist, which the runtime's loopback server sends.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), tailwindcss()],
  // Only the contracts' types are used here; the alias lets the editor and Vite find them.
  resolve: { alias: { '@meshwork/contracts': fileURLToPath(new URL('../../contracts/src/index.ts', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true },
});
