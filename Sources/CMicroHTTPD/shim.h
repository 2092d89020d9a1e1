#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/epoll.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/// `MHD_start_daemon` is variadic, which Swift cannot call: pass every option
/// through `MHD_OPTION_ARRAY` instead (the manual's recommendation for FFIs).
static inline struct MHD_Daemon *
cmhd_start_daemon(unsigned int flags, uint16_t port,
                  MHD_AccessHandlerCallback handler, void *handler_context,
                  const struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// Sends `response` as an HTTP/1.0 server would: its body as it comes, no chunks, then the connection
/// closes (`MHD_set_response_options` is variadic). An event stream's bytes can then be written to the
/// socket directly while libmicrohttpd has the connection suspended.
static inline void
cmhd_response_unframed(struct MHD_Response *response) {
    MHD_set_response_options(response, MHD_RF_HTTP_1_0_SERVER, MHD_RO_END);
}

/// The port the daemon is bound to (`MHD_get_daemon_info` is variadic), or 0.
static inline uint16_t
cmhd_bind_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return (NULL == info) ? 0 : info->port;
}

/// Writes the client's numeric address into `buffer` (`MHD_get_connection_info`
/// is variadic). Returns 1 on success, 0 otherwise.
static inline int
cmhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (NULL == info || NULL == info->client_addr) return 0;
    const struct sockaddr *address = info->client_addr;
    if (AF_INET == address->sa_family) {
        const struct sockaddr_in *v4 = (const struct sockaddr_in *)address;
        return NULL != inet_ntop(AF_INET, &v4->sin_addr, buffer, size);
    }
    if (AF_INET6 == address->sa_family) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        return NULL != inet_ntop(AF_INET6, &v6->sin6_addr, buffer, size);
    }
    return 0;
}

/// Fills `storage` with a numeric IPv4 or IPv6 socket address.
/// Returns 4 or 6 for the family parsed, 0 if `host` is not a numeric address.
static inline int
cmhd_make_sockaddr(const char *host, uint16_t port, struct sockaddr_storage *storage) {
    memset(storage, 0, sizeof(*storage));
    struct sockaddr_in *v4 = (struct sockaddr_in *)storage;
    if (1 == inet_pton(AF_INET, host, &v4->sin_addr)) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return 4;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)storage;
    if (1 == inet_pton(AF_INET6, host, &v6->sin6_addr)) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return 6;
    }
    return 0;
}

/// The socket of a connection (`MHD_get_connection_info` is variadic), or -1.
static inline int
cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return (NULL == info) ? -1 : (int) info->connect_fd;
}

/// The socket context the connection-notify callback stored for a connection (its tracker entry), or NULL.
static inline void *
cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return (NULL == info) ? NULL : info->socket_context;
}

/// Adds `fd` to the epoll set `epfd`, reporting once (one-shot) when its peer hangs up or it fails;
/// `token` comes back from `cmhd_hangups`. Returns 0 on success, -1 otherwise.
static inline int
cmhd_watch_hangup(int epfd, int fd, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof(event));
    event.events = EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLONESHOT;
    event.data.u64 = token;
    if (0 == epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event)) return 0;
    /* A kept-alive connection that carried an earlier stream is still in the set: re-arm it. */
    return (EEXIST == errno) ? epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &event) : -1;
}

/// Collects, without waiting, the tokens of watched sockets whose peer hung up (at most `capacity`).
/// Returns how many were written, 0 when none.
static inline int
cmhd_hangups(int epfd, uint64_t *tokens, int capacity) {
    struct epoll_event events[64];
    int wanted = capacity < 64 ? capacity : 64;
    int count = epoll_wait(epfd, events, wanted, 0);
    for (int i = 0; i < count; i++) tokens[i] = events[i].data.u64;
    return count < 0 ? 0 : count;
}

/// Raises this process's soft limit on open files to its hard limit (a server holding thousands of
/// connections needs more than the usual 1,024). Returns the new soft limit, or -1.
static inline long
cmhd_raise_open_file_limit(void) {
    struct rlimit limit;
    if (0 != getrlimit(RLIMIT_NOFILE, &limit)) return -1;
    if (limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        if (0 != setrlimit(RLIMIT_NOFILE, &limit)) return -1;
    }
    return (RLIM_INFINITY == limit.rlim_cur) ? (1L << 20) : (long) limit.rlim_cur;
}

/// The soft limit on open files of this process (`RLIMIT_NOFILE`), or -1 if unknown.
static inline long
cmhd_open_file_limit(void) {
    struct rlimit limit;
    if (0 != getrlimit(RLIMIT_NOFILE, &limit)) return -1;
    if (RLIM_INFINITY == limit.rlim_cur) return 1L << 20;
    return (long) limit.rlim_cur;
}

/// Iterator state of `cmhd_bare_line_ends`.
struct cmhd_line_check { const char *last_value; size_t last_size; int bare; };

/// Checks one header value: its line must have ended with CRLF, which libmicrohttpd 0.9.75's in-place
/// parser leaves as two NULs right after the value (a bare LF or CR leaves one). The last header is only
/// remembered: its terminator is followed by the blank line's, checked by the caller.
static enum MHD_Result
cmhd_line_check_iterator(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                         const char *value, size_t value_size) {
    (void) kind; (void) key; (void) key_size;
    struct cmhd_line_check *check = (struct cmhd_line_check *) cls;
    if (NULL == value) return MHD_YES;
    if (NULL != check->last_value &&
        !('\0' == check->last_value[check->last_size] && '\0' == check->last_value[check->last_size + 1])) {
        check->bare = 1;
        return MHD_NO;
    }
    check->last_value = value;
    check->last_size = value_size;
    return MHD_YES;
}

/// Whether the request head used a bare LF (or bare CR) as a line end, which libmicrohttpd 0.9.75
/// accepts at every strictness level. It parses the head in place and overwrites each line end with
/// NUL bytes: CRLF leaves two, a bare LF one, so the byte after a value's terminator tells them apart.
/// The last header's line end and the blank line cannot be told apart that way (the memory after them
/// may be zero), so they are checked against the head's size: with CRLF everywhere it is at least the
/// span from the method to the end of the last value plus four bytes.
/// `method` and `version` are the request line's first and last fields, as given to the access handler.
/// Returns 1 for a bare line end, 0 for none found, and -1 when the running library is not 0.9.75
/// (whose layout this relies on), so nothing is concluded.
static inline int
cmhd_bare_line_ends(struct MHD_Connection *connection, const char *method, const char *version) {
    const char *running = MHD_get_version();
    if (NULL == running || 0 != strcmp(running, "0.9.75") || NULL == method || NULL == version) return -1;
    size_t version_length = strlen(version);
    if ('\0' != version[version_length + 1]) return 1;
    struct cmhd_line_check check = { NULL, 0, 0 };
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, cmhd_line_check_iterator, &check);
    if (check.bare) return 1;
    const char *last_end = (NULL != check.last_value) ? check.last_value + check.last_size : version + version_length;
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (NULL == info || last_end <= method) return 0;
    size_t span = (size_t) (last_end - method);
    if (span > info->header_size) return 0;  /* not the in-place layout expected: conclude nothing */
    return (info->header_size < span + 4) ? 1 : 0;
}

#endif
