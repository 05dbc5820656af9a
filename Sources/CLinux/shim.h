// Linux headers Swift's Glibc module does not import: epoll(7) and eventfd(2).
#include <sys/epoll.h>
#include <sys/eventfd.h>
