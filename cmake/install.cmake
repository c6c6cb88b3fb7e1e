# SPDX-License-Identifier: MIT
# install.cmake - `cmake --install build --prefix P` lays P out as the build
# tree already is:
#   P/bin/{vastcc,vastc++,vastrun}     P/lib/{libvastrt.a,libvastrt.so,vastrt.dynlist}
#   P/include/vast/                    P/lib/cmake/vastcc/  (find_package)
#   P/lib/pkgconfig/vastrt.pc          P/share/man/man1/{vastcc.1,vastrun.1}
#   P/share/doc/vastcc/  (README.md, LICENSE, docs/*.md)
# The CMake package and the pkg-config file find the prefix from where they
# lie, so the build tree's copies work as well as the installed ones.
#
# Each file belongs to one component, which is one Debian package
# (cmake/package.cmake): runtime (libvastrt.so), compiler (the tools, what
# they link into a program, the man pages and docs), dev (the CMake package
# and the pkg-config file).
include(CMakePackageConfigHelpers)
set(VAST_PACKAGE_DIR ${CMAKE_BINARY_DIR}/lib/cmake/vastcc)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vastccConfig.cmake.in
  ${VAST_PACKAGE_DIR}/vastccConfig.cmake @ONLY)
# 0.x: a minor version may change the stub ABI (runtime/include/vast/stub.h).
write_basic_package_version_file(${VAST_PACKAGE_DIR}/vastccConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
# The pkg-config file names libvastrt's own libraries: the system's as flags,
# cJSON by its package (runtime/CMakeLists.txt).
list(JOIN VAST_RUNTIME_SYSTEM_LIBS " " VAST_RUNTIME_LIBS)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vastrt.pc.in
  ${CMAKE_BINARY_DIR}/lib/pkgconfig/vastrt.pc @ONLY)

# vastcc links libclang from LLVM's own directory: keep that run path.
set_target_properties(vastcc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS vastcc vastrun EXPORT vastccTargets RUNTIME DESTINATION bin COMPONENT compiler)
# The link as a link (file(INSTALL) keeps symbolic links).
install(FILES ${CMAKE_BINARY_DIR}/bin/vastc++ DESTINATION bin COMPONENT compiler)
install(TARGETS vastrt vastrt_whole EXPORT vastccTargets ARCHIVE DESTINATION lib
  COMPONENT compiler)
install(FILES ${CMAKE_BINARY_DIR}/lib/vastrt.dynlist DESTINATION lib COMPONENT compiler)
install(TARGETS vastrt_shared EXPORT vastccTargets LIBRARY DESTINATION lib COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/vast DESTINATION include
  COMPONENT compiler)

# The package's targets, vastcc::NAME: vastrt (what a program links),
# vastrt_archive, vastrt_shared, vastcc and vastrun; the build tree's copy
# names the build tree's files.
install(EXPORT vastccTargets NAMESPACE vastcc:: DESTINATION lib/cmake/vastcc COMPONENT dev)
export(EXPORT vastccTargets NAMESPACE vastcc:: FILE ${VAST_PACKAGE_DIR}/vastccTargets.cmake)
install(FILES ${VAST_PACKAGE_DIR}/vastccConfig.cmake
  ${VAST_PACKAGE_DIR}/vastccConfigVersion.cmake DESTINATION lib/cmake/vastcc COMPONENT dev)
install(FILES ${CMAKE_BINARY_DIR}/lib/pkgconfig/vastrt.pc DESTINATION lib/pkgconfig
  COMPONENT dev)

include(${CMAKE_CURRENT_LIST_DIR}/manpages.cmake)
install(FILES ${CMAKE_BINARY_DIR}/share/man/man1/vastcc.1
  ${CMAKE_BINARY_DIR}/share/man/man1/vastrun.1 DESTINATION share/man/man1 COMPONENT compiler)
file(GLOB VAST_DOCS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${VAST_DOCS}
  DESTINATION share/doc/vastcc COMPONENT compiler)
include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
