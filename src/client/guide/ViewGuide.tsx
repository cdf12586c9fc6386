import { openEquation } from './ModelSummary';

const GUIDE: Record<string, string> = {
  items:
    'One row per item: its key, accuracy and the fitted option parameters. The curves are the option probabilities of a reference LLM (sharpness 1, no position bias, no fallback) as ability θ varies; the dots are each real LLM’s observed probabilities at its fitted θ, so a sharp LLM’s dots sit near 0 and 1 even when the curves are smooth. b̃ is the item’s difficulty index; a_key the key’s discrimination.',
  information:
    'How precisely each item and benchmark measures ability: Fisher information split into what correctness alone carries (binary) and what the choice among wrong options adds. Test information adds over items; its inverse square root is the standard error of θ.',
  distractors:
    'Which wrong options carry information: a distractor is informative when it is the most likely option for some range of ability. Bands show where each option dominates.',
  llms: 'Each LLM’s ability θ with its standard error (item-parameter uncertainty included), its sharpness s, position bias δ and fallback pattern ρ. Click an LLM to see its wrong answers.',
  psychometrics:
    'The tables psychometricians expect: item and person fit (infit/outfit), reliability, classical item analysis and differential item functioning between groups of LLMs.',
  evaluate:
    'The paper’s evaluation suite: held-out prediction of every model, external validity, what wrong answers alone tell, and how far a benchmark can shrink.',
  bank: 'Save the fitted items as a bank, score new LLMs on it, run adaptive tests and pick a tiny benchmark.',
};

/** A one-paragraph "what you are looking at" for a view, out of the way until opened. */
export function ViewGuide({ tab }: { tab: string }) {
  const text = GUIDE[tab];
  if (!text) return null;
  return (
    <details className="view-guide" data-testid="view-guide">
      <summary>What you are looking at</summary>
      <p>
        {text}{' '}
        <a
          href="#model-summary"
          onClick={(e) => {
            e.preventDefault();
            openEquation('eq-13');
          }}
        >
          The model in equations
        </a>
        .
      </p>
    </details>
  );
}
