//! Which vector instructions the hot loops run with, chosen once per
//! process from what the processor has.
//!
//! A release build targets the architecture's baseline (SSE2 on x86-64),
//! so one binary runs on every x86-64 processor. The loops where wider
//! vectors pay (the network's accumulator update and output layer in
//! `nnue/kernels.rs`, the move picker's arg-max in
//! `search/movepick/`) are written once as plain loops and compiled
//! again inside `#[target_feature]` functions, one per [`Path`]; a
//! [`Simd`] says which of them to call. All of them are integer
//! arithmetic, so every path gives the same results bit for bit, and the
//! tests of each loop compare every path the processor supports with the
//! plain one.
//!
//! The fastest supported path is taken ([`Simd::detected`]); the
//! environment variable `ROOKERY_SIMD` (`plain`, `avx2`, `avx512`) asks
//! for another one, which is used if the processor supports it. The
//! engine names the path in its `uci` reply and in `bench`.
//!
//! A path that no test has run on this kind of processor is still checked
//! before it is trusted: at start-up the engine, `bench` and `datagen`
//! evaluate a few positions with it and with the plain path
//! (`nnue::check_simd_path`: the network's loops, where nearly all the
//! vector work is; the move picker's arg-max is left to its tests), and if
//! they differ fall back to the plain path for good
//! ([`Simd::fall_back_to_plain`]) and say so.
//! The tests of each loop name the paths they compared and the ones this
//! processor lacks (`report_paths_compared`, a test helper), so a skipped
//! path shows.

use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The environment variable that asks for a given path by its name.
const OVERRIDE_VARIABLE: &str = "ROOKERY_SIMD";

/// A path this processor supports: only [`Simd::supported`] makes one,
/// which is what makes calling the `#[target_feature]` functions of its
/// [`Path`] sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Simd(Path);

/// An instruction set the hot loops can be compiled for. Each path's
/// features include those of the paths before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// The target's baseline instructions (SSE2 on x86-64, NEON on
    /// aarch64), which LLVM vectorises the plain loops with.
    Plain,
    /// AVX2, and `popcnt` (which every processor with AVX2 has).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 with its 16-bit operations (`avx512f` and `avx512bw`), and
    /// AVX2 and `popcnt`.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// Every path this build has, slowest first.
#[cfg(test)]
const COMPILED: &[Path] = &[
    Path::Plain,
    #[cfg(target_arch = "x86_64")]
    Path::Avx2,
    #[cfg(target_arch = "x86_64")]
    Path::Avx512,
];

/// Set once the start-up check has found the detected path wrong.
static FELL_BACK: AtomicBool = AtomicBool::new(false);

/// The path the hot loops use, found on first use.
static DETECTED: LazyLock<Simd> = LazyLock::new(|| {
    let supported = Simd::supported();
    let fastest = *supported.last().expect("the plain path runs everywhere");
    let Ok(asked) = std::env::var(OVERRIDE_VARIABLE) else {
        return fastest;
    };
    let found = supported.into_iter().find(|path| path.name() == asked);
    if found.is_none() {
        log::warn!(
            "{OVERRIDE_VARIABLE}={asked}: not a path this processor supports; using {}",
            fastest.name()
        );
    }
    found.unwrap_or(fastest)
});

impl Simd {
    /// The baseline path, which every processor of the target runs.
    pub(crate) const PLAIN: Simd = Simd(Path::Plain);

    /// The path the hot loops use: the fastest this processor supports,
    /// unless [`OVERRIDE_VARIABLE`] names another one it supports, or the
    /// start-up check found it wrong.
    #[inline]
    pub(crate) fn detected() -> Simd {
        if FELL_BACK.load(Ordering::Relaxed) {
            Simd::PLAIN
        } else {
            *DETECTED
        }
    }

    /// From now on the hot loops take the plain path.
    pub(crate) fn fall_back_to_plain() {
        FELL_BACK.store(true, Ordering::Relaxed);
    }

    /// Every path this processor supports, slowest first.
    pub(crate) fn supported() -> Vec<Simd> {
        #[allow(unused_mut)] // Only the plain path off x86-64.
        let mut paths = vec![Simd::PLAIN];
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected;
            if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("popcnt") {
                paths.push(Simd(Path::Avx2));
                if is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw") {
                    paths.push(Simd(Path::Avx512));
                }
            }
        }
        paths
    }

    /// The instruction set this processor is known to have, for the
    /// dispatching `match` of each hot loop.
    #[inline]
    pub(crate) fn path(self) -> Path {
        self.0
    }

    /// The path's name, as the engine reports it and `ROOKERY_SIMD` takes it.
    pub(crate) fn name(self) -> &'static str {
        self.0.name()
    }
}

impl Path {
    fn name(self) -> &'static str {
        match self {
            Path::Plain => "plain",
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => "avx512",
        }
    }
}

/// Writes to the test output which paths a test of `loops` compared with
/// the plain one and which this build has but the processor lacks, so a
/// path left untested shows in every test run. Written to the process's
/// stderr directly, which the test harness does not capture.
#[cfg(test)]
pub(crate) fn report_paths_compared(loops: &str) {
    use std::io::Write;
    let supported = Simd::supported();
    let names = |paths: &mut dyn Iterator<Item = Path>| -> String {
        let names: Vec<&str> = paths.map(Path::name).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    let compared = names(&mut supported.iter().skip(1).map(|simd| simd.0));
    let missing = names(
        &mut COMPILED
            .iter()
            .copied()
            .filter(|path| !supported.contains(&Simd(*path))),
    );
    let _ = writeln!(
        std::io::stderr(),
        "simd: {loops}: compared with plain: {compared}; not on this processor, untested: {missing}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_path_comes_first_and_the_detected_one_is_supported() {
        let supported = Simd::supported();
        assert_eq!(supported[0], Simd::PLAIN);
        assert!(supported.contains(&Simd::detected()));
        // Every supported path is one this build has, in the same order.
        let compiled: Vec<Simd> = COMPILED.iter().map(|&path| Simd(path)).collect();
        assert_eq!(supported[..], compiled[..supported.len()]);
    }
}
