# SPDX-License-Identifier: MIT
# package.cmake - `cpack -G DEB` (or `cmake --build build --target package`)
# makes one Debian package per install component (cmake/install.cmake):
#
#   libvastrt    lib/libvastrt.so, the runtime vastrun preloads
#   vastcc       bin/{vastcc,vastc++,vastrun}, lib/libvastrt.a,
#                lib/vastrt.dynlist, include/vast, the man pages and
#                share/doc/vastcc
#   vastcc-dev   the CMake package and vastrt.pc
#
# The static runtime and its headers go with the compiler, not with a -dev
# package: vastcc links libvastrt.a into every program and its stubs include
# vast/stub.h, and vastcc-dev names the compiler (vastcc_add_kernels,
# `pkg-config --variable=vastcc`), so a split there would make the two
# depend on each other. vastcc-dev is what a build system needs on top:
# cJSON's and OpenCL's development packages (Requires.private: libcjson,
# find_dependency(OpenCL)).
#
# Depends: dpkg-shlibdeps names the libraries the ELF files link (libclang1-19,
# libcjson1, ocl-icd-libopencl1, libc6, ...); the list below adds what they
# run or read: clang-19 (vastcc preprocesses kernels with it), clang's resource
# headers (libclang-common-19-dev: opencl-c-base.h, which libclang parses
# kernels with), OpenCL's headers and libOpenCL.so (the host program includes
# CL/cl.h and vastcc links -lOpenCL), and the C compiler vastcc calls.
#
# The packages install under CMAKE_INSTALL_PREFIX, which the runtime also
# records as where to find the compiler (runtime/CMakeLists.txt): configure
# with -DCMAKE_INSTALL_PREFIX=/usr to make packages for a Debian system.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME vastcc)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The vastcc authors")
set(CPACK_PACKAGE_CONTACT "The vastcc authors")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_COMPONENTS_ALL runtime compiler dev)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Depends of one component on another: "libvastrt (= VERSION)".
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)

# Each description's first line is the package's summary.
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "vastcc's runtime, libvastrt.so
The OpenCL runtime that pages a program's buffers through the device memory
in ranges that fit, preloaded into a program built without vastcc by vastrun.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libvastrt)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS "vastcc")

set(CPACK_COMPONENT_COMPILER_DESCRIPTION "OpenCL programs whose data exceed the device memory
vastcc is a drop-in for cc that compiles OpenCL kernels into inspector and paged
kernels and links a runtime that pages buffers through the device;
vastrun runs a program built without it with its runtime preloaded.")
set(CPACK_COMPONENT_COMPILER_DEPENDS runtime)
set(CPACK_DEBIAN_COMPILER_PACKAGE_NAME vastcc)
set(CPACK_DEBIAN_COMPILER_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_COMPILER_PACKAGE_DEPENDS
  "clang-19, libclang-common-19-dev, ocl-icd-opencl-dev, opencl-c-headers, gcc | c-compiler")
set(CPACK_DEBIAN_COMPILER_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")

set(CPACK_COMPONENT_DEV_DESCRIPTION "vastcc's CMake package and pkg-config file
find_package(vastcc) with vastcc::vastrt and vastcc_add_kernels(), and
vastrt.pc, for projects that build their kernels with vastcc.")
set(CPACK_COMPONENT_DEV_DEPENDS compiler)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME vastcc-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libcjson-dev, ocl-icd-opencl-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "cmake (>= 3.16), pkgconf | pkg-config")
include(CPack)
