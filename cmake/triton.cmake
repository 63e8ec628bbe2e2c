# The Triton bridge (libtilediff_triton.so): built when CPython's embedding library
# (Debian's python3-dev: pkg-config python3-embed) and the Triton virtual environment
# (ci/deps.sh --triton: .venv-triton with pinned triton and numpy) are both present.
# Without them tilediff still builds; a .py kernel file is then refused with a message
# naming ci/deps.sh, and the Triton tests say why they are skipped.
set(TD_TRITON_VENV "${CMAKE_SOURCE_DIR}/.venv-triton" CACHE PATH "the Triton virtual environment")
set(TD_HAVE_TRITON OFF)
set(TD_TRITON_WHY "")
pkg_check_modules(PYEMBED IMPORTED_TARGET python3-embed)
if(TD_SANITIZE OR TD_FUZZ_ENGINE)
  # CPython, numpy and triton are not built with the sanitizers or the fuzzer's
  # instrumentation; their allocations would drown the reports.
  set(TD_TRITON_WHY "not built in sanitizer/fuzzer builds")
elseif(NOT PYEMBED_FOUND)
  set(TD_TRITON_WHY "python3-embed not found (apt-get install python3-dev, or ci/deps.sh --triton)")
elseif(NOT EXISTS "${TD_TRITON_VENV}/bin/python3")
  set(TD_TRITON_WHY "no Triton venv at ${TD_TRITON_VENV} (ci/deps.sh --triton)")
else()
  set(TD_HAVE_TRITON ON)
endif()
message(STATUS "tilediff: Triton bridge ${TD_HAVE_TRITON} ${TD_TRITON_WHY}")

if(TD_HAVE_TRITON)
  add_library(tilediff_triton SHARED kernels/triton/bridge.c)
  target_include_directories(tilediff_triton PRIVATE ${CMAKE_SOURCE_DIR}/kernels)
  # the Python C API's macros trip -Wshadow-free code's casts; keep our warnings, not theirs
  target_compile_options(tilediff_triton PRIVATE ${TD_WARN})
  target_compile_definitions(tilediff_triton PRIVATE TD_TRITON_VENV="${TD_TRITON_VENV}"
                             TD_TRITON_PYTHONPATH="${CMAKE_SOURCE_DIR}/python")
  target_link_libraries(tilediff_triton PRIVATE td_rounding PkgConfig::PYEMBED ${CMAKE_DL_LIBS})
  set_target_properties(tilediff_triton PROPERTIES C_VISIBILITY_PRESET default)
  add_dependencies(tilediff tilediff_triton)
  install(TARGETS tilediff_triton LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/tilediff)
  install(DIRECTORY python/tilediff_triton DESTINATION ${CMAKE_INSTALL_DATADIR}/tilediff/python
          PATTERN __pycache__ EXCLUDE)
endif()

# ---- tests (label "triton"): they say why they are skipped when the bridge is absent ----
if(TD_TESTS)
  set(TD_CI_TRITON_CASES 4 CACHE STRING "cases per correct Triton example in ctest (twins get 40)")
  if(TD_HAVE_TRITON)
    add_test(NAME triton_examples COMMAND ${CMAKE_SOURCE_DIR}/tests/triton/check_examples.sh
             $<TARGET_FILE:tilediff> ${TD_CI_TRITON_CASES})
    add_test(NAME triton_errors COMMAND ${CMAKE_SOURCE_DIR}/tests/triton/check_errors.sh $<TARGET_FILE:tilediff>
             ${TD_TRITON_VENV}/bin/python3)
    set_tests_properties(triton_examples triton_errors PROPERTIES LABELS triton TIMEOUT 900)
    # ~65 s in CI: started among the first (tests/CMakeLists.txt, selftest's COST)
    set_tests_properties(triton_examples PROPERTIES COST 65)
  else()
    add_test(NAME triton_skipped COMMAND sh -c "echo 'Triton tests skipped: ${TD_TRITON_WHY}'; exit 77")
    set_tests_properties(triton_skipped PROPERTIES LABELS triton SKIP_RETURN_CODE 77)
  endif()
endif()
