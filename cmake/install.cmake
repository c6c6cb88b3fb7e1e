# SPDX-License-Identifier: MIT
# install.cmake - `cmake --install build --prefix P` lays P out as the build
# tree already is:
#   P/bin/{vastcc,vastc++,vastrun}     P/lib/{libvastrt.a,libvastrt.so,vastrt.dynlist}
#   P/include/vast/                    P/lib/cmake/vastcc/  (find_package)
#   P/lib/pkgconfig/vastrt.pc          P/share/man/man1/{vastcc.1,vastrun.1}
# The CMake package and the pkg-config file find the prefix from where they
# lie, so the build tree's copies work as well as the installed ones.
include(CMakePackageConfigHelpers)
set(VAST_PACKAGE_DIR ${CMAKE_BINARY_DIR}/lib/cmake/vastcc)
# Both name libvastrt's own libraries: VAST_RUNTIME_LINK_FLAGS
# (runtime/CMakeLists.txt).
list(JOIN VAST_RUNTIME_LINK_FLAGS " " VAST_RUNTIME_LIBS)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vastccConfig.cmake.in
  ${VAST_PACKAGE_DIR}/vastccConfig.cmake @ONLY)
# 0.x: a minor version may change the stub ABI (runtime/include/vast/stub.h).
write_basic_package_version_file(${VAST_PACKAGE_DIR}/vastccConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
configure_file(${PROJECT_SOURCE_DIR}/cmake/vastrt.pc.in
  ${CMAKE_BINARY_DIR}/lib/pkgconfig/vastrt.pc @ONLY)

# vastcc links libclang from LLVM's own directory: keep that run path.
set_target_properties(vastcc PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS vastcc vastrun RUNTIME DESTINATION bin)
# The link as a link (file(INSTALL) keeps symbolic links).
install(FILES ${CMAKE_BINARY_DIR}/bin/vastc++ DESTINATION bin)
install(TARGETS vastrt ARCHIVE DESTINATION lib)
install(FILES ${CMAKE_BINARY_DIR}/lib/vastrt.dynlist DESTINATION lib)
install(TARGETS vastrt_shared LIBRARY DESTINATION lib)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/vast DESTINATION include)
install(FILES ${VAST_PACKAGE_DIR}/vastccConfig.cmake
  ${VAST_PACKAGE_DIR}/vastccConfigVersion.cmake DESTINATION lib/cmake/vastcc)
install(FILES ${CMAKE_BINARY_DIR}/lib/pkgconfig/vastrt.pc DESTINATION lib/pkgconfig)
include(${CMAKE_CURRENT_LIST_DIR}/manpages.cmake)
install(FILES ${CMAKE_BINARY_DIR}/share/man/man1/vastcc.1
  ${CMAKE_BINARY_DIR}/share/man/man1/vastrun.1 DESTINATION share/man/man1)
