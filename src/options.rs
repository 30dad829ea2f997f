//! The engine's options: their declarations, current values and
//! validation, below the protocol that names them to a GUI.
//!
//! One table, [`SPECS`], declares every option once (name, kind, default,
//! range); the protocol prints it (`uci::options`), and `setoption` and
//! `engine.toml` both go through [`parse_change`], so the command line, the
//! config file and the GUI validate the same way. The search and the
//! tablebases never see this module: the engine hands them plain values. Each
//! option has an [`Id`], and every match on it is exhaustive: a new option
//! cannot fall into another option's branch. Names
//! are matched case-insensitively. A number out of range is clamped (and
//! said so); a value that is not a number or boolean is rejected. A string
//! option takes the rest of the line as it is; empty, or `<empty>` as UCI
//! GUIs write it, is the empty string.

use std::time::Duration;

use crate::tablebase::ProbeSettings;

/// Largest `Hash` in MB (1 TiB); allocation may still fail below it, which
/// is reported and keeps the old table. While a new size is allocated the
/// old table still exists, so a size near the machine's memory is best set
/// at start-up (`engine.toml`, `--config`), when the old table is small.
pub const MAX_HASH_MB: i64 = 1 << 20;
/// Smallest `Hash` in MB: also the size the engine falls back to when the
/// configured one cannot be allocated at start-up.
pub const MIN_HASH_MB: i64 = 1;
pub const MAX_THREADS: i64 = 1024;
pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
pub const MAX_MULTIPV: i64 = 256;
pub const MAX_SYZYGY_PROBE_DEPTH: i64 = 100;
/// Syzygy tables exist for up to 7 pieces.
pub const MAX_SYZYGY_PIECES: i64 = 7;
/// How UCI writes an empty string value.
pub const EMPTY_STRING: &str = "<empty>";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    String { default: &'static str },
}

/// Which option a [`Spec`] declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Id {
    Hash,
    Threads,
    MoveOverhead,
    ClearHash,
    MultiPv,
    Ponder,
    Chess960,
    ShowWdl,
    SyzygyPath,
    SyzygyProbeDepth,
    Syzygy50MoveRule,
    SyzygyProbeLimit,
    EvalFile,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub id: Id,
    pub name: &'static str,
    pub kind: Kind,
}

/// A validated value of an option's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Number(i64),
    Flag(bool),
    Text(String),
    Press,
}

impl Value {
    fn number(&self) -> Option<i64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    fn flag(&self) -> Option<bool> {
        match self {
            Value::Flag(on) => Some(*on),
            _ => None,
        }
    }

    /// A string option's text, with UCI's `<empty>` read as empty.
    fn text(self) -> Option<String> {
        match self {
            Value::Text(text) if text == EMPTY_STRING => Some(String::new()),
            Value::Text(text) => Some(text),
            _ => None,
        }
    }
}

pub const HASH: &str = "Hash";
pub const THREADS: &str = "Threads";
pub const MOVE_OVERHEAD: &str = "Move Overhead";
pub const CLEAR_HASH: &str = "Clear Hash";
pub const MULTIPV: &str = "MultiPV";
pub const PONDER: &str = "Ponder";
pub const CHESS960: &str = "UCI_Chess960";
pub const SHOW_WDL: &str = "UCI_ShowWDL";
pub const SYZYGY_PATH: &str = "SyzygyPath";
pub const SYZYGY_PROBE_DEPTH: &str = "SyzygyProbeDepth";
pub const SYZYGY_50_MOVE_RULE: &str = "Syzygy50MoveRule";
pub const SYZYGY_PROBE_LIMIT: &str = "SyzygyProbeLimit";
pub const EVAL_FILE: &str = "EvalFile";

