//! Parsing one line of UCI input into the engine's [`Command`]: pure, no
//! engine state, so it can be tested and fuzzed alone.
//!
//! Following the UCI specification, unknown tokens before a command are
//! skipped (`joho debug on` is `debug on`). A line with no known command, or
//! a command whose arguments make no sense, is an error the engine reports
//! as `info string error: …`. A `go` is never rejected (the GUI waits for its
//! `bestmove`): a bad argument is reported in [`Go::errors`] and skipped.
//! A number out of range saturates and a decimal is cut to its integer
//! part (`go depth 99999999999` is as deep as can be, `go movetime 1.5` is
//! 1 ms), and a `go` left with no limit by its bad arguments searches for
//! [`FALLBACK_MOVE_TIME`] rather than until a `stop` its sender never
//! meant to send.

use std::time::Duration;

use crate::engine::command::{Command, Go};
use crate::search::Limits;
use crate::tools::perft;

/// Keywords that end a `searchmoves` list.
const GO_KEYWORDS: [&str; 12] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

/// How long a `go` searches when bad arguments left it no limit (and it
/// did not ask for `infinite`): short, since its clock is unknown.
pub(crate) const FALLBACK_MOVE_TIME: Duration = Duration::from_millis(100);

/// An integer type a `go` limit is read into, with its range.
trait LimitInteger: TryFrom<i128> {
    const MIN: i128;
    const MAX: i128;
}

macro_rules! limit_integer {
    ($($integer:ty),*) => {
        $(impl LimitInteger for $integer {
            const MIN: i128 = <$integer>::MIN as i128;
            const MAX: i128 = <$integer>::MAX as i128;
        })*
    };
}
limit_integer!(i32, i64, u32, u64);

/// Parses a line; `Ok(None)` for a blank line.
pub fn command(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    for (index, token) in tokens.iter().enumerate() {
        let args = &tokens[index + 1..];
        let command = match *token {
            "uci" => Command::Uci,
            "debug" => Command::Debug(args.first() != Some(&"off")),
            "isready" => Command::IsReady,
            "setoption" => parse_setoption(line, args)?,
            "register" => Command::Register,
            "ucinewgame" => Command::UciNewGame,
            "position" => parse_position(args)?,
            "go" => parse_go(args)?,
            "stop" => Command::Stop,
            "ponderhit" => Command::PonderHit,
            "quit" => Command::Quit,
            "bench" => Command::Bench {
                depth: args
                    .first()
                    .map(|d| parse_number(d, "bench depth"))
                    .transpose()?,
            },
            "d" => Command::Display,
            "eval" => Command::Eval,
            _ => continue,
        };
        return Ok(Some(command));
    }
    Err(format!("unknown command '{}'", line.trim()))
}

fn parse_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} expects a number, got '{text}'"))
}

/// `setoption` with `args`, the tokens after it on `line`. The value is
/// the rest of the line after `value` as written, inner spaces and all (a
/// path may hold two in a row), trimmed at its ends.
fn parse_setoption(line: &str, args: &[&str]) -> Result<Command, String> {
    if args.first() != Some(&"name") {
        return Err("setoption expects 'name <id> [value <x>]'".to_string());
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(at) => (&rest[..at], Some(text_after(line, rest[at]).trim())),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err("setoption has no option name".to_string());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value: value.map(str::to_string),
    })
}

/// What follows `token`, a slice of `line` (one of its whitespace-split
/// tokens), to the end of the line.
fn text_after<'a>(line: &'a str, token: &str) -> &'a str {
    let token_start = (token.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
    debug_assert!(
        token_start + token.len() <= line.len(),
        "a token of the line"
    );
    &line[token_start + token.len()..]
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => None,
        Some(&"fen") if setup.len() > 1 => Some(setup[1..].join(" ")),
        Some(&"fen") => return Err("position fen needs a FEN".to_string()),
        _ => return Err("position expects 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(Command::Position {
        fen,
        moves: moves.iter().map(|m| m.to_string()).collect(),
    })
}

