//! Build script: compiles the commit the binary is built from into it, as
//! `ROOKERY_COMMIT` (`git rev-parse --short=7 HEAD`, or `unknown` outside a
//! git checkout, as in CI's copy of the tracked files), with `-dirty`
//! added when what the binary is built from differs from that commit
//! (`src/`, the network, the manifests). Self-play files name the engine
//! that played them with it, and `rookery --version` shows it.
//!
//! The script runs again when a commit is made or checked out: it watches
//! `HEAD` and the branches where git says they are (`git rev-parse
//! --git-path`), which in a linked worktree (`git worktree add`) is not
//! `.git/`: `.git` is a file there, and watching `.git/HEAD` left such a
//! checkout's binaries stamped with the commit (and `-dirty` mark) of the
//! build before.

use std::process::Command;

/// What the engine binary is built from, for the `-dirty` mark.
const BUILT_FROM: [&str; 4] = ["src", "networks", "Cargo.toml", "Cargo.lock"];

/// The git files whose change means another commit: `HEAD` (a checkout),
/// the branches (a commit moves the one `HEAD` names) and the packed refs.
const COMMIT_FILES: [&str; 3] = ["HEAD", "refs/heads", "packed-refs"];

/// What `git ARGUMENTS` prints on success, trimmed, or `None` (no git, or
/// not in a checkout).
fn git_output(arguments: &[&str]) -> Option<String> {
    Command::new("git")
        .args(arguments)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
}

fn main() {
    let commit = git_output(&["rev-parse", "--short=7", "HEAD"]);
    let dirty = commit.is_some()
        && !Command::new("git")
            .args(["diff", "--quiet", "HEAD", "--"])
            .args(BUILT_FROM)
            .status()
            .is_ok_and(|status| status.success());
    let suffix = if dirty { "-dirty" } else { "" };
    let commit = commit.as_deref().unwrap_or("unknown");
    println!("cargo:rustc-env=ROOKERY_COMMIT={commit}{suffix}");
    // A new commit, or a change to what the binary is built from, reruns
    // this script.
    let commit_files = COMMIT_FILES
        .into_iter()
        .filter_map(|file| git_output(&["rev-parse", "--git-path", file]));
    for path in commit_files.chain(BUILT_FROM.map(String::from)) {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
