import { useCallback, useMemo } from 'react';
import { iccChartParts } from '../../charts/icc';
import { itemInfoChart } from '../../charts/itemInfo';
import { OPTION_LABELS } from '../../core/data/types';
import { isBinary } from '../../core/model/types';
import { iccData, itemInfoData } from '../chartData';
import { Chart } from '../components/Chart';
import type { ViewProps } from './types';
import { ItemParams } from './ItemParams';

/** `make()`, called once, on first use. */
export function once<T>(make: () => T): () => T {
  let made: { v: T } | null = null;
  return () => (made ??= { v: make() }).v;
}

/** Question and option texts (when the data had them), ICC and item information. */
export function ItemDetail({ fit, ds, item }: ViewProps) {
  const it = fit.items[item];
  const text = ds.itemTexts?.[item] ?? null;
  const binary = isBinary(fit.model);
  // Computed on first use (in the chart's own task, not in this render: at 189
  // LLMs it is a noticeable part of the view's first render), then kept.
  const iccOf = useMemo(
    () =>
      once(() => ({
        ...iccData(fit, ds, item),
        curveNote: binary
          ? "the fitted item response function; dots are each LLM's observed P"
          : 'a reference LLM (s = 1, no position bias, no fallback); dots are LLMs with their own s, δ, ρ',
      })),
    [fit, ds, item, binary],
  );
  // In pieces: the curves first, then the LLMs' points a few dozen at a time.
  const renderIcc = useCallback(
    () =>
      iccChartParts(iccOf(), {
        title: binary
          ? `P(correct) of item ${it.id} over θ`
          : `Option curves of item ${it.id} over θ`,
      }),
    [iccOf, binary, it.id],
  );
  const renderInfo = useCallback(
    () => itemInfoChart(itemInfoData(fit, item), { title: `Information of item ${it.id}` }),
    [fit, item, it.id],
  );
  const tooltip = useCallback(
    (target: Element) => {
      // A curve: its own description (the option, and that it is a reference LLM).
      if (target.matches('path.trace')) return target.querySelector('title')?.textContent ?? null;
      const id = target.closest('[data-llm]')?.getAttribute('data-llm');
      const icc = iccOf();
      const llm = id ? icc.llms?.find((l) => l.id === id) : undefined;
      if (!llm) return null;
      return (
        <>
          <strong>{llm.id}</strong> (θ = {llm.theta.toFixed(2)})
          <br />
          {llm.probs.map((p, k) => (
            <span key={k} className={k === icc.key ? 'key' : undefined}>
              {icc.labels[k]} {p.toFixed(3)}
              {k < llm.probs.length - 1 ? ', ' : ''}
            </span>
          ))}
        </>
      );
    },
    [iccOf],
  );
  if (!it) return null;
  return (
    <div className="item-detail" data-testid="item-detail">
      <h3>
        Item {it.id}{' '}
        <span className="muted">
          {it.benchmark ? `· ${it.benchmark} ` : ''}· key {it.key}
        </span>
      </h3>
      {text && (
        <div className="item-text">
          <p className="question-text">{text.question || <em>(no question text)</em>}</p>
          <ol className="options" type="A">
            {text.options.slice(0, it.nOptions).map((o, k) => (
              <li key={k} className={k === ds.key[item] ? 'key' : undefined}>
                <span className="sr-only">{OPTION_LABELS[k]}: </span>
                {o || <em>(no text)</em>}
                {k === ds.key[item] ? ' ✓' : ''}
              </li>
            ))}
          </ol>
        </div>
      )}
      <details className="item-params-box">
        <summary>Parameters of item {it.id}</summary>
        <ItemParams item={it} binary={binary} />
      </details>
      <div className="chart-pair">
        <Chart
          render={renderIcc}
          name={`icc-${it.id}`}
          tooltip={tooltip}
          className="icc"
          heading={binary ? 'P(correct) over θ' : 'Option curves over θ'}
        />
        <Chart
          render={renderInfo}
          name={`item-info-${it.id}`}
          className="item-info"
          heading="Information: correctness vs distractor identity"
        />
      </div>
    </div>
  );
}
