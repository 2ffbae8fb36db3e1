#ifndef CPCRE2_SHIM_H
#define CPCRE2_SHIM_H

// pcre2.h needs the code-unit width first: 8 bits, the UTF-8 that Swift strings hold.
// Swift sees only the width-suffixed functions (pcre2_compile_8, pcre2_match_8, ...).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#endif
