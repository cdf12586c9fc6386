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
        <dt id="eq-1">eq. 1 (the observation)</dt>
        <dd>
          p<sup>obs</sup>
          <sub>ji</sub> = (p<sup>obs</sup>
          <sub>ji1</sub>, …, p<sup>obs</sup>
          <sub>jiK</sub>), a point of the probability simplex: the LLM&apos;s renormalised
          probabilities over the item&apos;s options, used whole rather than cut down to &ldquo;was
          the top option the key g<sub>i</sub>?&rdquo;.
        </dd>
        <dt id="eq-2">eq. 2 (Bock&apos;s NRM)</dt>
        <dd>
          p<sub>jik</sub> = exp(a<sub>ik</sub>θ<sub>j</sub> + c<sub>ik</sub>) / Σ<sub>k′</sub> exp(a
          <sub>ik′</sub>θ<sub>j</sub> + c<sub>ik′</sub>). <b>a</b> (discrimination): how fast an
          option gains with ability; <b>c</b> (intercept): how attractive it is at θ = 0. a
          <sub>key</sub> is the key&apos;s a: positive on a good item.
        </dd>
        <dt id="eq-3">eq. 3 (item identification)</dt>
        <dd>
          Σ<sub>k</sub>a<sub>ik</sub> = 0 and Σ<sub>k</sub>c<sub>ik</sub> = 0 per item, since adding
          one constant to every option&apos;s utility changes nothing; the ability scale is anchored
          by the prior θ<sub>j</sub> ~ N(0, 1).
        </dd>
        <dt id="eq-4">eq. 4 (sharpness)</dt>
        <dd>
          s<sub>j</sub> &gt; 0 per LLM: an inverse temperature. It concentrates (s &gt; 1) or
          flattens (s &lt; 1) the LLM&apos;s distribution without reordering the options, so
          confidence is not mistaken for knowledge.
        </dd>
        <dt id="eq-5">eq. 5 (position bias)</dt>
        <dd>
          δ<sub>j</sub> = (δ<sub>j1</sub>, …, δ<sub>jK</sub>): the LLM&apos;s preference for the
          displayed position k (first option, second, …), whatever its content.
        </dd>
        <dt id="eq-6">eq. 6 (ability-driven utility)</dt>
        <dd>
          u<sub>jik</sub> = s<sub>j</sub>(a<sub>ik</sub>θ<sub>j</sub> + c<sub>ik</sub> + δ
          <sub>jk</sub>): the NRM utility shifted by the position bias and scaled by the sharpness.
        </dd>
        <dt id="eq-7">eq. 7 (fallback gate)</dt>
        <dd>
          G<sub>ji</sub> = σ(w<sub>0</sub> − κ(θ<sub>j</sub> − b̃<sub>i</sub>)), κ ≥ 0: the weight of
          fallback guessing, which rises as the item gets harder for the LLM. w<sub>0</sub> sets
          where the switch happens, κ how abruptly.
        </dd>
        <dt id="eq-8">eq. 8 (key-versus-rest margin)</dt>
        <dd>
          f<sub>i</sub>(θ) = a<sub>ig</sub>θ + c<sub>ig</sub> − log Σ<sub>k≠g</sub> exp(a
          <sub>ik</sub>θ + c<sub>ik</sub>): the log-odds of the key against all distractors
          together. Where it crosses 0 the key is as likely as not, the NRM&apos;s analogue of a 2PL
          difficulty.
        </dd>
        <dt id="eq-9">eq. 9 (linearised at θ = 0)</dt>
        <dd>
          f<sub>i</sub>(θ) ≈ f<sub>i</sub>(0) + f′<sub>i</sub>(0)·θ: solving f = 0 exactly inside
          every optimiser step would be costly, so the margin is replaced by its tangent at the
          centre of the ability prior.
        </dd>
        <dt id="eq-10">eq. 10 (difficulty index b̃)</dt>
        <dd>
          b̃<sub>i</sub> = −f<sub>i</sub>(0)/f′<sub>i</sub>(0) = [log Σ<sub>k≠g</sub>exp(c
          <sub>ik</sub>) − c<sub>ig</sub>] / [a<sub>ig</sub> − Σ<sub>k≠g</sub>w<sub>ik</sub>a
          <sub>ik</sub>]: one Newton step from θ = 0 towards the ability at which the key and the
          distractors are equally likely. No new parameter, and differentiable. The workbench guards
          the denominator smoothly near zero (where b̃ would explode) and notes the items where that
          matters.
        </dd>
        <dt id="eq-11">eq. 11 (distractor weights)</dt>
        <dd>
          w<sub>ik</sub> = exp(c<sub>ik</sub>) / Σ<sub>k′≠g</sub>exp(c<sub>ik′</sub>): how the
          distractors share the wrong-answer mass at θ = 0.
        </dd>
        <dt id="eq-12">eq. 12 (fallback pattern)</dt>
        <dd>
          ρ<sub>j</sub> = (ρ<sub>j1</sub>, …, ρ<sub>jK</sub>): the logits of the LLM&apos;s guessing
          pattern over displayed positions. Unlike δ, which is always present, ρ matters only as far
          as the gate G opens.
        </dd>
        <dt id="eq-13">eq. 13 (full response distribution)</dt>
        <dd>
          p<sub>jik</sub> ∝ exp[(1 − G<sub>ji</sub>)u<sub>jik</sub> + G<sub>ji</sub>ρ<sub>jk</sub>]:
          the ability-driven utilities blended with the fallback pattern. With s = 1, δ = ρ = 0 and
          G = 0 it is exactly Bock&apos;s NRM (eq. 2): the item curves drawn in the workbench are
          that reference LLM.
        </dd>
        <dt id="eq-14">eq. 14 (LLM identification)</dt>
        <dd>
          Σ<sub>k</sub>δ<sub>jk</sub> = 0 and Σ<sub>k</sub>ρ<sub>jk</sub> = 0 per LLM; s and κ are
          kept positive by writing them as softplus of free numbers.
        </dd>
        <dt id="eq-15">eq. 15 (fitting)</dt>
        <dd>
          L = −Σ<sub>i,j,k</sub> p<sup>obs</sup>
          <sub>jik</sub> log p<sub>jik</sub> + ½Σ<sub>j</sub>θ<sub>j</sub>²: soft cross-entropy plus
          the N(0, 1) ability prior, minimised jointly over all parameters (MAP). The paper uses
          Adam for 2,500 steps (&ldquo;paper&rdquo; mode). The workbench&apos;s default standardises
          θ and gives every parameter group a prior: fixed, weakly informative ones on the option
          slopes and intercepts (sd 2 and 6) and on log sharpness (sd 0.3), and on the positional
          bias and fallback one whose strength is chosen on held-out cells; it then fits until a
          gradient test passes, from two starts (the fallback gate open and shut), keeping the
          gate-open optimum only where it predicts held-out cells better beyond the folds&apos;
          noise; the Fit panel&apos;s status line says the priors in force, which start was kept and
          whether the fit converged.
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
