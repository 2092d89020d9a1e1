#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
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

#endif
