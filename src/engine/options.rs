//! The engine's options: their declarations, current values and
//! validation, below the protocol that names them to a GUI.
//!
//! Every option is declared once, in the one table of `declare_options!`
//! below: its [`Id`], its name, its kind with default and range, and the
//! field of [`Options`] that holds its value (with the field's type). The
//! macro makes from that table the option list [`SPECS`], the [`Options`]
//! struct, the [`Change`] a `setoption` makes and the conversions between
//! them, so no option is listed twice and every match on an [`Id`] or a
//! [`Change`] stays exhaustive. The protocol prints the list
//! (`uci::option_lines`), and `setoption` and `engine.toml` both go through
//! [`parse_change`], so the command line, the config file and the GUI
//! validate the same way; the engine then applies a value from either by
//! one function (`engine::settings`). The search and the tablebases never
//! see this module: the engine hands them plain values
//! ([`Options::probe_settings`], [`Options::playing_elo`]). Names
//! are matched case-insensitively. A number out of range is clamped (and
//! said so); a value that is not a number or boolean is rejected. A string
//! option takes the rest of the line as it is; empty, or `<empty>` as UCI
//! GUIs write it, is the empty string.

use std::time::Duration;

use crate::tablebase::ProbeSettings;

/// Largest `Hash` in MB (1 TiB); allocation may still fail below it, which
/// is reported and keeps a table of the old size (emptied: the old table is
/// freed before the new one is allocated, so that the two never need
/// memory at once).
pub(crate) const MAX_HASH_MB: i64 = 1 << 20;
/// Smallest `Hash` in MB: also the size the engine falls back to when the
/// configured one cannot be allocated at start-up.
pub(crate) const MIN_HASH_MB: i64 = 1;
pub(crate) const MAX_THREADS: i64 = 1024;
pub(crate) const MAX_MOVE_OVERHEAD_MS: i64 = 5000;
pub(crate) const MAX_MULTIPV: i64 = 256;
pub(crate) const MAX_SYZYGY_PROBE_DEPTH: i64 = 100;
/// The `UCI_Elo` range: Stockfish 15.1's, the scale it is calibrated on.
pub(crate) const MIN_ELO: i64 = 1350;
pub(crate) const MAX_ELO: i64 = 2850;
/// `Skill Level`'s range, Stockfish 15.1's: the highest is full strength.
pub(crate) const MIN_SKILL_LEVEL: i64 = 0;
pub(crate) const MAX_SKILL_LEVEL: i64 = 20;
/// Syzygy tables exist for up to 7 pieces.
pub(crate) const MAX_SYZYGY_PIECES: i64 = 7;
/// How UCI writes an empty string value.
pub(crate) const EMPTY_STRING: &str = "<empty>";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    String { default: &'static str },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Spec {
    pub(crate) id: Id,
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
}

/// A validated value of an option's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Number(i64),
    Flag(bool),
    Text(String),
    Press,
}

impl Kind {
    /// The option's default as a value.
    fn default_value(self) -> Value {
        match self {
            Kind::Spin { default, .. } => Value::Number(default),
            Kind::Check { default } => Value::Flag(default),
            Kind::String { default } => Value::Text(default.to_string()),
            Kind::Button => Value::Press,
        }
    }
}

/// A pressed button: the value of a button option, which holds nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Press;

/// The type of an [`Options`] field, read from and shown as a [`Value`]
/// of its option's kind.
pub(crate) trait OptionValue: Sized {
    /// The field's value, or `None` for a value of another kind.
    fn from_value(value: Value) -> Option<Self>;
    fn to_value(&self) -> Value;
}

impl OptionValue for usize {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Number(n) => usize::try_from(n).ok(),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        Value::Number(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl OptionValue for i32 {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Number(n) => i32::try_from(n).ok(),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        Value::Number(i64::from(*self))
    }
}

/// A spin in milliseconds.
impl OptionValue for Duration {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Number(ms) => Some(Duration::from_millis(u64::try_from(ms).ok()?)),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        Value::Number(i64::try_from(self.as_millis()).unwrap_or(i64::MAX))
    }
}

impl OptionValue for bool {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Flag(on) => Some(on),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        Value::Flag(*self)
    }
}

/// A string, with UCI's `<empty>` read as empty.
impl OptionValue for String {
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Text(text) if text == EMPTY_STRING => Some(String::new()),
            Value::Text(text) => Some(text),
            _ => None,
        }
    }

    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl OptionValue for Press {
    fn from_value(value: Value) -> Option<Self> {
        matches!(value, Value::Press).then_some(Press)
    }

    fn to_value(&self) -> Value {
        Value::Press
    }
}

