import { useEffect, useRef, useState, type ReactNode } from 'react';
import { downloadBlob, svgToPngBlob, svgToString } from '../../charts/export';
import { slug } from '../slug';
import { afterNextFrame } from '../useGradual';

/** A chart drawn in pieces: the node, and steps that each add to it (see iccChartParts). */
export interface ChartParts {
  node: SVGSVGElement;
  more: (() => void)[];
}

export interface ChartProps {
  /**
   * Builds the detached SVG node, or the node and the steps that complete it,
   * each run in a task of its own after the node is shown. Memoise it: a new
   * function redraws the chart.
   */
  render: () => SVGSVGElement | ChartParts;
  /** Base file name for exports. */
  name: string;
  /** Tooltip content for the mark under the pointer, or null for none. */
  tooltip?: (target: Element) => ReactNode | null;
  /** Told when a mark is clicked or activated with Enter / Space. */
  onActivate?: (target: Element) => void;
  className?: string;
  /** Visible heading above the chart. */
  heading?: string;
}

interface Tip {
  x: number;
  y: number;
  content: ReactNode;
}

/**
 * Mounts a chart's SVG node in a div and offers SVG / PNG (2×) export of that
 * very node, so what is exported is what is shown.
 */
export function Chart({ render, name, tooltip, onActivate, className, heading }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    // Each chart is built in a task of its own, not in the commit that mounts it:
    // a view with several charts (at 189 LLMs, an ICC chart of 1,100 points)
    // would otherwise block the main thread as one long task. The old picture
    // stays until the new one replaces it, so nothing flickers.
    let cancel = () => {};
    const timer = setTimeout(() => {
      const built = render();
      const { node, more } = built instanceof SVGSVGElement ? { node: built, more: [] } : built;
      el.replaceChildren(node);
      svg.current = node;
      // The rest (an ICC chart's LLM points), a piece per task after a frame each.
      const next = (k: number) => {
        node.dataset.pending = String(more.length - k);
        if (k >= more.length) return void delete node.dataset.pending;
        cancel = afterNextFrame(() => {
          more[k]();
          next(k + 1);
        });
      };
      next(0);
    }, 0);
    return () => {
      clearTimeout(timer);
      cancel();
    };
  }, [render]);

  const onMove = (e: React.PointerEvent) => {
    if (!tooltip || !host.current) return;
    const content = tooltip(e.target as Element);
    if (content === null) return setTip(null);
    const box = host.current.getBoundingClientRect();
    setTip({ x: e.clientX - box.left + 12, y: e.clientY - box.top + 12, content });
  };
  const onClick = (e: React.MouseEvent) => onActivate?.(e.target as Element);
  const onKey = (e: React.KeyboardEvent) => {
    if (onActivate && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      onActivate(e.target as Element);
    }
  };

  const exportSvg = () => {
    if (!svg.current) return;
    const text = svgToString(svg.current);
    downloadBlob(new Blob([text], { type: 'image/svg+xml' }), `${slug(name)}.svg`);
  };
  const exportPng = async () => {
    if (!svg.current) return;
    setBusy(true);
    try {
      downloadBlob(await svgToPngBlob(svg.current, 2), `${slug(name)}.png`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <figure className={`chart ${className ?? ''}`} data-chart={name}>
      {heading && <h3 className="chart-title">{heading}</h3>}
      <div
        className="chart-host"
        ref={host}
        onPointerMove={tooltip ? onMove : undefined}
        onPointerLeave={tooltip ? () => setTip(null) : undefined}
        onClick={onActivate ? onClick : undefined}
        onKeyDown={onActivate ? onKey : undefined}
      />
      {tip && (
        <div className="tooltip" role="tooltip" style={{ left: tip.x, top: tip.y }}>
          {tip.content}
        </div>
      )}
      <figcaption className="chart-actions">
        <button type="button" className="small" onClick={exportSvg}>
          SVG
        </button>
        <button type="button" className="small" onClick={exportPng} disabled={busy}>
          PNG
        </button>
      </figcaption>
    </figure>
  );
}
