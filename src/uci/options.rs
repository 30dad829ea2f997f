//! The UCI options: their declarations, current values and validation.
//!
//! One table, [`SPECS`], declares every option once; `uci` prints it,
//! `setoption` and `engine.toml` both go through [`parse_change`], so the
//! command line, the config file and the GUI validate the same way. Names
//! are matched case-insensitively. A number out of range is clamped (and
//! said so); a value that is not a number or boolean is rejected. A string
//! option takes the rest of the line as it is; empty, or `<empty>` as UCI
//! GUIs write it, is the empty string.

use std::time::Duration;

/// Largest `Hash` in MB (1 TiB); allocation may still fail below it, which
/// is reported and keeps the old table.
pub const MAX_HASH_MB: i64 = 1 << 20;
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: &'static str,
    pub kind: Kind,
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

/// Every option, in the order `uci` lists them.
pub const SPECS: [Spec; 12] = [
    Spec {
        name: HASH,
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    Spec {
        name: THREADS,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS,
        },
    },
    Spec {
        name: MOVE_OVERHEAD,
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: MAX_MOVE_OVERHEAD_MS,
        },
    },
    Spec {
        name: CLEAR_HASH,
        kind: Kind::Button,
    },
    Spec {
        name: MULTIPV,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_MULTIPV,
        },
    },
    Spec {
        name: PONDER,
        kind: Kind::Check { default: false },
    },
    Spec {
        name: CHESS960,
        kind: Kind::Check { default: false },
    },
    Spec {
        name: SHOW_WDL,
        kind: Kind::Check { default: false },
    },
    Spec {
        name: SYZYGY_PATH,
        kind: Kind::String { default: "" },
    },
    Spec {
        name: SYZYGY_PROBE_DEPTH,
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_SYZYGY_PROBE_DEPTH,
        },
    },
    Spec {
        name: SYZYGY_50_MOVE_RULE,
        kind: Kind::Check { default: true },
    },
    Spec {
        name: SYZYGY_PROBE_LIMIT,
        kind: Kind::Spin {
            default: MAX_SYZYGY_PIECES,
            min: 0,
            max: MAX_SYZYGY_PIECES,
        },
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
        };
        for spec in SPECS {
            match spec.kind {
                Kind::Spin { default, .. } => {
                    options.apply(spin_change(spec.name, default));
                }
                Kind::Check { default } => {
                    options.apply(check_change(spec.name, default));
                }
                Kind::String { default } => {
                    options.apply(string_change(spec.name, default));
                }
                Kind::Button => {}
            }
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
}

impl Options {
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
            Change::ClearHash => {}
        }
    }

    /// The `option name …` lines of the `uci` answer, showing these values
    /// as the defaults.
    pub fn uci_lines(&self) -> Vec<String> {
        SPECS
            .iter()
            .map(|spec| match spec.kind {
                Kind::Spin { min, max, .. } => format!(
                    "option name {} type spin default {} min {min} max {max}",
                    spec.name,
                    self.spin_value(spec.name)
                ),
                Kind::Check { .. } => format!(
                    "option name {} type check default {}",
                    spec.name,
                    self.check_value(spec.name)
                ),
                Kind::Button => format!("option name {} type button", spec.name),
                Kind::String { .. } => format!(
                    "option name {} type string default {}",
                    spec.name,
                    self.string_value(spec.name)
                ),
            })
            .collect()
    }

    fn spin_value(&self, name: &str) -> i64 {
        match name {
            HASH => self.hash_mb as i64,
            THREADS => self.threads as i64,
            MULTIPV => self.multipv as i64,
            SYZYGY_PROBE_DEPTH => i64::from(self.syzygy_probe_depth),
            SYZYGY_PROBE_LIMIT => self.syzygy_probe_limit as i64,
            _ => self.move_overhead.as_millis() as i64,
        }
    }

    fn check_value(&self, name: &str) -> bool {
        match name {
            PONDER => self.ponder,
            SHOW_WDL => self.show_wdl,
            SYZYGY_50_MOVE_RULE => self.syzygy_50_move_rule,
            _ => self.chess960,
        }
    }

    /// A string option's value as `uci` shows it (`SyzygyPath` is the only
    /// string option so far).
    fn string_value(&self, _name: &str) -> &str {
        if self.syzygy_path.is_empty() {
            EMPTY_STRING
        } else {
            &self.syzygy_path
        }
    }
}

fn spin_change(name: &str, value: i64) -> Change {
    match name {
        HASH => Change::Hash(value as usize),
        THREADS => Change::Threads(value as usize),
        MULTIPV => Change::MultiPv(value as usize),
        SYZYGY_PROBE_DEPTH => Change::SyzygyProbeDepth(value as i32),
        SYZYGY_PROBE_LIMIT => Change::SyzygyProbeLimit(value as usize),
        _ => Change::MoveOverhead(Duration::from_millis(value as u64)),
    }
}

fn check_change(name: &str, value: bool) -> Change {
    match name {
        PONDER => Change::Ponder(value),
        SHOW_WDL => Change::ShowWdl(value),
        SYZYGY_50_MOVE_RULE => Change::Syzygy50MoveRule(value),
        _ => Change::Chess960(value),
    }
}

/// The change setting a string option (`SyzygyPath` is the only one so
/// far) to `value`; `<empty>` is the empty string.
fn string_change(_name: &str, value: &str) -> Change {
    let value = if value == EMPTY_STRING { "" } else { value };
    Change::SyzygyPath(value.to_string())
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
    match spec.kind {
        Kind::Button => Ok(Parsed {
            change: Change::ClearHash,
            note: None,
        }),
        Kind::String { .. } => Ok(Parsed {
            change: string_change(spec.name, text),
            note: None,
        }),
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
            Ok(Parsed {
                change: check_change(spec.name, on),
                note: None,
            })
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
            Ok(Parsed {
                change: spin_change(spec.name, clamped),
                note,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(
            options
                .uci_lines()
                .contains(&"option name SyzygyPath type string default /tb".to_string())
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

    #[test]
    fn uci_lines_declare_every_option() {
        let lines = Options::default().uci_lines();
        assert_eq!(lines.len(), SPECS.len());
        assert!(lines.contains(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
        )));
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(lines.contains(&"option name SyzygyPath type string default <empty>".to_string()));
        assert!(lines.contains(
            &"option name SyzygyProbeDepth type spin default 1 min 1 max 100".to_string()
        ));
        assert!(
            lines.contains(&"option name Syzygy50MoveRule type check default true".to_string())
        );
        assert!(
            lines.contains(
                &"option name SyzygyProbeLimit type spin default 7 min 0 max 7".to_string()
            )
        );
    }
}
