import { defineConfig } from 'vite';

// The UI lives in ui/; Tauri serves ui/dist (src-tauri/tauri.conf.json).
export default defineConfig({
  root: 'ui',
  clearScreen: false,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2021' },
  server: { port: 5173, strictPort: true },
  test: { root: 'ui', include: ['src/**/*.test.ts'] },
});
