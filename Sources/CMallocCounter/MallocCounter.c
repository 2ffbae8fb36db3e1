// Counts heap allocations for `rules bench`. glibc lets an executable define malloc and friends
// (symbol interposition) and reach the real allocator through the __libc_* entry points, so no
// dlsym and no hooks are needed. The counter is one relaxed atomic add per allocation.
#include "CMallocCounter.h"

// Sanitizers interpose malloc themselves; defining it here too would hand them blocks they never
// allocated, so sanitized builds count nothing.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define RULES_MALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RULES_MALLOC_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(RULES_MALLOC_SANITIZED)
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static uint64_t allocations = 0;

static inline void count_one(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

uint64_t rules_malloc_count(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    // The same checks as glibc: a power of two that is a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    count_one();
    void *p = __libc_memalign(alignment, size);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}
#else
uint64_t rules_malloc_count(void) { return 0; }
#endif
