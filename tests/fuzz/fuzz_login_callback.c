/* fuzz_login_callback.c — what reaches `chidori model-login`'s callback port (src/cli/
 * login_callback.c) on arbitrary bytes: the request line, the one-time path and the query.
 *
 * Properties (abort on violation): a target is found only in a line that starts `GET /` and is at
 * most LOGIN_REQUEST_MAX bytes, and holds no byte at or under a space and no DEL; LOGIN_MORE only
 * while no newline came and the input is under the cap; the one-time path matches exactly the
 * state's own paths; a decoded parameter holds no control byte and is at most LOGIN_PARAM_MAX. */
#include "cli/login_callback.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char STATE[] = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi";

static void check_param(const char *target, const char *name)
{
    char *v = login_query_param(target, name);
    if (!v) return;
    size_t n = strlen(v);
    if (n > LOGIN_PARAM_MAX) abort();
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) abort();
    free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *in = (const char *)data;
    char *target = NULL;
    login_parse p = login_request_target(in, size, &target);
    if (p == LOGIN_MORE && (memchr(in, '\n', size) || size >= LOGIN_REQUEST_MAX || target)) abort();
    if (p == LOGIN_BAD && target) abort();
    if (p == LOGIN_TARGET) {
        size_t n = strlen(target);
        if (!target || n == 0 || target[0] != '/' || size < 4 || memcmp(in, "GET /", 5) != 0 || n > LOGIN_REQUEST_MAX)
            abort();
        for (size_t i = 0; i < n; i++)
            if ((unsigned char)target[i] <= 0x20 || target[i] == 0x7f) abort();
        bool ok = login_path_is(target, "/callback/", STATE);
        size_t pl = strcspn(target, "?");
        size_t sl = strlen(STATE);
        bool want = pl >= 10 + sl && !memcmp(target, "/callback/", 10) && !memcmp(target + 10, STATE, sl);
        for (size_t i = 10 + sl; want && i < pl; i++) want = target[i] == '/';
        if (ok != want) abort();
        check_param(target, "code");
        check_param(target, "error");
        free(target);
    }
    /* the whole input as a target (the path and query readers take any NUL-terminated text) */
    char *t = malloc(size + 1);
    memcpy(t, in, size);
    t[size] = 0;
    (void)login_path_is(t, "/callback/", STATE);
    check_param(t, "code");
    free(t);
    return 0;
}
