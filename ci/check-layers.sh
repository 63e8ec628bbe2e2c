#!/usr/bin/env bash
# The layer check: no #include, and (given a build directory) no call, from a lower
# layer to a higher one.  The layers are those of the design's module table (DESIGN.md,
# "Modules and folders"): rounding < oracle < contracts < engine < fuzz, cli, tests;
# kernels sit on rounding alone, below the engine that launches them.
# Usage: ci/check-layers.sh [SOURCE_DIR [BUILD_DIR]]
#   SOURCE_DIR: the repository (default: this script's parent folder)
#   BUILD_DIR:  a configured and built tree; its static libraries' undefined td_
#               symbols must be defined in the same or an allowed lower layer.
# Exit 0: the layers hold; 1: a violation (each one printed); 2: bad usage.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
[ -d "$src/rounding" ] || { echo "check-layers: $src is not the tilediff repository" >&2; exit 2; }
cd "$src"

# layer -> the layers it may use (itself included)
declare -A allowed=(
  [rounding]="rounding"
  [oracle]="oracle rounding"
  [contracts]="contracts oracle rounding"
  [kernels]="kernels rounding"
  [engine]="engine contracts oracle rounding kernels"
  [fuzz]="fuzz engine contracts oracle rounding kernels"
  [cli]="cli engine contracts oracle rounding kernels"
  [tests]="tests cli engine contracts oracle rounding kernels fuzz"
  [bench]="bench tests engine contracts oracle rounding kernels"
  [examples]="examples kernels rounding"
)
layers="rounding oracle contracts kernels engine fuzz cli tests bench examples"
is_allowed() { case " ${allowed[$1]} " in *" $2 "*) return 0 ;; *) return 1 ;; esac; }

# every header of the repository, by name -> its layer (the top folder)
declare -A header_layer
while IFS= read -r h; do
  name=$(basename "$h"); top=${h%%/*}
  if [ -n "${header_layer[$name]:-}" ] && [ "${header_layer[$name]}" != "$top" ]; then
    header_layer[$name]=ambiguous
  else
    header_layer[$name]=$top
  fi
done < <(for l in $layers; do [ -d "$l" ] && find "$l" -type f \( -name '*.h' -o -name '*.cuh' \); done)

bad=0
for l in $layers; do
  [ -d "$l" ] || continue
  while IFS= read -r line; do
    f=${line%%:*}; inc=${line#*:}
    # a relative include resolves against the including file's folder first
    if [ -f "$(dirname "$f")/$inc" ]; then
      rel=$(realpath -m --relative-to="$src" "$(dirname "$f")/$inc"); target=${rel%%/*}
    else
      target=${header_layer[$(basename "$inc")]:-}
    fi
    [ -n "$target" ] || continue # generated in the build tree, or a system header
    if [ "$target" = ambiguous ]; then
      echo "check-layers: $f includes \"$inc\", a name that several layers use: rename one" >&2; bad=1
    elif ! is_allowed "$l" "$target"; then
      echo "check-layers: $f ($l) includes \"$inc\" ($target): $l may use only: ${allowed[$l]}" >&2; bad=1
    fi
  done < <(grep -rH --include='*.c' --include='*.h' --include='*.cu' --include='*.cuh' \
             -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$l" |
           sed -n 's/^\([^:]*\):[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1:\2/p')
done

if [ -n "$build" ]; then
  [ -d "$build" ] || { echo "check-layers: no build directory $build" >&2; exit 2; }
  command -v nm >/dev/null || { echo "check-layers: nm not found" >&2; exit 2; }
  # the libraries (or object folders) of each lower layer
  declare -A objs=(
    [rounding]="libtd_rounding.a"
    [oracle]="libtd_oracle.a"
    [contracts]="libtd_contracts.a libtd_producer.a"
    [kernels]="CMakeFiles/td_kernels_host.dir"
    [engine]="libtd_harness.a libtd_backend_cuda.a"
  )
  objfiles() { for o in ${objs[$1]}; do
      if [ -d "$build/$o" ]; then find "$build/$o" -name '*.o'; elif [ -f "$build/$o" ]; then echo "$build/$o"; fi
    done; }
  declare -A def_layer
  for l in rounding oracle contracts kernels engine; do
    while read -r s; do def_layer[$s]="${def_layer[$s]:-} $l"; done < <(objfiles "$l" | xargs -r nm -g --defined-only 2>/dev/null |
      awk 'NF == 3 && $3 ~ /^td_/ {print $3}' | sort -u)
  done
  [ ${#def_layer[@]} -gt 0 ] || { echo "check-layers: no tilediff library found in $build (build it first)" >&2; exit 2; }
  for l in rounding oracle contracts kernels engine; do
    while read -r s; do
      d=${def_layer[$s]:-}
      [ -n "$d" ] || continue # defined outside tilediff's libraries, or in an executable
      ok=0; for x in $d; do is_allowed "$l" "$x" && ok=1; done
      [ $ok = 1 ] || { echo "check-layers: $l calls $s, defined in$d: $l may use only: ${allowed[$l]}" >&2; bad=1; }
    done < <(objfiles "$l" | xargs -r nm -g --undefined-only 2>/dev/null | awk '$1 == "U" && $2 ~ /^td_/ {print $2}' | sort -u)
  done
fi
[ $bad = 0 ] && echo "check-layers: the layers hold"
exit $bad
