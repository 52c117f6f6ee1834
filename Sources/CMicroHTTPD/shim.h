#ifndef SHOPPABLE_CMICROHTTPD_SHIM_H
#define SHOPPABLE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

/*
 * Non-variadic entry points for the parts of libmicrohttpd that Swift cannot call
 * (C variadics and va_list). Each is a thin pass-through; no policy lives here.
 */

/** Swift-callable error-log sink: MHD's printf-style messages arrive pre-formatted. */
typedef void (*shoppable_mhd_log_fn)(void *context, const char *message);

/** Passed as the closure of MHD_OPTION_EXTERNAL_LOGGER; owned by the Swift side. */
struct shoppable_mhd_log_sink {
    shoppable_mhd_log_fn fn;
    void *context;
};

static inline void shoppable_mhd_log_trampoline(void *cls, const char *format, va_list ap) {
    struct shoppable_mhd_log_sink *sink = (struct shoppable_mhd_log_sink *)cls;
    char buffer[1024];
    vsnprintf(buffer, sizeof buffer, format, ap);
    size_t length = strlen(buffer);
    while (length > 0 && (buffer[length - 1] == '\n' || buffer[length - 1] == '\r')) {
        buffer[--length] = '\0';
    }
    if (sink != NULL && sink->fn != NULL) {
        sink->fn(sink->context, buffer);
    }
}

typedef void (*shoppable_mhd_uri_log_fn)(void *cls, const char *uri, struct MHD_Connection *connection);

/** Passed as the closure of MHD_OPTION_URI_LOG_CALLBACK; owned by the Swift side. */
struct shoppable_mhd_uri_log_sink {
    shoppable_mhd_uri_log_fn fn;
    void *context;
};

/**
 * MHD_OPTION_URI_LOG_CALLBACK target. Hands the raw request target (with its query) to Swift,
 * then cuts the query off inside MHD's own buffer so that MHD does not parse it into GET
 * arguments: the Swift side parses the query itself from the raw target, and MHD 0.9.75 stores
 * each argument in the connection's memory pool, where ~600 of them exhaust the pool and leave
 * the connection in a state that answers nothing (its error path is overwritten by the caller).
 *
 * Relies on MHD 0.9.75's parse_initial_message_line(): `uri` points into the connection's
 * writable read buffer, NUL-terminated, and MHD has already located the '?' (it then writes
 * '\0' there and parses from the next byte, which this makes an empty string). Returns NULL,
 * so the request's client context starts empty.
 */
static inline void *shoppable_mhd_uri_log_trampoline(void *cls, const char *uri, struct MHD_Connection *connection) {
    struct shoppable_mhd_uri_log_sink *sink = (struct shoppable_mhd_uri_log_sink *)cls;
    if (sink != NULL && sink->fn != NULL) {
        sink->fn(sink->context, uri, connection);
    }
    if (uri != NULL) {
        char *query = strchr((char *)uri, '?');
        if (query != NULL && query[1] != '\0') {
            query[1] = '\0';
        }
    }
    return NULL;
}

/**
 * MHD_start_daemon with the option list this project uses, as plain parameters.
 * thread_pool_size <= 1 means "one internal polling thread, no pool".
 * connection_limit == 0 leaves MHD's default.
 */
static inline struct MHD_Daemon *shoppable_mhd_start_daemon(
    unsigned int flags,
    const struct sockaddr *address,
    unsigned int thread_pool_size,
    size_t connection_memory_limit,
    unsigned int connection_timeout_seconds,
    unsigned int connection_limit,
    MHD_AcceptPolicyCallback accept_policy, void *accept_policy_cls,
    MHD_AccessHandlerCallback access_handler, void *access_handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback connection_notify, void *connection_notify_cls,
    struct shoppable_mhd_uri_log_sink *uri_log_sink,
    struct shoppable_mhd_log_sink *log_sink)
{
    struct MHD_OptionItem options[12];
    int n = 0;
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)address };
    if (thread_pool_size > 1) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL };
    }
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory_limit, NULL };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)connection_timeout_seconds, NULL };
    if (connection_limit > 0) {
        options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL };
    }
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };

    /* Callback options take two arguments (function, closure): pass them directly.
       The logger must come first, or MHD warns that earlier options may log to stderr. */
    return MHD_start_daemon(flags, 0, accept_policy, accept_policy_cls, access_handler, access_handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, shoppable_mhd_log_trampoline, (void *)log_sink,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, connection_notify_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, shoppable_mhd_uri_log_trampoline, (void *)uri_log_sink,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/** The connection's socket context (set by the connection-notify callback), or NULL. */
static inline void *shoppable_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/** The connection's socket descriptor, or -1. */
static inline int shoppable_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

/**
 * Writes the numeric address of `address` ("127.0.0.1", "::1"; an IPv4-mapped IPv6 address as
 * its IPv4 form) into buffer (NUL-terminated). Returns 0 on success, -1 if unknown.
 */
static inline int shoppable_format_address(const struct sockaddr *address, char *buffer, size_t size) {
    if (address == NULL || size == 0) return -1;
    const void *raw = NULL;
    int family = address->sa_family;
    if (family == AF_INET) {
        raw = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (family == AF_INET6) {
        const struct in6_addr *v6 = &((const struct sockaddr_in6 *)address)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(v6)) {
            raw = &v6->s6_addr[12];
            family = AF_INET;
        } else {
            raw = v6;
        }
    } else {
        return -1;
    }
    return inet_ntop(family, raw, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

/** The port the daemon is bound to, or 0 if unknown. */
static inline uint16_t shoppable_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/** Writes the client's numeric address into buffer; see shoppable_format_address. */
static inline int shoppable_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return -1;
    return shoppable_format_address(info->client_addr, buffer, size);
}

#endif
