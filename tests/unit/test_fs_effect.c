/* test_fs_effect.c — the `fs` host op (effects/fs.c): Node-format errors, argument checks, the
 * per-call byte limit, CHIDORI_TS_FS=none, seeds given to host_new. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/host.h"
#include "util/base64.h"
#include "util/buf.h"

#include <stdlib.h>

static host *fs_host(const json_t *seed, bool disabled, char **error)
{
    host_config cfg = {.project_root = "/tmp", .log_out = stderr, .console_out = stderr,
                       .vfs_seed = seed, .vfs_clock_ms = 5, .fs_disabled = disabled};
    return host_new(&cfg, error);
}

/* Call fs with args given as JSON text; returns the HOST_* code. */
static int fs_call(host *h, const char *args_json, json_t **result, char **error)
{
    json_error jerr;
    json_t *args = json_parse(args_json, strlen(args_json), NULL, &jerr);
    if (!args) {
        *result = NULL;
        *error = xstrdup("test: bad args JSON");
        return -1;
    }
    int rc = host_call(h, "fs", args, result, error);
    json_free(args);
    return rc;
}

#define EXPECT_ERROR(h, args, words)                                           \
    do {                                                                       \
        json_t *r_;                                                            \
        char *e_ = NULL;                                                       \
        int rc_ = fs_call(h, args, &r_, &e_);                                  \
        int ok_ = rc_ == HOST_ERROR && e_ && strstr(e_, words);                \
        if (!ok_) {                                                            \
            char m_[400];                                                      \
            snprintf(m_, sizeof m_, "%s → rc %d, %s", args, rc_, e_ ? e_ : "(no error)"); \
            free(e_);                                                          \
            json_free(r_);                                                     \
            host_free(h);                                                      \
            unit_fail(__FILE__, __LINE__, m_);                                 \
            return;                                                            \
        }                                                                      \
        free(e_);                                                              \
    } while (0)

TEST(fs_effect_errors_have_nodes_format)
{
    char *error = NULL;
    host *h = fs_host(NULL, false, &error);
    CHECK(h);
    EXPECT_ERROR(h, "{\"action\":\"read\",\"path\":\"nope\"}", "ENOENT: no such file or directory, open 'nope'");
    EXPECT_ERROR(h, "{\"action\":\"readdir\",\"path\":\"/x/../y\"}", "ENOENT: no such file or directory, scandir '/x/../y'");
    EXPECT_ERROR(h, "{\"action\":\"read\",\"path\":\"/\"}", "EISDIR: illegal operation on a directory, read");
    EXPECT_ERROR(h, "{\"action\":\"rename\",\"from\":\"/a\",\"to\":\"/b\"}", "ENOENT: no such file or directory, rename '/a' -> '/b'");
    EXPECT_ERROR(h, "{\"action\":\"rmdir\",\"path\":\"/\"}", "EBUSY: resource busy or locked, rmdir '/'");
    EXPECT_ERROR(h, "{\"action\":\"mkdtemp\",\"prefix\":\"/no/t-\"}", "ENOENT: no such file or directory, mkdtemp '/no/t-XXXXXX'");
    /* arguments */
    EXPECT_ERROR(h, "{\"action\":\"read\"}", "missing string argument `path`");
    EXPECT_ERROR(h, "{\"action\":\"read\",\"path\":\"/a\\u0000b\"}", "contains a NUL character");
    EXPECT_ERROR(h, "{\"action\":\"chown\",\"path\":\"/\"}", "unknown action `chown`");
    EXPECT_ERROR(h, "{\"action\":\"write\",\"path\":\"/f\",\"data\":\"!!\"}", "not valid base64");
    EXPECT_ERROR(h, "{\"action\":\"write\",\"path\":\"/f\",\"data\":\"\",\"flag\":\"r+\"}", "flag `r+` is not supported");
    EXPECT_ERROR(h, "{\"action\":\"write\",\"path\":\"/f\",\"data\":\"\",\"mode\":-1}", "optional integer `mode`");
    EXPECT_ERROR(h, "{\"action\":\"truncate\",\"path\":\"/f\",\"length\":1.5}", "non-negative integer");
    EXPECT_ERROR(h, "{\"action\":\"read\",\"path\":\"/f\",\"offset\":-1}", "non-negative integers");

    json_t *r;
    CHECK(fs_call(h, "{\"action\":\"write\",\"path\":\"/f\",\"data\":\"aGk=\",\"now\":42}", &r, &error) == HOST_OK);
    json_free(r);
    CHECK(fs_call(h, "{\"action\":\"stat\",\"path\":\"f\"}", &r, &error) == HOST_OK);
    CHECK(json_number_value(json_object_get(r, "size")) == 2 && json_number_value(json_object_get(r, "mtimeMs")) == 42);
    CHECK(json_number_value(json_object_get(r, "mode")) == 0100644); /* 0666 less the umask */
    CHECK_STR(json_string_value(json_object_get(r, "type")), "file");
    json_free(r);
    CHECK(fs_call(h, "{\"action\":\"stat\",\"path\":\"/\"}", &r, &error) == HOST_OK);
    CHECK(json_number_value(json_object_get(r, "mtimeMs")) == 42); /* the directory changed at 42 */
    CHECK(json_number_value(json_object_get(r, "birthtimeMs")) == 5); /* made at the run's clock start */
    json_free(r);
    CHECK(fs_call(h, "{\"action\":\"exists\",\"path\":\"/f/\"}", &r, &error) == HOST_OK && r->type == JSON_FALSE);
    json_free(r);
    host_free(h);
}

