#!/usr/bin/env bash
# Plays a match between two UCI engines with fastchess
# (../shared/tools/fastchess beside the repository, or under the folder
# ROOKERY_SHARED names: scripts/shared.sh), with the project's
# standard settings: the 8-move book (../shared/data/openings/8moves_v3.epd)
# in random order, each opening played twice with colours swapped, 8+0.08,
# Hash 16 and Threads 1 for both engines, one game at a time, and no
# `-recover`: a crash or a protocol fault stops the match, so it shows.
#
# Usage:
#   scripts/match.sh [OPTIONS] ENGINE1 ENGINE2 [-- FASTCHESS_ARGS...]
#
# ENGINE1, ENGINE2    engine commands: a path, then any arguments, split at
#                     spaces. Results are from ENGINE1's point of view, so
#                     put the engine under test first.
# --name1/--name2 N   names in the PGN and the results (default: fastchess's,
#                     the file name, with _2 added to a repeated one)
# --option1/--option2 NAME=VALUE
#                     a UCI option for one engine, repeatable (EvalFile=x.nnue,
#                     Ethereal's MoveOverhead=10); Hash and Threads given here
#                     replace the defaults
# --tc TC             time control, cutechess format (default 8+0.08)
# --rounds N          openings played, two games each (default 100)
# --concurrency N     games at once (default 1; at most cores - 1)
# --sprt              stop at the SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05
#                     (fastchess's normalized Elo); give --rounds room for it
# --adjudicate        end decided games early, as fishtest does (and
#                     scripts/spsa.py by default): a draw after move 34 once
#                     both sides score within 20 for 8 moves, a loss once both
#                     agree on 600 for 3 moves. For tests at fixed nodes (about
#                     a sixth faster); not for matches that must show time
#                     losses, since a lost game ends before its clock runs out
# --seed N            seed of the opening order (fastchess -srand)
# --book FILE         EPD openings instead of the 8-move book
# --pgn FILE          where the games go (default /tmp/match-DATE-TIME.pgn;
#                     appended to). fastchess keeps its state beside it, in
#                     FILE with .json for .pgn: `fastchess -config file=THAT`
#                     resumes a stopped match
# -- FASTCHESS_ARGS   passed to fastchess as they are, after the wrapper's
#                     own (e.g. -variant fischerandom, -log file=x level=info)
#
# Example: scripts/match.sh target/release/rookery /tmp/rookery-base \
#            --name1 new --name2 base --rounds 10000 --sprt --pgn /tmp/sprt.pgn
set -euo pipefail

# usage STATUS: prints the header above and exits.
usage() {
    sed -n '/^set -euo/q; 2,$s/^# \{0,1\}//p' "$0" >&2
    exit "$1"
}

repository=$(cd "$(dirname "$0")/.." && pwd)
. "$repository/scripts/shared.sh"
fastchess="$shared/tools/fastchess"
book="$shared/data/openings/8moves_v3.epd"
tc=8+0.08
rounds=100
concurrency=1
sprt=()
adjudication=()
seed=()
pgn=/tmp/match-$(date +%Y%m%d-%H%M%S).pgn
commands=()
name1="" name2=""
options1=() options2=()
extra=()

while [ $# -gt 0 ]; do
    case $1 in
        --name1) name1=$2; shift ;;
        --name2) name2=$2; shift ;;
        --option1) options1+=("$2"); shift ;;
        --option2) options2+=("$2"); shift ;;
        --tc) tc=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --concurrency) concurrency=$2; shift ;;
        --sprt) sprt=(-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05) ;;
        --adjudicate) adjudication=(-draw movenumber=34 movecount=8 score=20
                                    -resign movecount=3 score=600 twosided=true) ;;
        --seed) seed=(-srand "$2"); shift ;;
        --book) book=$2; shift ;;
        --pgn) pgn=$2; shift ;;
        --) shift; extra=("$@"); break ;;
        -h | --help) usage 0 ;;
        -*) echo "match.sh: unknown option $1" >&2; usage 2 ;;
        *) commands+=("$1") ;;
    esac
    shift
done
[ ${#commands[@]} -eq 2 ] || usage 2
require_shared match.sh "$fastchess" "$book"

# engine_arguments COMMAND NAME [NAME=VALUE...]: sets `engine` to
# fastchess's -engine arguments for one engine. Hash and Threads are set
# per engine, not with -each: fastchess sends -each's options after the
# engine's own, so they would override an engine's --option.
engine_arguments() {
    local words hash=16 threads=1 option
    read -r -a words <<< "$1"
    engine=(-engine "cmd=${words[0]}")
    if [ ${#words[@]} -gt 1 ]; then
        engine+=("args=${words[*]:1}")
    fi
    if [ -n "$2" ]; then
        engine+=("name=$2")
    fi
    shift 2
    for option in "$@"; do
        case $option in
            Hash=*) hash=${option#Hash=} ;;
            Threads=*) threads=${option#Threads=} ;;
            *) engine+=("option.$option") ;;
        esac
    done
    engine+=("option.Hash=$hash" "option.Threads=$threads")
}

engine_arguments "${commands[0]}" "$name1" "${options1[@]}"
engine1=("${engine[@]}")
engine_arguments "${commands[1]}" "$name2" "${options2[@]}"
engine2=("${engine[@]}")

echo "match.sh: games to $pgn" >&2
exec "$fastchess" "${engine1[@]}" "${engine2[@]}" \
    -each proto=uci "tc=$tc" \
    -openings "file=$book" format=epd order=random "${seed[@]}" \
    -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency" \
    "${sprt[@]}" "${adjudication[@]}" \
    -pgnout "file=$pgn" -config "outname=${pgn%.pgn}.json" \
    "${extra[@]}"