/// Every option, in the order `uci` lists them.
pub const SPECS: [Spec; 13] = [
    Spec {
        id: Id::Hash,
        name: HASH,
        kind: Kind::Spin {
            default: 16,
            min: MIN_HASH_MB,
            max: MAX_HASH_MB,
        },
    },
    Spec {
        id: Id::Threads,
        name: THREADS,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    Spec {
        id: Id::MoveOverhead,
        name: MOVE_OVERHEAD,
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    Spec {
        id: Id::ClearHash,
        name: CLEAR_HASH,
        kind: Kind::Button,
    },
    Spec {
        id: Id::MultiPv,
        name: MULTIPV,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    Spec {
        id: Id::Ponder,
        name: PONDER,
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::Chess960,
        name: CHESS960,
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::ShowWdl,
        name: SHOW_WDL,
        kind: Kind::Check { default: false },
    },
    Spec {
        id: Id::SyzygyPath,
        name: SYZYGY_PATH,
        kind: Kind::String { default: "" },
    },
    Spec {
        id: Id::SyzygyProbeDepth,
        name: SYZYGY_PROBE_DEPTH,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_SYZYGY_PROBE_DEPTH,
        },
    },
    Spec {
        id: Id::Syzygy50MoveRule,
        name: SYZYGY_50_MOVE_RULE,
        kind: Kind::Check { default: true },
    },
    Spec {
        id: Id::SyzygyProbeLimit,
        name: SYZYGY_PROBE_LIMIT,
        kind: Kind::Spin {
            default: MAX_SYZYGY_PIECES,
            min: 0,
            max: MAX_SYZYGY_PIECES,
        },
    },
    Spec {
        id: Id::EvalFile,
        name: EVAL_FILE,
        kind: Kind::String { default: "" },
    },
];

/// The values the engine runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead: Duration,
    pub multipv: usize,
    pub ponder: bool,
    pub chess960: bool,
    /// Whether `info` lines carry `wdl W D L` after the score.
    pub show_wdl: bool,
    /// Directories of Syzygy tables, separated as in `PATH`; empty: none.
    pub syzygy_path: String,
    /// Least remaining depth at which the search probes the tables.
    pub syzygy_probe_depth: i32,
    /// Whether wins and losses the fifty-move rule spoils count as draws.
    pub syzygy_50_move_rule: bool,
    /// Positions with more pieces are not probed.
    pub syzygy_probe_limit: usize,
    /// A network file to evaluate with; empty: the embedded network.
    pub eval_file: String,
}

impl Default for Options {
    fn default() -> Self {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            move_overhead: Duration::ZERO,
            multipv: 0,
            ponder: false,
            chess960: false,
            show_wdl: false,
            syzygy_path: String::new(),
            syzygy_probe_depth: 0,
            syzygy_50_move_rule: false,
            syzygy_probe_limit: 0,
            eval_file: String::new(),
        };
        for spec in SPECS {
            let default = match spec.kind {
                Kind::Spin { default, .. } => Value::Number(default),
                Kind::Check { default } => Value::Flag(default),
                Kind::String { default } => Value::Text(default.to_string()),
                Kind::Button => Value::Press,
            };
            let change = change(spec.id, default).expect("defaults match their kinds");
            options.apply(change);
        }
        options
    }
}

/// One validated option change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Hash(usize),
    Threads(usize),
    MoveOverhead(Duration),
    MultiPv(usize),
    ClearHash,
    Ponder(bool),
    Chess960(bool),
    ShowWdl(bool),
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(usize),
    EvalFile(String),
}

impl Options {
    /// How the search probes the Syzygy tables under these options.
    pub fn probe_settings(&self) -> ProbeSettings {
        ProbeSettings {
            probe_limit: self.syzygy_probe_limit,
            probe_depth: self.syzygy_probe_depth,
            rule50: self.syzygy_50_move_rule,
        }
    }

    /// Records a change of value (buttons change nothing here).
    pub fn apply(&mut self, change: Change) {
        match change {
            Change::Hash(mb) => self.hash_mb = mb,
            Change::Threads(n) => self.threads = n,
            Change::MoveOverhead(d) => self.move_overhead = d,
            Change::MultiPv(n) => self.multipv = n,
            Change::Ponder(on) => self.ponder = on,
            Change::Chess960(on) => self.chess960 = on,
            Change::ShowWdl(on) => self.show_wdl = on,
            Change::SyzygyPath(path) => self.syzygy_path = path,
            Change::SyzygyProbeDepth(depth) => self.syzygy_probe_depth = depth,
            Change::Syzygy50MoveRule(on) => self.syzygy_50_move_rule = on,
            Change::SyzygyProbeLimit(pieces) => self.syzygy_probe_limit = pieces,
            Change::EvalFile(path) => self.eval_file = path,
            Change::ClearHash => {}
        }
    }