/// Declares the options from one table (see the module notes): each row is
/// `Id: field: Type = "Name", kind;`, with the field's doc comment above.
macro_rules! declare_options {
    ($($(#[$doc:meta])* $id:ident: $field:ident: $type:ty = $name:literal, $kind:expr;)*) => {
        /// Which option a [`Spec`] declares.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Id {
            $($id,)*
        }

        /// Every option, in the order `uci` lists them.
        pub(crate) const SPECS: &[Spec] = &[$(Spec { id: Id::$id, name: $name, kind: $kind },)*];

        /// The values the engine runs with.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Options {
            $($(#[$doc])* pub $field: $type,)*
        }

        /// One validated option change.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub(crate) enum Change {
            $($id($type),)*
        }

        impl Default for Options {
            fn default() -> Self {
                Options {
                    $($field: <$type>::from_value(Kind::default_value($kind))
                        .expect("defaults match their kinds"),)*
                }
            }
        }

        impl Options {
            /// Records a change of value (a button's press changes nothing
            /// here).
            pub(crate) fn apply(&mut self, change: Change) {
                match change {
                    $(Change::$id(value) => self.$field = value,)*
                }
            }

            /// The changes that take `from` to these values, in the order
            /// of the table (a button is never among them).
            pub(crate) fn changes_from(&self, from: &Options) -> Vec<Change> {
                let mut changes = Vec::new();
                $(if self.$field != from.$field {
                    changes.push(Change::$id(self.$field.clone()));
                })*
                changes
            }

            /// The current value of option `id`.
            pub(crate) fn value(&self, id: Id) -> Value {
                match id {
                    $(Id::$id => self.$field.to_value(),)*
                }
            }
        }

        impl Change {
            /// The option this changes.
            pub(crate) fn id(&self) -> Id {
                match self {
                    $(Change::$id(_) => Id::$id,)*
                }
            }
        }

        /// The change setting option `id` to `value`, or `None` when the
        /// value is not of the option's kind (which [`parse_change`] never
        /// lets happen).
        fn change(id: Id, value: Value) -> Option<Change> {
            Some(match id {
                $(Id::$id => Change::$id(<$type>::from_value(value)?),)*
            })
        }
    };
}

declare_options! {
    /// Transposition table size in MB.
    Hash: hash_mb: usize = "Hash",
        Kind::Spin { default: 16, min: MIN_HASH_MB, max: MAX_HASH_MB };
    Threads: threads: usize = "Threads", Kind::Spin { default: 1, min: 1, max: MAX_THREADS };
    /// Taken off every clock budget for the GUI's and the network's latency
    /// (of a `go movetime`, at most `search::time`'s margin of 5 ms).
    MoveOverhead: move_overhead: Duration = "Move Overhead",
        Kind::Spin { default: 10, min: 0, max: MAX_MOVE_OVERHEAD_MS };
    /// A button: empties the table.
    ClearHash: clear_hash: Press = "Clear Hash", Kind::Button;
    MultiPv: multipv: usize = "MultiPV", Kind::Spin { default: 1, min: 1, max: MAX_MULTIPV };
    Ponder: ponder: bool = "Ponder", Kind::Check { default: false };
    Chess960: chess960: bool = "UCI_Chess960", Kind::Check { default: false };
    /// Whether the engine plays at the rating `UCI_Elo` rather than its best.
    LimitStrength: limit_strength: bool = "UCI_LimitStrength", Kind::Check { default: false };
    /// The rating played at under `UCI_LimitStrength`, on Stockfish 15.1's
    /// `UCI_Elo` scale.
    Elo: elo: i32 = "UCI_Elo", Kind::Spin { default: MIN_ELO, min: MIN_ELO, max: MAX_ELO };
    /// Stockfish's weakening by level, for programs that set it by name:
    /// below the highest level it plays at the `UCI_Elo` the level maps
    /// to (`search::strength`); `UCI_LimitStrength` takes precedence.
    SkillLevel: skill_level: i32 = "Skill Level",
        Kind::Spin { default: MAX_SKILL_LEVEL, min: MIN_SKILL_LEVEL, max: MAX_SKILL_LEVEL };
    /// Whether `info` lines carry `wdl W D L` after the score.
    ShowWdl: show_wdl: bool = "UCI_ShowWDL", Kind::Check { default: false };
    /// Directories of Syzygy tables, separated as in `PATH`; empty: none.
    SyzygyPath: syzygy_path: String = "SyzygyPath", Kind::String { default: "" };
    /// Least remaining depth at which the search probes the tables.
    SyzygyProbeDepth: syzygy_probe_depth: i32 = "SyzygyProbeDepth",
        Kind::Spin { default: 1, min: 1, max: MAX_SYZYGY_PROBE_DEPTH };
    /// Whether wins and losses the fifty-move rule spoils count as draws.
    Syzygy50MoveRule: syzygy_50_move_rule: bool = "Syzygy50MoveRule",
        Kind::Check { default: true };
    /// Positions with more pieces are not probed.
    SyzygyProbeLimit: syzygy_probe_limit: usize = "SyzygyProbeLimit",
        Kind::Spin { default: MAX_SYZYGY_PIECES, min: 0, max: MAX_SYZYGY_PIECES };
    /// A network file to evaluate with; empty: the embedded network.
    EvalFile: eval_file: String = "EvalFile", Kind::String { default: "" };
    /// A file every UCI line in and out is appended to (`debug_log`);
    /// empty: none.
    DebugLogFile: debug_log_file: String = "Debug Log File", Kind::String { default: "" };
}

/// Stockfish 15.1's link between `UCI_Elo` and `Skill Level`: it turns
/// a rating into the level `((elo − 1346.6) / 143.4)^(1 / 0.806)`; a level
/// is played here at that formula's inverse.
const SKILL_ELO_AT_LEVEL_ZERO: f64 = 1346.6;
const SKILL_ELO_SCALE: f64 = 143.4;
const SKILL_LEVEL_EXPONENT: f64 = 0.806;

impl Options {
    /// How the search probes the Syzygy tables under these options.
    pub fn probe_settings(&self) -> ProbeSettings {
        ProbeSettings {
            probe_limit: self.syzygy_probe_limit,
            probe_depth: self.syzygy_probe_depth,
            rule50: self.syzygy_50_move_rule,
        }
    }

    /// The rating the search plays at under these options, or `None` for
    /// full strength: `UCI_Elo` under `UCI_LimitStrength` (which takes
    /// precedence, as in Stockfish), else the rating of a `Skill Level`
    /// below the highest.
    pub(crate) fn playing_elo(&self) -> Option<i32> {
        if self.limit_strength {
            Some(self.elo)
        } else {
            elo_of_skill_level(self.skill_level)
        }
    }
}

/// The rating `Skill Level` `level` plays at (clamped into the `UCI_Elo`
/// range); the highest level is full strength and has none.
fn elo_of_skill_level(level: i32) -> Option<i32> {
    (i64::from(level) < MAX_SKILL_LEVEL).then(|| {
        let level = f64::from(level.max(0));
        let elo = SKILL_ELO_AT_LEVEL_ZERO + SKILL_ELO_SCALE * level.powf(SKILL_LEVEL_EXPONENT);
        (elo.round() as i64).clamp(MIN_ELO, MAX_ELO) as i32
    })
}

/// The kind of the option called `name` (any case), if there is one.
pub(crate) fn kind_of(name: &str) -> Option<Kind> {
    find(name).map(|spec| spec.kind)
}

fn find(name: &str) -> Option<&'static Spec> {
    SPECS
        .iter()
        .find(|spec| spec.name.eq_ignore_ascii_case(name.trim()))
}

