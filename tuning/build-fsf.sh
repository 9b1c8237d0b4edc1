#!/usr/bin/env bash
# Builds the strength anchor: Fairy-Stockfish from the pyffish source
# distribution on PyPI, compiled natively into target/fsf/. Prints the
# binary's path on the last line.
set -euo pipefail

repo_root="$(cd "$(dirname "$0")/.." && pwd)"
out_dir="$repo_root/target/fsf"
binary="$out_dir/fairy-stockfish"
arch="${FSF_ARCH:-native}"
jobs="${FSF_JOBS:-2}"

mkdir -p "$out_dir"
cd "$out_dir"

if [ ! -x "$binary" ]; then
    rm -rf sdist && mkdir sdist
    pip download --no-binary :all: --no-deps --dest sdist pyffish >&2
    archive="$(ls sdist/pyffish-*.tar.gz | head -n 1)"
    tar -xzf "$archive" -C sdist
    src_dir="$(ls -d sdist/pyffish-*/src | head -n 1)"
    # The sdist has no Makefile (setup.py builds the Python module), so the
    # engine is compiled directly: every source but the two bindings.
    # Nimrod's 8x8 board needs no LARGEBOARDS build (which is slower).
    flags=(-O3 -std=c++17 -DNDEBUG -DIS_64BIT -DNNUE_EMBEDDING_OFF -pthread)
    if [ "$arch" = native ]; then flags+=(-march=native); fi
    if grep -q bmi2 /proc/cpuinfo; then flags+=(-DUSE_POPCNT -DUSE_PEXT -mpopcnt -mbmi2); fi
    obj_dir="$out_dir/obj" && rm -rf "$obj_dir" && mkdir -p "$obj_dir"
    find "$src_dir" -name '*.cpp' ! -name pyffish.cpp ! -name ffishjs.cpp |
        xargs -P "$jobs" -I{} sh -c 'd="$1" f="$2"; shift 2; g++ "$@" -c "$f" -o "$d/$(echo "$f" | tr / _).o"' _ "$obj_dir" {} "${flags[@]}" >&2
    g++ "${flags[@]}" "$obj_dir"/*.o -o "$src_dir/stockfish"
    cp "$src_dir/stockfish" "$binary"
fi

echo "$binary"
