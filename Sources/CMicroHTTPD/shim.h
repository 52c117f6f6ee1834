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

typedef void *(*shoppable_mhd_uri_log_fn)(void *cls, const char *uri, struct MHD_Connection *connection);

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
    MHD_AccessHandlerCallback access_handler, void *access_handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    shoppable_mhd_uri_log_fn uri_log, void *uri_log_cls,
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

    /* Callback options take two arguments (function, closure): pass them directly. */
    if (log_sink != NULL) {
        /* The logger must come first, or MHD warns that earlier options may log to stderr. */
        return MHD_start_daemon(flags, 0, NULL, NULL, access_handler, access_handler_cls,
                                MHD_OPTION_EXTERNAL_LOGGER, shoppable_mhd_log_trampoline, (void *)log_sink,
                                MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                                MHD_OPTION_ARRAY, options,
                                MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, 0, NULL, NULL, access_handler, access_handler_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_ARRAY, options,
                            MHD_OPTION_END);
}

/** The port the daemon is bound to, or 0 if unknown. */
static inline uint16_t shoppable_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/**
 * Writes the client's numeric address ("127.0.0.1", "::1") into buffer (NUL-terminated).
 * Returns 0 on success, -1 if unknown.
 */
static inline int shoppable_mhd_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || size == 0) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw = NULL;
    if (address->sa_family == AF_INET) {
        raw = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    } else {
        return -1;
    }
    return inet_ntop(address->sa_family, raw, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

#endif
