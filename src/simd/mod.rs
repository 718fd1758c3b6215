//! SIMD for the hot loops of `anim` (sampling, blending, additive layers) and `skin` (blended
//! vertices): registers of f32 lanes in groups of four (`Register`: a `Vec4`, or an `Avx8` of
//! two groups where the processor has AVX and FMA), `Wide` batches of them that each step acts
//! on together, the 4×4 transpose between one value per register and one value per lane, and
//! `dispatch!`, the one way a kernel gets an AVX build beside its baseline one.
//!
//! Every kernel is written once, generic over its register or given `Option<Avx>`; `dispatch!`
//! compiles it twice (for AVX and FMA, and for the target's baseline) and picks at run time.
//! The AVX build is used only with an `Avx`, the proof `Avx::detect` makes, which is what makes
//! its instructions sound.

#[cfg(target_arch = "x86_64")]
mod avx;
mod register;
mod transpose;
mod wide;

#[cfg(target_arch = "x86_64")]
pub(crate) use avx::{Avx, Avx8};
pub(crate) use register::Register;
pub(crate) use transpose::{splat_lanes, transpose};
pub(crate) use wide::Wide;

/// Where there is no AVX to prove, no proof can be made.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Avx {}

/// Whether the processor has AVX and FMA, so that `dispatch!` takes the AVX builds (the tests
/// that compare those with the baseline say when they cannot).
#[cfg(test)]
pub(crate) fn has_avx() -> bool {
    #[cfg(target_arch = "x86_64")]
    return Avx::detect().is_some();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// Defines `fn NAME(ARGS)` that runs `BODY` compiled for AVX and FMA where the processor has
/// them, and `fn BASELINE(ARGS)`, the same `BODY` compiled for the target's baseline features,
/// which `NAME` calls elsewhere (and tests compare the AVX build with). `BODY` sees `AVX`, an
/// `Option<Avx>`: the proof in the AVX build, `None` in the baseline one (a constant in each,
/// so the branches on it fold away).
///
/// ```ignore
/// simd::dispatch! {
///     /// Docs of `mix`.
///     #[inline(always)]
///     fn mix(out: &mut [f32], t: f32) [baseline: mix_baseline, avx] { /* uses avx */ }
/// }
/// ```
///
/// The baseline is a function of its own, never inlined, so that a caller with AVX does not set
/// up its stack frame first; the AVX build is a nested function with `target_feature`, into
/// which `BODY` and what it inlines are compiled.
macro_rules! dispatch {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)?
        [baseline: $baseline:ident, $avx:ident] $body:block
    ) => {
        $(#[$attr])*
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx,fma")]
                fn with_avx(proof: $crate::simd::Avx, $($arg: $ty),*) $(-> $ret)? {
                    let $avx = Some(proof);
                    $body
                }
                if let Some(proof) = $crate::simd::Avx::detect() {
                    // SAFETY: the processor has AVX and FMA (`proof` is made only where it does).
                    return unsafe { with_avx(proof, $($arg),*) };
                }
            }
            $baseline($($arg),*)
        }

        #[inline(never)]
        $vis fn $baseline($($arg: $ty),*) $(-> $ret)? {
            let $avx: Option<$crate::simd::Avx> = None;
            $body
        }
    };
}
pub(crate) use dispatch;
