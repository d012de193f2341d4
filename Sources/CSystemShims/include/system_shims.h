// C shims for OSecSystem: the POSIX calls Swift cannot import directly.
//
// Why this target exists:
//  * prctl(2) is variadic, and Swift does not import variadic C functions.
//  * posix_spawn's POSIX_SPAWN_SETSID and posix_spawn_file_actions_addclosefrom_np are GNU extensions that the
//    Glibc module does not expose; starting a detached process is clearer in C.
//  * malloc_trim is not exported by Glibc's Swift module either.
#ifndef OPENSEC_CSYSTEM_SHIMS_H
#define OPENSEC_CSYSTEM_SHIMS_H

#include <sys/types.h>

/// prctl(PR_SET_DUMPABLE, value): 0 on success, -1 with errno set.
int osec_set_dumpable(int value);

/// prctl(PR_GET_DUMPABLE): 1 when the process may be dumped or traced, 0 when not, -1 on error.
int osec_get_dumpable(void);

/// Starts `path` with `argv` (NULL-terminated) and `envp` (NULL-terminated, or NULL for the current environment)
/// in a new session (setsid), with standard input, output and error on /dev/null and every other descriptor
/// closed. On success stores the child's pid in `*pid` and returns 0; otherwise returns an errno value.
int osec_spawn_detached(const char *path, char *const argv[], char *const envp[], pid_t *pid);

/// Runs `path` with `argv` and `envp` (NULL-terminated; `envp` NULL for the current environment) to its end:
/// posix_spawn, then waitpid (retried on EINTR), nothing else. Standard input and error are /dev/null, standard
/// output is `output_fd` (or /dev/null when negative), every other descriptor is closed in the child. On success
/// stores waitpid's status in `*wait_status` and returns 0; otherwise returns an errno value.
int osec_spawn_and_wait(const char *path, char *const argv[], char *const envp[], int output_fd, int *wait_status);

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC): the new descriptor, or -1 with errno set.
int osec_accept_cloexec(int fd);

/// getsockopt(SO_PEERCRED): the peer's pid, uid and gid. 0 on success, -1 with errno set.
int osec_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid);

/// malloc_trim(0) where the C library has it (glibc): returns the heap's free memory to the system. 1 when memory
/// was released, 0 when none was (or the call does not exist). Glibc's Swift module does not export it.
int osec_malloc_trim(void);

#endif
