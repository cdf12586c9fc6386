import { useState } from 'react';

const KEY = 'llm-nrm.demo-guide.dismissed';

/**
 * Says, on the demo, what the data are and what the workbench does, until
 * dismissed (remembered in this browser).
 */
export function DemoGuide({ isDemo, J, I }: { isDemo: boolean; J: number; I: number }) {
  const [hidden, setHidden] = useState(() => {
    try {
      return localStorage.getItem(KEY) === '1';
    } catch {
      return false;
    }
  });
  if (!isDemo || hidden) return null;
  return (
    <section className="demo-guide" role="note" data-testid="demo-guide">
      <p>
        <strong>This is the demo:</strong> {J} instruction-tuned LLMs answering {I} NAEP economics
        and reading items, with every LLM&apos;s probability for every option. The workbench fits
        LLM-NRM, a nominal response model that uses the whole distribution over options, not only
        whether the top answer was right. Drop your own per-option log-probabilities (CSV,
        lm-evaluation-harness logs and more) on the left to analyse them the same way; everything
        stays in this tab.
      </p>
      <button
        type="button"
        className="small"
        onClick={() => {
          setHidden(true);
          try {
            localStorage.setItem(KEY, '1');
          } catch {
            /* private mode: dismissed for this visit only */
          }
        }}
      >
        Got it
      </button>
    </section>
  );
}
