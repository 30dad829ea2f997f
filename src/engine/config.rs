//! `engine.toml`: defaults for the UCI options, read once at start-up.
//!
//! Lookup order: the `--config PATH` argument, then `engine.toml` beside the
//! executable, then the built-in defaults. Keys are option names (any case,
//! quoted when they contain spaces); values are integers, booleans, or
//! strings for string options (`SyzygyPath`, `EvalFile`). The file never
//! stops the engine: a broken file or entry is reported (logged, and
//! repeated after `uci` as `info string error: PATH: …`, naming the file
//! read) and the built-in default stays.

use std::path::Path;

use super::options::{self, Kind, Options};

const FILE_NAME: &str = "engine.toml";

/// What labels the errors of start-up when no file was read (the
/// built-in defaults could not be had, such as their `Hash`).
const NO_FILE: &str = "start-up";

/// The option defaults after reading the config, and what went wrong.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub(crate) defaults: Options,
    /// The file the defaults were read from (or tried), if any.
    pub(crate) source: Option<String>,
    pub(crate) errors: Vec<String>,
}

/// Whether `path` is a FIFO (only Unix has them).
fn is_named_pipe(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        std::fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

impl Config {
    /// Loads the config from `explicit`, or from beside the executable.
    pub fn load(explicit: Option<&Path>) -> Config {
        match explicit {
            // Checked before reading: reading a named pipe waits for a
            // writer. (A device such as /dev/null reads at once: no config.)
            Some(path) if is_named_pipe(path) => {
                Config::from_file(path, Config::failed("a named pipe".to_string()))
            }
            Some(path) => Config::from_file(path, Config::read(path)),
            None => {
                let beside_exe = std::env::current_exe()
                    .ok()
                    .and_then(|exe| exe.parent().map(|dir| dir.join(FILE_NAME)));
                match beside_exe {
                    Some(path) if path.is_file() => {
                        log::info!("reading option defaults from {}", path.display());
                        Config::from_file(&path, Config::read(&path))
                    }
                    _ => Config::default(),
                }
            }
        }
    }

    /// What labels this config's errors: the file's path, or start-up.
    pub(crate) fn label(&self) -> &str {
        self.source.as_deref().unwrap_or(NO_FILE)
    }

    /// The network file the config names (`EvalFile`), if any: what a
    /// tool outside the UCI loop (`rookery bench`) takes from it. Such a
    /// tool has no GUI to tell of a broken config and go on, so any error
    /// of the config is returned instead, after the file's name.
    pub fn eval_file(&self) -> Result<Option<&str>, String> {
        if !self.errors.is_empty() {
            return Err(format!("{}: {}", self.label(), self.errors.join("; ")));
        }
        let path = self.defaults.eval_file.as_str();
        Ok((!path.is_empty()).then_some(path))
    }

    /// `config`, read (or not) from the file at `path`: its errors are
    /// labelled with the path, and logged.
    fn from_file(path: &Path, config: Config) -> Config {
        let config = Config {
            source: Some(path.display().to_string()),
            ..config
        };
        for error in &config.errors {
            log::warn!("{}: {error}", config.label());
        }
        config
    }

    /// The config in the file at `path`.
    fn read(path: &Path) -> Config {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&text),
            Err(error) => Config::failed(format!("cannot read it: {error}")),
        }
    }

    /// No config, for the reason `error`.
    fn failed(error: String) -> Config {
        Config {
            errors: vec![error],
            ..Config::default()
        }
    }

    /// Reads config text; every problem is collected, none is fatal.
    pub(crate) fn parse(text: &str) -> Config {
        let mut config = Config::default();
        let table = match text.parse::<toml::Table>() {
            Ok(table) => table,
            Err(error) => {
                let message = format!("not valid TOML: {}", error.message());
                config.errors.push(message);
                return config;
            }
        };
        for (key, value) in &table {
            let is_string_option = matches!(options::kind_of(key), Some(Kind::String { .. }));
            let text = match value {
                toml::Value::String(text) if is_string_option => text.clone(),
                other if is_string_option => {
                    config.errors.push(format!(
                        "'{key}' must be a string, not {}",
                        other.type_str()
                    ));
                    continue;
                }
                toml::Value::Integer(n) => n.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                other => {
                    config.errors.push(format!(
                        "'{key}' must be an integer or a boolean, not {}",
                        other.type_str()
                    ));
                    continue;
                }
            };
            match options::parse_change(key, Some(&text)) {
                Ok(parsed) => {
                    config.defaults.apply(parsed.change);
                    config.errors.extend(parsed.note);
                }
                Err(error) => config.errors.push(error),
            }
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn reads_options_by_name_in_any_case() {
        let config = Config::parse("hash = 64\n\"Move Overhead\" = 50\nPonder = true\n");
        assert!(config.errors.is_empty(), "{:?}", config.errors);
        assert_eq!(config.defaults.hash_mb, 64);
        assert_eq!(config.defaults.move_overhead, Duration::from_millis(50));
        assert!(config.defaults.ponder);
    }

    #[test]
    fn bad_entries_are_reported_and_keep_defaults() {
        let config = Config::parse("Hash = \"big\"\nContempt = 3\nThreads = 0\n");
        assert_eq!(config.errors.len(), 3, "{:?}", config.errors);
        assert_eq!(config.defaults.hash_mb, 16);
        assert_eq!(config.defaults.threads, 1, "clamped to the minimum");
    }

    #[test]
    fn string_options_take_strings_only() {
        let config = Config::parse("SyzygyPath = \"/tb/a:/tb/b\"\n");
        assert!(config.errors.is_empty(), "{:?}", config.errors);
        assert_eq!(config.defaults.syzygy_path, "/tb/a:/tb/b");
        let config = Config::parse("SyzygyPath = 3\nHash = \"64\"\n");
        assert_eq!(config.errors.len(), 2, "{:?}", config.errors);
        assert_eq!(config.defaults, Options::default());
    }

    #[test]
    fn tools_take_the_network_file_of_a_config_that_reads_cleanly() {
        assert_eq!(Config::default().eval_file(), Ok(None));
        let config = Config::parse("EvalFile = \"nets/candidate.nnue\"\n");
        assert_eq!(config.eval_file(), Ok(Some("nets/candidate.nnue")));
        let broken = Config::from_file(Path::new("x.toml"), Config::parse("Hash = = 3"));
        let error = broken.eval_file().unwrap_err();
        assert!(error.starts_with("x.toml: not valid TOML"), "{error}");
    }

    #[test]
    fn broken_toml_is_reported() {
        let config = Config::parse("Hash = = 3");
        assert_eq!(config.errors.len(), 1);
        assert_eq!(config.defaults, Options::default());
    }

    #[test]
    fn missing_explicit_file_is_reported_under_its_path() {
        let config = Config::load(Some(Path::new("/nonexistent/rookery.toml")));
        assert_eq!(config.errors.len(), 1);
        assert_eq!(config.label(), "/nonexistent/rookery.toml");
        // With no file read, errors of start-up are labelled so.
        assert_eq!(Config::default().label(), "start-up");
    }

    #[test]
    fn shipped_engine_toml_is_valid() {
        let text = include_str!("../../engine.toml");
        let config = Config::parse(text);
        assert!(config.errors.is_empty(), "{:?}", config.errors);
        assert_eq!(config.defaults, Options::default());
    }
}
