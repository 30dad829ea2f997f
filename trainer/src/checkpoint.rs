//! Float checkpoints: everything needed to continue a run exactly where it
//! stopped (weights, AdamW's moments and step count, epochs done).
//!
//! ```text
//! checkpoint file, little-endian:
//!   4 bytes  magic "RKC2"
//!   u32      input features, must equal INPUTS
//!   u32      hidden width, must equal HIDDEN
//!   u32      output buckets: 1, or 8 by piece count
//!   u32      epochs done
//!   u64      optimiser steps
//!   f32[]    the weights, then AdamW's first moment, then its second:
//!            each as FloatNetwork::tensors lays them out (feature weights
//!            row by feature, feature biases, output weights bucket by
//!            bucket and side to move first, output biases), the engine
//!            file's order
//! ```
//!
//! A checkpoint from before output buckets (magic "RKFC", no bucket
//! count) is read as one of 1 bucket, so a run started then resumes.
//!
//! The quantised `.nnue` files are the engine's format and are written
//! with the library's `QuantisedNetwork::to_bytes`; this format is the
//! trainer's own.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

use rookery::nnue::{HIDDEN, INPUTS, OutputBuckets};

use crate::model::FloatNetwork;
use crate::optimizer::AdamW;

const MAGIC: &[u8; 4] = b"RKC2";
/// The magic of checkpoints from before output buckets: 1 bucket.
const SINGLE_OUTPUT_MAGIC: &[u8; 4] = b"RKFC";

/// A training run's state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub network: FloatNetwork,
    pub optimizer: AdamW,
    pub epochs_done: usize,
}

impl Checkpoint {
    /// Writes the checkpoint in the format above.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        let buckets = self.network.buckets.count();
        for size in [INPUTS, HIDDEN, buckets, self.epochs_done] {
            let size = u32::try_from(size).map_err(|_| invalid("size over u32"))?;
            bytes.extend_from_slice(&size.to_le_bytes());
        }
        bytes.extend_from_slice(&self.optimizer.steps.to_le_bytes());
        for network in self.networks() {
            for value in network.tensors().into_iter().flatten() {
                bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
        out.write_all(&bytes)
    }

    /// Reads a checkpoint, refusing one of another shape.
    pub fn read_from(input: &mut impl Read) -> io::Result<Checkpoint> {
        let mut magic = [0u8; 4];
        input.read_exact(&mut magic)?;
        if &magic != MAGIC && &magic != SINGLE_OUTPUT_MAGIC {
            return Err(invalid("not a Rookery trainer checkpoint (no RKC2 header)"));
        }
        let inputs = read_u32(input)?;
        let hidden = read_u32(input)?;
        if (inputs, hidden) != (INPUTS, HIDDEN) {
            return Err(invalid(&format!(
                "checkpoint is {inputs}→{hidden}, this trainer needs {INPUTS}→{HIDDEN}"
            )));
        }
        let bucket_count = if &magic == MAGIC {
            read_u32(input)?
        } else {
            OutputBuckets::Single.count()
        };
        let buckets = OutputBuckets::with_count(bucket_count)
            .ok_or_else(|| invalid(&format!("checkpoint has {bucket_count} output buckets")))?;
        let epochs_done = read_u32(input)?;
        let mut steps = [0u8; 8];
        input.read_exact(&mut steps)?;
        let mut checkpoint = Checkpoint {
            network: FloatNetwork::zeros(buckets),
            optimizer: AdamW {
                steps: u64::from_le_bytes(steps),
                ..AdamW::new(buckets)
            },
            epochs_done,
        };
        for network in checkpoint.networks_mut() {
            for value in network.tensors_mut().into_iter().flatten() {
                let mut bytes = [0u8; 4];
                input.read_exact(&mut bytes)?;
                *value = f32::from_le_bytes(bytes);
            }
        }
        if input.read(&mut [0u8; 1])? != 0 {
            return Err(invalid("checkpoint has trailing bytes"));
        }
        Ok(checkpoint)
    }

    /// Writes the checkpoint to `path`.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes)?;
        fs::write(path, bytes)
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> io::Result<Checkpoint> {
        let bytes = fs::read(path)?;
        Checkpoint::read_from(&mut &bytes[..])
            .map_err(|error| io::Error::new(error.kind(), format!("{}: {error}", path.display())))
    }

    fn networks(&self) -> [&FloatNetwork; 3] {
        [
            &self.network,
            &self.optimizer.first_moment,
            &self.optimizer.second_moment,
        ]
    }

    fn networks_mut(&mut self) -> [&mut FloatNetwork; 3] {
        [
            &mut self.network,
            &mut self.optimizer.first_moment,
            &mut self.optimizer.second_moment,
        ]
    }
}

fn read_u32(input: &mut impl Read) -> io::Result<usize> {
    let mut bytes = [0u8; 4];
    input.read_exact(&mut bytes)?;
    Ok(u32::from_le_bytes(bytes) as usize)
}

fn invalid(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the bucket count lies: after the magic, inputs and width.
    const BUCKETS_AT: usize = 12;

    fn checkpoint(buckets: OutputBuckets) -> Checkpoint {
        let mut network = FloatNetwork::zeros(buckets);
        network.randomise(1, 0.3, 1.5, 0.2);
        let mut optimizer = AdamW::new(buckets);
        optimizer.first_moment.randomise(2, 1e-3, 1e-2, 1e-4);
        optimizer.second_moment.randomise(3, 1e-6, 1e-5, 1e-7);
        optimizer.steps = 12_345;
        Checkpoint {
            network,
            optimizer,
            epochs_done: 7,
        }
    }

    #[test]
    fn checkpoints_round_trip_exactly() {
        for buckets in OutputBuckets::ALL {
            let checkpoint = checkpoint(buckets);
            let mut bytes = Vec::new();
            checkpoint.write_to(&mut bytes).unwrap();
            let read = Checkpoint::read_from(&mut &bytes[..]).unwrap();
            assert_eq!(read, checkpoint);
            let bits = |c: &Checkpoint| -> Vec<u32> {
                c.network
                    .tensors()
                    .into_iter()
                    .flatten()
                    .map(|v| v.to_bits())
                    .collect()
            };
            assert_eq!(bits(&read), bits(&checkpoint));

            bytes.push(0);
            assert!(Checkpoint::read_from(&mut &bytes[..]).is_err());
        }
        assert!(Checkpoint::read_from(&mut &b"RKNN and more"[..]).is_err());
    }

    #[test]
    fn a_checkpoint_from_before_output_buckets_reads_as_one_bucket() {
        let checkpoint = checkpoint(OutputBuckets::Single);
        let mut bytes = Vec::new();
        checkpoint.write_to(&mut bytes).unwrap();
        let mut old = SINGLE_OUTPUT_MAGIC.to_vec();
        old.extend_from_slice(&bytes[MAGIC.len()..BUCKETS_AT]);
        old.extend_from_slice(&bytes[BUCKETS_AT + 4..]);
        assert_eq!(Checkpoint::read_from(&mut &old[..]).unwrap(), checkpoint);
        let mut three = bytes.clone();
        three[BUCKETS_AT..BUCKETS_AT + 4].copy_from_slice(&3u32.to_le_bytes());
        let refused = Checkpoint::read_from(&mut &three[..]).unwrap_err();
        assert!(
            refused.to_string().contains("3 output buckets"),
            "{refused}"
        );
    }
}
