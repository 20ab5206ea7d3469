# stages.cmake - the rule of the offline stages (docs/internals.md), checked when stoke is
# built: each stage is a static library that may use common and the stages before it, and
# nothing else. Include paths already keep a stage from seeing the headers of a stage it does
# not link; stoke_check_stage(STAGE) also links all of STAGE's library, on its own, into a
# program of nothing, so a call that reaches into a stage it does not link fails the build
# instead of being resolved inside the stoke executable, which links them all.
set(stage_check_main ${CMAKE_BINARY_DIR}/stage_check/main.c)
file(WRITE ${stage_check_main} "int main(void) { return 0; }\n")

function(stoke_check_stage stage)
  add_executable(stoke_${stage}_alone ${stage_check_main})
  target_link_libraries(stoke_${stage}_alone PRIVATE
    -Wl,--whole-archive stoke_${stage} -Wl,--no-whole-archive)
  set_target_properties(stoke_${stage}_alone PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/stage_check)
endfunction()
