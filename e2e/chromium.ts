/**
 * Debian's Chromium and the headless launch arguments every browser run here
 * uses (the e2e suite, the browser benchmark, the screenshot script): no
 * browser downloads, no sandbox as root, WebGPU on SwiftShader where no GPU is.
 */
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-webgpu',
];
