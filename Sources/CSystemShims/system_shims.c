#define _GNU_SOURCE
#include "system_shims.h"

#include <errno.h>
#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int osec_set_dumpable(int value) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)value, 0UL, 0UL, 0UL);
}

int osec_get_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

int osec_spawn_detached(const char *path, char *const argv[], char *const envp[], pid_t *pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) {
        return status;
    }
    status = posix_spawnattr_init(&attributes);
    if (status != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return status;
    }
    for (int fd = 0; fd <= 2 && status == 0; fd++) {
        status = posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
    }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (status == 0) {
        status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    }
#endif
    if (status == 0) {
        status = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSID);
    }
    if (status == 0) {
        status = posix_spawn(pid, path, &actions, &attributes, argv, envp ? envp : environ);
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return status;
}

int osec_spawn_and_wait(const char *path, char *const argv[], char *const envp[], int output_fd, int *wait_status) {
    posix_spawn_file_actions_t actions;
    int status = posix_spawn_file_actions_init(&actions);
    if (status != 0) {
        return status;
    }
    status = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (status == 0) {
        status = output_fd >= 0 ? posix_spawn_file_actions_adddup2(&actions, output_fd, 1)
                                : posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    if (status == 0) {
        status = posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    if (status == 0) {
        status = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    }
#endif
    pid_t pid = 0;
    if (status == 0) {
        status = posix_spawn(&pid, path, &actions, NULL, argv, envp ? envp : environ);
    }
    posix_spawn_file_actions_destroy(&actions);
    if (status != 0) {
        return status;
    }
    while (waitpid(pid, wait_status, 0) < 0) {
        if (errno != EINTR) {
            return errno;
        }
    }
    return 0;
}

int osec_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int osec_peer_credentials(int fd, pid_t *pid, uid_t *uid, gid_t *gid) {
    struct ucred credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) {
        return -1;
    }
    *pid = credentials.pid;
    *uid = credentials.uid;
    *gid = credentials.gid;
    return 0;
}

int osec_malloc_trim(void) {
#ifdef __GLIBC__
    return malloc_trim(0);
#else
    return 0;
#endif
}