    /// The current value of option `id`.
    pub fn value(&self, id: Id) -> Value {
        match id {
            Id::Hash => Value::Number(self.hash_mb as i64),
            Id::Threads => Value::Number(self.threads as i64),
            Id::MoveOverhead => Value::Number(self.move_overhead.as_millis() as i64),
            Id::ClearHash => Value::Press,
            Id::MultiPv => Value::Number(self.multipv as i64),
            Id::Ponder => Value::Flag(self.ponder),
            Id::Chess960 => Value::Flag(self.chess960),
            Id::ShowWdl => Value::Flag(self.show_wdl),
            Id::SyzygyPath => Value::Text(self.syzygy_path.clone()),
            Id::SyzygyProbeDepth => Value::Number(i64::from(self.syzygy_probe_depth)),
            Id::Syzygy50MoveRule => Value::Flag(self.syzygy_50_move_rule),
            Id::SyzygyProbeLimit => Value::Number(self.syzygy_probe_limit as i64),
            Id::EvalFile => Value::Text(self.eval_file.clone()),
        }
    }
}

/// The change setting option `id` to `value`, or `None` when the value is
/// not of the option's kind (which [`parse_change`] never lets happen).
fn change(id: Id, value: Value) -> Option<Change> {
    Some(match id {
        Id::Hash => Change::Hash(value.number()? as usize),
        Id::Threads => Change::Threads(value.number()? as usize),
        Id::MoveOverhead => Change::MoveOverhead(Duration::from_millis(value.number()? as u64)),
        Id::ClearHash => Change::ClearHash,
        Id::MultiPv => Change::MultiPv(value.number()? as usize),
        Id::Ponder => Change::Ponder(value.flag()?),
        Id::Chess960 => Change::Chess960(value.flag()?),
        Id::ShowWdl => Change::ShowWdl(value.flag()?),
        Id::SyzygyPath => Change::SyzygyPath(value.text()?),
        Id::SyzygyProbeDepth => Change::SyzygyProbeDepth(value.number()? as i32),
        Id::Syzygy50MoveRule => Change::Syzygy50MoveRule(value.flag()?),
        Id::SyzygyProbeLimit => Change::SyzygyProbeLimit(value.number()? as usize),
        Id::EvalFile => Change::EvalFile(value.text()?),
    })
}

/// The kind of the option called `name` (any case), if there is one.
pub fn kind_of(name: &str) -> Option<Kind> {
    find(name).map(|spec| spec.kind)
}

fn find(name: &str) -> Option<&'static Spec> {
    SPECS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name.trim()))
}

/// A validated change, plus a note when the value had to be clamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub change: Change,
    pub note: Option<String>,
}

