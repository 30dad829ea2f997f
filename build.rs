//! Build script: compiles the commit the binary is built from into it, as
//! `ROOKERY_COMMIT` (`git rev-parse --short=7 HEAD`, or `unknown` outside a
//! git checkout, as in CI's copy of the tracked files), with `-dirty`
//! added when what the binary is built from differs from that commit
//! (`src/`, the network, the manifests). Self-play files name the engine
//! that played them with it, and `rookery --version` shows it.

use std::process::Command;

/// What the engine binary is built from, for the `-dirty` mark.
const BUILT_FROM: [&str; 4] = ["src", "networks", "Cargo.toml", "Cargo.lock"];

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=7", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    let dirty = commit != "unknown"
        && !Command::new("git")
            .args(["diff", "--quiet", "HEAD", "--"])
            .args(BUILT_FROM)
            .status()
            .is_ok_and(|status| status.success());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=ROOKERY_COMMIT={commit}{suffix}");
    // A new commit (HEAD moves, or the branch it names does), or a change
    // to what the binary is built from, reruns this script.
    for path in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"]
        .into_iter()
        .chain(BUILT_FROM)
    {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
