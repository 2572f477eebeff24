// GNU libmicrohttpd (Debian libmicrohttpd-dev) for the Telemetry module, which owns it.
// MHD_start_daemon, MHD_get_daemon_info and MHD_get_connection_info are variadic, which Swift
// cannot call, so this shim gives them fixed signatures; everything else is imported as is.
#ifndef HEADROOM_CMICROHTTPD_SHIM_H
#define HEADROOM_CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

// Starts a daemon with an internal polling thread (or a pool of `thread_pool_size` > 1),
// bound to `address` — or, when `listen_socket` is not -1, serving that listening socket (a
// Unix domain socket, say) — with the request and connection bounds given; `notify_connection`
// hears of every connection opened and closed, `notify_completed` of every request answered,
// both with `handler_context`. NULL when it cannot start (errno is then set by libmicrohttpd,
// e.g. EADDRINUSE).
static inline struct MHD_Daemon *headroom_mhd_start(
    unsigned int flags, const struct sockaddr *address, int listen_socket,
    unsigned int connection_limit, size_t connection_memory_limit,
    unsigned int connection_timeout_seconds, unsigned int thread_pool_size,
    unsigned int listen_backlog, MHD_AccessHandlerCallback handler,
    MHD_NotifyConnectionCallback notify_connection,
    MHD_RequestCompletedCallback notify_completed, void *handler_context) {
    if (listen_socket != -1) {
        return MHD_start_daemon(
            flags, 0, NULL, NULL, handler, handler_context,
            MHD_OPTION_LISTEN_SOCKET, listen_socket,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, handler_context,
            MHD_OPTION_NOTIFY_COMPLETED, notify_completed, handler_context,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size > 1 ? thread_pool_size : 0,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, handler_context,
        MHD_OPTION_NOTIFY_COMPLETED, notify_completed, handler_context,
        MHD_OPTION_END);
}

// A streamed response's unknown length, and what its content reader returns at the end of
// the stream (both casts in libmicrohttpd's macros, which Swift cannot import).
static const uint64_t headroom_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t headroom_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;

// The port the daemon listens on (useful after binding port 0); 0 when unknown.
static inline uint16_t headroom_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

// The socket of `connection`, or -1 when unknown.
static inline int headroom_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// The address `connection` comes from, or NULL when unknown.
static inline const struct sockaddr *headroom_mhd_client_address(
    struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
