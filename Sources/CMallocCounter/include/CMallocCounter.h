#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H

#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc)
/// made by the process so far, when the counting wrappers are linked into the executable;
/// always 0 otherwise.
uint64_t rules_malloc_count(void);

#endif
