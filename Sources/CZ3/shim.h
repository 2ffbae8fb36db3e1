#ifndef CZ3_SHIM_H
#define CZ3_SHIM_H
// Z3's C API (Debian: libz3-dev), for the access model's solver (RulesSolver) only.
#include <z3.h>
#endif
