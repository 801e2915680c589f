/* fuzz_mcp.c — libFuzzer target for the MCP client's handling of hostile server output.
 *
 * The first byte picks a mode:
 *   even: the bytes are a server's stdout stream, fed in chunks (sizes from the first bytes) to an
 *         mcp_session waiting for a response; every response is shaped as a tools/call and a
 *         tools/list result; after DONE or FAIL a new request is started. Checked: every line the
 *         session queues for the server is one valid JSON object, and the buffers respect the caps.
 *   odd:  the bytes are a CHIDORI_MCP_CONFIG document.
 *
 * Build: make VARIANT=fuzz build/fuzz/fuzz_mcp (it links the whole trusted side: the config
 *        parser reads the settings, src/settings/)
 * Run:   build/fuzz/fuzz_mcp tests/fuzz/corpus/mcp
 */
#include "host/mcp.h"
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_out(const mcp_session *s)
{
    size_t start = 0;
    while (start < s->out_len) {
        const char *nl = memchr(s->out + start, '\n', s->out_len - start);
        if (!nl) abort(); /* we only ever queue whole lines */
        size_t n = (size_t)(nl - (s->out + start));
        json_error err;
        json_t *v = json_parse(s->out + start, n, NULL, &err);
        if (!v || v->type != JSON_OBJECT) abort();
        json_free(v);
        start += n + 1;
    }
}

static void exercise_result(mcp_session *s)
{
    char *err = NULL, *cursor = NULL;
    if (s->response) {
        json_t *shaped = mcp_shape_call_result(s->response, &err);
        if (!shaped == !err) abort();
        json_free(shaped);
        free(err);
        err = NULL;
        json_t *tools = json_array();
        if (mcp_collect_tools("fz", s->response, tools, 50, &cursor, NULL, &err) < 0 && !err) abort();
        for (size_t i = 0; i < tools->u.array.len; i++)
            if (strncmp(json_string_value(json_object_get(tools->u.array.items[i], "name")), "fz__", 4) != 0) abort();
        json_free(tools);
        free(err);
        free(cursor);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    if (data[0] & 1) {
        mcp_server_config *servers;
        size_t count;
        char *error = NULL;
        if (mcp_config_parse((const char *)data + 1, size - 1, NULL, &servers, &count, &error) == 0) {
            for (size_t i = 0; i < count; i++)
                if (!servers[i].args || !servers[i].args[0] || !servers[i].env || servers[i].timeout_ms < 1) abort();
            mcp_config_free(servers, count);
        } else if (!error) {
            abort();
        }
        free(error);
        return 0;
    }
    mcp_limits lim;
    mcp_limits_default(&lim);
    lim.max_message_bytes = 4096;
    lim.max_bytes_per_call = 1 << 16;
    lim.max_pending_write = 1 << 14;
    mcp_session s;
    mcp_session_init(&s, "fz", &lim);
    mcp_session_request(&s, "tools/call", NULL);
    unsigned seed = data[0];
    size_t pos = 1;
    while (pos < size) {
        seed = seed * 1103515245u + 12345u;
        size_t chunk = 1 + (seed >> 16) % 97;
        if (chunk > size - pos) chunk = size - pos;
        int st = mcp_session_feed(&s, (const char *)data + pos, chunk);
        pos += chunk;
        check_out(&s);
        if (s.out_len > lim.max_pending_write + 8192) abort();
        while (st == MCP_FEED_DONE) {
            if (!s.response == !s.rpc_error) abort();
            exercise_result(&s);
            mcp_session_consumed(&s, s.out_len);
            mcp_session_request(&s, "tools/list", NULL);
            st = mcp_session_feed(&s, NULL, 0); /* lines already buffered */
            check_out(&s);
        }
        if (st == MCP_FEED_FAIL) {
            if (!s.error) abort();
            mcp_session_reset(&s);
            mcp_session_request(&s, "tools/call", NULL);
        }
        if (s.in_len > lim.max_message_bytes) abort();
    }
    mcp_session_eof(&s, "exited");
    if (!s.error) abort();
    mcp_session_free(&s);
    return 0;
}
