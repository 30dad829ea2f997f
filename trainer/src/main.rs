//! `trainer`: trains Rookery's evaluation network on its self-play games.
//!
//! ```text
//! trainer --out-dir DIR [--epochs 24] [--batch 16384] [--lr 0.004]
//!         [--final-lr-fraction 0.01] [--wd 0.1] [--wdl 0.1]
//!         [--sigmoid-scale fit|CP] [--val-fraction 0.01] [--mirror]
//!         [--max-positions N] [--threads N] [--seed 1] [--output-buckets 1|8]
//!         [--resume DIR/epoch-N.f32 | --init NETWORK.nnue] FILE...
//! ```
//!
//! The network's hidden width is the build's (256, or the `hidden-384` or
//! `hidden-512` feature: `cargo build --release -p rookery-trainer
//! --features hidden-512`); `--output-buckets 8` gives it eight output
//! layers chosen by the pieces on the board (`rookery::nnue::OutputBuckets`).
//! The first line the trainer prints names the shape it trains.
//!
//! This file owns the command line and the run: load every position into
//! memory, shuffle once and hold out a validation set, fit the sigmoid
//! scale if asked (`--sigmoid-scale fit`, on the training positions), then
//! per epoch shuffle the training set (with `--mirror`, two passes, every
//! position once each way), train, measure, report one line on stderr and
//! write `epoch-N.nnue` (the engine's format, with the header that says
//! the network's shape: format 2) and `epoch-N.f32` (a float
//! checkpoint with the optimiser's state, for `--resume`); at the end
//! `final.nnue`. The arithmetic lives in the modules below.
//!
//! The defaults are the shipped network's recipe (`networks/README.md`:
//! gen 12, the best of the sweeps of sessions 41–43 over epochs, learning
//! rate, weight decay and batch), but for `--mirror`, which that recipe
//! also sets.
//!
//! The learning rate falls by a cosine, batch by batch, from `--lr` at the
//! run's first step to `--lr × --final-lr-fraction` at its last (all
//! epochs' batches); the epoch line shows the rate at the epoch's first
//! and last step.
//!
//! `--resume` continues a run: weights, optimiser state and the epoch
//! count come from the checkpoint; the rate follows the optimiser's step
//! count along the curve that `--epochs`, `--lr`, `--final-lr-fraction`
//! and the data's size define (a note says so if those steps do not match
//! the epochs done on this data). The data order after resuming differs
//! from an uninterrupted run's (each epoch's shuffle starts from the
//! loaded order).
//!
//! `--init` starts from a network file instead of random weights (for
//! example `networks/default.nnue`, whose float checkpoint is gone) with a
//! fresh optimiser: fine-tuning a shipped network on new games.

mod checkpoint;
mod data;
mod fit;
mod model;
mod optimizer;
#[cfg(test)]
mod test_positions;
mod train;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use rookery::nnue::{OutputBuckets, QuantisedNetwork, SCALE, shape_name};
use rookery::util::rng::SplitMix64;

use checkpoint::Checkpoint;
use model::FloatNetwork;
use optimizer::{AdamW, Schedule};
use train::{Loss, Settings, Trainer};

