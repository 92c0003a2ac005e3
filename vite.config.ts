import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The UI lives in ui/; Tauri serves ui/dist (src-tauri/tauri.conf.json). Svelte compiles the
// components' templates (escaped, no innerHTML); component CSS is emitted as a file, as the CSP
// (style-src 'self') allows no inline styles.
export default defineConfig({
  root: 'ui',
  clearScreen: false,
  plugins: [svelte({ emitCss: true })],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2021' },
  server: { port: 5173, strictPort: true },
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    root: 'ui',
    include: ['src/**/*.test.ts'],
    environment: 'happy-dom',
    setupFiles: ['src/test-setup.ts'],
  },
});
