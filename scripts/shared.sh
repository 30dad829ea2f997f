# The shared tools and data (fastchess, the opening book) for the scripts
# that play games, and a check that they are there. Sourced, not run:
#   . "$(dirname "$0")/shared.sh"
#   require_shared match.sh "$shared/tools/fastchess" "$book"
# The folder is ../shared beside the checkout (every developer's machine
# and CI have it), or the one ROOKERY_SHARED names. A script that needs it
# checks first, so that a missing file is said by name, with where to get
# it, before any game starts (not as fastchess's "file not found" halfway).

shared=${ROOKERY_SHARED:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared}

# shared_source FILE: where FILE can be had, by its name.
shared_source() {
    case $(basename "$1") in
        fastchess) echo "fastchess 1.8.2, from https://github.com/Disservin/fastchess/releases" ;;
        *.epd) echo "from https://github.com/official-stockfish/books, unzipped" ;;
        *) echo "the folder's README lists it" ;;
    esac
}

# require_shared SCRIPT FILE...: exits with status 2 unless every FILE is
# there, saying which is missing and where to get it.
require_shared() {
    local script=$1 file missing=false
    shift
    for file in "$@"; do
        if [ ! -e "$file" ]; then
            echo "$script: missing $file ($(shared_source "$file"))" >&2
            missing=true
        fi
    done
    if $missing; then
        echo "$script: the shared tools and data are looked for in $shared" \
            "(../shared beside the checkout); put them there, or name their" \
            "folder with ROOKERY_SHARED=DIR" >&2
        exit 2
    fi
}