/// Trains Rookery's evaluation network on self-play game files.
#[derive(Parser, Debug)]
#[command(version)]
struct Cli {
    /// Directory for the per-epoch networks and checkpoints (created).
    #[arg(long)]
    out_dir: PathBuf,
    /// Game files written by `rookery datagen` (`.xz` files are
    /// decompressed), or data manifests (`manifest.tsv`, as
    /// `data/selfplay/manifest.tsv`): a manifest stands for every file it
    /// lists, each checked against its size and SHA-256 first.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Passes over the training set.
    #[arg(long, default_value_t = 24)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Learning rate at the run's first step; it falls by a cosine, batch
    /// by batch, to `--lr × --final-lr-fraction` at the last.
    #[arg(long, default_value_t = 0.004)]
    lr: f32,
    /// The last step's learning rate as a fraction of `--lr`.
    #[arg(long, default_value_t = 0.01)]
    final_lr_fraction: f32,
    /// AdamW weight decay (weights only, not biases).
    #[arg(long, default_value_t = 0.1)]
    wd: f32,
    /// Weight of the game result in the target (the search score gets the
    /// rest); 0.1 since gen 14, 0 before.
    #[arg(long, default_value_t = 0.1)]
    wdl: f32,
    /// Centipawns per unit of the sigmoid that maps scores to expectations,
    /// or `fit`: the scale whose expectations best match the training
    /// positions' results (least squares, searched over 50..1000).
    #[arg(long, default_value = "fit", value_parser = parse_sigmoid_scale)]
    sigmoid_scale: SigmoidScale,
    /// Fraction of the positions held out for validation.
    #[arg(long, default_value_t = 0.01)]
    val_fraction: f64,
    /// Also train on every training position mirrored left to right (files
    /// a↔h): an epoch uses each once each way, mirrored in place, so it
    /// takes twice the steps but no more memory; validation stays as played.
    #[arg(long)]
    mirror: bool,
    /// Train on at most this many positions (a random subset, counted
    /// before mirroring).
    #[arg(long)]
    max_positions: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights and of every shuffle.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output layers: 1, or 8 chosen by the number of pieces on the board
    /// ((pieces − 2) / 4). A `--resume` checkpoint or `--init` network
    /// must have as many.
    #[arg(long, default_value = "1", value_parser = parse_output_buckets)]
    output_buckets: OutputBuckets,
    /// Continue from a float checkpoint (`epoch-N.f32`).
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// Start from the weights of this network file (`.nnue`).
    #[arg(long)]
    init: Option<PathBuf>,
}

/// `--sigmoid-scale`: a fixed scale or one fitted to the data.
#[derive(Clone, Copy, Debug)]
enum SigmoidScale {
    Fixed(f32),
    Fit,
}

/// The word that asks for a fitted scale.
const FIT: &str = "fit";

/// A note for a trainer built for the architecture's baseline (the
/// default: `cargo build --release` makes binaries that run on any x86-64)
/// on a processor with AVX2. The float loops then run in 128-bit vectors:
/// 170-190 k positions/s against 300-370 k for a `target-cpu=native`
/// build on the 2-core dev machine. The trainer is not shipped, so it can
/// be built for the machine that trains.
fn portable_build_note() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    if !cfg!(target_feature = "avx2") && std::arch::is_x86_feature_detected!("avx2") {
        return Some(
            "note: this trainer was built without AVX2, which this processor has; \
             RUSTFLAGS=\"-C target-cpu=native\" cargo build --release -p rookery-trainer \
             builds one that trains about twice as fast",
        );
    }
    None
}

fn parse_output_buckets(text: &str) -> Result<OutputBuckets, String> {
    text.parse()
        .ok()
        .and_then(OutputBuckets::with_count)
        .ok_or_else(|| {
            let counts: Vec<String> = OutputBuckets::ALL
                .iter()
                .map(|buckets| buckets.count().to_string())
                .collect();
            format!("expected {}", counts.join(" or "))
        })
}

