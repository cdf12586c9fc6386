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

/** Height of the title band an exported figure gets above the chart. */
export const EXPORT_TITLE_HEIGHT = 26;

/**
 * A figure on its own needs the caption the page gave it: the chart's title
 * (which names the item or LLM it shows) becomes visible text in a band
 * above the chart. Returns the added height.
 */
function addTitleBand(clone: SVGSVGElement, title: string): number {
  const doc = clone.ownerDocument;
  const shift = doc.createElementNS(SVG_NS, 'g');
  shift.setAttribute('transform', `translate(0,${EXPORT_TITLE_HEIGHT})`);
  for (const child of [...clone.childNodes]) {
    const keep = child.nodeType === 1 && /^(title|style|desc)$/.test((child as Element).tagName);
    if (!keep) shift.append(child);
  }
  const text = doc.createElementNS(SVG_NS, 'text');
  text.setAttribute('class', 'export-title');
  text.setAttribute('x', '8');
  text.setAttribute('y', '18');
  text.setAttribute('font-size', '13');
  text.setAttribute('font-weight', 'bold');
  text.setAttribute('fill', '#111');
  text.textContent = title;
  clone.append(text, shift);
  return EXPORT_TITLE_HEIGHT;
}

/** The chart's title: its `<title>` child (which the charts fill with what and whose). */
export function chartTitle(svg: SVGSVGElement): string {
  const t = [...svg.children].find((c) => c.tagName === 'title');
  return t?.textContent?.trim() ?? '';
}

/**
 * A standalone copy of the chart node the user sees, with absolute dimensions,
 * inlined computed styles (when in a page) and a visible title band (unless
 * `title` is false). Returns it with its size.
 */
export function exportClone(
  svg: SVGSVGElement,
  title: string | false = chartTitle(svg),
): { node: SVGSVGElement; width: number; height: number } {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineComputedStyles(svg, clone);
  clone.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  clone.setAttributeNS(XMLNS_NS, 'xmlns:xlink', XLINK_NS);
  // A file needs absolute dimensions; fall back to the viewBox or the on-screen box.
  const vb = svg.viewBox?.baseVal;
  const box = svg.isConnected ? svg.getBoundingClientRect() : undefined;
  const size = { width: 0, height: 0 };
  for (const dim of ['width', 'height'] as const) {
    const v = svg.getAttribute(dim);
    const n = v && !v.endsWith('%') ? Number(v) : NaN;
    size[dim] = Number.isFinite(n)
      ? n
      : Math.round((vb && vb[dim]) || (box && box[dim]) || (dim === 'width' ? 640 : 320));
  }
  if (title) {
    const band = addTitleBand(clone, title);
    const w = vb?.width || size.width;
    const h = vb?.height || size.height;
    clone.setAttribute('viewBox', `${vb?.x ?? 0} ${vb?.y ?? 0} ${w} ${h + band}`);
    size.height += band;
  }
  clone.setAttribute('width', String(size.width));
  clone.setAttribute('height', String(size.height));
  clone.style?.removeProperty('max-width');
  clone.style?.removeProperty('height');
  return { node: clone, ...size };
}

/**
 * Serialises the chart node the user sees to a standalone SVG document string,
 * titled (see exportClone). XMLSerializer escapes all text and attribute
 * values, so untrusted labels stay text.
 */
export function svgToString(svg: SVGSVGElement, title?: string | false): string {
  const { node } = exportClone(svg, title);
  const serializer = new (svg.ownerDocument.defaultView?.XMLSerializer ?? XMLSerializer)();
  return serializer.serializeToString(node);
}

/** Rasterises the chart to PNG at `scale`× its size on a white background (browser only). */
export async function svgToPngBlob(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const { node, width, height } = exportClone(svg);
  const text = new XMLSerializer().serializeToString(node);
  const doc = svg.ownerDocument;
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