/// A `go` limit: an integer, or a decimal cut to its integer part (as
/// Stockfish's integer reads do), saturated into `T`'s range.
fn parse_limit<T: LimitInteger>(text: &str, what: &str) -> Result<T, String> {
    let error = || format!("{what} expects a number, got '{text}'");
    let value = match text.parse::<i128>() {
        Ok(value) => value,
        // `as` saturates, and every finite decimal has an integer part.
        Err(_) => match text.parse::<f64>() {
            Ok(decimal) if decimal.is_finite() => decimal.trunc() as i128,
            _ => return Err(error()),
        },
    };
    T::try_from(value.clamp(T::MIN, T::MAX))
        .ok()
        .ok_or_else(error)
}

/// A clock value in milliseconds; GUIs send negative times when late.
fn parse_millis(text: &str, what: &str) -> Result<Duration, String> {
    let millis: i64 = parse_limit(text, what)?;
    Ok(Duration::from_millis(millis.max(0) as u64))
}

fn parse_go(args: &[&str]) -> Result<Command, String> {
    if args.first() == Some(&"perft") {
        let depth = args.get(1).ok_or("go perft needs a depth")?;
        let depth = parse_number(depth, "go perft")?;
        if depth > perft::MAX_DEPTH {
            return Err(format!(
                "go perft {depth}: the deepest perft is {}",
                perft::MAX_DEPTH
            ));
        }
        return Ok(Command::Perft { depth });
    }
    let mut go = Go::default();
    let mut index = 0;
    while index < args.len() {
        let keyword = args[index];
        index += 1;
        match keyword {
            "searchmoves" => {
                while let Some(m) = args.get(index).filter(|t| !GO_KEYWORDS.contains(t)) {
                    go.search_moves.push(m.to_string());
                    index += 1;
                }
            }
            "ponder" => go.limits.ponder = true,
            "infinite" => go.limits.infinite = true,
            _ if GO_KEYWORDS.contains(&keyword) => {
                let Some(value) = args.get(index).filter(|v| !GO_KEYWORDS.contains(v)) else {
                    go.errors.push(format!("go {keyword} needs a value"));
                    continue;
                };
                index += 1;
                if let Err(error) = set_limit(&mut go.limits, keyword, value) {
                    go.errors.push(error);
                }
            }
            other => go
                .errors
                .push(format!("go: unknown argument '{other}' ignored")),
        }
    }
    if !go.errors.is_empty() && !go.limits.bestmove_waits_for_stop() && go.limits.is_unbounded() {
        go.limits.move_time = Some(FALLBACK_MOVE_TIME);
        go.errors.push(format!(
            "go: no valid limit left, searching {} ms",
            FALLBACK_MOVE_TIME.as_millis()
        ));
    }
    Ok(Command::Go(go))
}

