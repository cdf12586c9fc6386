import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// Cross-origin isolation lets workers share memory (SharedArrayBuffer) and is
// harmless otherwise; the CSP keeps every request on this origin.
const headers = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  server: { headers },
  preview: { headers },
  build: {
    target: 'es2022',
    sourcemap: true,
    // index.html is the app; webgpu-parity.html is the WebGPU engine's e2e test page.
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        'webgpu-parity': fileURLToPath(new URL('webgpu-parity.html', import.meta.url)),
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 120_000,
  },
});
