# sanitize.cmake - STOKE_SANITIZE=ON builds the offline side of stoke (common/, model/, name/,
# read/, output/, cli/) and the tests' own programs with AddressSanitizer and
# UndefinedBehaviorSanitizer; any undefined behaviour aborts (-fno-sanitize-recover), so a test
# that meets it fails.
#
# Never sanitized: the agent (profiler/, libstoke.so), which replaces malloc inside programs
# that do not carry the sanitizers' runtime, and the programs the agent is preloaded into or that
# tests symbolize (examples/, the tests' programs/ and tests/tools' programs, sym_target*): they
# stay the plain programs users profile. docs/reliability.md explains the build.
option(STOKE_SANITIZE "Build the offline tools and tests with ASan and UBSan (never the agent)" OFF)

set(STOKE_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer)

# stoke_sanitize(TARGET... [PUBLIC]): builds the targets with the sanitizers when STOKE_SANITIZE
# is on. PUBLIC also sanitizes everything that links them (used for stoke_common, which every
# offline program links).
function(stoke_sanitize)
  if(NOT STOKE_SANITIZE)
    return()
  endif()
  set(scope PRIVATE)
  set(targets ${ARGN})
  if("PUBLIC" IN_LIST targets)
    set(scope PUBLIC)
    list(REMOVE_ITEM targets PUBLIC)
  endif()
  foreach(target ${targets})
    target_compile_options(${target} ${scope} ${STOKE_SANITIZE_FLAGS})
    target_link_options(${target} ${scope} ${STOKE_SANITIZE_FLAGS})
  endforeach()
endfunction()
