//! The options as UCI shows them: the `option name …` lines of the answer
//! to `uci`, from the option table and values of [`crate::engine::options`] (and,
//! in a `tuning` build, the search's tunables).

use crate::engine::options::{EMPTY_STRING, Kind, Options, SPECS, Value};

/// The `option name …` lines of the `uci` answer, showing `options`' values
/// as the defaults.
pub fn option_lines(options: &Options) -> Vec<String> {
    SPECS
        .iter()
        .map(|spec| {
            let value = match options.value(spec.id) {
                Value::Number(n) => n.to_string(),
                Value::Flag(on) => on.to_string(),
                Value::Text(text) if text.is_empty() => EMPTY_STRING.to_string(),
                Value::Text(text) => text,
                Value::Press => String::new(),
            };
            match spec.kind {
                Kind::Spin { min, max, .. } => format!(
                    "option name {} type spin default {value} min {min} max {max}",
                    spec.name
                ),
                Kind::Check { .. } => {
                    format!("option name {} type check default {value}", spec.name)
                }
                Kind::Button => format!("option name {} type button", spec.name),
                Kind::String { .. } => {
                    format!("option name {} type string default {value}", spec.name)
                }
            }
        })
        .collect()
}

/// The `option name …` lines of the search's tunables (`tuning` builds).
#[cfg(feature = "tuning")]
pub(crate) fn tunable_lines() -> Vec<String> {
    crate::search::tunables::TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::{Change, MAX_HASH_MB};

    #[test]
    fn every_option_is_declared_with_its_kind_default_and_range() {
        let lines = option_lines(&Options::default());
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

    #[test]
    fn the_current_values_are_shown_as_defaults() {
        let mut options = Options::default();
        options.apply(Change::SyzygyPath("/tb".to_string()));
        assert!(
            option_lines(&options)
                .contains(&"option name SyzygyPath type string default /tb".to_string())
        );
    }
}
