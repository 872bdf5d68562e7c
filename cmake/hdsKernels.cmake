# hds_add_kernels(TARGET <target> SOURCES <file.hds>... [ARCH sm_80|sm_90|sm_90a ...] [INCLUDE_DIRS <dir>...])
#
# Compiles each .hds file with hdsc into <build>/hds/<stem>.cu and <stem>.h when the
# .hds file, anything it imports (hdsc writes a depfile) or hdsc itself changes, adds the
# .cu files to <target> and puts the generated headers and hds/runtime.h on its
# include path. ARCH sets the target's CUDA_ARCHITECTURES (sm_90a -> 90a).
function(hds_add_kernels)
  cmake_parse_arguments(HDS "" "TARGET" "SOURCES;ARCH;INCLUDE_DIRS" ${ARGN})
  if(NOT HDS_TARGET OR NOT HDS_SOURCES)
    message(FATAL_ERROR "hds_add_kernels: TARGET and SOURCES are required")
  endif()
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/hds")
  file(MAKE_DIRECTORY "${out_dir}")
  set(includes -I "${HDS_STDLIB_DIR}")
  foreach(dir ${HDS_INCLUDE_DIRS})
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND includes -I "${dir}")
  endforeach()
  foreach(src ${HDS_SOURCES})
    get_filename_component(src "${src}" ABSOLUTE)
    get_filename_component(stem "${src}" NAME_WE)
    set(cu "${out_dir}/${stem}.cu")
    set(h "${out_dir}/${stem}.h")
    add_custom_command(
      OUTPUT "${cu}" "${h}"
      COMMAND "${HDS_HDSC}" "${src}" ${includes} -o "${cu}" --header "${h}" --depfile "${out_dir}/${stem}.d"
      DEPENDS "${src}" "${HDS_HDSC}"
      DEPFILE "${out_dir}/${stem}.d"
      COMMENT "hdsc ${stem}.hds"
      VERBATIM)
    target_sources(${HDS_TARGET} PRIVATE "${cu}" "${h}")
  endforeach()
  target_include_directories(${HDS_TARGET} PUBLIC "${out_dir}" "${HDS_INCLUDE_DIR}")
  if(HDS_ARCH)
    set(archs "")
    foreach(a ${HDS_ARCH})
      string(REGEX REPLACE "^sm_" "" a "${a}")
      list(APPEND archs "${a}")
    endforeach()
    set_property(TARGET ${HDS_TARGET} PROPERTY CUDA_ARCHITECTURES ${archs})
  endif()
endfunction()