fn parse_sigmoid_scale(text: &str) -> Result<SigmoidScale, String> {
    if text == FIT {
        return Ok(SigmoidScale::Fit);
    }
    match text.parse::<f32>() {
        Ok(scale) if scale > 0.0 && scale.is_finite() => Ok(SigmoidScale::Fixed(scale)),
        _ => Err(format!("expected positive centipawns or `{FIT}`")),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("trainer: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    check(&cli)?;
    let buckets = cli.output_buckets;
    eprintln!("training a network of {}", shape_name(buckets));
    if let Some(note) = portable_build_note() {
        eprintln!("{note}");
    }
    let threads = cli.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    std::fs::create_dir_all(&cli.out_dir)
        .map_err(|e| format!("cannot create {}: {e}", cli.out_dir.display()))?;

    let start = Instant::now();
    let files = data::expand_manifests(&cli.files).map_err(|e| e.to_string())?;
    let loaded = data::load_files(&files, threads).map_err(|e| e.to_string())?;
    let games = loaded.games.len();
    if loaded.duplicates > 0 {
        eprintln!(
            "dropped {} games that repeat an earlier game",
            loaded.duplicates
        );
    }
    let mut rng = SplitMix64::new(cli.seed);
    let (mut training, validation) = data::split_validation(loaded, cli.val_fraction, &mut rng);
    data::shuffle(&mut training, &mut rng);
    if let Some(limit) = cli.max_positions {
        training.truncate(limit);
    }
    let passes = data::passes_per_epoch(cli.mirror);
    eprintln!(
        "loaded {games} games: {} training positions ({} samples an epoch) and {} validation positions in {:.1}s",
        training.len(),
        passes * training.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    if training.is_empty() {
        return Err("no training positions".to_string());
    }
    let sigmoid_scale = match cli.sigmoid_scale {
        SigmoidScale::Fixed(scale) => scale,
        SigmoidScale::Fit => {
            let outcomes: Vec<(f32, f32)> = training
                .iter()
                .map(|sample| (sample.score(), sample.result()))
                .collect();
            let scale = fit::fit_sigmoid_scale(&outcomes);
            eprintln!("sigmoid scale fitted to the training positions' results: {scale:.1} cp");
            scale
        }
    };

    let resumed = match &cli.resume {
        Some(path) => Checkpoint::load(path).map_err(|e| e.to_string())?,
        None => Checkpoint {
            network: match &cli.init {
                Some(path) => load_network(path)?,
                None => FloatNetwork::initial(cli.seed, buckets),
            },
            optimizer: AdamW::new(buckets),
            epochs_done: 0,
        },
    };
    if resumed.network.buckets != buckets {
        let path = cli.resume.as_ref().or(cli.init.as_ref());
        return Err(format!(
            "{} has {} output buckets, not the {} of --output-buckets",
            path.map_or(String::new(), |path| path.display().to_string()),
            resumed.network.buckets.count(),
            buckets.count()
        ));
    }
    let settings = Settings {
        loss: Loss {
            score_weight: 1.0 - cli.wdl,
            sigmoid_scale,
            output_scale: SCALE as f32,
        },
        batch_size: cli.batch,
        weight_decay: cli.wd,
        threads,
    };
    let steps_per_epoch = (passes * training.len().div_ceil(cli.batch)) as u64;
    let schedule = Schedule {
        base_rate: cli.lr,
        final_fraction: cli.final_lr_fraction,
        total_steps: steps_per_epoch * cli.epochs as u64,
    };
    let steps_done = resumed.epochs_done as u64 * steps_per_epoch;
    if resumed.optimizer.steps != steps_done {
        eprintln!(
            "note: the checkpoint's optimiser has taken {} steps where {} epochs of this data take {steps_done}; the rate follows its steps",
            resumed.optimizer.steps, resumed.epochs_done
        );
    }
    let mut trainer = Trainer::new(resumed.network, resumed.optimizer, settings);
    let initial = train::mean_loss(&trainer.network, &settings.loss, &validation, threads);
    eprintln!(
        "epoch {} of {}, {threads} threads, lr {:.2e} falling to {:.2e} over {} steps, validation loss {initial:.6}",
        resumed.epochs_done,
        cli.epochs,
        schedule.rate(0),
        schedule.rate(schedule.total_steps),
        schedule.total_steps
    );

    for epoch in resumed.epochs_done..cli.epochs {
        let mut rng = SplitMix64::stream(cli.seed, epoch as u64);
        let first_rate = schedule.rate(trainer.optimizer.steps);
        let epoch_start = Instant::now();
        let mut loss_sum = 0.0;
        for pass in 0..passes {
            data::prepare_pass(&mut training, pass, cli.mirror, &mut rng);
            loss_sum += trainer.train_pass(&training, &schedule);
        }
        let training_loss = loss_sum / passes as f64;
        let last_rate = schedule.rate(trainer.optimizer.steps.saturating_sub(1));
        let speed = (passes * training.len()) as f64 / epoch_start.elapsed().as_secs_f64();
        let validation_loss =
            train::mean_loss(&trainer.network, &settings.loss, &validation, threads);
        eprintln!(
            "epoch {:>3}/{}  lr {first_rate:.2e} → {last_rate:.2e}  train {training_loss:.6}  validation {validation_loss:.6}  {speed:.0} pos/s  {:.0}s",
            epoch + 1,
            cli.epochs,
            start.elapsed().as_secs_f64()
        );
        let checkpoint = Checkpoint {
            network: trainer.network.clone(),
            optimizer: trainer.optimizer.clone(),
            epochs_done: epoch + 1,
        };
        let name = format!("epoch-{}", epoch + 1);
        save_network(&trainer.network, &cli.out_dir.join(format!("{name}.nnue")))?;
        let checkpoint_path = cli.out_dir.join(format!("{name}.f32"));
        checkpoint
            .save(&checkpoint_path)
            .map_err(|e| format!("cannot write {}: {e}", checkpoint_path.display()))?;
    }
    save_network(&trainer.network, &cli.out_dir.join("final.nnue"))
}

/// Refuses settings that cannot train.
fn check(cli: &Cli) -> Result<(), String> {
    if !(0.0..=1.0).contains(&cli.wdl) {
        return Err(format!("--wdl must be within [0, 1], not {}", cli.wdl));
    }
    if !(0.0..1.0).contains(&cli.val_fraction) {
        return Err(format!(
            "--val-fraction must be within [0, 1), not {}",
            cli.val_fraction
        ));
    }
    if cli.lr.is_nan() || cli.lr <= 0.0 {
        return Err(format!("--lr must be positive, not {}", cli.lr));
    }
    if !(0.0..=1.0).contains(&cli.final_lr_fraction) {
        return Err(format!(
            "--final-lr-fraction must be within [0, 1], not {}",
            cli.final_lr_fraction
        ));
    }
    if cli.batch == 0 || cli.threads == Some(0) {
        return Err("--batch and --threads must be positive".to_string());
    }
    Ok(())
}

/// Reads a network file of the engine's format as floats.
fn load_network(path: &Path) -> Result<FloatNetwork, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let quantised =
        QuantisedNetwork::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(FloatNetwork::dequantise(&quantised))
}

/// Writes `network` quantised, in the engine's format (its newest header).
fn save_network(network: &FloatNetwork, path: &Path) -> Result<(), String> {
    std::fs::write(path, network.quantise().to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery::nnue::Network;

    #[test]
    fn a_written_network_has_the_shape_header_and_loads_in_the_engine_and_back() {
        const FORMAT_2_MARK_AND_VERSION: [u8; 6] = [0, 0, 0, 0, 2, 0];
        const BUCKETS_AT: usize = 12;
        for buckets in OutputBuckets::ALL {
            let network = FloatNetwork::initial(11, buckets);
            let file = format!(
                "rookery-trainer-{}-{}.nnue",
                std::process::id(),
                buckets.count()
            );
            let path = std::env::temp_dir().join(file);
            save_network(&network, &path).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let loaded = load_network(&path);
            let _ = std::fs::remove_file(&path);
            assert_eq!(bytes[..4], *b"RKNN");
            assert_eq!(bytes[4..10], FORMAT_2_MARK_AND_VERSION);
            let count = u16::from_le_bytes([bytes[BUCKETS_AT], bytes[BUCKETS_AT + 1]]);
            assert_eq!(usize::from(count), buckets.count());
            assert!(Network::from_bytes(&bytes).is_ok());
            assert_eq!(loaded.unwrap().quantise(), network.quantise());
        }
    }

    #[test]
    fn output_buckets_are_one_or_eight() {
        assert_eq!(parse_output_buckets("1"), Ok(OutputBuckets::Single));
        assert_eq!(parse_output_buckets("8"), Ok(OutputBuckets::PieceCount));
        for refused in ["3", "0", "eight"] {
            assert_eq!(
                parse_output_buckets(refused),
                Err("expected 1 or 8".to_string())
            );
        }
    }
}
