/** Options every chart accepts. Chart-specific options extend this. */
export interface ChartOptions {
  /** Document used to create nodes; defaults to `globalThis.document` (inject jsdom's in tests). */
  document?: Document;
  /** Outer width in px (the SVG's width attribute and viewBox). */
  width?: number;
  /** Outer height in px; charts with one row per LLM/benchmark size themselves when omitted. */
  height?: number;
  /** Overrides the chart's default accessible title (`<title>` and `aria-label`). */
  title?: string;
}