/// A validated change, plus a note when the value had to be clamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) change: Change,
    pub(crate) note: Option<String>,
}

/// Validates `setoption name <name> value <value>`.
pub(crate) fn parse_change(name: &str, value: Option<&str>) -> Result<Parsed, String> {
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
    fn skill_levels_play_at_stockfishs_ratings_and_limit_strength_comes_first() {
        // Stockfish 15.1 turns UCI_Elo 1350 into level 0 and 2264 into
        // level 10 (((2264 - 1346.6) / 143.4)^(1 / 0.806) = 10.0).
        let (min_elo, max_elo, max_level) =
            (MIN_ELO as i32, MAX_ELO as i32, MAX_SKILL_LEVEL as i32);
        assert_eq!(elo_of_skill_level(0), Some(min_elo));
        assert_eq!(elo_of_skill_level(10), Some(2264));
        assert_eq!(elo_of_skill_level(19), Some(max_elo));
        assert_eq!(elo_of_skill_level(max_level), None);
        let ratings: Vec<i32> = (0..max_level).filter_map(elo_of_skill_level).collect();
        assert!(ratings.windows(2).all(|pair| pair[0] <= pair[1]));
        let playing = |limit_strength, skill_level| {
            Options {
                limit_strength,
                elo: 2000,
                skill_level,
                ..Options::default()
            }
            .playing_elo()
        };
        assert_eq!(playing(false, max_level), None);
        assert_eq!(playing(false, 0), Some(min_elo));
        assert_eq!(playing(true, 0), Some(2000));
        assert_eq!(Options::default().playing_elo(), None);
    }

    #[test]
    fn bad_values_and_names_are_rejected() {
        assert!(parse_change("Hash", Some("lots")).is_err());
        assert!(parse_change("Hash", None).is_err());
        assert!(parse_change("Ponder", Some("yes")).is_err());
        assert!(parse_change("Contempt", Some("3")).is_err());
    }
}
