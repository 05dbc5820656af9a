// Linux headers Swift's Glibc module does not import: epoll(7), eventfd(2), and glibc's
// malloc tuning, mallopt(3) and malloc_trim(3).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <malloc.h>

// prctl(2) is variadic, which Swift cannot call: PR_SET_NAME names the calling thread.
#include <sys/prctl.h>
static inline int hearth_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
