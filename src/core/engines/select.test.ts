import { describe, expect, it } from 'vitest';
import { createEngine, probeEnvironment, resolveEngine, type EngineEnvironment } from './select';
import { ENGINE_CHOICES, type EngineName } from './types';
import { testProblem } from './tfjs/testing';
import { evaluateFused } from './fused';

const browser = (e: Partial<EngineEnvironment>): EngineEnvironment => ({ inNode: false, ...e });
const nvidia = { vendor: 'nvidia', architecture: 'ampere', description: '' };
const angleNvidia = {
  renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3080 Direct3D11 vs_5_0 ps_5_0, D3D11)',
};
const swiftGl = {
  renderer:
    'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
};

describe('resolveEngine', () => {
  it('picks WebGPU on a hardware adapter', () => {
    const r = resolveEngine('auto', browser({ webgpuAdapter: nvidia, webgl2: angleNvidia }));
    expect(r.name).toBe('webgpu-fused');
    expect(r.reason).toMatch(/nvidia ampere/);
  });

  it('refuses a fallback or SwiftShader WebGPU adapter', () => {
    const fallback = resolveEngine(
      'auto',
      browser({ webgpuAdapter: { ...nvidia, isFallbackAdapter: true } }),
    );
    expect(fallback.name).toBe('wasm');
    expect(fallback.reason).toMatch(/fallback adapter.*WASM CPU engine/);
    const swift = resolveEngine(
      'auto',
      browser({
        webgpuAdapter: { vendor: 'google', architecture: 'swiftshader' },
        webgl2: swiftGl,
      }),
    );
    expect(swift.name).toBe('wasm');
    expect(swift.reason).toBe(
      'WebGPU adapter is SwiftShader (a software fallback, ~700x slower than the CPU loop) and ' +
        'WebGL2 renders with SwiftShader (software); using the WASM CPU engine',
    );
  });

  it('falls back to hardware WebGL2 when WebGPU is missing or software', () => {
    expect(resolveEngine('auto', browser({ webgpuAdapter: null, webgl2: angleNvidia })).name).toBe(
      'tfjs-webgl',
    );
    const r = resolveEngine(
      'auto',
      browser({ webgpuAdapter: { description: 'llvmpipe' }, webgl2: angleNvidia }),
    );
    expect(r.name).toBe('tfjs-webgl');
    expect(r.reason).toMatch(/llvmpipe.*WebGL2 renders on ANGLE \(NVIDIA/);
  });

  it('refuses software or hidden WebGL2 renderers', () => {
    for (const webgl2 of [
      swiftGl,
      { renderer: 'llvmpipe (LLVM 15.0.7, 256 bits)' },
      { renderer: 'Microsoft Basic Render Driver' },
      {},
    ]) {
      const r = resolveEngine('auto', browser({ webgpuAdapter: null, webgl2 }));
      expect(r.name, JSON.stringify(webgl2)).toBe('wasm');
    }
    expect(resolveEngine('auto', browser({})).reason).toMatch(/not available.*not available/);
  });

  it('uses the WASM CPU engine under Node', () => {
    const r = resolveEngine('auto', { inNode: true, webgpuAdapter: nvidia, webgl2: angleNvidia });
    expect(r.name).toBe('wasm');
    expect(r.reason).toMatch(/Node/);
  });

  it('honours explicit choices', () => {
    for (const choice of ENGINE_CHOICES.filter((c) => c !== 'auto')) {
      const r = resolveEngine(choice, browser({ webgpuAdapter: { isFallbackAdapter: true } }));
      expect(r.name).toBe(choice as EngineName);
      expect(r.reason).toMatch(/explicitly/);
    }
  });
});

describe('probeEnvironment and createEngine', () => {
  it('reports Node without probing', async () => {
    expect(await probeEnvironment()).toEqual({ inNode: true, webgpuAdapter: null, webgl2: null });
  });

  it('creates the fused, wasm and tfjs engines by name', async () => {
    const { problem, nat } = testProblem('2pl');
    const ref = evaluateFused(problem, nat, null);
    for (const name of ['fused', 'wasm', 'tfjs-cpu'] as const) {
      const e = await createEngine(problem, name);
      expect(e.name).toBe(name);
      expect(Math.abs((await e.evaluate(nat, null)) - ref) / ref).toBeLessThan(1e-5);
      e.dispose();
    }
  });
});
