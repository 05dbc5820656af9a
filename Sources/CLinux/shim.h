// Linux headers Swift's Glibc module does not import: epoll(7), eventfd(2), and glibc's
// malloc tuning, mallopt(3) and malloc_trim(3).
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <malloc.h>
