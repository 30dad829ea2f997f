#!/usr/bin/env bash
# Calibrates `UCI_Elo`: plays ENGINE under `UCI_LimitStrength=true
# UCI_Elo=X` against Stockfish 15.1 with the same options, for each rating
# X, with scripts/match.sh's settings (8+0.08, Hash 16, Threads 1,
# 8moves_v3.epd, both colours), then prints the README's calibration
# table from the PGNs (scripts/pgn_pool.py). Run it whenever a network
# ships or src/search/strength.rs changes; each rating should score
# 40-60%.
#
# Usage:
#   scripts/calibrate_elo.sh [OPTIONS] ENGINE
#
# --ratings "X Y"  the ratings to play (default "1500 2000 2500")
# --rounds N       openings a rating, two games each (default 50)
# --stockfish CMD  the opponent (default /usr/games/stockfish)
# --dir DIR        where the PGNs go, calib_X.pgn (default matches/ in the
#                  repository, which git ignores); a PGN
#                  already there is resumed by fastchess's state beside
#                  it, not replayed
# --concurrency N  games at once (default 1)
# --table-only     play nothing, print the table from the PGNs in DIR
#
# Needs fastchess and the 8-move book in ../shared (or ROOKERY_SHARED's
# folder, scripts/shared.sh) to play; --table-only needs neither.
#
# Example: scripts/calibrate_elo.sh target/release/rookery --dir matches/calibration
set -euo pipefail

# usage STATUS: prints the header above and exits.
usage() {
    sed -n '/^set -euo/q; 2,$s/^# \{0,1\}//p' "$0" >&2
    exit "$1"
}

repository=$(cd "$(dirname "$0")/.." && pwd)
. "$repository/scripts/shared.sh"
ratings="1500 2000 2500"
rounds=50
stockfish=/usr/games/stockfish
dir="$repository/matches"
concurrency=1
play=true
engine=""

while [ $# -gt 0 ]; do
    case $1 in
        --ratings) ratings=$2; shift ;;
        --rounds) rounds=$2; shift ;;
        --stockfish) stockfish=$2; shift ;;
        --dir) dir=$2; shift ;;
        --concurrency) concurrency=$2; shift ;;
        --table-only) play=false ;;
        -h | --help) usage 0 ;;
        -*) echo "calibrate_elo.sh: unknown option $1" >&2; usage 2 ;;
        *) engine=$1 ;;
    esac
    shift
done
[ -n "$engine" ] || $play || engine=unused
[ -n "$engine" ] || usage 2

# The table is printed by pgn_pool.py, which needs Python's `chess`: say so
# before the matches, not after them.
if ! python3 -c 'import chess.pgn' 2> /dev/null; then
    echo "calibrate_elo.sh: Python's chess package is missing;" \
        "pip install -r $repository/scripts/requirements.txt" >&2
    exit 2
fi

if $play; then
    require_shared calibrate_elo.sh "$shared/tools/fastchess" \
        "$shared/data/openings/8moves_v3.epd"
    mkdir -p "$dir"
    for rating in $ratings; do
        pgn="$dir/calib_$rating.pgn"
        state="${pgn%.pgn}.json"
        if [ -f "$state" ]; then
            # A match cut short resumes from fastchess's own state.
            "$shared/tools/fastchess" -config "file=$state"
        else
            "$repository/scripts/match.sh" "$engine" "$stockfish" \
                --name1 "rookery$rating" --name2 "stockfish$rating" \
                --option1 UCI_LimitStrength=true --option1 "UCI_Elo=$rating" \
                --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$rating" \
                --rounds "$rounds" --concurrency "$concurrency" --seed "$rating" \
                --pgn "$pgn"
        fi
    done
fi

echo "| X | games | Rookery's score | Elo difference |"
echo "| --- | --- | --- | --- |"
for rating in $ratings; do
    pgn="$dir/calib_$rating.pgn"
    [ -f "$pgn" ] || continue
    python3 "$repository/scripts/pgn_pool.py" --player "rookery$rating" \
        --label "$rating" "$pgn"
done
