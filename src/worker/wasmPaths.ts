import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import plainUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import simdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';

/**
 * Browser-only: tells the tfjs wasm backend where Vite put its `.wasm` files
 * (hashed asset URLs, so a directory prefix will not do). Call it in the worker
 * before creating a `tfjs-wasm` engine; it must run before the backend first
 * initialises. Node resolves the files from node_modules instead (backend.ts).
 *
 * The engine disables wasm threads, so the threaded binary is never fetched;
 * tfjs nevertheless requires an entry for it, and pointing it at the SIMD
 * binary keeps a 3rd, unused multi-megabyte asset out of the build.
 */
export function configureWasmForBrowser(): void {
  setWasmPaths({
    'tfjs-backend-wasm.wasm': plainUrl,
    'tfjs-backend-wasm-simd.wasm': simdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': simdUrl,
  });
}