/// Validates `setoption name <name> value <value>`.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<Parsed, String> {
    let spec = find(name).ok_or_else(|| format!("unknown option '{name}'"))?;
    let text = value.map(str::trim).unwrap_or("");
    let (value, note) = match spec.kind {
        Kind::Button => (Value::Press, None),
        Kind::String { .. } => (Value::Text(text.to_string()), None),
        Kind::Check { .. } => {
            let on = match text.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(format!(
                        "option '{}' expects true or false, got '{text}'",
                        spec.name
                    ));
                }
            };
            (Value::Flag(on), None)
        }
        Kind::Spin { min, max, .. } => {
            let number: i128 = text
                .parse()
                .map_err(|_| format!("option '{}' expects an integer, got '{text}'", spec.name))?;
            let clamped = number.clamp(i128::from(min), i128::from(max)) as i64;
            let note = (i128::from(clamped) != number).then(|| {
                format!(
                    "option '{}' value {number} is outside {min}..{max}; using {clamped}",
                    spec.name
                )
            });
            (Value::Number(clamped), note)
        }
    };
    let change = change(spec.id, value)
        .ok_or_else(|| format!("option '{}' is declared with the wrong kind", spec.name))?;
    Ok(Parsed { change, note })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_changes_only_itself() {
        // Set each option in turn to a value other than its default and
        // check that exactly that option moved.
        for spec in SPECS {
            let before = Options::default();
            let value = match spec.kind {
                Kind::Spin { default, min, max } => {
                    Value::Number(if default == max { min } else { max })
                }
                Kind::Check { default } => Value::Flag(!default),
                Kind::String { .. } => Value::Text("/some/where".to_string()),
                Kind::Button => continue,
            };
            let mut after = before.clone();
            after.apply(change(spec.id, value.clone()).unwrap());
            for other in SPECS {
                let moved = after.value(other.id) != before.value(other.id);
                assert_eq!(
                    moved,
                    other.id == spec.id,
                    "setting {:?} moved {:?}",
                    spec.id,
                    other.id
                );
            }
            assert_eq!(after.value(spec.id), value);
        }
    }

    #[test]
    fn defaults_match_the_table() {
        let options = Options::default();
        assert_eq!(options.hash_mb, 16);
        assert_eq!(options.threads, 1);
        assert_eq!(options.move_overhead, Duration::from_millis(10));
        assert!(!options.ponder && !options.chess960);
        assert_eq!(options.syzygy_path, "");
        assert_eq!(options.syzygy_probe_depth, 1);
        assert!(options.syzygy_50_move_rule);
        assert_eq!(options.syzygy_probe_limit, 7);
    }

    #[test]
    fn string_options_take_the_value_as_it_is() {
        assert_eq!(
            parse_change("syzygypath", Some(" /tb/3-4-5:/tb/6 ")).unwrap(),
            Parsed {
                change: Change::SyzygyPath("/tb/3-4-5:/tb/6".to_string()),
                note: None
            }
        );
        for empty in [Some("<empty>"), Some(""), None] {
            assert_eq!(
                parse_change("SyzygyPath", empty).unwrap().change,
                Change::SyzygyPath(String::new())
            );
        }
        let mut options = Options::default();
        options.apply(Change::SyzygyPath("/tb".to_string()));
        assert_eq!(
            options.value(Id::SyzygyPath),
            Value::Text("/tb".to_string())
        );
    }

    #[test]
    fn syzygy_spins_are_clamped() {
        let parsed = parse_change("SyzygyProbeLimit", Some("9")).unwrap();
        assert_eq!(parsed.change, Change::SyzygyProbeLimit(7));
        assert!(parsed.note.is_some());
        assert_eq!(
            parse_change("SyzygyProbeDepth", Some("0")).unwrap().change,
            Change::SyzygyProbeDepth(1)
        );
        assert_eq!(
            parse_change("Syzygy50MoveRule", Some("false"))
                .unwrap()
                .change,
            Change::Syzygy50MoveRule(false)
        );
    }

    #[test]
    fn names_are_case_insensitive() {
        let parsed = parse_change("move overhead", Some("25")).unwrap();
        assert_eq!(
            parsed.change,
            Change::MoveOverhead(Duration::from_millis(25))
        );
        assert_eq!(
            parse_change("HASH", Some("64")).unwrap().change,
            Change::Hash(64)
        );
        assert_eq!(
            parse_change("uci_chess960", Some("TRUE")).unwrap().change,
            Change::Chess960(true)
        );
    }

    #[test]
    fn out_of_range_is_clamped_with_a_note() {
        let parsed = parse_change("Threads", Some("0")).unwrap();
        assert_eq!(parsed.change, Change::Threads(1));
        assert!(parsed.note.is_some());
        let huge = parse_change("Hash", Some("99999999999999999999999")).unwrap();
        assert_eq!(huge.change, Change::Hash(MAX_HASH_MB as usize));
    }

    #[test]
    fn bad_values_and_names_are_rejected() {
        assert!(parse_change("Hash", Some("lots")).is_err());
        assert!(parse_change("Hash", None).is_err());
        assert!(parse_change("Ponder", Some("yes")).is_err());
        assert!(parse_change("Contempt", Some("3")).is_err());
    }
}
