# SPDX-License-Identifier: MIT
# vastccConfig.cmake - find_package(vastcc) for a project that builds its
# OpenCL kernels ahead of time:
#
#   find_package(vastcc REQUIRED)
#   add_executable(app host.c)
#   vastcc_add_kernels(app kernels.cl [more.cl ...] [CL_OPTIONS "-DN=4"])
#
# vastcc_add_kernels(TARGET FILE.cl... [CL_OPTIONS "opts"]) compiles each
# kernel file with vastcc (`vastcc -c FILE.cl --cl-options=opts`: the
# options the program passes to clBuildProgram) into its stub object, adds
# the objects to TARGET and links TARGET with vastcc::vastrt.
#
# vastcc::vastrt is libvastrt.a linked whole (its OpenCL entry points take
# the place of libOpenCL's, whatever the order of the link), with OpenCL,
# libdl and threads. VASTCC_EXECUTABLE, VASTCXX_EXECUTABLE and
# VASTRUN_EXECUTABLE name the tools. Relocatable: the prefix is found from
# this file's place (<prefix>/lib/cmake/vastcc).
if(CMAKE_VERSION VERSION_LESS 3.24)
  set(vastcc_FOUND FALSE)
  set(vastcc_NOT_FOUND_MESSAGE "vastcc needs CMake 3.24 or later ($<LINK_LIBRARY:WHOLE_ARCHIVE>)")
  return()
endif()
include(CMakeFindDependencyMacro)
find_dependency(OpenCL)
find_dependency(Threads)

get_filename_component(_vastcc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(VASTCC_EXECUTABLE "${_vastcc_prefix}/bin/vastcc")
set(VASTCXX_EXECUTABLE "${_vastcc_prefix}/bin/vastc++")
set(VASTRUN_EXECUTABLE "${_vastcc_prefix}/bin/vastrun")

if(NOT TARGET vastcc::vastrt)
  add_library(vastcc::vastrt_archive STATIC IMPORTED)
  set_target_properties(vastcc::vastrt_archive PROPERTIES
    IMPORTED_LOCATION "${_vastcc_prefix}/lib/libvastrt.a")
  add_library(vastcc::vastrt INTERFACE IMPORTED)
  set_target_properties(vastcc::vastrt PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_vastcc_prefix}/include"
    INTERFACE_LINK_LIBRARIES
      "$<LINK_LIBRARY:WHOLE_ARCHIVE,vastcc::vastrt_archive>;OpenCL::OpenCL;${CMAKE_DL_LIBS};Threads::Threads")
endif()

function(vastcc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 _vk "" "CL_OPTIONS" "")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "vastcc_add_kernels: '${target}' is not a target")
  endif()
  if(NOT _vk_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "vastcc_add_kernels(${target}): no kernel files")
  endif()
  set(_opts "")
  if(DEFINED _vk_CL_OPTIONS)
    set(_opts "--cl-options=${_vk_CL_OPTIONS}")
  endif()
  set(_dir "${CMAKE_CURRENT_BINARY_DIR}/vastcc_kernels/${target}")
  file(MAKE_DIRECTORY "${_dir}")
  set(_i 0)
  foreach(_cl IN LISTS _vk_UNPARSED_ARGUMENTS)
    get_filename_component(_src "${_cl}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_cl}" NAME_WE)
    # The index keeps a.cl and sub/a.cl apart.
    set(_obj "${_dir}/${_i}_${_name}.o")
    add_custom_command(OUTPUT "${_obj}"
      COMMAND "${VASTCC_EXECUTABLE}" -c "${_src}" -o "${_obj}" ${_opts}
      DEPENDS "${_src}" "${VASTCC_EXECUTABLE}"
      COMMENT "vastcc: compiling kernels ${_cl}"
      VERBATIM)
    set_source_files_properties("${_obj}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    target_sources(${target} PRIVATE "${_obj}")
    math(EXPR _i "${_i} + 1")
  endforeach()
  target_link_libraries(${target} PRIVATE vastcc::vastrt)
endfunction()
