;; LLM-NRM cross-entropy and gradient, nominal family, 'option' channel, as a
;; WebAssembly SIMD kernel. Assembled by scripts/build-wasm.mjs (wabt from npm)
;; into kernel.bytes.ts; src/core/engines/wasm/engine.ts drives it. Two versions:
;; "option" in float64 (below) and "option32" in float32 (further down, for the
;; early passes of a mixed-precision fit).
;;
;; The same function as `nominalCE` in ../fusedNominal.ts for channel 'option':
;; every combination of the sharpness, position and fallback flags. Targets are
;; read as float32 and promoted; everything else (z, exp, log, CE sum, gradient)
;; is float64. SIMD runs along the options of one cell: two options per f64x2,
;; which matches the layout, where a, c, δ, ρ and the targets are contiguous in k.
;;
;; Padding lanes. A cell with K options takes ceil(K/2) vectors; when K is odd the
;; last vector's second lane (k = K) reads the next slot of each block (a padded
;; slot, the next block's first entry, or up to 16 bytes of padding the engine
;; leaves after every array). That lane is masked: its z is −∞ before the max and
;; its e is 0 exactly; its target is 0, as the engine copies the targets with a
;; stride of Kmax rounded up to 4 and zeros beyond each cell's K. Hence its ∂CE/∂z is exactly 0 and
;; the gradient stores of that lane add +0 to a neighbouring slot, which is a no-op.
;;
;; exp, for x ≤ 709 (the kernel's arguments are ≤ 0): x = n·ln2 + r, n = round(x/ln2)
;; (by adding 1.5·2^52), |r| ≤ ln2/2, ln2 split in two (Cody–Waite: n·ln2_hi is exact),
;; e^r by its Taylor polynomial of degree 11 (Estrin's scheme), 2^n built in the
;; exponent bits. Relative truncation error, from the Lagrange remainder e^ξ r^12/12!:
;;   e^|r| · |r|^12 / 12! ≤ 1.415 · 0.3466^12 / 479001600 < 8.9e-15;
;; bound tested with rounding (wasm.test.ts): 2e-14 relative over [−708, 709]
;; (measured 9e-15). exp(x) = 0 for x < −708 (true value below 3.3e-308; this is
;; what zeroes the −∞ lanes), and NaN stays NaN.
;;
;; log, for normal positive x: x = 2^e · m, m ∈ [√½, √2), log m = 2·atanh(r) with
;; r = (m−1)/(m+1), |r| ≤ 0.1716, series through r^15/15 (Estrin in r²). Truncation
;;   2·|r|^17/17 / (1 − r²) < 1.2e-14 (absolute),
;; and e·ln2 is added in two parts; bound tested: |error| ≤ 2e-14 + 4·2^-52·|ln x|
;; (measured 1.2e-14 on [1, 256]). Two cells' logs are taken in one f64x2.
;; The kernel calls it on the softmax sum, which lies in [1, K].
(module
  (memory (export "memory") 1)

  ;; e^x for each lane (see the bound above). The kernel's pass 2 has the same
  ;; code inline (V8 does not inline wasm calls everywhere).
  (func $expv (param $x v128) (result v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $p v128)
    (local $r2 v128) (local $r4 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128)
    ;; x = n·ln2 + r: sh = x·log2e + 1.5·2^52 rounds n into sh's low mantissa bits
    (local.set $xc (f64x2.pmax (local.get $x) (v128.const f64x2 -708 -708)))
    (local.set $sh (f64x2.add
      (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
      (v128.const f64x2 6755399441055744 6755399441055744)))
    (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
    (local.set $r (f64x2.sub
      (f64x2.sub (local.get $xc)
        (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
      (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
    ;; e^r: Taylor polynomial of degree 11 (1/k!), Estrin's scheme for a short dependency chain
    (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
    (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
    (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
    (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
    (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
    (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
    (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
    (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
    (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
    (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
    (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
    (local.set $p (f64x2.add
      (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
      (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
    ;; · 2^n, whose bits are (n + 1023) << 52; zero where x < −708 (and for −∞)
    (local.set $p (v128.andnot
      (f64x2.mul (local.get $p)
        (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
      (f64x2.lt (local.get $x) (v128.const f64x2 -708 -708))))
    (local.get $p))

  ;; ln x for each lane, x positive and normal (see the bound above).
  (func $logv (param $x v128) (result v128)
    (local $e v128) (local $m v128) (local $c v128) (local $r v128) (local $w v128) (local $w2 v128)
    (local $p0 v128) (local $p2 v128) (local $p4 v128) (local $p6 v128)
    ;; x = 2^e · m, m ∈ [√½, √2); e = E − 1023 from the exponent field E, via 2^52 + E
    (local.set $e (f64x2.sub
      (v128.or (i64x2.shr_u (local.get $x) (i32.const 52)) (v128.const i64x2 0x4330000000000000 0x4330000000000000))
      (v128.const f64x2 4503599627371519 4503599627371519)))
    (local.set $m (v128.or
      (v128.and (local.get $x) (v128.const i64x2 0x000FFFFFFFFFFFFF 0x000FFFFFFFFFFFFF))
      (v128.const i64x2 0x3FF0000000000000 0x3FF0000000000000)))
    (local.set $c (f64x2.gt (local.get $m) (v128.const f64x2 1.4142135623730951 1.4142135623730951)))
    (local.set $m (v128.bitselect (f64x2.mul (local.get $m) (v128.const f64x2 0.5 0.5)) (local.get $m) (local.get $c)))
    (local.set $e (f64x2.add (local.get $e) (v128.and (local.get $c) (v128.const f64x2 1 1))))
    ;; log m = 2 atanh r, r = (m − 1)/(m + 1): r · Σ_(k<8) 2/(2k+1) · w^k, w = r², Estrin
    (local.set $r (f64x2.div
      (f64x2.sub (local.get $m) (v128.const f64x2 1 1)) (f64x2.add (local.get $m) (v128.const f64x2 1 1))))
    (local.set $w (f64x2.mul (local.get $r) (local.get $r)))
    (local.set $w2 (f64x2.mul (local.get $w) (local.get $w)))
    (local.set $p0 (f64x2.add (v128.const f64x2 2 2) (f64x2.mul (local.get $w) (v128.const f64x2 0.66666666666666663 0.66666666666666663))))
    (local.set $p2 (f64x2.add (v128.const f64x2 0.40000000000000002 0.40000000000000002) (f64x2.mul (local.get $w) (v128.const f64x2 0.28571428571428570 0.28571428571428570))))
    (local.set $p4 (f64x2.add (v128.const f64x2 0.22222222222222221 0.22222222222222221) (f64x2.mul (local.get $w) (v128.const f64x2 0.18181818181818182 0.18181818181818182))))
    (local.set $p6 (f64x2.add (v128.const f64x2 0.15384615384615385 0.15384615384615385) (f64x2.mul (local.get $w) (v128.const f64x2 0.13333333333333333 0.13333333333333333))))
    (local.set $p0 (f64x2.add (local.get $p0) (f64x2.mul (local.get $w2) (local.get $p2))))
    (local.set $p4 (f64x2.add (local.get $p4) (f64x2.mul (local.get $w2) (local.get $p6))))
    (local.set $p0 (f64x2.add (local.get $p0)
      (f64x2.mul (f64x2.mul (local.get $w2) (local.get $w2)) (local.get $p4))))
    ;; + e·ln2 in two parts (e·ln2_hi is exact)
    (f64x2.add
      (f64x2.mul (local.get $e) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01))
      (f64x2.add
        (f64x2.mul (local.get $p0) (local.get $r))
        (f64x2.mul (local.get $e) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10)))))

  ;; e^−y for one gate argument y, with −y clamped to 709 (e^709 ≈ 8.2e307: then
  ;; G = 1/(1 + e^−y) is below 1.3e-308 where Math.exp(−y) gives at most that or 0).
  ;; For "direct" gates (flag bit 3): the caller passes α_j and β_i themselves in
  ;; ea and eb, where their factors e^−α_j · e^−β_i could not be formed.
  (func $expNeg (param $y f64) (result f64)
    (f64x2.extract_lane 0 (call $expv (f64x2.splat
      (f64.min (f64.neg (local.get $y)) (f64.const 709))))))

  (func (export "exp") (param $x f64) (result f64)
    (f64x2.extract_lane 0 (call $expv (f64x2.splat (local.get $x)))))

  (func (export "log") (param $x f64) (result f64)
    (f64x2.extract_lane 0 (call $logv (f64x2.splat (local.get $x)))))

  ;; CE over cells [0, n) on the option channel; with $wantGrad, ∂CE/∂nat is ADDED
  ;; into the grad array (the caller zeroes it) and ∂CE/∂b̃_i into gbt[i] (the caller
  ;; zeroes it and applies b̃'s own chain rule, as nominalCE does). Addresses are in
  ;; bytes; o* are element offsets of the layout (NominalLayout) into nat and grad.
  ;; $flags: bit 0 sharpness, bit 1 position, bit 2 fallback, bit 3 "direct" gate
  ;; arguments (ea, eb hold α_j, β_i; see $expNeg), bit 4 a per-cell gate (the
  ;; margin gate, model/gate.ts): the caller passes each cell's G at pEa + 8q and
  ;; the kernel stores each cell's ∂CE/∂y (y the gate's argument) at pGbt + 8q
  ;; instead of adding into w0, κ, θ and gbt, whose chain rule the caller applies.
  (func (export "option")
    (param $n i32) (param $Kmax i32) (param $flags i32) (param $wantGrad i32)
    (param $pJ i32) (param $pI i32) (param $pT i32) (param $pK i32)
    (param $pNat i32) (param $pGrad i32) (param $pBt i32) (param $pEa i32) (param $pEb i32) (param $pGbt i32)
    (param $pScr i32)
    (param $oTheta i32) (param $oS i32) (param $oDelta i32) (param $oRho i32)
    (param $oA i32) (param $oC i32) (param $oW0 i32) (param $oKappa i32)
    (result f64)
    (local $sharp i32) (local $pos i32) (local $fb i32) (local $direct i32) (local $cellG i32) (local $gOff i32)
    (local $rowB i32) (local $q i32) (local $j i32) (local $i i32) (local $KB i32) (local $kb i32)
    (local $ai i32) (local $ci i32) (local $dj i32) (local $rj i32) (local $tq i32)
    (local $scrZ i32) (local $scrV i32) (local $scrE i32)
    (local $w0 f64) (local $kappa f64) (local $theta f64) (local $s f64) (local $bt f64)
    (local $G f64) (local $m f64) (local $sum f64) (local $tsum f64)
    (local $ce f64) (local $gt f64) (local $gw0 f64) (local $gkappa f64) (local $gtheta f64)
    (local $thetaV v128) (local $sV v128) (local $GV v128) (local $omGV v128) (local $mV v128)
    (local $kf v128) (local $KV v128) (local $mask v128)
    (local $vv v128) (local $z v128) (local $x v128) (local $e v128) (local $tv v128)
    (local $aV v128) (local $rho v128) (local $gu v128) (local $gv v128) (local $coef v128)
    (local $esV v128) (local $tsV v128) (local $tzV v128)
    (local $gGV v128) (local $gsV v128) (local $gthV v128)
    (local $addr i32) (local $rowT i32) (local $iPrev i32) (local $pending i32) (local $pendSum f64) (local $pendTs f64) (local $lv v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $p v128)
    (local $r2 v128) (local $r4 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128)
    (local $j2 i32) (local $dj2 i32) (local $rj2 i32) (local $tq2 i32)
    (local $scrZ2 i32) (local $scrV2 i32) (local $scrE2 i32)
    (local $theta2 f64) (local $s2 f64) (local $G2 f64)
    (local $thetaV2 v128) (local $sV2 v128) (local $GV2 v128) (local $omGV2 v128) (local $mV2 v128)
    (local $esV2 v128) (local $tsV2 v128) (local $tzV2 v128) (local $gGV2 v128) (local $gsV2 v128) (local $gthV2 v128)
    (local $vv2 v128) (local $z2 v128) (local $x2 v128) (local $e2 v128) (local $tv2 v128) (local $rho2 v128)
    (local $gu2 v128) (local $gv2 v128) (local $coef2 v128) (local $cV v128) (local $sum2 v128) (local $ts2 v128)
    (local $xcB v128) (local $shB v128) (local $enB v128) (local $rB v128) (local $pB v128)
    (local $r2B v128) (local $r4B v128) (local $q0B v128) (local $q1B v128) (local $q2B v128) (local $q3B v128) (local $q4B v128) (local $q5B v128)
    (local.set $sharp (i32.and (local.get $flags) (i32.const 1)))
    (local.set $pos (i32.and (local.get $flags) (i32.const 2)))
    (local.set $fb (i32.and (local.get $flags) (i32.const 4)))
    (local.set $direct (i32.and (local.get $flags) (i32.const 8)))
    (local.set $cellG (i32.and (local.get $flags) (i32.const 16)))
    (local.set $gOff (i32.sub (local.get $pGrad) (local.get $pNat)))
    (local.set $rowB (i32.shl (local.get $Kmax) (i32.const 3)))
    (local.set $scrZ (local.get $pScr))
    (local.set $scrV (i32.add (local.get $pScr) (i32.const 2048)))
    (local.set $scrE (i32.add (local.get $pScr) (i32.const 4096)))
    ;; the second cell of a pair: z, v, e at 6144, 8192, 10240 (256 options each)
    (local.set $scrZ2 (i32.add (local.get $pScr) (i32.const 6144)))
    (local.set $scrV2 (i32.add (local.get $pScr) (i32.const 8192)))
    (local.set $scrE2 (i32.add (local.get $pScr) (i32.const 10240)))
    (local.set $s2 (f64.const 1))
    (local.set $G2 (f64.const 0))
    (local.set $w0 (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oW0) (i32.const 3)))))
    (local.set $kappa
      (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oKappa) (i32.const 3)))))
    (local.set $s (f64.const 1))
    (local.set $G (f64.const 0))
    ;; Targets are float32 with a stride of Kmax rounded up to a multiple of 4 (the
    ;; float32 kernel's vectors), padded with 0, so the padding lane of a last
    ;; vector reads a 0 target and needs no mask.
    (local.set $tq (local.get $pT))
    (local.set $rowT (i32.shl (i32.and (i32.add (local.get $Kmax) (i32.const 3)) (i32.const -4)) (i32.const 2)))
    (local.set $iPrev (i32.const -1))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $q) (local.get $n)))
        (local.set $j (i32.load (i32.add (local.get $pJ) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $i (i32.load (i32.add (local.get $pI) (i32.shl (local.get $q) (i32.const 2)))))
        ;; Cells are item-major: item-level values change only between runs.
        (if (i32.ne (local.get $i) (local.get $iPrev))
          (then
            (local.set $iPrev (local.get $i))
            (local.set $KB
              (i32.shl (i32.load8_u (i32.add (local.get $pK) (local.get $i))) (i32.const 3)))
            (local.set $KV (f64x2.splat (f64.convert_i32_u (i32.shr_u (local.get $KB) (i32.const 3)))))
            (local.set $ai (i32.add (local.get $pNat)
              (i32.add (i32.shl (local.get $oA) (i32.const 3)) (i32.mul (local.get $i) (local.get $rowB)))))
            (local.set $ci (i32.add (local.get $pNat)
              (i32.add (i32.shl (local.get $oC) (i32.const 3)) (i32.mul (local.get $i) (local.get $rowB)))))))
        (local.set $dj (i32.add (local.get $pNat)
          (i32.add (i32.shl (local.get $oDelta) (i32.const 3)) (i32.mul (local.get $j) (local.get $rowB)))))
        (local.set $rj (i32.add (local.get $pNat)
          (i32.add (i32.shl (local.get $oRho) (i32.const 3)) (i32.mul (local.get $j) (local.get $rowB)))))
        (local.set $theta (f64.load (i32.add (local.get $pNat)
          (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3)))))
        (if (local.get $sharp)
          (then (local.set $s (f64.load (i32.add (local.get $pNat)
            (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 3)))))))
        (if (local.get $fb)
          (then
            ;; G = σ(y), y = w0 − κ(θ_j − b̃_i) = α_j + β_i with α_j = w0 − κθ_j and
            ;; β_i = κb̃_i, so e^−y = ea[j] · eb[i], both exponentials taken once per
            ;; evaluation by the caller, which shifts both by the middle of the α range
            ;; (GATE_LIMIT, gateFactor in engine.ts: a factor may be 0 or +∞, never both).
            (local.set $bt (f64.load (i32.add (local.get $pBt) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $G (if (result f64) (local.get $cellG)
              (then (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $q) (i32.const 3)))))
              (else (f64.div (f64.const 1) (f64.add (f64.const 1)
              (if (result f64) (local.get $direct)
                (then (call $expNeg (f64.add (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j) (i32.const 3))))
                  (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3)))))))
                (else (f64.mul (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j) (i32.const 3))))
                  (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3))))))))))))))
        (local.set $thetaV (f64x2.splat (local.get $theta)))
        (local.set $sV (f64x2.splat (local.get $s)))
        (local.set $GV (f64x2.splat (local.get $G)))
        (local.set $omGV (f64x2.splat (f64.sub (f64.const 1) (local.get $G))))
        ;; Two cells of one item at once, as in "option32" below: cell q+1 (LLM j2)
        ;; beside cell q (LLM j), sharing the item's loads and gradient stores, with
        ;; the two chains of dependent operations interleaved. Same arithmetic per
        ;; cell as below, except that the pair's two logs are taken together.
        (if (i32.and
              (i32.lt_u (i32.add (local.get $q) (i32.const 1)) (local.get $n))
              (i32.eq (i32.load (i32.add (local.get $pI) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2))))
                (local.get $i)))
          (then
            (local.set $j2 (i32.load (i32.add (local.get $pJ) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2)))))
            (local.set $tq2 (i32.add (local.get $tq) (local.get $rowT)))
            (local.set $dj2 (i32.add (local.get $pNat)
              (i32.add (i32.shl (local.get $oDelta) (i32.const 3)) (i32.mul (local.get $j2) (local.get $rowB)))))
            (local.set $rj2 (i32.add (local.get $pNat)
              (i32.add (i32.shl (local.get $oRho) (i32.const 3)) (i32.mul (local.get $j2) (local.get $rowB)))))
            (local.set $theta2 (f64.load (i32.add (local.get $pNat)
              (i32.shl (i32.add (local.get $oTheta) (local.get $j2)) (i32.const 3)))))
            (if (local.get $sharp)
              (then (local.set $s2 (f64.load (i32.add (local.get $pNat)
                (i32.shl (i32.add (local.get $oS) (local.get $j2)) (i32.const 3)))))))
            (if (local.get $fb)
              (then
                (local.set $G2 (if (result f64) (local.get $cellG)
              (then (f64.load (i32.add (local.get $pEa) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 3)))))
              (else (f64.div (f64.const 1) (f64.add (f64.const 1)
                  (if (result f64) (local.get $direct)
                    (then (call $expNeg (f64.add (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j2) (i32.const 3))))
                      (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3)))))))
                    (else (f64.mul (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j2) (i32.const 3))))
                      (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3))))))))))))))
            (local.set $thetaV2 (f64x2.splat (local.get $theta2)))
            (local.set $sV2 (f64x2.splat (local.get $s2)))
            (local.set $GV2 (f64x2.splat (local.get $G2)))
            (local.set $omGV2 (f64x2.splat (f64.sub (f64.const 1) (local.get $G2))))
            ;; pass 1, both cells
            (local.set $mV (v128.const f64x2 -inf -inf))
            (local.set $mV2 (v128.const f64x2 -inf -inf))
            (local.set $kf (v128.const f64x2 0 1))
            (local.set $kb (i32.const 0))
            (loop $p1
              (local.set $mask (f64x2.lt (local.get $kf) (local.get $KV)))
              (local.set $aV (v128.load (i32.add (local.get $ai) (local.get $kb))))
              (local.set $cV (v128.load (i32.add (local.get $ci) (local.get $kb))))
              (local.set $vv (f64x2.add (f64x2.mul (local.get $aV) (local.get $thetaV)) (local.get $cV)))
              (local.set $vv2 (f64x2.add (f64x2.mul (local.get $aV) (local.get $thetaV2)) (local.get $cV)))
              (if (local.get $pos)
                (then
                  (local.set $vv (f64x2.add (local.get $vv) (v128.load (i32.add (local.get $dj) (local.get $kb)))))
                  (local.set $vv2 (f64x2.add (local.get $vv2) (v128.load (i32.add (local.get $dj2) (local.get $kb)))))))
              (v128.store (i32.add (local.get $scrV) (local.get $kb)) (local.get $vv))
              (v128.store (i32.add (local.get $scrV2) (local.get $kb)) (local.get $vv2))
              (local.set $z (f64x2.mul (local.get $vv) (local.get $sV)))
              (local.set $z2 (f64x2.mul (local.get $vv2) (local.get $sV2)))
              (if (local.get $fb)
                (then
                  (local.set $z (f64x2.add (f64x2.mul (local.get $z) (local.get $omGV))
                    (f64x2.mul (v128.load (i32.add (local.get $rj) (local.get $kb))) (local.get $GV))))
                  (local.set $z2 (f64x2.add (f64x2.mul (local.get $z2) (local.get $omGV2))
                    (f64x2.mul (v128.load (i32.add (local.get $rj2) (local.get $kb))) (local.get $GV2))))))
              (v128.store (i32.add (local.get $scrZ) (local.get $kb)) (local.get $z))
              (v128.store (i32.add (local.get $scrZ2) (local.get $kb)) (local.get $z2))
              (local.set $mV (f64x2.pmax (local.get $mV) (v128.bitselect (local.get $z) (v128.const f64x2 -inf -inf) (local.get $mask))))
              (local.set $mV2 (f64x2.pmax (local.get $mV2) (v128.bitselect (local.get $z2) (v128.const f64x2 -inf -inf) (local.get $mask))))
              (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $p1 (i32.lt_u (local.get $kb) (local.get $KB))))
            (local.set $mV (f64x2.splat (f64.max (f64x2.extract_lane 0 (local.get $mV)) (f64x2.extract_lane 1 (local.get $mV)))))
            (local.set $mV2 (f64x2.splat (f64.max (f64x2.extract_lane 0 (local.get $mV2)) (f64x2.extract_lane 1 (local.get $mV2)))))
            ;; pass 2, both cells
            (local.set $esV (v128.const f64x2 0 0))
            (local.set $tsV (v128.const f64x2 0 0))
            (local.set $tzV (v128.const f64x2 0 0))
            (local.set $esV2 (v128.const f64x2 0 0))
            (local.set $tsV2 (v128.const f64x2 0 0))
            (local.set $tzV2 (v128.const f64x2 0 0))
            (local.set $kf (v128.const f64x2 0 1))
            (local.set $kb (i32.const 0))
            (loop $p2
              (local.set $mask (f64x2.lt (local.get $kf) (local.get $KV)))
              (local.set $x (f64x2.sub (v128.load (i32.add (local.get $scrZ) (local.get $kb))) (local.get $mV)))
              (local.set $x2 (f64x2.sub (v128.load (i32.add (local.get $scrZ2) (local.get $kb))) (local.get $mV2)))

              (local.set $xc (f64x2.pmax (local.get $x) (v128.const f64x2 -708 -708)))
              (local.set $sh (f64x2.add
                (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
                (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $r (f64x2.sub
                (f64x2.sub (local.get $xc) (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
                (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
              (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
              (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
              (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
              (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
              (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
              (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
              (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
              (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
              (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
              (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
              (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
              (local.set $p (f64x2.add
                (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
                (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
              (local.set $p (v128.andnot
                (f64x2.mul (local.get $p)
                  (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
                (f64x2.lt (local.get $x) (v128.const f64x2 -708 -708))))
              (local.set $e (v128.and (local.get $p) (local.get $mask)))

              (local.set $xcB (f64x2.pmax (local.get $x2) (v128.const f64x2 -708 -708)))
              (local.set $shB (f64x2.add
                (f64x2.mul (local.get $xcB) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
                (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $enB (f64x2.sub (local.get $shB) (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $rB (f64x2.sub
                (f64x2.sub (local.get $xcB) (f64x2.mul (local.get $enB) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
                (f64x2.mul (local.get $enB) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
              (local.set $r2B (f64x2.mul (local.get $rB) (local.get $rB)))
              (local.set $r4B (f64x2.mul (local.get $r2B) (local.get $r2B)))
              (local.set $q0B (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $rB) (v128.const f64x2 1 1))))
              (local.set $q1B (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $rB) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
              (local.set $q2B (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $rB) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
              (local.set $q3B (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $rB) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
              (local.set $q4B (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $rB) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
              (local.set $q5B (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $rB) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
              (local.set $q0B (f64x2.add (local.get $q0B) (f64x2.mul (local.get $r2B) (local.get $q1B))))
              (local.set $q2B (f64x2.add (local.get $q2B) (f64x2.mul (local.get $r2B) (local.get $q3B))))
              (local.set $q4B (f64x2.add (local.get $q4B) (f64x2.mul (local.get $r2B) (local.get $q5B))))
              (local.set $pB (f64x2.add
                (f64x2.add (local.get $q0B) (f64x2.mul (local.get $r4B) (local.get $q2B)))
                (f64x2.mul (f64x2.mul (local.get $r4B) (local.get $r4B)) (local.get $q4B))))
              (local.set $pB (v128.andnot
                (f64x2.mul (local.get $pB)
                  (i64x2.shl (i64x2.add (local.get $shB) (v128.const i64x2 1023 1023)) (i32.const 52)))
                (f64x2.lt (local.get $x2) (v128.const f64x2 -708 -708))))
              (local.set $e2 (v128.and (local.get $pB) (local.get $mask)))
              (v128.store (i32.add (local.get $scrE) (local.get $kb)) (local.get $e))
              (v128.store (i32.add (local.get $scrE2) (local.get $kb)) (local.get $e2))
              (local.set $tv (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $tq) (i32.shr_u (local.get $kb) (i32.const 1))))))
              (local.set $tv2 (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $tq2) (i32.shr_u (local.get $kb) (i32.const 1))))))
              (local.set $esV (f64x2.add (local.get $esV) (local.get $e)))
              (local.set $esV2 (f64x2.add (local.get $esV2) (local.get $e2)))
              (local.set $tsV (f64x2.add (local.get $tsV) (local.get $tv)))
              (local.set $tsV2 (f64x2.add (local.get $tsV2) (local.get $tv2)))
              (local.set $tzV (f64x2.add (local.get $tzV) (f64x2.mul (local.get $tv) (local.get $x))))
              (local.set $tzV2 (f64x2.add (local.get $tzV2) (f64x2.mul (local.get $tv2) (local.get $x2))))
              (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $p2 (i32.lt_u (local.get $kb) (local.get $KB))))
            ;; (Σe, Σt) of the two cells, lane by cell, and both logs in one call
            (local.set $sum2 (f64x2.replace_lane 1 (f64x2.splat (f64.add (f64x2.extract_lane 0 (local.get $esV)) (f64x2.extract_lane 1 (local.get $esV)))) (f64.add (f64x2.extract_lane 0 (local.get $esV2)) (f64x2.extract_lane 1 (local.get $esV2)))))
            (local.set $ts2 (f64x2.replace_lane 1 (f64x2.splat (f64.add (f64x2.extract_lane 0 (local.get $tsV)) (f64x2.extract_lane 1 (local.get $tsV)))) (f64.add (f64x2.extract_lane 0 (local.get $tsV2)) (f64x2.extract_lane 1 (local.get $tsV2)))))
            (local.set $ce (f64.sub (local.get $ce) (f64.add (f64x2.extract_lane 0 (local.get $tzV)) (f64x2.extract_lane 1 (local.get $tzV)))))
            (local.set $ce (f64.sub (local.get $ce) (f64.add (f64x2.extract_lane 0 (local.get $tzV2)) (f64x2.extract_lane 1 (local.get $tzV2)))))
            (local.set $lv (f64x2.mul (local.get $ts2) (call $logv (local.get $sum2))))
            (local.set $ce (f64.add (local.get $ce) (f64.add (f64x2.extract_lane 0 (local.get $lv)) (f64x2.extract_lane 1 (local.get $lv)))))
            (if (local.get $wantGrad)
              (then
                (local.set $lv (f64x2.div (local.get $ts2) (local.get $sum2)))
                (local.set $coef (f64x2.splat (f64x2.extract_lane 0 (local.get $lv))))
                (local.set $coef2 (f64x2.splat (f64x2.extract_lane 1 (local.get $lv))))
                (local.set $gGV (v128.const f64x2 0 0))
                (local.set $gsV (v128.const f64x2 0 0))
                (local.set $gthV (v128.const f64x2 0 0))
                (local.set $gGV2 (v128.const f64x2 0 0))
                (local.set $gsV2 (v128.const f64x2 0 0))
                (local.set $gthV2 (v128.const f64x2 0 0))
                (local.set $kb (i32.const 0))
                (loop $p3
                  (local.set $e (f64x2.sub
                    (f64x2.mul (local.get $coef) (v128.load (i32.add (local.get $scrE) (local.get $kb))))
                    (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $tq) (i32.shr_u (local.get $kb) (i32.const 1)))))))
                  (local.set $e2 (f64x2.sub
                    (f64x2.mul (local.get $coef2) (v128.load (i32.add (local.get $scrE2) (local.get $kb))))
                    (f64x2.promote_low_f32x4 (v128.load64_zero (i32.add (local.get $tq2) (i32.shr_u (local.get $kb) (i32.const 1)))))))
                  (local.set $vv (v128.load (i32.add (local.get $scrV) (local.get $kb))))
                  (local.set $vv2 (v128.load (i32.add (local.get $scrV2) (local.get $kb))))
                  (local.set $gu (local.get $e))
                  (local.set $gu2 (local.get $e2))
                  (if (local.get $fb)
                    (then
                      (local.set $rho (v128.load (i32.add (local.get $rj) (local.get $kb))))
                      (local.set $rho2 (v128.load (i32.add (local.get $rj2) (local.get $kb))))
                      (local.set $gGV (f64x2.add (local.get $gGV) (f64x2.mul (local.get $e)
                        (f64x2.sub (local.get $rho) (f64x2.mul (local.get $vv) (local.get $sV))))))
                      (local.set $gGV2 (f64x2.add (local.get $gGV2) (f64x2.mul (local.get $e2)
                        (f64x2.sub (local.get $rho2) (f64x2.mul (local.get $vv2) (local.get $sV2))))))

                      (local.set $addr (i32.add (i32.add (local.get $rj) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (f64x2.mul (local.get $e) (local.get $GV))))

                      (local.set $addr (i32.add (i32.add (local.get $rj2) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (f64x2.mul (local.get $e2) (local.get $GV2))))
                      (local.set $gu (f64x2.mul (local.get $e) (local.get $omGV)))
                      (local.set $gu2 (f64x2.mul (local.get $e2) (local.get $omGV2)))))
                  (local.set $gsV (f64x2.add (local.get $gsV) (f64x2.mul (local.get $gu) (local.get $vv))))
                  (local.set $gsV2 (f64x2.add (local.get $gsV2) (f64x2.mul (local.get $gu2) (local.get $vv2))))
                  (local.set $gv (f64x2.mul (local.get $gu) (local.get $sV)))
                  (local.set $gv2 (f64x2.mul (local.get $gu2) (local.get $sV2)))
                  (local.set $aV (v128.load (i32.add (local.get $ai) (local.get $kb))))
                  (local.set $gthV (f64x2.add (local.get $gthV) (f64x2.mul (local.get $gv) (local.get $aV))))
                  (local.set $gthV2 (f64x2.add (local.get $gthV2) (f64x2.mul (local.get $gv2) (local.get $aV))))

                      (local.set $addr (i32.add (i32.add (local.get $ai) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (f64x2.add (f64x2.mul (local.get $gv) (local.get $thetaV)) (f64x2.mul (local.get $gv2) (local.get $thetaV2)))))

                      (local.set $addr (i32.add (i32.add (local.get $ci) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (f64x2.add (local.get $gv) (local.get $gv2))))
                  (if (local.get $pos)
                    (then

                      (local.set $addr (i32.add (i32.add (local.get $dj) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (local.get $gv)))

                      (local.set $addr (i32.add (i32.add (local.get $dj2) (local.get $kb)) (local.get $gOff)))
                      (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (local.get $gv2)))))
                  (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
                  (br_if $p3 (i32.lt_u (local.get $kb) (local.get $KB))))

                (local.set $gtheta (f64.add (f64x2.extract_lane 0 (local.get $gthV)) (f64x2.extract_lane 1 (local.get $gthV))))
                (if (local.get $fb)
                  (then
                    (local.set $gt (f64.mul (f64.add (f64x2.extract_lane 0 (local.get $gGV)) (f64x2.extract_lane 1 (local.get $gGV)))
                      (f64.mul (local.get $G) (f64.sub (f64.const 1) (local.get $G)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (local.get $q) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                    (local.set $gkappa (f64.sub (local.get $gkappa)
                      (f64.mul (local.get $gt) (f64.sub (local.get $theta) (local.get $bt)))))
                    (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                    (local.set $addr (i32.add (local.get $pGbt) (i32.shl (local.get $i) (i32.const 3))))
                    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr))
                      (f64.mul (local.get $gt) (local.get $kappa))))))))
                (if (local.get $sharp)
                  (then
                    (local.set $addr (i32.add (local.get $pGrad)
                      (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 3))))
                    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (f64.add (f64x2.extract_lane 0 (local.get $gsV)) (f64x2.extract_lane 1 (local.get $gsV)))))))
                (local.set $addr (i32.add (local.get $pGrad)
                  (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3))))
                (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))

                (local.set $gtheta (f64.add (f64x2.extract_lane 0 (local.get $gthV2)) (f64x2.extract_lane 1 (local.get $gthV2))))
                (if (local.get $fb)
                  (then
                    (local.set $gt (f64.mul (f64.add (f64x2.extract_lane 0 (local.get $gGV2)) (f64x2.extract_lane 1 (local.get $gGV2)))
                      (f64.mul (local.get $G2) (f64.sub (f64.const 1) (local.get $G2)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                    (local.set $gkappa (f64.sub (local.get $gkappa)
                      (f64.mul (local.get $gt) (f64.sub (local.get $theta2) (local.get $bt)))))
                    (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                    (local.set $addr (i32.add (local.get $pGbt) (i32.shl (local.get $i) (i32.const 3))))
                    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr))
                      (f64.mul (local.get $gt) (local.get $kappa))))))))
                (if (local.get $sharp)
                  (then
                    (local.set $addr (i32.add (local.get $pGrad)
                      (i32.shl (i32.add (local.get $oS) (local.get $j2)) (i32.const 3))))
                    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (f64.add (f64x2.extract_lane 0 (local.get $gsV2)) (f64x2.extract_lane 1 (local.get $gsV2)))))))
                (local.set $addr (i32.add (local.get $pGrad)
                  (i32.shl (i32.add (local.get $oTheta) (local.get $j2)) (i32.const 3))))
                (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))))
            (local.set $q (i32.add (local.get $q) (i32.const 2)))
            (local.set $tq (i32.add (local.get $tq2) (local.get $rowT)))
            (br $cell)))
        ;; pass 1: v = aθ + c (+ δ), u = s·v, z = (1 − G)u + Gρ; keep v and z; max z.
        (local.set $mV (v128.const f64x2 -inf -inf))
        (local.set $kf (v128.const f64x2 0 1))
        (local.set $kb (i32.const 0))
        (loop $k1
          (local.set $vv (f64x2.add
            (f64x2.mul (v128.load (i32.add (local.get $ai) (local.get $kb))) (local.get $thetaV))
            (v128.load (i32.add (local.get $ci) (local.get $kb)))))
          (if (local.get $pos)
            (then (local.set $vv
              (f64x2.add (local.get $vv) (v128.load (i32.add (local.get $dj) (local.get $kb)))))))
          (v128.store (i32.add (local.get $scrV) (local.get $kb)) (local.get $vv))
          (local.set $z (f64x2.mul (local.get $vv) (local.get $sV)))
          (if (local.get $fb)
            (then (local.set $z (f64x2.add
              (f64x2.mul (local.get $z) (local.get $omGV))
              (f64x2.mul (v128.load (i32.add (local.get $rj) (local.get $kb))) (local.get $GV))))))
          (v128.store (i32.add (local.get $scrZ) (local.get $kb)) (local.get $z))
          (local.set $mV (f64x2.pmax (local.get $mV)
            (v128.bitselect (local.get $z) (v128.const f64x2 -inf -inf)
              (f64x2.lt (local.get $kf) (local.get $KV)))))
          (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
          (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
          (br_if $k1 (i32.lt_u (local.get $kb) (local.get $KB))))
        (local.set $m (f64.max (f64x2.extract_lane 0 (local.get $mV)) (f64x2.extract_lane 1 (local.get $mV))))
        (local.set $mV (f64x2.splat (local.get $m)))
        ;; pass 2: e = exp(z − m) (kept), Σe, Σt, Σt(z − m).
        (local.set $esV (v128.const f64x2 0 0))
        (local.set $tsV (v128.const f64x2 0 0))
        (local.set $tzV (v128.const f64x2 0 0))
        (local.set $kf (v128.const f64x2 0 1))
        (local.set $kb (i32.const 0))
        (loop $k2
          (local.set $mask (f64x2.lt (local.get $kf) (local.get $KV)))
          (local.set $x (f64x2.sub (v128.load (i32.add (local.get $scrZ) (local.get $kb))) (local.get $mV)))
          ;; e = exp(x), $expv inline; padding lanes masked to 0
          ;; x = n·ln2 + r: sh = x·log2e + 1.5·2^52 rounds n into sh's low mantissa bits
          (local.set $xc (f64x2.pmax (local.get $x) (v128.const f64x2 -708 -708)))
          (local.set $sh (f64x2.add
            (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
            (v128.const f64x2 6755399441055744 6755399441055744)))
          (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
          (local.set $r (f64x2.sub
            (f64x2.sub (local.get $xc)
              (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
            (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
          ;; e^r: Taylor polynomial of degree 11 (1/k!), Estrin's scheme for a short dependency chain
          (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
          (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
          (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
          (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
          (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
          (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
          (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
          (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
          (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
          (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
          (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
          (local.set $p (f64x2.add
            (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
            (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
          ;; · 2^n, whose bits are (n + 1023) << 52; zero where x < −708 (and for −∞)
          (local.set $p (v128.andnot
            (f64x2.mul (local.get $p)
              (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
            (f64x2.lt (local.get $x) (v128.const f64x2 -708 -708))))
          (local.set $e (v128.and (local.get $p) (local.get $mask)))
          (v128.store (i32.add (local.get $scrE) (local.get $kb)) (local.get $e))
          (local.set $tv (f64x2.promote_low_f32x4
            (v128.load64_zero (i32.add (local.get $tq) (i32.shr_u (local.get $kb) (i32.const 1))))))
          (local.set $esV (f64x2.add (local.get $esV) (local.get $e)))
          (local.set $tsV (f64x2.add (local.get $tsV) (local.get $tv)))
          (local.set $tzV (f64x2.add (local.get $tzV) (f64x2.mul (local.get $tv) (local.get $x))))
          (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
          (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
          (br_if $k2 (i32.lt_u (local.get $kb) (local.get $KB))))
        (local.set $sum (f64.add (f64x2.extract_lane 0 (local.get $esV)) (f64x2.extract_lane 1 (local.get $esV))))
        (local.set $tsum (f64.add (f64x2.extract_lane 0 (local.get $tsV)) (f64x2.extract_lane 1 (local.get $tsV))))
        ;; Σ_k t_k (lse − z_k) = tsum · log Σe − Σ t_k (z_k − m). The logs are taken
        ;; two cells at a time, off the critical path: a cell's (Σe, tsum) waits in
        ;; $pendSum/$pendTs for the next cell's.
        (local.set $ce (f64.sub (local.get $ce)
          (f64.add (f64x2.extract_lane 0 (local.get $tzV)) (f64x2.extract_lane 1 (local.get $tzV)))))
        (if (local.get $pending)
          (then
            (local.set $lv (call $logv
              (f64x2.replace_lane 1 (f64x2.splat (local.get $pendSum)) (local.get $sum))))
            (local.set $ce (f64.add (local.get $ce) (f64.add
              (f64.mul (local.get $pendTs) (f64x2.extract_lane 0 (local.get $lv)))
              (f64.mul (local.get $tsum) (f64x2.extract_lane 1 (local.get $lv))))))
            (local.set $pending (i32.const 0)))
          (else
            (local.set $pendSum (local.get $sum))
            (local.set $pendTs (local.get $tsum))
            (local.set $pending (i32.const 1))))
        (if (local.get $wantGrad)
          (then
            ;; pass 3: ∂CE/∂z_k = tsum · e_k / Σe − t_k, then the chain rule.
            (local.set $coef (f64x2.splat (f64.div (local.get $tsum) (local.get $sum))))
            (local.set $gGV (v128.const f64x2 0 0))
            (local.set $gsV (v128.const f64x2 0 0))
            (local.set $gthV (v128.const f64x2 0 0))
            (local.set $kb (i32.const 0))
            (loop $k3
              (local.set $tv (f64x2.promote_low_f32x4
                (v128.load64_zero (i32.add (local.get $tq) (i32.shr_u (local.get $kb) (i32.const 1))))))
              (local.set $e (f64x2.sub
                (f64x2.mul (local.get $coef) (v128.load (i32.add (local.get $scrE) (local.get $kb))))
                (local.get $tv)))
              (local.set $vv (v128.load (i32.add (local.get $scrV) (local.get $kb))))
              (local.set $gu (local.get $e))
              (if (local.get $fb)
                (then
                  (local.set $addr (i32.add (local.get $rj) (local.get $kb)))
                  (local.set $rho (v128.load (local.get $addr)))
                  (local.set $gGV (f64x2.add (local.get $gGV) (f64x2.mul (local.get $e)
                    (f64x2.sub (local.get $rho) (f64x2.mul (local.get $vv) (local.get $sV))))))
                  (local.set $addr (i32.add (local.get $addr) (local.get $gOff)))
                  (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr))
                    (f64x2.mul (local.get $e) (local.get $GV))))
                  (local.set $gu (f64x2.mul (local.get $e) (local.get $omGV)))))
              (local.set $gsV (f64x2.add (local.get $gsV) (f64x2.mul (local.get $gu) (local.get $vv))))
              (local.set $gv (f64x2.mul (local.get $gu) (local.get $sV)))
              (local.set $addr (i32.add (local.get $ai) (local.get $kb)))
              (local.set $aV (v128.load (local.get $addr)))
              (local.set $gthV (f64x2.add (local.get $gthV) (f64x2.mul (local.get $gv) (local.get $aV))))
              (local.set $addr (i32.add (local.get $addr) (local.get $gOff)))
              (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr))
                (f64x2.mul (local.get $gv) (local.get $thetaV))))
              (local.set $addr (i32.add (i32.add (local.get $ci) (local.get $kb)) (local.get $gOff)))
              (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (local.get $gv)))
              (if (local.get $pos)
                (then
                  (local.set $addr (i32.add (i32.add (local.get $dj) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (local.get $gv)))))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $k3 (i32.lt_u (local.get $kb) (local.get $KB))))
            (local.set $gtheta (f64.add (f64x2.extract_lane 0 (local.get $gthV)) (f64x2.extract_lane 1 (local.get $gthV))))
            (if (local.get $fb)
              (then
                (local.set $gt (f64.mul (f64.add (f64x2.extract_lane 0 (local.get $gGV)) (f64x2.extract_lane 1 (local.get $gGV)))
                  (f64.mul (local.get $G) (f64.sub (f64.const 1) (local.get $G)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (local.get $q) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                (local.set $gkappa (f64.sub (local.get $gkappa)
                  (f64.mul (local.get $gt) (f64.sub (local.get $theta) (local.get $bt)))))
                (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                (local.set $addr (i32.add (local.get $pGbt) (i32.shl (local.get $i) (i32.const 3))))
                (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr))
                  (f64.mul (local.get $gt) (local.get $kappa))))))))
            (if (local.get $sharp)
              (then
                (local.set $addr (i32.add (local.get $pGrad)
                  (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 3))))
                (f64.store (local.get $addr)
                  (f64.add (f64.load (local.get $addr)) (f64.add (f64x2.extract_lane 0 (local.get $gsV)) (f64x2.extract_lane 1 (local.get $gsV)))))))
            (local.set $addr (i32.add (local.get $pGrad)
              (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3))))
            (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (local.set $tq (i32.add (local.get $tq) (local.get $rowT)))
        (br $cell)))
    (if (local.get $pending)
      (then
        (local.set $ce (f64.add (local.get $ce) (f64.mul (local.get $pendTs)
          (f64x2.extract_lane 0 (call $logv (f64x2.splat (local.get $pendSum)))))))))
    (if (local.get $wantGrad)
      (then
        (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oW0) (i32.const 3))))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gw0)))
        (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oKappa) (i32.const 3))))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gkappa)))))
    (local.get $ce))

  ;; ---------------------------------------------------------------------------
  ;; The float32 kernel: the same function as "option" with four options per
  ;; f32x4, for passes where round-off of about 1e-7 relative per cell is
  ;; acceptable (engine.ts says which). What stays float64: θ_j, s_j, the gate
  ;; (read from the float64 nat and demoted per cell), each cell's log Σe (two
  ;; cells per f64x2, $logv above), the CE sum, and the gradients of θ, s, w0, κ
  ;; and b̃. What is float32: a, c, δ, ρ (a float32 copy of nat at $pNat32),
  ;; z, e^(z−m), the per-cell sums, and the gradients of a, c, δ, ρ, which are
  ;; ADDED into the float32 array at $pGrad32 (the caller zeroes it) at the same
  ;; offsets as in nat. Padding lanes as in "option": lanes k ≥ K are masked, and
  ;; their stores add +0 to a neighbouring slot (every array is followed by 16
  ;; bytes of zeros).
  ;;
  ;; e^x in float32 for x ≤ 0: x = n·ln2 + r, n = round(x/ln2) (by adding 1.5·2^23),
  ;; ln2 = 0.693359375 − 2.12194440e-4 (Cody–Waite; n·ln2_hi is exact for |n| < 2^8),
  ;; e^r ≈ 1 + r + r²·P(r), P of degree 3 fitted for the least maximum relative
  ;; error on |r| ≤ ln2/2 (Lawson's weighted least squares, coefficients rounded
  ;; to float32): 1.06e-7 relative, about float32's rounding; bound tested with
  ;; rounding (wasm.test.ts): 4e-7 relative on [−87, 0]. exp(x) = 0 for x < −87 (true value below 1.7e-38), NaN stays NaN.
  (func $exp32 (param $x v128) (result v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $r2 v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128)
    (local.set $xc (f32x4.pmax (local.get $x) (v128.const f32x4 -87 -87 -87 -87)))
    (local.set $sh (f32x4.add
      (f32x4.mul (local.get $xc) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504))
      (v128.const f32x4 12582912 12582912 12582912 12582912)))
    (local.set $en (f32x4.sub (local.get $sh) (v128.const f32x4 12582912 12582912 12582912 12582912)))
    (local.set $r (f32x4.sub
      (f32x4.sub (local.get $xc)
        (f32x4.mul (local.get $en) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
      (f32x4.mul (local.get $en) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
    ;; 1 + r + r²·(c0 + c1·r + r²·(c2 + c3·r)), Estrin
    (local.set $r2 (f32x4.mul (local.get $r) (local.get $r)))
    (local.set $q1 (f32x4.add (v128.const f32x4 0.499992311 0.499992311 0.499992311 0.499992311)
      (f32x4.mul (local.get $r) (v128.const f32x4 0.166671142 0.166671142 0.166671142 0.166671142))))
    (local.set $q2 (f32x4.add (v128.const f32x4 0.0418901145 0.0418901145 0.0418901145 0.0418901145)
      (f32x4.mul (local.get $r) (v128.const f32x4 0.00831252523 0.00831252523 0.00831252523 0.00831252523))))
    (local.set $q0 (f32x4.add (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $r))
      (f32x4.mul (local.get $r2) (f32x4.add (local.get $q1) (f32x4.mul (local.get $r2) (local.get $q2))))))
    ;; · 2^n, whose bits are (n + 127) << 23; zero where x < −87 (and for −∞)
    (v128.andnot
      (f32x4.mul (local.get $q0)
        (i32x4.shl (i32x4.add (local.get $sh) (v128.const i32x4 127 127 127 127)) (i32.const 23)))
      (f32x4.lt (local.get $x) (v128.const f32x4 -87 -87 -87 -87))))

  (func (export "exp32") (param $x f32) (result f32)
    (f32x4.extract_lane 0 (call $exp32 (f32x4.splat (local.get $x)))))

  ;; ln x in float32 for each lane, x positive and normal: x = 2^e · m,
  ;; m ∈ [√½, √2), ln m = 2·atanh(r), r = (m − 1)/(m + 1), |r| ≤ 0.1716, series
  ;; through r^9/9; truncation 2·|r|^11/11 / (1 − r²) < 7.2e-10, so float32 rounding
  ;; dominates; bound tested (wasm.test.ts): 4e-7 absolute on [1, 256] (where the
  ;; float32 kernel's softmax sums lie; measured 3.1e-7, half an ulp of ln 256). The kernel has this code inline.
  (func $log32 (param $lx v128) (result v128)
    (local $le v128) (local $lm v128) (local $lc v128) (local $lr v128) (local $lw v128) (local $lp v128)
    (local.set $le (f32x4.convert_i32x4_s (i32x4.sub
      (i32x4.shr_u (local.get $lx) (i32.const 23)) (v128.const i32x4 127 127 127 127))))
    (local.set $lm (v128.or
      (v128.and (local.get $lx) (v128.const i32x4 0x007FFFFF 0x007FFFFF 0x007FFFFF 0x007FFFFF))
      (v128.const i32x4 0x3F800000 0x3F800000 0x3F800000 0x3F800000)))
    (local.set $lc (f32x4.gt (local.get $lm) (v128.const f32x4 1.41421356 1.41421356 1.41421356 1.41421356)))
    (local.set $lm (v128.bitselect (f32x4.mul (local.get $lm) (v128.const f32x4 0.5 0.5 0.5 0.5)) (local.get $lm) (local.get $lc)))
    (local.set $le (f32x4.add (local.get $le) (v128.and (local.get $lc) (v128.const f32x4 1 1 1 1))))
    (local.set $lr (f32x4.div
      (f32x4.sub (local.get $lm) (v128.const f32x4 1 1 1 1)) (f32x4.add (local.get $lm) (v128.const f32x4 1 1 1 1))))
    (local.set $lw (f32x4.mul (local.get $lr) (local.get $lr)))
    ;; 2 + w(2/3 + w(2/5 + w(2/7 + w·2/9))), Horner
    (local.set $lp (f32x4.add (v128.const f32x4 0.285714286 0.285714286 0.285714286 0.285714286)
      (f32x4.mul (local.get $lw) (v128.const f32x4 0.222222222 0.222222222 0.222222222 0.222222222))))
    (local.set $lp (f32x4.add (v128.const f32x4 0.4 0.4 0.4 0.4) (f32x4.mul (local.get $lw) (local.get $lp))))
    (local.set $lp (f32x4.add (v128.const f32x4 0.666666667 0.666666667 0.666666667 0.666666667) (f32x4.mul (local.get $lw) (local.get $lp))))
    (local.set $lp (f32x4.add (v128.const f32x4 2 2 2 2) (f32x4.mul (local.get $lw) (local.get $lp))))
    (local.set $lx (f32x4.add
      (f32x4.mul (local.get $le) (v128.const f32x4 0.693147181 0.693147181 0.693147181 0.693147181))
      (f32x4.mul (local.get $lp) (local.get $lr))))
    (local.get $lx))

  ;; Σ over the four lanes of t · ln s, in float32, promoted: the float32 kernel's
  ;; batched log term (lanes not yet filled hold s = 1, t = 0 and add 0).
  (func $logTerms (param $s v128) (param $t v128) (result f64)
    (local $v v128)
    (local.set $v (f32x4.mul (call $log32 (local.get $s)) (local.get $t)))
    (f64.promote_f32 (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $v)) (f32x4.extract_lane 1 (local.get $v)))
      (f32.add (f32x4.extract_lane 2 (local.get $v)) (f32x4.extract_lane 3 (local.get $v))))))

  (func (export "log32") (param $x f32) (result f32)
    (f32x4.extract_lane 0 (call $log32 (f32x4.splat (local.get $x)))))

  ;; CE over cells [0, n), float32 as described above; arguments as "option",
  ;; plus the float32 copy of nat and the float32 gradient of a, c, δ, ρ.
  (func (export "option32")
    (param $n i32) (param $Kmax i32) (param $flags i32) (param $wantGrad i32)
    (param $pJ i32) (param $pI i32) (param $pT i32) (param $pK i32)
    (param $pNat i32) (param $pGrad i32) (param $pNat32 i32) (param $pGrad32 i32)
    (param $pBt i32) (param $pEa i32) (param $pEb i32) (param $pGbt i32)
    (param $pScr i32)
    (param $oTheta i32) (param $oS i32) (param $oDelta i32) (param $oRho i32)
    (param $oA i32) (param $oC i32) (param $oW0 i32) (param $oKappa i32)
    (result f64)
    (local $sharp i32) (local $pos i32) (local $fb i32) (local $direct i32) (local $cellG i32) (local $gOff i32)
    (local $rowB i32) (local $q i32) (local $j i32) (local $i i32) (local $KB i32) (local $kb i32)
    (local $ai i32) (local $ci i32) (local $dj i32) (local $rj i32) (local $tq i32) (local $rowT i32)
    (local $scrZ i32) (local $scrV i32) (local $scrE i32) (local $addr i32)
    (local $iPrev i32) (local $pending i32)
    (local $w0 f64) (local $kappa f64) (local $theta f64) (local $bt f64) (local $G f64) (local $gbt f64)
    (local $lsum v128) (local $lts v128) (local $lx v128)
    (local $le v128) (local $lm v128) (local $lc v128) (local $lr v128) (local $lw v128) (local $lp v128)
    (local $ce f64) (local $gt f64) (local $gw0 f64) (local $gkappa f64) (local $gtheta f64)
    (local $thetaV v128) (local $sV v128) (local $GV v128) (local $omGV v128) (local $mV v128)
    (local $kf v128) (local $KV v128) (local $mask v128)
    (local $vv v128) (local $z v128) (local $x v128) (local $e v128) (local $tv v128)
    (local $rho v128) (local $gu v128) (local $gv v128) (local $coef v128)
    (local $esV v128) (local $tsV v128) (local $tzV v128)
    (local $gGV v128) (local $gsV v128) (local $gthV v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $r2 v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $ab v128) (local $c0 v128)
    (local $j2 i32) (local $dj2 i32) (local $rj2 i32) (local $tq2 i32)
    (local $scrZ2 i32) (local $scrV2 i32) (local $scrE2 i32)
    (local $theta2 f64) (local $G2 f64)
    (local $thetaV2 v128) (local $sV2 v128) (local $GV2 v128) (local $omGV2 v128) (local $mV2 v128)
    (local $esV2 v128) (local $tsV2 v128) (local $tzV2 v128) (local $gGV2 v128) (local $gsV2 v128) (local $gthV2 v128)
    (local $vv2 v128) (local $z2 v128) (local $x2 v128) (local $e2 v128) (local $tv2 v128) (local $rho2 v128)
    (local $gu2 v128) (local $gv2 v128) (local $coef2 v128) (local $av v128) (local $cv v128) (local $ab2 v128)
    (local $xcB v128) (local $shB v128) (local $enB v128) (local $rB v128) (local $r2B v128)
    (local $q0B v128) (local $q1B v128) (local $q2B v128)
    (local.set $sharp (i32.and (local.get $flags) (i32.const 1)))
    (local.set $pos (i32.and (local.get $flags) (i32.const 2)))
    (local.set $fb (i32.and (local.get $flags) (i32.const 4)))
    (local.set $direct (i32.and (local.get $flags) (i32.const 8)))
    (local.set $cellG (i32.and (local.get $flags) (i32.const 16)))
    (local.set $gOff (i32.sub (local.get $pGrad32) (local.get $pNat32)))
    (local.set $rowB (i32.shl (local.get $Kmax) (i32.const 2)))
    (local.set $scrZ (local.get $pScr))
    (local.set $scrV (i32.add (local.get $pScr) (i32.const 1024)))
    (local.set $scrE (i32.add (local.get $pScr) (i32.const 2048)))
    ;; the second cell of a pair: z, v, e at 3072, 4096, 5120 (256 options each)
    (local.set $scrZ2 (i32.add (local.get $pScr) (i32.const 3072)))
    (local.set $scrV2 (i32.add (local.get $pScr) (i32.const 4096)))
    (local.set $scrE2 (i32.add (local.get $pScr) (i32.const 5120)))
    (local.set $sV2 (v128.const f32x4 1 1 1 1))
    (local.set $G2 (f64.const 0))
    (local.set $w0 (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oW0) (i32.const 3)))))
    (local.set $kappa
      (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oKappa) (i32.const 3)))))
    (local.set $sV (v128.const f32x4 1 1 1 1))
    (local.set $lsum (v128.const f32x4 1 1 1 1))
    (local.set $G (f64.const 0))
    (local.set $tq (local.get $pT))
    (local.set $rowT (i32.shl (i32.and (i32.add (local.get $Kmax) (i32.const 3)) (i32.const -4)) (i32.const 2)))
    (local.set $iPrev (i32.const -1))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $q) (local.get $n)))
        (local.set $j (i32.load (i32.add (local.get $pJ) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $i (i32.load (i32.add (local.get $pI) (i32.shl (local.get $q) (i32.const 2)))))
        (if (i32.ne (local.get $i) (local.get $iPrev))
          (then
            ;; ∂CE/∂b̃ of the item just finished (cells are item-major)
            ;; (not under a per-cell gate, flag bit 4: pGbt then holds each cell's ∂CE/∂y)
            (if (i32.and (i32.and (local.get $wantGrad) (i32.eqz (local.get $cellG)))
                  (i32.ge_s (local.get $iPrev) (i32.const 0)))
              (then
                (local.set $addr (i32.add (local.get $pGbt) (i32.shl (local.get $iPrev) (i32.const 3))))
                (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gbt)))
                (local.set $gbt (f64.const 0))))
            (local.set $iPrev (local.get $i))
            (local.set $KB
              (i32.shl (i32.load8_u (i32.add (local.get $pK) (local.get $i))) (i32.const 2)))
            (local.set $KV (f32x4.splat (f32.convert_i32_u (i32.shr_u (local.get $KB) (i32.const 2)))))
            (local.set $ai (i32.add (local.get $pNat32)
              (i32.add (i32.shl (local.get $oA) (i32.const 2)) (i32.mul (local.get $i) (local.get $rowB)))))
            (local.set $ci (i32.add (local.get $pNat32)
              (i32.add (i32.shl (local.get $oC) (i32.const 2)) (i32.mul (local.get $i) (local.get $rowB)))))))
        (local.set $dj (i32.add (local.get $pNat32)
          (i32.add (i32.shl (local.get $oDelta) (i32.const 2)) (i32.mul (local.get $j) (local.get $rowB)))))
        (local.set $rj (i32.add (local.get $pNat32)
          (i32.add (i32.shl (local.get $oRho) (i32.const 2)) (i32.mul (local.get $j) (local.get $rowB)))))
        (if (local.get $fb)
          (then
            (local.set $theta (f64.load (i32.add (local.get $pNat)
              (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3)))))
            ;; G = σ(w0 − κ(θ_j − b̃_i)), e^−y = ea[j] · eb[i], as in "option"
            (local.set $bt (f64.load (i32.add (local.get $pBt) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $G (if (result f64) (local.get $cellG)
              (then (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $q) (i32.const 3)))))
              (else (f64.div (f64.const 1) (f64.add (f64.const 1)
              (if (result f64) (local.get $direct)
                (then (call $expNeg (f64.add (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j) (i32.const 3))))
                  (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3)))))))
                (else (f64.mul (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j) (i32.const 3))))
                  (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3))))))))))))))
        (local.set $thetaV (v128.load32_splat (i32.add (local.get $pNat32)
          (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 2)))))
        (if (local.get $sharp)
          (then (local.set $sV (v128.load32_splat (i32.add (local.get $pNat32)
            (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 2)))))))
        (local.set $GV (f32x4.splat (f32.demote_f64 (local.get $G))))
        (local.set $omGV (f32x4.splat (f32.demote_f64 (f64.sub (f64.const 1) (local.get $G)))))
        ;; Two cells of one item at once (cells are item-major, so this is the
        ;; common case): the cell q+1 (LLM j2) runs beside cell q (LLM j), sharing
        ;; the item's a, c loads and gradient stores, and its chain of dependent
        ;; operations (max, exp, sums, the division, the reductions) interleaves
        ;; with q's instead of waiting for it. Same arithmetic per cell as below.
        (if (i32.and
              (i32.lt_u (i32.add (local.get $q) (i32.const 1)) (local.get $n))
              (i32.eq (i32.load (i32.add (local.get $pI) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2))))
                (local.get $i)))
          (then
            (local.set $j2 (i32.load (i32.add (local.get $pJ) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 2)))))
            (local.set $tq2 (i32.add (local.get $tq) (local.get $rowT)))
            (local.set $dj2 (i32.add (local.get $pNat32)
              (i32.add (i32.shl (local.get $oDelta) (i32.const 2)) (i32.mul (local.get $j2) (local.get $rowB)))))
            (local.set $rj2 (i32.add (local.get $pNat32)
              (i32.add (i32.shl (local.get $oRho) (i32.const 2)) (i32.mul (local.get $j2) (local.get $rowB)))))
            (if (local.get $fb)
              (then
                (local.set $theta2 (f64.load (i32.add (local.get $pNat)
                  (i32.shl (i32.add (local.get $oTheta) (local.get $j2)) (i32.const 3)))))
                (local.set $G2 (if (result f64) (local.get $cellG)
              (then (f64.load (i32.add (local.get $pEa) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 3)))))
              (else (f64.div (f64.const 1) (f64.add (f64.const 1)
                  (if (result f64) (local.get $direct)
                    (then (call $expNeg (f64.add (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j2) (i32.const 3))))
                      (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3)))))))
                    (else (f64.mul (f64.load (i32.add (local.get $pEa) (i32.shl (local.get $j2) (i32.const 3))))
                      (f64.load (i32.add (local.get $pEb) (i32.shl (local.get $i) (i32.const 3))))))))))))))
            (local.set $thetaV2 (v128.load32_splat (i32.add (local.get $pNat32)
              (i32.shl (i32.add (local.get $oTheta) (local.get $j2)) (i32.const 2)))))
            (if (local.get $sharp)
              (then (local.set $sV2 (v128.load32_splat (i32.add (local.get $pNat32)
                (i32.shl (i32.add (local.get $oS) (local.get $j2)) (i32.const 2)))))))
            (local.set $GV2 (f32x4.splat (f32.demote_f64 (local.get $G2))))
            (local.set $omGV2 (f32x4.splat (f32.demote_f64 (f64.sub (f64.const 1) (local.get $G2)))))
            ;; pass 1, both cells
            (local.set $mV (v128.const f32x4 -inf -inf -inf -inf))
            (local.set $mV2 (v128.const f32x4 -inf -inf -inf -inf))
            (local.set $kf (v128.const f32x4 0 1 2 3))
            (local.set $kb (i32.const 0))
            (loop $p1
              (local.set $mask (f32x4.lt (local.get $kf) (local.get $KV)))
              (local.set $av (v128.load (i32.add (local.get $ai) (local.get $kb))))
              (local.set $cv (v128.load (i32.add (local.get $ci) (local.get $kb))))
              (local.set $vv (f32x4.add (f32x4.mul (local.get $av) (local.get $thetaV)) (local.get $cv)))
              (local.set $vv2 (f32x4.add (f32x4.mul (local.get $av) (local.get $thetaV2)) (local.get $cv)))
              (if (local.get $pos)
                (then
                  (local.set $vv (f32x4.add (local.get $vv) (v128.load (i32.add (local.get $dj) (local.get $kb)))))
                  (local.set $vv2 (f32x4.add (local.get $vv2) (v128.load (i32.add (local.get $dj2) (local.get $kb)))))))
              (v128.store (i32.add (local.get $scrV) (local.get $kb)) (local.get $vv))
              (v128.store (i32.add (local.get $scrV2) (local.get $kb)) (local.get $vv2))
              (local.set $z (f32x4.mul (local.get $vv) (local.get $sV)))
              (local.set $z2 (f32x4.mul (local.get $vv2) (local.get $sV2)))
              (if (local.get $fb)
                (then
                  (local.set $z (f32x4.add (f32x4.mul (local.get $z) (local.get $omGV))
                    (f32x4.mul (v128.load (i32.add (local.get $rj) (local.get $kb))) (local.get $GV))))
                  (local.set $z2 (f32x4.add (f32x4.mul (local.get $z2) (local.get $omGV2))
                    (f32x4.mul (v128.load (i32.add (local.get $rj2) (local.get $kb))) (local.get $GV2))))))
              (v128.store (i32.add (local.get $scrZ) (local.get $kb)) (local.get $z))
              (v128.store (i32.add (local.get $scrZ2) (local.get $kb)) (local.get $z2))
              (local.set $mV (f32x4.pmax (local.get $mV) (v128.bitselect (local.get $z) (v128.const f32x4 -inf -inf -inf -inf) (local.get $mask))))
              (local.set $mV2 (f32x4.pmax (local.get $mV2) (v128.bitselect (local.get $z2) (v128.const f32x4 -inf -inf -inf -inf) (local.get $mask))))
              (local.set $kf (f32x4.add (local.get $kf) (v128.const f32x4 4 4 4 4)))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $p1 (i32.lt_u (local.get $kb) (local.get $KB))))
            (local.set $mV (f32x4.pmax (local.get $mV) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mV) (local.get $mV))))
            (local.set $mV2 (f32x4.pmax (local.get $mV2) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mV2) (local.get $mV2))))
            (local.set $mV (f32x4.pmax (local.get $mV) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mV) (local.get $mV))))
            (local.set $mV2 (f32x4.pmax (local.get $mV2) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mV2) (local.get $mV2))))
            ;; pass 2, both cells
            (local.set $esV (v128.const f32x4 0 0 0 0))
            (local.set $tsV (v128.const f32x4 0 0 0 0))
            (local.set $tzV (v128.const f32x4 0 0 0 0))
            (local.set $esV2 (v128.const f32x4 0 0 0 0))
            (local.set $tsV2 (v128.const f32x4 0 0 0 0))
            (local.set $tzV2 (v128.const f32x4 0 0 0 0))
            (local.set $kf (v128.const f32x4 0 1 2 3))
            (local.set $kb (i32.const 0))
            (loop $p2
              (local.set $mask (f32x4.lt (local.get $kf) (local.get $KV)))
              (local.set $x (f32x4.sub (v128.load (i32.add (local.get $scrZ) (local.get $kb))) (local.get $mV)))
              (local.set $x2 (f32x4.sub (v128.load (i32.add (local.get $scrZ2) (local.get $kb))) (local.get $mV2)))

            (local.set $xc (f32x4.pmax (local.get $x) (v128.const f32x4 -87 -87 -87 -87)))
            (local.set $sh (f32x4.add (f32x4.mul (local.get $xc) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504)) (v128.const f32x4 12582912 12582912 12582912 12582912)))
            (local.set $en (f32x4.sub (local.get $sh) (v128.const f32x4 12582912 12582912 12582912 12582912)))
            (local.set $r (f32x4.sub (f32x4.sub (local.get $xc) (f32x4.mul (local.get $en) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
              (f32x4.mul (local.get $en) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
            (local.set $r2 (f32x4.mul (local.get $r) (local.get $r)))
            (local.set $q1 (f32x4.add (v128.const f32x4 0.499992311 0.499992311 0.499992311 0.499992311) (f32x4.mul (local.get $r) (v128.const f32x4 0.166671142 0.166671142 0.166671142 0.166671142))))
            (local.set $q2 (f32x4.add (v128.const f32x4 0.0418901145 0.0418901145 0.0418901145 0.0418901145) (f32x4.mul (local.get $r) (v128.const f32x4 0.00831252523 0.00831252523 0.00831252523 0.00831252523))))
            (local.set $q0 (f32x4.add (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $r))
              (f32x4.mul (local.get $r2) (f32x4.add (local.get $q1) (f32x4.mul (local.get $r2) (local.get $q2))))))
            (local.set $e (v128.and (local.get $mask) (v128.andnot
              (f32x4.mul (local.get $q0) (i32x4.shl (i32x4.add (local.get $sh) (v128.const i32x4 127 127 127 127)) (i32.const 23)))
              (f32x4.lt (local.get $x) (v128.const f32x4 -87 -87 -87 -87)))))

            (local.set $xcB (f32x4.pmax (local.get $x2) (v128.const f32x4 -87 -87 -87 -87)))
            (local.set $shB (f32x4.add (f32x4.mul (local.get $xcB) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504)) (v128.const f32x4 12582912 12582912 12582912 12582912)))
            (local.set $enB (f32x4.sub (local.get $shB) (v128.const f32x4 12582912 12582912 12582912 12582912)))
            (local.set $rB (f32x4.sub (f32x4.sub (local.get $xcB) (f32x4.mul (local.get $enB) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
              (f32x4.mul (local.get $enB) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
            (local.set $r2B (f32x4.mul (local.get $rB) (local.get $rB)))
            (local.set $q1B (f32x4.add (v128.const f32x4 0.499992311 0.499992311 0.499992311 0.499992311) (f32x4.mul (local.get $rB) (v128.const f32x4 0.166671142 0.166671142 0.166671142 0.166671142))))
            (local.set $q2B (f32x4.add (v128.const f32x4 0.0418901145 0.0418901145 0.0418901145 0.0418901145) (f32x4.mul (local.get $rB) (v128.const f32x4 0.00831252523 0.00831252523 0.00831252523 0.00831252523))))
            (local.set $q0B (f32x4.add (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $rB))
              (f32x4.mul (local.get $r2B) (f32x4.add (local.get $q1B) (f32x4.mul (local.get $r2B) (local.get $q2B))))))
            (local.set $e2 (v128.and (local.get $mask) (v128.andnot
              (f32x4.mul (local.get $q0B) (i32x4.shl (i32x4.add (local.get $shB) (v128.const i32x4 127 127 127 127)) (i32.const 23)))
              (f32x4.lt (local.get $x2) (v128.const f32x4 -87 -87 -87 -87)))))
              (v128.store (i32.add (local.get $scrE) (local.get $kb)) (local.get $e))
              (v128.store (i32.add (local.get $scrE2) (local.get $kb)) (local.get $e2))
              (local.set $tv (v128.load (i32.add (local.get $tq) (local.get $kb))))
              (local.set $tv2 (v128.load (i32.add (local.get $tq2) (local.get $kb))))
              (local.set $esV (f32x4.add (local.get $esV) (local.get $e)))
              (local.set $esV2 (f32x4.add (local.get $esV2) (local.get $e2)))
              (local.set $tsV (f32x4.add (local.get $tsV) (local.get $tv)))
              (local.set $tsV2 (f32x4.add (local.get $tsV2) (local.get $tv2)))
              (local.set $tzV (f32x4.add (local.get $tzV) (f32x4.mul (local.get $tv) (local.get $x))))
              (local.set $tzV2 (f32x4.add (local.get $tzV2) (f32x4.mul (local.get $tv2) (local.get $x2))))
              (local.set $kf (f32x4.add (local.get $kf) (v128.const f32x4 4 4 4 4)))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $p2 (i32.lt_u (local.get $kb) (local.get $KB))))
            ;; lanes (Σe, Σt) of q and of q+1; Σt(z − m) of each
            (local.set $ab (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $esV) (local.get $tsV)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $esV) (local.get $tsV))))
            (local.set $ab2 (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $esV2) (local.get $tsV2)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $esV2) (local.get $tsV2))))
            (local.set $x (f32x4.add (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $ab) (local.get $ab2)) (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $ab) (local.get $ab2))))
            (local.set $c0 (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $tzV) (local.get $tzV2)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $tzV) (local.get $tzV2))))
            (local.set $c0 (f32x4.add (local.get $c0) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $c0) (local.get $c0))))
            (local.set $ce (f64.sub (local.get $ce) (f64.promote_f32 (f32x4.extract_lane 0 (local.get $c0)))))
            (local.set $ce (f64.sub (local.get $ce) (f64.promote_f32 (f32x4.extract_lane 2 (local.get $c0)))))
            ;; the logs, four cells at a time as below (room for two first)
            (if (i32.ge_u (local.get $pending) (i32.const 3))
              (then 
              (local.set $ce (f64.add (local.get $ce) (call $logTerms (local.get $lsum) (local.get $lts))))
              (local.set $lsum (v128.const f32x4 1 1 1 1))
              (local.set $lts (v128.const f32x4 0 0 0 0))
              (local.set $pending (i32.const 0))))
            (local.set $lsum (i8x16.shuffle 8 9 10 11 12 13 14 15 16 17 18 19 24 25 26 27 (local.get $lsum) (local.get $x)))
            (local.set $lts (i8x16.shuffle 8 9 10 11 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $lts) (local.get $x)))
            (local.set $pending (i32.add (local.get $pending) (i32.const 2)))
            (if (i32.eq (local.get $pending) (i32.const 4))
              (then 
              (local.set $ce (f64.add (local.get $ce) (call $logTerms (local.get $lsum) (local.get $lts))))
              (local.set $lsum (v128.const f32x4 1 1 1 1))
              (local.set $lts (v128.const f32x4 0 0 0 0))
              (local.set $pending (i32.const 0))))
            (if (local.get $wantGrad)
              (then
                ;; both cells' Σt / Σe in one division
                (local.set $ab (f32x4.div (i8x16.shuffle 4 5 6 7 4 5 6 7 12 13 14 15 12 13 14 15 (local.get $x) (local.get $x)) (i8x16.shuffle 0 1 2 3 0 1 2 3 8 9 10 11 8 9 10 11 (local.get $x) (local.get $x))))
                (local.set $coef (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $ab) (local.get $ab)))
                (local.set $coef2 (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $ab) (local.get $ab)))
                (local.set $gGV (v128.const f32x4 0 0 0 0))
                (local.set $gsV (v128.const f32x4 0 0 0 0))
                (local.set $gthV (v128.const f32x4 0 0 0 0))
                (local.set $gGV2 (v128.const f32x4 0 0 0 0))
                (local.set $gsV2 (v128.const f32x4 0 0 0 0))
                (local.set $gthV2 (v128.const f32x4 0 0 0 0))
                (local.set $kb (i32.const 0))
                (loop $p3
                  (local.set $e (f32x4.sub
                    (f32x4.mul (local.get $coef) (v128.load (i32.add (local.get $scrE) (local.get $kb))))
                    (v128.load (i32.add (local.get $tq) (local.get $kb)))))
                  (local.set $e2 (f32x4.sub
                    (f32x4.mul (local.get $coef2) (v128.load (i32.add (local.get $scrE2) (local.get $kb))))
                    (v128.load (i32.add (local.get $tq2) (local.get $kb)))))
                  (local.set $vv (v128.load (i32.add (local.get $scrV) (local.get $kb))))
                  (local.set $vv2 (v128.load (i32.add (local.get $scrV2) (local.get $kb))))
                  (local.set $gu (local.get $e))
                  (local.set $gu2 (local.get $e2))
                  (if (local.get $fb)
                    (then
                      (local.set $rho (v128.load (i32.add (local.get $rj) (local.get $kb))))
                      (local.set $rho2 (v128.load (i32.add (local.get $rj2) (local.get $kb))))
                      (local.set $gGV (f32x4.add (local.get $gGV) (f32x4.mul (local.get $e)
                        (f32x4.sub (local.get $rho) (f32x4.mul (local.get $vv) (local.get $sV))))))
                      (local.set $gGV2 (f32x4.add (local.get $gGV2) (f32x4.mul (local.get $e2)
                        (f32x4.sub (local.get $rho2) (f32x4.mul (local.get $vv2) (local.get $sV2))))))

                  (local.set $addr (i32.add (i32.add (local.get $rj) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (f32x4.mul (local.get $e) (local.get $GV))))

                  (local.set $addr (i32.add (i32.add (local.get $rj2) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (f32x4.mul (local.get $e2) (local.get $GV2))))
                      (local.set $gu (f32x4.mul (local.get $e) (local.get $omGV)))
                      (local.set $gu2 (f32x4.mul (local.get $e2) (local.get $omGV2)))))
                  (local.set $gsV (f32x4.add (local.get $gsV) (f32x4.mul (local.get $gu) (local.get $vv))))
                  (local.set $gsV2 (f32x4.add (local.get $gsV2) (f32x4.mul (local.get $gu2) (local.get $vv2))))
                  (local.set $gv (f32x4.mul (local.get $gu) (local.get $sV)))
                  (local.set $gv2 (f32x4.mul (local.get $gu2) (local.get $sV2)))
                  (local.set $av (v128.load (i32.add (local.get $ai) (local.get $kb))))
                  (local.set $gthV (f32x4.add (local.get $gthV) (f32x4.mul (local.get $gv) (local.get $av))))
                  (local.set $gthV2 (f32x4.add (local.get $gthV2) (f32x4.mul (local.get $gv2) (local.get $av))))

                  (local.set $addr (i32.add (i32.add (local.get $ai) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (f32x4.add (f32x4.mul (local.get $gv) (local.get $thetaV)) (f32x4.mul (local.get $gv2) (local.get $thetaV2)))))

                  (local.set $addr (i32.add (i32.add (local.get $ci) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (f32x4.add (local.get $gv) (local.get $gv2))))
                  (if (local.get $pos)
                    (then

                  (local.set $addr (i32.add (i32.add (local.get $dj) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (local.get $gv)))

                  (local.set $addr (i32.add (i32.add (local.get $dj2) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (local.get $gv2)))))
                  (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
                  (br_if $p3 (i32.lt_u (local.get $kb) (local.get $KB))))
                ;; lanes (Σ∂θ, Σ∂G) of q and of q+1; Σ∂s of each
                (local.set $ab (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $gthV) (local.get $gGV)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $gthV) (local.get $gGV))))
                (local.set $ab2 (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $gthV2) (local.get $gGV2)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $gthV2) (local.get $gGV2))))
                (local.set $x (f32x4.add (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $ab) (local.get $ab2)) (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $ab) (local.get $ab2))))
                (local.set $c0 (f32x4.add (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $gsV) (local.get $gsV2)) (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $gsV) (local.get $gsV2))))
                (local.set $c0 (f32x4.add (local.get $c0) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $c0) (local.get $c0))))

              (local.set $gtheta (f64.promote_f32 (f32x4.extract_lane 0 (local.get $x))))
              (if (local.get $fb)
                (then
                  (local.set $gt (f64.mul (f64.promote_f32 (f32x4.extract_lane 1 (local.get $x)))
                    (f64.mul (local.get $G) (f64.sub (f64.const 1) (local.get $G)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (local.get $q) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                  (local.set $gkappa (f64.sub (local.get $gkappa)
                    (f64.mul (local.get $gt) (f64.sub (local.get $theta) (local.get $bt)))))
                  (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                  (local.set $gbt (f64.add (local.get $gbt) (f64.mul (local.get $gt) (local.get $kappa))))))))
              (if (local.get $sharp)
                (then
                  (local.set $addr (i32.add (local.get $pGrad)
                    (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 3))))
                  (f64.store (local.get $addr)
                    (f64.add (f64.load (local.get $addr)) (f64.promote_f32 (f32x4.extract_lane 0 (local.get $c0)))))))
              (local.set $addr (i32.add (local.get $pGrad)
                (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3))))
              (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))

              (local.set $gtheta (f64.promote_f32 (f32x4.extract_lane 2 (local.get $x))))
              (if (local.get $fb)
                (then
                  (local.set $gt (f64.mul (f64.promote_f32 (f32x4.extract_lane 3 (local.get $x)))
                    (f64.mul (local.get $G2) (f64.sub (f64.const 1) (local.get $G2)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (i32.add (local.get $q) (i32.const 1)) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                  (local.set $gkappa (f64.sub (local.get $gkappa)
                    (f64.mul (local.get $gt) (f64.sub (local.get $theta2) (local.get $bt)))))
                  (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                  (local.set $gbt (f64.add (local.get $gbt) (f64.mul (local.get $gt) (local.get $kappa))))))))
              (if (local.get $sharp)
                (then
                  (local.set $addr (i32.add (local.get $pGrad)
                    (i32.shl (i32.add (local.get $oS) (local.get $j2)) (i32.const 3))))
                  (f64.store (local.get $addr)
                    (f64.add (f64.load (local.get $addr)) (f64.promote_f32 (f32x4.extract_lane 2 (local.get $c0)))))))
              (local.set $addr (i32.add (local.get $pGrad)
                (i32.shl (i32.add (local.get $oTheta) (local.get $j2)) (i32.const 3))))
              (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))))
            (local.set $q (i32.add (local.get $q) (i32.const 2)))
            (local.set $tq (i32.add (local.get $tq2) (local.get $rowT)))
            (br $cell)))
        ;; pass 1: v = aθ + c (+ δ), z = s·v (·(1 − G) + Gρ); keep v and z; max z
        (local.set $mV (v128.const f32x4 -inf -inf -inf -inf))
        (local.set $kf (v128.const f32x4 0 1 2 3))
        (local.set $kb (i32.const 0))
        (loop $k1
          (local.set $vv (f32x4.add
            (f32x4.mul (v128.load (i32.add (local.get $ai) (local.get $kb))) (local.get $thetaV))
            (v128.load (i32.add (local.get $ci) (local.get $kb)))))
          (if (local.get $pos)
            (then (local.set $vv
              (f32x4.add (local.get $vv) (v128.load (i32.add (local.get $dj) (local.get $kb)))))))
          (v128.store (i32.add (local.get $scrV) (local.get $kb)) (local.get $vv))
          (local.set $z (f32x4.mul (local.get $vv) (local.get $sV)))
          (if (local.get $fb)
            (then (local.set $z (f32x4.add
              (f32x4.mul (local.get $z) (local.get $omGV))
              (f32x4.mul (v128.load (i32.add (local.get $rj) (local.get $kb))) (local.get $GV))))))
          (v128.store (i32.add (local.get $scrZ) (local.get $kb)) (local.get $z))
          (local.set $mV (f32x4.pmax (local.get $mV)
            (v128.bitselect (local.get $z) (v128.const f32x4 -inf -inf -inf -inf)
              (f32x4.lt (local.get $kf) (local.get $KV)))))
          (local.set $kf (f32x4.add (local.get $kf) (v128.const f32x4 4 4 4 4)))
          (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
          (br_if $k1 (i32.lt_u (local.get $kb) (local.get $KB))))
        ;; every lane of mV becomes the max of its lanes (pmax: no NaN or ±0 handling)
        (local.set $mV (f32x4.pmax (local.get $mV)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mV) (local.get $mV))))
        (local.set $mV (f32x4.pmax (local.get $mV)
          (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $mV) (local.get $mV))))
        ;; pass 2: e = exp(z − m) (kept), Σe, Σt, Σt(z − m)
        (local.set $esV (v128.const f32x4 0 0 0 0))
        (local.set $tsV (v128.const f32x4 0 0 0 0))
        (local.set $tzV (v128.const f32x4 0 0 0 0))
        (local.set $kf (v128.const f32x4 0 1 2 3))
        (local.set $kb (i32.const 0))
        (loop $k2
          (local.set $mask (f32x4.lt (local.get $kf) (local.get $KV)))
          (local.set $x (f32x4.sub (v128.load (i32.add (local.get $scrZ) (local.get $kb))) (local.get $mV)))
          ;; e = exp(x), $exp32 inline (V8 does not inline wasm calls everywhere)
          (local.set $xc (f32x4.pmax (local.get $x) (v128.const f32x4 -87 -87 -87 -87)))
          (local.set $sh (f32x4.add
            (f32x4.mul (local.get $xc) (v128.const f32x4 1.44269504 1.44269504 1.44269504 1.44269504))
            (v128.const f32x4 12582912 12582912 12582912 12582912)))
          (local.set $en (f32x4.sub (local.get $sh) (v128.const f32x4 12582912 12582912 12582912 12582912)))
          (local.set $r (f32x4.sub
            (f32x4.sub (local.get $xc)
              (f32x4.mul (local.get $en) (v128.const f32x4 0.693359375 0.693359375 0.693359375 0.693359375)))
            (f32x4.mul (local.get $en) (v128.const f32x4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4 -2.12194440e-4))))
          ;; 1 + r + r²·(c0 + c1·r + r²·(c2 + c3·r)), Estrin
          (local.set $r2 (f32x4.mul (local.get $r) (local.get $r)))
          (local.set $q1 (f32x4.add (v128.const f32x4 0.499992311 0.499992311 0.499992311 0.499992311)
            (f32x4.mul (local.get $r) (v128.const f32x4 0.166671142 0.166671142 0.166671142 0.166671142))))
          (local.set $q2 (f32x4.add (v128.const f32x4 0.0418901145 0.0418901145 0.0418901145 0.0418901145)
            (f32x4.mul (local.get $r) (v128.const f32x4 0.00831252523 0.00831252523 0.00831252523 0.00831252523))))
          (local.set $q0 (f32x4.add (f32x4.add (v128.const f32x4 1 1 1 1) (local.get $r))
            (f32x4.mul (local.get $r2) (f32x4.add (local.get $q1) (f32x4.mul (local.get $r2) (local.get $q2))))))
          ;; · 2^n, whose bits are (n + 127) << 23; zero where x < −87, and in padding lanes
          (local.set $e (v128.and (local.get $mask)
            (v128.andnot
              (f32x4.mul (local.get $q0)
                (i32x4.shl (i32x4.add (local.get $sh) (v128.const i32x4 127 127 127 127)) (i32.const 23)))
              (f32x4.lt (local.get $x) (v128.const f32x4 -87 -87 -87 -87)))))
          (v128.store (i32.add (local.get $scrE) (local.get $kb)) (local.get $e))
          (local.set $tv (v128.load (i32.add (local.get $tq) (local.get $kb))))
          (local.set $esV (f32x4.add (local.get $esV) (local.get $e)))
          (local.set $tsV (f32x4.add (local.get $tsV) (local.get $tv)))
          ;; (a padding lane's z is a finite neighbouring value and its target 0)
          (local.set $tzV (f32x4.add (local.get $tzV) (f32x4.mul (local.get $tv) (local.get $x))))
          (local.set $kf (f32x4.add (local.get $kf) (v128.const f32x4 4 4 4 4)))
          (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
          (br_if $k2 (i32.lt_u (local.get $kb) (local.get $KB))))
        ;; lanes of (Σe, Σt, Σt(z − m), 0), the three reductions together
        (local.set $ab (f32x4.add
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $esV) (local.get $tsV))
          (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $esV) (local.get $tsV))))
        (local.set $c0 (v128.and (v128.const i32x4 -1 -1 0 0) (f32x4.add (local.get $tzV)
          (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $tzV) (local.get $tzV)))))
        (local.set $x (f32x4.add
          (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $ab) (local.get $c0))
          (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $ab) (local.get $c0))))
        ;; Σ_k t_k (lse − z_k) = tsum · log Σe − Σ t_k (z_k − m). The logs are taken
        ;; four cells at a time: each cell's (Σe, tsum) shifts into the last lane of
        ;; ($lsum, $lts); lanes not yet filled hold (1, 0), which add 0 · ln 1.
        (local.set $ce (f64.sub (local.get $ce) (f64.promote_f32 (f32x4.extract_lane 2 (local.get $x)))))
        (local.set $lsum (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 (local.get $lsum) (local.get $x)))
        (local.set $lts (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 20 21 22 23 (local.get $lts) (local.get $x)))
        (local.set $pending (i32.add (local.get $pending) (i32.const 1)))
        (if (i32.eq (local.get $pending) (i32.const 4))
          (then
            (local.set $lx (local.get $lsum))
            ;; $lx = ln $lx, $log32 inline
            (local.set $le (f32x4.convert_i32x4_s (i32x4.sub
              (i32x4.shr_u (local.get $lx) (i32.const 23)) (v128.const i32x4 127 127 127 127))))
            (local.set $lm (v128.or
              (v128.and (local.get $lx) (v128.const i32x4 0x007FFFFF 0x007FFFFF 0x007FFFFF 0x007FFFFF))
              (v128.const i32x4 0x3F800000 0x3F800000 0x3F800000 0x3F800000)))
            (local.set $lc (f32x4.gt (local.get $lm) (v128.const f32x4 1.41421356 1.41421356 1.41421356 1.41421356)))
            (local.set $lm (v128.bitselect (f32x4.mul (local.get $lm) (v128.const f32x4 0.5 0.5 0.5 0.5)) (local.get $lm) (local.get $lc)))
            (local.set $le (f32x4.add (local.get $le) (v128.and (local.get $lc) (v128.const f32x4 1 1 1 1))))
            (local.set $lr (f32x4.div
              (f32x4.sub (local.get $lm) (v128.const f32x4 1 1 1 1)) (f32x4.add (local.get $lm) (v128.const f32x4 1 1 1 1))))
            (local.set $lw (f32x4.mul (local.get $lr) (local.get $lr)))
            ;; 2 + w(2/3 + w(2/5 + w(2/7 + w·2/9))), Horner
            (local.set $lp (f32x4.add (v128.const f32x4 0.285714286 0.285714286 0.285714286 0.285714286)
              (f32x4.mul (local.get $lw) (v128.const f32x4 0.222222222 0.222222222 0.222222222 0.222222222))))
            (local.set $lp (f32x4.add (v128.const f32x4 0.4 0.4 0.4 0.4) (f32x4.mul (local.get $lw) (local.get $lp))))
            (local.set $lp (f32x4.add (v128.const f32x4 0.666666667 0.666666667 0.666666667 0.666666667) (f32x4.mul (local.get $lw) (local.get $lp))))
            (local.set $lp (f32x4.add (v128.const f32x4 2 2 2 2) (f32x4.mul (local.get $lw) (local.get $lp))))
            (local.set $lx (f32x4.add
              (f32x4.mul (local.get $le) (v128.const f32x4 0.693147181 0.693147181 0.693147181 0.693147181))
              (f32x4.mul (local.get $lp) (local.get $lr))))
            (local.set $lx (f32x4.mul (local.get $lx) (local.get $lts)))
            (local.set $ce (f64.add (local.get $ce) (f64.promote_f32 (f32.add
              (f32.add (f32x4.extract_lane 0 (local.get $lx)) (f32x4.extract_lane 1 (local.get $lx)))
              (f32.add (f32x4.extract_lane 2 (local.get $lx)) (f32x4.extract_lane 3 (local.get $lx)))))))
            (local.set $lsum (v128.const f32x4 1 1 1 1))
            (local.set $lts (v128.const f32x4 0 0 0 0))
            (local.set $pending (i32.const 0))))
        (if (local.get $wantGrad)
          (then
            ;; pass 3: ∂CE/∂z_k = tsum · e_k / Σe − t_k, then the chain rule
            (local.set $coef (f32x4.splat (f32.div
              (f32x4.extract_lane 1 (local.get $x)) (f32x4.extract_lane 0 (local.get $x)))))
            (local.set $gGV (v128.const f32x4 0 0 0 0))
            (local.set $gsV (v128.const f32x4 0 0 0 0))
            (local.set $gthV (v128.const f32x4 0 0 0 0))
            (local.set $kb (i32.const 0))
            (loop $k3
              (local.set $e (f32x4.sub
                (f32x4.mul (local.get $coef) (v128.load (i32.add (local.get $scrE) (local.get $kb))))
                (v128.load (i32.add (local.get $tq) (local.get $kb)))))
              (local.set $vv (v128.load (i32.add (local.get $scrV) (local.get $kb))))
              (local.set $gu (local.get $e))
              (if (local.get $fb)
                (then
                  (local.set $addr (i32.add (local.get $rj) (local.get $kb)))
                  (local.set $rho (v128.load (local.get $addr)))
                  (local.set $gGV (f32x4.add (local.get $gGV) (f32x4.mul (local.get $e)
                    (f32x4.sub (local.get $rho) (f32x4.mul (local.get $vv) (local.get $sV))))))
                  (local.set $addr (i32.add (local.get $addr) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr))
                    (f32x4.mul (local.get $e) (local.get $GV))))
                  (local.set $gu (f32x4.mul (local.get $e) (local.get $omGV)))))
              (local.set $gsV (f32x4.add (local.get $gsV) (f32x4.mul (local.get $gu) (local.get $vv))))
              (local.set $gv (f32x4.mul (local.get $gu) (local.get $sV)))
              (local.set $addr (i32.add (local.get $ai) (local.get $kb)))
              (local.set $gthV (f32x4.add (local.get $gthV)
                (f32x4.mul (local.get $gv) (v128.load (local.get $addr)))))
              (local.set $addr (i32.add (local.get $addr) (local.get $gOff)))
              (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr))
                (f32x4.mul (local.get $gv) (local.get $thetaV))))
              (local.set $addr (i32.add (i32.add (local.get $ci) (local.get $kb)) (local.get $gOff)))
              (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (local.get $gv)))
              (if (local.get $pos)
                (then
                  (local.set $addr (i32.add (i32.add (local.get $dj) (local.get $kb)) (local.get $gOff)))
                  (v128.store (local.get $addr) (f32x4.add (v128.load (local.get $addr)) (local.get $gv)))))
              (local.set $kb (i32.add (local.get $kb) (i32.const 16)))
              (br_if $k3 (i32.lt_u (local.get $kb) (local.get $KB))))
            ;; lanes of (Σ ∂θ, Σ ∂G, Σ ∂s, 0)
            (local.set $ab (f32x4.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $gthV) (local.get $gGV))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $gthV) (local.get $gGV))))
            (local.set $c0 (v128.and (v128.const i32x4 -1 -1 0 0) (f32x4.add (local.get $gsV)
              (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $gsV) (local.get $gsV)))))
            (local.set $x (f32x4.add
              (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $ab) (local.get $c0))
              (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (local.get $ab) (local.get $c0))))
            (local.set $gtheta (f64.promote_f32 (f32x4.extract_lane 0 (local.get $x))))
            (if (local.get $fb)
              (then
                (local.set $gt (f64.mul (f64.promote_f32 (f32x4.extract_lane 1 (local.get $x)))
                  (f64.mul (local.get $G) (f64.sub (f64.const 1) (local.get $G)))))
                  (if (local.get $cellG)
                    (then (f64.store (i32.add (local.get $pGbt) (i32.shl (local.get $q) (i32.const 3))) (local.get $gt)))
                    (else (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
                (local.set $gkappa (f64.sub (local.get $gkappa)
                  (f64.mul (local.get $gt) (f64.sub (local.get $theta) (local.get $bt)))))
                (local.set $gtheta (f64.sub (local.get $gtheta) (f64.mul (local.get $gt) (local.get $kappa))))
                (local.set $gbt (f64.add (local.get $gbt) (f64.mul (local.get $gt) (local.get $kappa))))))))
            (if (local.get $sharp)
              (then
                (local.set $addr (i32.add (local.get $pGrad)
                  (i32.shl (i32.add (local.get $oS) (local.get $j)) (i32.const 3))))
                (f64.store (local.get $addr)
                  (f64.add (f64.load (local.get $addr)) (f64.promote_f32 (f32x4.extract_lane 2 (local.get $x)))))))
            (local.set $addr (i32.add (local.get $pGrad)
              (i32.shl (i32.add (local.get $oTheta) (local.get $j)) (i32.const 3))))
            (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gtheta)))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (local.set $tq (i32.add (local.get $tq) (local.get $rowT)))
        (br $cell)))
    (if (local.get $pending)
      (then
        (local.set $ce (f64.add (local.get $ce) (call $logTerms (local.get $lsum) (local.get $lts))))))
    (if (i32.and (i32.and (local.get $wantGrad) (i32.eqz (local.get $cellG)))
          (i32.ge_s (local.get $iPrev) (i32.const 0)))
      (then
        (local.set $addr (i32.add (local.get $pGbt) (i32.shl (local.get $iPrev) (i32.const 3))))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gbt)))))
    (if (local.get $wantGrad)
      (then
        (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oW0) (i32.const 3))))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gw0)))
        (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oKappa) (i32.const 3))))
        (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gkappa)))))
    (local.get $ce))

  ;; The margin gate's per-cell side (model/gate.ts `margin`, `marginSlope`,
  ;; `addMarginGradient`), which the option kernels take as given (flag bit 4).
  ;; For each cell q of item i (K options, key g) and LLM j, with u_k = a_ik θ_j + c_ik:
  ;;   f_q = u_g − m − ln Σ_(k≠g) e^(u_k − m), m = max_(k≠g) u_k (the margin),
  ;;   G_q = 1/(1 + e^−(w0 − κ f_q)) (e^−y clamped at e^709, as $expNeg).
  ;; Lanes k ≥ K and the key's lane are masked: −∞ before the max, e = 0 after it.
  ;; The max is pmax, which, as `margin`'s "w[k] > m", passes over a NaN u_k.
  ;; pKey: the key of each item (u8); pF, pG: f and G per cell (f64).
  (func (export "marginFwd")
    (param $n i32) (param $Kmax i32) (param $pJ i32) (param $pI i32) (param $pK i32) (param $pKey i32)
    (param $pNat i32) (param $oTheta i32) (param $oA i32) (param $oC i32) (param $oW0 i32) (param $oKappa i32)
    (param $pF i32) (param $pG i32)
    (local $q i32) (local $i i32) (local $KB i32) (local $kb i32) (local $ai i32) (local $ci i32) (local $g i32)
    (local $theta f64) (local $w0 f64) (local $kappa f64) (local $z f64)
    (local $fV v128) (local $w0V v128) (local $kappaV v128)
    (local $thV v128) (local $u v128) (local $kf v128) (local $KV v128) (local $gV v128) (local $use v128)
    (local $mV v128) (local $e v128) (local $zV v128) (local $aV v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $p v128)
    (local $r2 v128) (local $r4 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128) (local $ex v128)
    (local.set $w0 (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oW0) (i32.const 3)))))
    (local.set $kappa (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oKappa) (i32.const 3)))))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $q) (local.get $n)))
        (local.set $i (i32.load (i32.add (local.get $pI) (i32.shl (local.get $q) (i32.const 2)))))
        (local.set $theta (f64.load (i32.add (local.get $pNat) (i32.shl
          (i32.add (local.get $oTheta) (i32.load (i32.add (local.get $pJ) (i32.shl (local.get $q) (i32.const 2)))))
          (i32.const 3)))))
        (local.set $thV (f64x2.splat (local.get $theta)))
        (local.set $KB (i32.shl (i32.load8_u (i32.add (local.get $pK) (local.get $i))) (i32.const 3)))
        (local.set $KV (f64x2.splat (f64.convert_i32_u (i32.shr_u (local.get $KB) (i32.const 3)))))
        (local.set $g (i32.load8_u (i32.add (local.get $pKey) (local.get $i))))
        (local.set $gV (f64x2.splat (f64.convert_i32_u (local.get $g))))
        (local.set $ai (i32.add (local.get $pNat)
          (i32.shl (i32.add (local.get $oA) (i32.mul (local.get $i) (local.get $Kmax))) (i32.const 3))))
        (local.set $ci (i32.add (local.get $pNat)
          (i32.shl (i32.add (local.get $oC) (i32.mul (local.get $i) (local.get $Kmax))) (i32.const 3))))
        ;; the distractors' max
        (local.set $mV (v128.const f64x2 -inf -inf))
        (local.set $kf (v128.const f64x2 0 1))
        (local.set $kb (i32.const 0))
        (loop $k1
          (local.set $u (f64x2.add (f64x2.mul (v128.load (i32.add (local.get $ai) (local.get $kb))) (local.get $thV))
            (v128.load (i32.add (local.get $ci) (local.get $kb)))))
          (local.set $use (v128.and (f64x2.lt (local.get $kf) (local.get $KV)) (f64x2.ne (local.get $kf) (local.get $gV))))
          (local.set $mV (f64x2.pmax (local.get $mV)
            (v128.bitselect (local.get $u) (v128.const f64x2 -inf -inf) (local.get $use))))
          (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
          (br_if $k1 (i32.lt_u (local.tee $kb (i32.add (local.get $kb) (i32.const 16))) (local.get $KB))))
        (local.set $mV (f64x2.pmax (local.get $mV) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $mV) (local.get $mV))))
        ;; Σ e^(u_k − m) and Σ e^(u_k − m) a_k over the distractors
        (local.set $zV (v128.const f64x2 0 0))
        (local.set $kf (v128.const f64x2 0 1))
        (local.set $kb (i32.const 0))
        (loop $k2
          (local.set $aV (v128.load (i32.add (local.get $ai) (local.get $kb))))
          (local.set $u (f64x2.add (f64x2.mul (local.get $aV) (local.get $thV))
            (v128.load (i32.add (local.get $ci) (local.get $kb)))))
          (local.set $use (v128.and (f64x2.lt (local.get $kf) (local.get $KV)) (f64x2.ne (local.get $kf) (local.get $gV))))
          (local.set $ex (f64x2.sub (local.get $u) (local.get $mV)))
          (local.set $xc (f64x2.pmax (local.get $ex) (v128.const f64x2 -708 -708)))
          (local.set $sh (f64x2.add
          (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
          (v128.const f64x2 6755399441055744 6755399441055744)))
          (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
          (local.set $r (f64x2.sub
          (f64x2.sub (local.get $xc)
          (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
          (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
          (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
          (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
          (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
          (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
          (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
          (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
          (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
          (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
          (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
          (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
          (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
          (local.set $p (f64x2.add
          (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
          (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
          (local.set $p (v128.andnot
          (f64x2.mul (local.get $p)
          (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
          (f64x2.lt (local.get $ex) (v128.const f64x2 -708 -708))))
          (local.set $e (v128.and (local.get $p) (local.get $use)))
          (local.set $zV (f64x2.add (local.get $zV) (local.get $e)))
          (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
          (br_if $k2 (i32.lt_u (local.tee $kb (i32.add (local.get $kb) (i32.const 16))) (local.get $KB))))
        (local.set $z (f64.add (f64x2.extract_lane 0 (local.get $zV)) (f64x2.extract_lane 1 (local.get $zV))))
        ;; u_g − m into pF and the sum into pG, for the second loop
        (f64.store (i32.add (local.get $pF) (i32.shl (local.get $q) (i32.const 3)))
          (f64.sub
            (f64.add (f64.mul (f64.load (i32.add (local.get $ai) (i32.shl (local.get $g) (i32.const 3)))) (local.get $theta))
              (f64.load (i32.add (local.get $ci) (i32.shl (local.get $g) (i32.const 3)))))
            (f64x2.extract_lane 0 (local.get $mV))))
        (f64.store (i32.add (local.get $pG) (i32.shl (local.get $q) (i32.const 3))) (local.get $z))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $cell)))
    ;; Two cells at a time: f = (u_g − m) − ln(sum), G = 1/(1 + e^min(−y, 709)). With n
    ;; odd the last pair's second lane is cell n: the padding after pF and pG (the
    ;; engine calls this on chunks of an even size, so only past the last cell).
    (local.set $w0V (f64x2.splat (local.get $w0)))
    (local.set $kappaV (f64x2.splat (local.get $kappa)))
    (local.set $q (i32.const 0))
    (block $done2
      (loop $pair
        (br_if $done2 (i32.ge_u (local.get $q) (local.get $n)))
        (local.set $kb (i32.shl (local.get $q) (i32.const 3)))
        (local.set $fV (f64x2.sub (v128.load (i32.add (local.get $pF) (local.get $kb)))
          (call $logv (v128.load (i32.add (local.get $pG) (local.get $kb))))))
        (v128.store (i32.add (local.get $pF) (local.get $kb)) (local.get $fV))
        (local.set $ex (f64x2.min
          (f64x2.sub (f64x2.mul (local.get $kappaV) (local.get $fV)) (local.get $w0V))
          (v128.const f64x2 709 709)))
        (local.set $xc (f64x2.pmax (local.get $ex) (v128.const f64x2 -708 -708)))
        (local.set $sh (f64x2.add
        (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
        (v128.const f64x2 6755399441055744 6755399441055744)))
        (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
        (local.set $r (f64x2.sub
        (f64x2.sub (local.get $xc)
        (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
        (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
        (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
        (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
        (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
        (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
        (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
        (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
        (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
        (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
        (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
        (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
        (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
        (local.set $p (f64x2.add
        (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
        (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
        (local.set $p (v128.andnot
        (f64x2.mul (local.get $p)
        (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
        (f64x2.lt (local.get $ex) (v128.const f64x2 -708 -708))))
        (v128.store (i32.add (local.get $pG) (local.get $kb))
          (f64x2.div (v128.const f64x2 1 1) (f64x2.add (v128.const f64x2 1 1) (local.get $p))))
        (local.set $q (i32.add (local.get $q) (i32.const 2)))
        (br $pair))))

  ;; The margin gate's chain rule: for each cell with ∂CE/∂y ≠ 0 at pGy + 8q (the
  ;; option kernel's output under flag bit 4; y = w0 − κ f_q), ADDS into the
  ;; gradient ∂y/∂w0 = 1, ∂y/∂κ = −f_q, ∂y/∂θ_j = −κ f'_q (f' = a_g − Σ_(k≠g) w_k a_k,
  ;; its θ-slope, w the distractors' softmax), and through f_q into
  ;; the item's a and c (∂f/∂a_g = θ, ∂f/∂c_g = 1; ∂f/∂a_k = −w_k θ, ∂f/∂c_k = −w_k).
  ;; The distractors' weights are recomputed from f_q: w_k = e^(u_k − (u_g − f_q)),
  ;; u_g − f_q being ln Σ_(k≠g) e^(u_k); a lane k ≥ K adds +0.
  (func (export "marginBwd")
    (param $n i32) (param $Kmax i32) (param $pJ i32) (param $pI i32) (param $pK i32) (param $pKey i32)
    (param $pNat i32) (param $pGrad i32) (param $oTheta i32) (param $oA i32) (param $oC i32) (param $oW0 i32) (param $oKappa i32)
    (param $pF i32) (param $pGy i32)
    (local $q i32) (local $i i32) (local $KB i32) (local $kb i32) (local $ai i32) (local $ci i32) (local $g i32)
    (local $gOff i32) (local $addr i32) (local $thAddr i32)
    (local $theta f64) (local $kappa f64) (local $gt f64) (local $gw0 f64) (local $gkappa f64)
    (local $thV v128) (local $u v128) (local $kf v128) (local $KV v128) (local $gV v128) (local $use v128)
    (local $mV v128) (local $e v128) (local $d v128) (local $gfV v128) (local $swV v128)
    (local $xc v128) (local $sh v128) (local $en v128) (local $r v128) (local $p v128)
    (local $r2 v128) (local $r4 v128) (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128) (local $q4 v128) (local $q5 v128) (local $ex v128)
    (local.set $gOff (i32.sub (local.get $pGrad) (local.get $pNat)))
    (local.set $kappa (f64.load (i32.add (local.get $pNat) (i32.shl (local.get $oKappa) (i32.const 3)))))
    (block $done
      (loop $cell
        (br_if $done (i32.ge_u (local.get $q) (local.get $n)))
        (local.set $gt (f64.load (i32.add (local.get $pGy) (i32.shl (local.get $q) (i32.const 3)))))
        (if (f64.ne (local.get $gt) (f64.const 0))
          (then
            (local.set $i (i32.load (i32.add (local.get $pI) (i32.shl (local.get $q) (i32.const 2)))))
            (local.set $addr (i32.add (local.get $pNat) (i32.shl
              (i32.add (local.get $oTheta) (i32.load (i32.add (local.get $pJ) (i32.shl (local.get $q) (i32.const 2)))))
              (i32.const 3))))
            (local.set $theta (f64.load (local.get $addr)))
            (local.set $gw0 (f64.add (local.get $gw0) (local.get $gt)))
            (local.set $gkappa (f64.sub (local.get $gkappa)
              (f64.mul (local.get $gt) (f64.load (i32.add (local.get $pF) (i32.shl (local.get $q) (i32.const 3)))))))
            (local.set $thAddr (i32.add (local.get $addr) (local.get $gOff)))
            (local.set $thV (f64x2.splat (local.get $theta)))
            (local.set $KB (i32.shl (i32.load8_u (i32.add (local.get $pK) (local.get $i))) (i32.const 3)))
            (local.set $KV (f64x2.splat (f64.convert_i32_u (i32.shr_u (local.get $KB) (i32.const 3)))))
            (local.set $g (i32.load8_u (i32.add (local.get $pKey) (local.get $i))))
            (local.set $gV (f64x2.splat (f64.convert_i32_u (local.get $g))))
            (local.set $ai (i32.add (local.get $pNat)
              (i32.shl (i32.add (local.get $oA) (i32.mul (local.get $i) (local.get $Kmax))) (i32.const 3))))
            (local.set $ci (i32.add (local.get $pNat)
              (i32.shl (i32.add (local.get $oC) (i32.mul (local.get $i) (local.get $Kmax))) (i32.const 3))))
            ;; the log of the distractors' sum, u_g − f_q, so w_k = e^(u_k − that)
            (local.set $mV (f64x2.splat (f64.sub
              (f64.add (f64.mul (f64.load (i32.add (local.get $ai) (i32.shl (local.get $g) (i32.const 3)))) (local.get $theta))
                (f64.load (i32.add (local.get $ci) (i32.shl (local.get $g) (i32.const 3)))))
              (f64.load (i32.add (local.get $pF) (i32.shl (local.get $q) (i32.const 3)))))))
            ;; d_k = 1 at the key, −w_k at a distractor, 0 beyond K; a_k += gf·d_k·θ, c_k += gf·d_k
            (local.set $gfV (f64x2.splat (f64.neg (f64.mul (local.get $gt) (local.get $kappa)))))
            (local.set $swV (v128.const f64x2 0 0))
            (local.set $kf (v128.const f64x2 0 1))
            (local.set $kb (i32.const 0))
            (loop $k3
              (local.set $u (f64x2.add (f64x2.mul (v128.load (i32.add (local.get $ai) (local.get $kb))) (local.get $thV))
                (v128.load (i32.add (local.get $ci) (local.get $kb)))))
              (local.set $use (v128.and (f64x2.lt (local.get $kf) (local.get $KV)) (f64x2.ne (local.get $kf) (local.get $gV))))
              (local.set $ex (f64x2.sub (local.get $u) (local.get $mV)))
              (local.set $xc (f64x2.pmax (local.get $ex) (v128.const f64x2 -708 -708)))
              (local.set $sh (f64x2.add
              (f64x2.mul (local.get $xc) (v128.const f64x2 1.4426950408889634 1.4426950408889634))
              (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $en (f64x2.sub (local.get $sh) (v128.const f64x2 6755399441055744 6755399441055744)))
              (local.set $r (f64x2.sub
              (f64x2.sub (local.get $xc)
              (f64x2.mul (local.get $en) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
              (f64x2.mul (local.get $en) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
              (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
              (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
              (local.set $q0 (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (local.get $r) (v128.const f64x2 1 1))))
              (local.set $q1 (f64x2.add (v128.const f64x2 0.5 0.5) (f64x2.mul (local.get $r) (v128.const f64x2 1.6666666666666666e-1 1.6666666666666666e-1))))
              (local.set $q2 (f64x2.add (v128.const f64x2 4.1666666666666664e-2 4.1666666666666664e-2) (f64x2.mul (local.get $r) (v128.const f64x2 8.3333333333333332e-3 8.3333333333333332e-3))))
              (local.set $q3 (f64x2.add (v128.const f64x2 1.3888888888888889e-3 1.3888888888888889e-3) (f64x2.mul (local.get $r) (v128.const f64x2 1.9841269841269841e-4 1.9841269841269841e-4))))
              (local.set $q4 (f64x2.add (v128.const f64x2 2.4801587301587302e-5 2.4801587301587302e-5) (f64x2.mul (local.get $r) (v128.const f64x2 2.7557319223985893e-6 2.7557319223985893e-6))))
              (local.set $q5 (f64x2.add (v128.const f64x2 2.7557319223985888e-7 2.7557319223985888e-7) (f64x2.mul (local.get $r) (v128.const f64x2 2.5052108385441720e-8 2.5052108385441720e-8))))
              (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $r2) (local.get $q1))))
              (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $r2) (local.get $q3))))
              (local.set $q4 (f64x2.add (local.get $q4) (f64x2.mul (local.get $r2) (local.get $q5))))
              (local.set $p (f64x2.add
              (f64x2.add (local.get $q0) (f64x2.mul (local.get $r4) (local.get $q2)))
              (f64x2.mul (f64x2.mul (local.get $r4) (local.get $r4)) (local.get $q4))))
              (local.set $p (v128.andnot
              (f64x2.mul (local.get $p)
              (i64x2.shl (i64x2.add (local.get $sh) (v128.const i64x2 1023 1023)) (i32.const 52)))
              (f64x2.lt (local.get $ex) (v128.const f64x2 -708 -708))))
              (local.set $e (v128.and (local.get $p) (local.get $use)))
              (local.set $swV (f64x2.add (local.get $swV)
                (f64x2.mul (local.get $e) (v128.load (i32.add (local.get $ai) (local.get $kb))))))
              (local.set $d (v128.bitselect (v128.const f64x2 1 1) (f64x2.neg (local.get $e))
                (f64x2.eq (local.get $kf) (local.get $gV))))
              (local.set $d (f64x2.mul (local.get $gfV) (local.get $d)))
              (local.set $addr (i32.add (i32.add (local.get $ai) (local.get $gOff)) (local.get $kb)))
              (v128.store (local.get $addr)
                (f64x2.add (v128.load (local.get $addr)) (f64x2.mul (local.get $d) (local.get $thV))))
              (local.set $addr (i32.add (i32.add (local.get $ci) (local.get $gOff)) (local.get $kb)))
              (v128.store (local.get $addr) (f64x2.add (v128.load (local.get $addr)) (local.get $d)))
              (local.set $kf (f64x2.add (local.get $kf) (v128.const f64x2 2 2)))
              (br_if $k3 (i32.lt_u (local.tee $kb (i32.add (local.get $kb) (i32.const 16))) (local.get $KB))))
            ;; ∂/∂θ_j: −gt·κ·f'(θ), f'(θ) = a_g − Σ w_k a_k
            (f64.store (local.get $thAddr) (f64.add (f64.load (local.get $thAddr))
              (f64.mul (f64x2.extract_lane 0 (local.get $gfV))
                (f64.sub (f64.load (i32.add (local.get $ai) (i32.shl (local.get $g) (i32.const 3))))
                  (f64.add (f64x2.extract_lane 0 (local.get $swV)) (f64x2.extract_lane 1 (local.get $swV)))))))))
        (local.set $q (i32.add (local.get $q) (i32.const 1)))
        (br $cell)))
    (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oW0) (i32.const 3))))
    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gw0)))
    (local.set $addr (i32.add (local.get $pGrad) (i32.shl (local.get $oKappa) (i32.const 3))))
    (f64.store (local.get $addr) (f64.add (f64.load (local.get $addr)) (local.get $gkappa))))
)
