import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// JSX is compiled by Vite's own transformer (automatic runtime); @vitejs/plugin-react is left out:
// its optional babel peer conflicts with the Babel 7 of the Cube schema compiler, and fast refresh is
// the only thing it would add here.
const server = 'http://127.0.0.1:3000';
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // React libraries mark modules "use client" (a server-components hint, meaningless in a SPA bundle).
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: server, ws: true },
      '/cubejs-api': server,
      '/login': server,
      '/auth': server,
      // Invitation links are server pages too.
      '/invite': server,
    },
  },
});