/// Sets the limit named by a `go` keyword that takes a value.
fn set_limit(limits: &mut Limits, keyword: &str, value: &str) -> Result<(), String> {
    match keyword {
        "wtime" => limits.white_time = Some(parse_millis(value, keyword)?),
        "btime" => limits.black_time = Some(parse_millis(value, keyword)?),
        "winc" => limits.white_increment = Some(parse_millis(value, keyword)?),
        "binc" => limits.black_increment = Some(parse_millis(value, keyword)?),
        "movetime" => limits.move_time = Some(parse_millis(value, keyword)?),
        "movestogo" => limits.moves_to_go = Some(parse_limit(value, keyword)?),
        "depth" => limits.depth = Some(parse_limit(value, keyword)?),
        "nodes" => limits.nodes = Some(parse_limit(value, keyword)?),
        "mate" => limits.mate = Some(parse_limit(value, keyword)?),
        _ => return Err(format!("go {keyword} takes no value")),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(line: &str) -> Command {
        command(line).unwrap().unwrap()
    }

    #[test]
    fn skips_unknown_leading_tokens() {
        assert_eq!(parsed("joho debug on"), Command::Debug(true));
        assert!(command("hello world").is_err());
        assert_eq!(command("   ").unwrap(), None);
    }

    #[test]
    fn setoption_names_and_values_may_contain_spaces() {
        assert_eq!(
            parsed("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            parsed("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(command("setoption value 3").is_err());
        // A value keeps its inner spaces as written.
        assert_eq!(
            parsed("setoption name SyzygyPath value  /tb  dir/x y \r\n"),
            Command::SetOption {
                name: "SyzygyPath".into(),
                value: Some("/tb  dir/x y".into())
            }
        );
        assert_eq!(
            parsed("setoption name EvalFile value"),
            Command::SetOption {
                name: "EvalFile".into(),
                value: Some(String::new())
            }
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parsed("position startpos"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
        assert_eq!(
            parsed("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 moves a1a2"),
            Command::Position {
                fen: Some("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec!["a1a2".into()]
            }
        );
        assert!(command("position").is_err());
        assert!(command("position fen").is_err());
        assert!(command("position startpos e2e4").is_err());
    }

    #[test]
    fn go_reads_every_limit() {
        let Command::Go(go) = parsed(
            "go searchmoves e2e4 d2d4 ponder wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 9 nodes 100 mate 3 movetime 50 infinite",
        ) else {
            panic!("not a go")
        };
        assert_eq!(go.search_moves, vec!["e2e4", "d2d4"]);
        let limits = &go.limits;
        assert!(limits.ponder && limits.infinite);
        assert_eq!(go.limits.white_time, Some(Duration::from_millis(1000)));
        assert_eq!(go.limits.black_time, Some(Duration::ZERO));
        assert_eq!(go.limits.white_increment, Some(Duration::from_millis(10)));
        assert_eq!(go.limits.black_increment, Some(Duration::from_millis(20)));
        assert_eq!(
            (limits.moves_to_go, limits.depth, limits.nodes, limits.mate),
            (Some(7), Some(9), Some(100), Some(3))
        );
        assert_eq!(go.limits.move_time, Some(Duration::from_millis(50)));
        assert!(go.errors.is_empty());
    }

    #[test]
    fn go_reports_bad_arguments_but_still_searches() {
        let Command::Go(go) = parsed("go depth x wtime movetime 5 frobnicate") else {
            panic!("not a go")
        };
        assert_eq!(go.errors.len(), 3, "{:?}", go.errors);
        assert_eq!(go.limits.move_time, Some(Duration::from_millis(5)));
        assert_eq!(parsed("go perft 3"), Command::Perft { depth: 3 });
        assert_eq!(parsed("go perft 64"), Command::Perft { depth: 64 });
        // Deeper would never finish, and the walk recurses once per ply.
        assert!(command("go perft 65").is_err());
    }

    fn go(line: &str) -> Go {
        let Command::Go(go) = parsed(line) else {
            panic!("not a go")
        };
        go
    }

    #[test]
    fn go_limits_out_of_range_saturate_and_decimals_are_cut() {
        let huge = go("go depth 99999999999 nodes 1e40 movestogo -3 wtime 99999999999999999999999");
        assert!(huge.errors.is_empty(), "{:?}", huge.errors);
        let limits = &huge.limits;
        assert_eq!(
            (limits.depth, limits.nodes, limits.moves_to_go),
            (Some(i32::MAX), Some(u64::MAX), Some(0))
        );
        assert_eq!(
            limits.white_time,
            Some(Duration::from_millis(i64::MAX as u64))
        );
        let decimal = go("go movetime 1.9 depth -2.5");
        assert_eq!(decimal.limits.move_time, Some(Duration::from_millis(1)));
        assert_eq!(decimal.limits.depth, Some(-2));
        for not_a_number in ["NaN", "inf", "1e400", "0x10"] {
            let line = format!("go movetime {not_a_number}");
            assert_eq!(
                go(&line).limits.move_time,
                Some(FALLBACK_MOVE_TIME),
                "{line}"
            );
        }
    }

    #[test]
    fn a_go_whose_bad_arguments_leave_no_limit_gets_a_short_move_time() {
        for line in [
            "go movetime abc",
            "go wtime x btime y",
            "go frobnicate",
            "go ponder depth",
        ] {
            let go = go(line);
            assert_eq!(go.limits.move_time, Some(FALLBACK_MOVE_TIME), "{line}");
            assert!(go.errors.len() >= 2, "{line}: {:?}", go.errors);
        }
        // Asked for: no limit, and no fallback.
        for line in ["go", "go infinite movetime abc", "go searchmoves e2e4"] {
            assert_eq!(go(line).limits.move_time, None, "{line}");
        }
        // A valid limit survived.
        assert_eq!(go("go depth 3 movetime abc").limits.move_time, None);
    }
}
