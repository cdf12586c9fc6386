/**
 * Serialises a chart for snapshot tests with every decimal rounded to 3
 * places (as Observable Plot's snapshot tests do), so float noise in scales
 * does not churn snapshots. One element per line for readable diffs.
 */
export function roundedSvg(svg: SVGSVGElement): string {
  const xml = new XMLSerializer().serializeToString(svg);
  return xml
    .replace(/-?\d*\.\d+(?:e[-+]?\d+)?/gi, (d) => String(+(+d).toFixed(3)))
    .replace(/></g, '>\n<');
}

/** Counts elements matching `selector` under `svg`. */
export function count(svg: SVGSVGElement, selector: string): number {
  return svg.querySelectorAll(selector).length;
}

/** The number of elements matching each selector, to compare in one `toEqual`. */
export function counts(svg: SVGSVGElement, selectors: string[]): Record<string, number> {
  return Object.fromEntries(selectors.map((s) => [s, count(svg, s)]));
}
