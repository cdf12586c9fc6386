/**
 * The model in equations, inside the app, so that "eq. 10" can be followed
 * without the paper. A summary in our words of "Every Wrong Answer Counts"
 * (LLM Nominal Response Model, Fitting); numbering follows the paper.
 */
export function ModelSummary() {
  return (
    <details className="panel model-summary" id="model-summary" data-testid="model-summary">
      <summary>The model: LLM-NRM in equations</summary>
      <p>
        LLM <var>j</var> answers item <var>i</var> with a distribution over its <var>K</var>{' '}
        options, p<sup>obs</sup>
        <sub>jik</sub>. The model predicts it from the LLM&apos;s ability θ<sub>j</sub> and the
        item&apos;s option parameters.
      </p>
      <dl className="equations">
        <dt id="eq-2">eq. 2 (Bock&apos;s NRM)</dt>
        <dd>
          p<sub>jik</sub> = exp(a<sub>ik</sub>θ<sub>j</sub> + c<sub>ik</sub>) / Σ<sub>k′</sub> exp(a
          <sub>ik′</sub>θ<sub>j</sub> + c<sub>ik′</sub>), with Σ<sub>k</sub>a<sub>ik</sub> = Σ
          <sub>k</sub>c<sub>ik</sub> = 0. <b>a</b> (discrimination): how fast an option gains with
          ability; <b>c</b> (intercept): how attractive it is at θ = 0. a<sub>key</sub> is the
          key&apos;s a.
        </dd>
        <dt id="eq-6">eq. 6 (sharpness and position)</dt>
        <dd>
          u<sub>jik</sub> = s<sub>j</sub>(a<sub>ik</sub>θ<sub>j</sub> + c<sub>ik</sub> + δ
          <sub>jk</sub>): s<sub>j</sub> &gt; 0 is the LLM&apos;s sharpness (inverse temperature), δ
          <sub>jk</sub> its preference for the displayed position k.
        </dd>
        <dt id="eq-7">eq. 7 (fallback gate)</dt>
        <dd>
          G<sub>ji</sub> = σ(w<sub>0</sub> − κ(θ<sub>j</sub> − b̃<sub>i</sub>)): the weight of
          fallback guessing rises when the item is hard for the LLM.
        </dd>
        <dt id="eq-10">eq. 10 (difficulty index b̃)</dt>
        <dd>
          b̃<sub>i</sub> = [log Σ<sub>k≠g</sub>exp(c<sub>ik</sub>) − c<sub>ig</sub>] / [a
          <sub>ig</sub> − Σ<sub>k≠g</sub>w<sub>ik</sub>a<sub>ik</sub>], w<sub>ik</sub> the
          distractors&apos; softmax weights at θ = 0 (eq. 11): the ability at which the key and the
          distractors are about equally likely, from one Newton step at θ = 0. The workbench guards
          the denominator smoothly near zero and notes the items where that matters.
        </dd>
        <dt id="eq-13">eq. 13 (full response distribution)</dt>
        <dd>
          p<sub>jik</sub> ∝ exp[(1 − G<sub>ji</sub>)u<sub>jik</sub> + G<sub>ji</sub>ρ<sub>jk</sub>]:
          ability-driven utilities blended with the LLM&apos;s fallback pattern ρ<sub>j</sub>.
        </dd>
        <dt id="eq-15">eq. 15 (fitting)</dt>
        <dd>
          L = −Σ p<sup>obs</sup> log p + ½Σθ²: soft cross-entropy plus the ability prior. The paper
          fits it with Adam for 2,500 steps; the workbench&apos;s default standardises θ and gives
          every parameter group a prior whose strength is chosen on held-out cells (docs/priors.md),
          then fits to a gradient test.
        </dd>
      </dl>
    </details>
  );
}

/** Opens the model summary at one equation. */
export function openEquation(id: string) {
  const box = document.getElementById('model-summary') as HTMLDetailsElement | null;
  if (box) box.open = true;
  document.getElementById(id)?.scrollIntoView({ block: 'start' });
}
