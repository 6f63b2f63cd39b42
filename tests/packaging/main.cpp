// The packaging tests' consumer: it only has to find colx's headers and get C++20 from colx::colx
// (the consumer projects do not ask for a standard themselves).
#include <colx/colx.hpp>

static_assert(__cplusplus >= 202002L, "colx::colx must carry cxx_std_20 to its consumers");
static_assert(sizeof(colx::size_type) == 8);

int main() { return 0; }
