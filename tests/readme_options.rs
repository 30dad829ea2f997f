//! The README's table of UCI options says what the engine declares: every
//! option, with its type, default and range, in the order `uci` lists
//! them, so the two cannot drift apart.

use rookery::engine::options::Options;
use rookery::uci::option_lines::option_lines;

/// The `uci` line a README table row describes, or `None` for a line of
/// the file that is no option row.
fn declared_by(row: &str) -> Option<String> {
    let cells: Vec<&str> = row
        .trim()
        .strip_prefix('|')?
        .split('|')
        .map(str::trim)
        .collect();
    let [name, kind, default, range, ..] = cells[..] else {
        return None;
    };
    let name = name.strip_prefix('`')?.strip_suffix('`')?;
    let default = default.trim_matches('`');
    Some(match kind {
        "button" => format!("option name {name} type button"),
        "spin" => {
            let (min, max) = range.split_once(" – ")?;
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        _ => format!("option name {name} type {kind} default {default}"),
    })
}

#[test]
fn the_readme_option_table_matches_the_declarations() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let section = readme
        .split("## UCI options")
        .nth(1)
        .expect("a 'UCI options' section")
        .split("\n## ")
        .next()
        .unwrap();
    let documented: Vec<String> = section.lines().filter_map(declared_by).collect();
    assert_eq!(documented, option_lines(&Options::default()));
}
