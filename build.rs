//! Build script: compiles the commit the binary is built from into it, as
//! `ROOKERY_COMMIT` (`git rev-parse --short=7 HEAD`, or `unknown` outside a
//! git checkout, as in CI's copy of the tracked files). Self-play files
//! name the engine that played them with it.

use std::process::Command;

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
    println!("cargo:rustc-env=ROOKERY_COMMIT={commit}");
    // A new commit (HEAD moves, or the branch it names does) is a new
    // build's name; nothing else reruns this script.
    for path in [".git/HEAD", ".git/refs/heads", ".git/packed-refs"] {
        if std::path::Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
