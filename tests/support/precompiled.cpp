// The source of the tests' precompiled-header holders (tests/CMakeLists.txt): the header is what
// they are for; this file only gives each a translation unit.
