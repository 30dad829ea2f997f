//! Small utilities below everything: the seeded generator every random
//! choice draws from ([`rng`]), nodes per second ([`rate`]), and the
//! instruction-set path of the hot loops ([`simd`]).

pub(crate) mod rate;
pub mod rng;
pub(crate) mod simd;
