/* mhd_lazy.c — libmicrohttpd, loaded when `chidori serve` starts instead of at every start-up.
 *
 * Linking libmicrohttpd pulls in GnuTLS and its companions (p11-kit, nettle, gmp, idn2…), whose
 * loading and constructors cost about 1.5 ms on every exec of chidori — paid twice by every
 * isolated run (the parent and its worker), neither of which serves HTTP. So this file defines
 * the few libmicrohttpd functions chidori calls and forwards each to the real library, which it
 * dlopens (libmicrohttpd.so.12) on first use. If the library is missing, MHD_start_daemon
 * returns NULL and serve reports that it cannot start; nothing else is reached before that.
 *
 * MHD_start_daemon is variadic: it forwards its options through MHD_start_daemon_va.
 * MHD_get_connection_info is too, but the kinds chidori asks for (the socket, the socket context)
 * take no extra argument, so it forwards none.
 */
#include <microhttpd.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

static struct {
    struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
                                          MHD_AccessHandlerCallback, void *, va_list);
    void (*stop_daemon)(struct MHD_Daemon *);
    const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind, const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int, struct MHD_Response *);
    struct MHD_Response *(*create_response_from_callback)(uint64_t, size_t, MHD_ContentReaderCallback, void *,
                                                          MHD_ContentReaderFreeCallback);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *, enum MHD_ResponseMemoryMode);
    void (*destroy_response)(struct MHD_Response *);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *, const char *);
    void (*suspend_connection)(struct MHD_Connection *);
    void (*resume_connection)(struct MHD_Connection *);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);
    int loaded;
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *lib = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
#define BIND(field, name) *(void **)&api.field = dlsym(lib, name)
    BIND(start_daemon_va, "MHD_start_daemon_va");
    BIND(stop_daemon, "MHD_stop_daemon");
    BIND(lookup_connection_value, "MHD_lookup_connection_value");
    BIND(queue_response, "MHD_queue_response");
    BIND(create_response_from_callback, "MHD_create_response_from_callback");
    BIND(create_response_from_buffer, "MHD_create_response_from_buffer");
    BIND(destroy_response, "MHD_destroy_response");
    BIND(add_response_header, "MHD_add_response_header");
    BIND(suspend_connection, "MHD_suspend_connection");
    BIND(resume_connection, "MHD_resume_connection");
    BIND(get_connection_info, "MHD_get_connection_info");
#undef BIND
    api.loaded = api.start_daemon_va && api.stop_daemon && api.lookup_connection_value && api.queue_response &&
                 api.create_response_from_callback && api.create_response_from_buffer && api.destroy_response &&
                 api.add_response_header && api.suspend_connection && api.resume_connection &&
                 api.get_connection_info;
}

static int ready(void)
{
    pthread_once(&load_once, load);
    return api.loaded;
}

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    if (!ready()) return NULL;
    va_list ap;
    va_start(ap, dh_cls);
    struct MHD_Daemon *d = api.start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return d;
}

/* The functions below are reached only through a daemon that MHD_start_daemon started, so the
 * library is loaded by then. */
void MHD_stop_daemon(struct MHD_Daemon *daemon) { api.stop_daemon(daemon); }

const char *MHD_lookup_connection_value(struct MHD_Connection *c, enum MHD_ValueKind kind, const char *key)
{
    return api.lookup_connection_value(c, kind, key);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *c, unsigned int status, struct MHD_Response *r)
{
    return api.queue_response(c, status, r);
}

struct MHD_Response *MHD_create_response_from_callback(uint64_t size, size_t block_size, MHD_ContentReaderCallback crc,
                                                       void *crc_cls, MHD_ContentReaderFreeCallback crfc)
{
    return ready() ? api.create_response_from_callback(size, block_size, crc, crc_cls, crfc) : NULL;
}

struct MHD_Response *MHD_create_response_from_buffer(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode)
{
    return ready() ? api.create_response_from_buffer(size, buffer, mode) : NULL;
}

void MHD_destroy_response(struct MHD_Response *r) { api.destroy_response(r); }

enum MHD_Result MHD_add_response_header(struct MHD_Response *r, const char *header, const char *content)
{
    return api.add_response_header(r, header, content);
}

void MHD_suspend_connection(struct MHD_Connection *c) { api.suspend_connection(c); }

void MHD_resume_connection(struct MHD_Connection *c) { api.resume_connection(c); }

const union MHD_ConnectionInfo *MHD_get_connection_info(struct MHD_Connection *c, enum MHD_ConnectionInfoType kind, ...)
{
    return api.get_connection_info(c, kind);
}