TEST(fs_effect_moves_at_most_16_mib_per_call)
{
    char *error = NULL;
    host *h = fs_host(NULL, false, &error);
    CHECK(h);
    size_t n = ((size_t)16 << 20) + 3;
    char *bytes = xcalloc(1, n);
    char *b64 = base64_encode(bytes, n, NULL);
    json_t *args = json_object();
    json_object_set(args, "action", json_string("write"));
    json_object_set(args, "path", json_string("/big"));
    json_object_set(args, "data", json_string(b64));
    json_t *r = NULL;
    CHECK(host_call(h, "fs", args, &r, &error) == HOST_ERROR && strstr(error, "at most 16777216 bytes"));
    free(error), error = NULL;
    json_free(args);
    free(b64);
    /* two writes make a file larger than one call moves; reads come back in pieces */
    b64 = base64_encode(bytes, (size_t)16 << 20, NULL);
    for (int i = 0; i < 2; i++) {
        args = json_object();
        json_object_set(args, "action", json_string("write"));
        json_object_set(args, "path", json_string("/big"));
        json_object_set(args, "data", json_string(i ? "AAAA" : b64));
        json_object_set(args, "flag", json_string(i ? "a" : "w"));
        CHECK(host_call(h, "fs", args, &r, &error) == HOST_OK);
        json_free(r);
        json_free(args);
    }
    free(b64);
    free(bytes);
    CHECK(fs_call(h, "{\"action\":\"read\",\"path\":\"/big\"}", &r, &error) == HOST_OK);
    CHECK(json_number_value(json_object_get(r, "size")) == (double)(((size_t)16 << 20) + 3));
    CHECK(json_object_get(r, "data")->u.string.len == base64_encoded_len((size_t)16 << 20));
    json_free(r);
    CHECK(fs_call(h, "{\"action\":\"read\",\"path\":\"/big\",\"offset\":16777216}", &r, &error) == HOST_OK);
    CHECK_STR(json_string_value(json_object_get(r, "data")), "AAAA");
    json_free(r);
    host_free(h);
}

TEST(fs_effect_disabled_and_seeded)
{
    char *error = NULL;
    host *h = fs_host(NULL, true, &error);
    CHECK(h);
    EXPECT_ERROR(h, "{\"action\":\"exists\",\"path\":\"/\"}", "fs is disabled by CHIDORI_TS_FS=none");
    host_free(h);

    json_error jerr;
    const char *text = "{\"/etc/motd\": \"hi\"}";
    json_t *seed = json_parse(text, strlen(text), NULL, &jerr);
    h = fs_host(seed, false, &error);
    json_free(seed); /* host_new keeps its own copy */
    CHECK(h);
    json_t *r;
    CHECK(fs_call(h, "{\"action\":\"read\",\"path\":\"/../etc/motd\"}", &r, &error) == HOST_OK);
    CHECK_STR(json_string_value(json_object_get(r, "data")), "aGk=");
    json_free(r);
    host_free(h);

    text = "{\"/etc/motd\": 1}";
    seed = json_parse(text, strlen(text), NULL, &jerr);
    h = fs_host(seed, false, &error);
    json_free(seed);
    CHECK(!h && error && strstr(error, "the VFS seed cannot be applied: entry `/etc/motd`"));
    free(error);
}
