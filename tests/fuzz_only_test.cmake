cmake_policy(SET CMP0057 NEW) # IN_LIST
# TD_FUZZ_ONLY (an OSS-Fuzz build of a few contracts) compiles only their contract files
# and kernel files.  Run as `cmake -DSRC=<tree> -P fuzz_only_test.cmake`: for every
# contract file X with a host port kernels/host/X.c, the kernel files kept for X's ids
# must include that port (and its mutants and alternatives, where they exist), whether
# the kernels name their contract by a literal id or through a header's macro
# (chunked_cumsum_fwd, fused_recurrent_retention's summary: a filter that matched the
# literal only dropped them, and the target then ran no correct kernel, or an
# alternative in the port's place); and a file of another contract is not kept.
include(${SRC}/cmake/registry.cmake)
file(GLOB contracts ${SRC}/contracts/*.c)
set(fails 0)
set(checked 0)
foreach(cf ${contracts})
  get_filename_component(x "${cf}" NAME_WE)
  if(NOT EXISTS ${SRC}/kernels/host/${x}.c)
    continue()
  endif()
  td_scan_contract_ids(ids "${cf}")
  if(NOT ids)
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  foreach(dir host mutants alternatives)
    file(GLOB all ${SRC}/kernels/${dir}/*.c)
    set(sel ${all})
    td_keep_kernels_of(sel "${ids}")
    set(own ${SRC}/kernels/${dir}/${x}.c)
    if(EXISTS "${own}" AND NOT own IN_LIST sel)
      message("FAIL: TD_FUZZ_ONLY for ${x} drops kernels/${dir}/${x}.c")
      math(EXPR fails "${fails} + 1")
    endif()
    list(LENGTH all n_all)
    list(LENGTH sel n_kept)
    if(n_all GREATER 8 AND n_kept GREATER 8)
      message("FAIL: TD_FUZZ_ONLY for ${x} keeps ${n_kept} of ${n_all} files of kernels/${dir}")
      math(EXPR fails "${fails} + 1")
    endif()
  endforeach()
endforeach()
if(checked LESS 100)
  message(FATAL_ERROR "only ${checked} contract files checked: the tree was not found")
endif()
if(fails GREATER 0)
  message(FATAL_ERROR "${fails} failed")
endif()
message("ok: ${checked} contract files keep their own kernel files and few others")
