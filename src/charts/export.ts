const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

// Properties that page CSS could change; inlined so the export matches the screen.
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'color',
  'visibility',
];

function inlineComputedStyles(source: Element, target: Element): void {
  const view = source.ownerDocument.defaultView;
  if (!view || typeof view.getComputedStyle !== 'function' || !source.isConnected) return;
  const src = [source, ...source.querySelectorAll('*')];
  const dst = [target, ...target.querySelectorAll('*')];
  src.forEach((el, i) => {
    const out = dst[i] as SVGElement | undefined;
    if (!out?.style || el.tagName === 'title' || el.tagName === 'style') return;
    const cs = view.getComputedStyle(el);
    for (const p of STYLE_PROPS) {
      const v = cs.getPropertyValue(p);
      if (v) out.style.setProperty(p, v);
    }
  });
}

/**
 * Serialises the chart node the user sees to a standalone SVG document string.
 * XMLSerializer escapes all text and attribute values, so untrusted labels stay
 * text. When the node is in a page, computed styles are inlined too.
 */
export function svgToString(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineComputedStyles(svg, clone);
  clone.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  clone.setAttributeNS(XMLNS_NS, 'xmlns:xlink', XLINK_NS);
  // A file needs absolute dimensions; fall back to the viewBox or the on-screen box.
  const vb = svg.viewBox?.baseVal;
  const box = svg.isConnected ? svg.getBoundingClientRect() : undefined;
  for (const dim of ['width', 'height'] as const) {
    const v = svg.getAttribute(dim);
    if (!v || v.endsWith('%')) {
      const fallback = (vb && vb[dim]) || (box && box[dim]) || (dim === 'width' ? 640 : 320);
      clone.setAttribute(dim, String(Math.round(fallback)));
    }
  }
  clone.style?.removeProperty('max-width');
  clone.style?.removeProperty('height');
  const serializer = new (svg.ownerDocument.defaultView?.XMLSerializer ?? XMLSerializer)();
  return serializer.serializeToString(clone);
}

/** Rasterises the chart to PNG at `scale`× its size on a white background (browser only). */
export async function svgToPngBlob(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const text = svgToString(svg);
  const doc = svg.ownerDocument;
  const width = Number(svg.getAttribute('width')) || svg.viewBox.baseVal.width || 640;
  const height = Number(svg.getAttribute('height')) || svg.viewBox.baseVal.height || 320;
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const img = doc.createElement('img');
    img.src = url;
    await img.decode();
    const canvas = doc.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('Canvas 2D context unavailable');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Saves `blob` as `filename` via a temporary link (browser only). */
export function downloadBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  doc.body.append(a);
  a.click();
  a.remove();
  // Revoking synchronously can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
