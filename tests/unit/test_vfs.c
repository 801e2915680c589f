/* test_vfs.c — the in-memory filesystem (host/vfs.h): path normalization, each operation's
 * results and Node error codes, the byte and node caps, seeding, base64. */
#include "unit.h"
#include "host/vfs.h"
#include "util/base64.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>

static const char *norm(const char *in, bool *dir_only, int *err)
{
    static char out[VFS_PATH_BUF];
    *err = vfs_normalize(in, strlen(in), out, NULL, dir_only);
    return out;
}

static char *read_all(vfs *v, const char *path)
{
    unsigned char *data;
    size_t n;
    uint64_t size;
    if (vfs_read(v, path, 0, (size_t)1 << 30, &data, &n, &size) != 0) return NULL;
    char *s = xstrndup(data ? (const char *)data : "", n);
    free(data);
    return s;
}

#define CHECK_READ(v, path, want)          \
    do {                                   \
        char *got_ = read_all(v, path);    \
        int ok_ = got_ && !strcmp(got_, want); \
        free(got_);                        \
        CHECK(ok_);                        \
    } while (0)

TEST(vfs_normalize_paths)
{
    bool d;
    int e;
    CHECK_STR(norm("/a/b", &d, &e), "/a/b");
    CHECK(e == 0 && !d);
    CHECK_STR(norm("a/b", &d, &e), "/a/b");           /* relative → from "/" */
    CHECK_STR(norm("//a///b//", &d, &e), "/a/b");     /* slashes collapse */
    CHECK(d);                                          /* a trailing slash: must be a directory */
    CHECK_STR(norm("/a/./b/.", &d, &e), "/a/b");
    CHECK(d);
    CHECK_STR(norm("/a/../b", &d, &e), "/b");
    CHECK(!d);
    CHECK_STR(norm("/../../etc/passwd", &d, &e), "/etc/passwd"); /* .. is clamped at / */
    CHECK_STR(norm("../..", &d, &e), "/");
    CHECK_STR(norm("/a/b/../../../..", &d, &e), "/");
    CHECK_STR(norm(".", &d, &e), "/");
    CHECK_STR(norm("/", &d, &e), "/");
    CHECK_STR(norm("...", &d, &e), "/...");           /* only . and .. are special */
    CHECK_STR(norm("a..b/..c", &d, &e), "/a..b/..c");
    norm("", &d, &e);
    CHECK(e == VFS_ENOENT);
    char out[VFS_PATH_BUF];
    CHECK(vfs_normalize("/a\0b", 4, out, NULL, NULL) == VFS_EINVAL);

    char *name = xmalloc(300);
    memset(name, 'n', 299);
    name[0] = '/';
    name[256] = '\0'; /* "/" + 255 characters: the longest part */
    norm(name, &d, &e);
    CHECK(e == 0);
    name[256] = 'n';
    name[257] = '\0'; /* 256 characters */
    norm(name, &d, &e);
    CHECK(e == VFS_ENAMETOOLONG);
    free(name);

    char *lng = xmalloc(VFS_PATH_MAX + 10);
    for (int i = 0; i < VFS_PATH_MAX + 8; i += 2) lng[i] = '/', lng[i + 1] = 'x';
    lng[VFS_PATH_MAX - 1] = '\0'; /* 4095 bytes: accepted */
    norm(lng, &d, &e);
    CHECK(e == 0);
    lng[VFS_PATH_MAX - 1] = 'x';
    lng[VFS_PATH_MAX] = '\0'; /* 4096 bytes */
    norm(lng, &d, &e);
    CHECK(e == VFS_ENAMETOOLONG);
    free(lng);
}

TEST(vfs_write_read_append_exclusive)
{
    vfs *v = vfs_new(NULL, 1000);
    CHECK(vfs_write(v, "/a.txt", "hello", 5, 0, 0644, 2000) == 0);
    CHECK_READ(v, "a.txt", "hello");
    CHECK(vfs_write(v, "/a.txt", " world", 6, VFS_WRITE_APPEND, 0644, 3000) == 0);
    CHECK_READ(v, "/a.txt", "hello world");
    CHECK(vfs_write(v, "/a.txt", "x", 1, 0, 0644, 3000) == 0); /* w replaces */
    CHECK_READ(v, "/a.txt", "x");
    CHECK(vfs_bytes_used(v) == 1);
    CHECK(vfs_write(v, "/a.txt", "y", 1, VFS_WRITE_EXCL, 0644, 0) == VFS_EEXIST);
    CHECK(vfs_write(v, "/new", "y", 1, VFS_WRITE_EXCL | VFS_WRITE_APPEND, 0644, 0) == 0);
    CHECK(vfs_write(v, "/missing/f", "y", 1, 0, 0644, 0) == VFS_ENOENT);
    CHECK(vfs_write(v, "/a.txt/f", "y", 1, 0, 0644, 0) == VFS_ENOTDIR);
    CHECK(vfs_write(v, "/", "y", 1, 0, 0644, 0) == VFS_EISDIR);
    CHECK(vfs_write(v, "/fresh/", "y", 1, 0, 0644, 0) == VFS_EISDIR);
    CHECK(vfs_write(v, "/a.txt/", "y", 1, 0, 0644, 0) == VFS_ENOTDIR);

    unsigned char *data;
    size_t n;
    uint64_t size;
    CHECK(vfs_read(v, "/nope", 0, 10, &data, &n, &size) == VFS_ENOENT);
    CHECK(vfs_read(v, "/", 0, 10, &data, &n, &size) == VFS_EISDIR);
    CHECK(vfs_read(v, "/a.txt/", 0, 10, &data, &n, &size) == VFS_ENOTDIR);
    CHECK(vfs_write(v, "/big", "0123456789", 10, 0, 0644, 0) == 0);
    CHECK(vfs_read(v, "/big", 4, 3, &data, &n, &size) == 0);
    CHECK(n == 3 && size == 10 && !memcmp(data, "456", 3));
    free(data);
    CHECK(vfs_read(v, "/big", 99, 3, &data, &n, &size) == 0 && n == 0 && size == 10);

    vfs_stats st;
    CHECK(vfs_stat(v, "/a.txt", &st) == 0);
    CHECK(st.type == VFS_FILE && st.size == 1 && st.mode == (VFS_S_IFREG | 0644) && st.nlink == 1);
    CHECK(st.mtime_ms == 3000 && st.birthtime_ms == 2000);
    CHECK(vfs_stat(v, "/", &st) == 0 && st.type == VFS_DIR && st.ino == 1 && st.mode == (VFS_S_IFDIR | 0755));
    CHECK(vfs_check(v) == NULL);
    vfs_free(v);
}

TEST(vfs_mkdir_readdir_rm)
{
    vfs *v = vfs_new(NULL, 0);
    char *first = NULL;
    CHECK(vfs_mkdir(v, "/a/b/c", false, 0755, 0, NULL) == VFS_ENOENT);
    CHECK(vfs_mkdir(v, "/a/b/c", true, 0755, 0, &first) == 0);
    CHECK_STR(first, "/a");
    free(first);
    CHECK(vfs_mkdir(v, "a/b", true, 0755, 0, &first) == 0 && first == NULL); /* exists: fine with -p */
    CHECK(vfs_mkdir(v, "/a/b", false, 0755, 0, NULL) == VFS_EEXIST);
    CHECK(vfs_mkdir(v, "/", false, 0755, 0, NULL) == VFS_EEXIST);
    CHECK(vfs_write(v, "/a/f", "", 0, 0, 0644, 0) == 0);
    CHECK(vfs_mkdir(v, "/a/f", true, 0755, 0, NULL) == VFS_EEXIST);
    CHECK(vfs_mkdir(v, "/a/f/g", true, 0755, 0, NULL) == VFS_ENOTDIR);
    CHECK(vfs_write(v, "/a/Z", "", 0, 0, 0644, 0) == 0);
    CHECK(vfs_write(v, "/a/0", "", 0, 0, 0644, 0) == 0);

    vfs_dirent *list;
    size_t n;
    CHECK(vfs_readdir(v, "/a", &list, &n) == 0);
    CHECK(n == 4);
    CHECK_STR(list[0].name, "0"); /* bytewise order, not creation order */
    CHECK_STR(list[1].name, "Z");
    CHECK_STR(list[2].name, "b");
    CHECK(list[2].type == VFS_DIR);
    CHECK_STR(list[3].name, "f");
    vfs_dirents_free(list, n);
    CHECK(vfs_readdir(v, "/a/f", &list, &n) == VFS_ENOTDIR);
    CHECK(vfs_readdir(v, "/zz", &list, &n) == VFS_ENOENT);

    vfs_stats st;
    CHECK(vfs_stat(v, "/a", &st) == 0 && st.nlink == 3); /* ., its entry in /, and b's .. */

    CHECK(vfs_rmdir(v, "/a", 0) == VFS_ENOTEMPTY);
    CHECK(vfs_rmdir(v, "/a/f", 0) == VFS_ENOTDIR);
    CHECK(vfs_rmdir(v, "/", 0) == VFS_EBUSY);
    CHECK(vfs_unlink(v, "/a/b", 0) == VFS_EISDIR);
    CHECK(vfs_unlink(v, "/a/f", 0) == 0);
    CHECK(vfs_unlink(v, "/a/f", 0) == VFS_ENOENT);
    CHECK(vfs_rm(v, "/a", false, false, 0) == VFS_EISDIR);
    CHECK(vfs_rm(v, "/nope", false, false, 0) == VFS_ENOENT);
    CHECK(vfs_rm(v, "/nope", false, true, 0) == 0);
    CHECK(vfs_rm(v, "/", true, true, 0) == VFS_EBUSY);
    CHECK(vfs_rm(v, "/a", true, false, 0) == 0);
    CHECK(vfs_node_count(v) == 1 && vfs_bytes_used(v) == 0);
    CHECK(vfs_check(v) == NULL);
    vfs_free(v);
}

TEST(vfs_rename_copy_truncate)
{
    vfs *v = vfs_new(NULL, 0);
    CHECK(vfs_mkdir(v, "/d/e", true, 0755, 0, NULL) == 0);
    CHECK(vfs_write(v, "/d/e/f", "abc", 3, 0, 0600, 0) == 0);
    CHECK(vfs_rename(v, "/d", "/d/e/g", 0) == VFS_EINVAL); /* into itself */
    CHECK(vfs_rename(v, "/nope", "/x", 0) == VFS_ENOENT);
    CHECK(vfs_rename(v, "/d/e/f", "/nope/x", 0) == VFS_ENOENT);
    CHECK(vfs_rename(v, "/d/e/f", "/d", 0) == VFS_EISDIR);
    CHECK(vfs_rename(v, "/d", "/d/e/f", 0) == VFS_EINVAL);
    CHECK(vfs_rename(v, "/", "/x", 0) == VFS_EBUSY);
    CHECK(vfs_rename(v, "/d/e", "/e2", 0) == 0);
    CHECK_READ(v, "/e2/f", "abc");
    CHECK(vfs_write(v, "/g", "zz", 2, 0, 0644, 0) == 0);
    CHECK(vfs_rename(v, "/e2/f", "/g", 0) == 0); /* replaces a file */
    CHECK_READ(v, "/g", "abc");
    CHECK(vfs_bytes_used(v) == 3);
    CHECK(vfs_mkdir(v, "/full/x", true, 0755, 0, NULL) == 0);
    CHECK(vfs_rename(v, "/e2", "/full", 0) == VFS_ENOTEMPTY);
    CHECK(vfs_rename(v, "/e2", "/d", 0) == 0); /* replaces an empty directory */
    CHECK(vfs_rename(v, "/e2", "/d", 0) == VFS_ENOENT);
    CHECK(vfs_rename(v, "/g", "/g", 0) == 0);
    CHECK(vfs_rename(v, "/g/", "/h", 0) == VFS_ENOTDIR);

    CHECK(vfs_copy_file(v, "/g", "/h", false, 0) == 0);
    CHECK_READ(v, "/h", "abc");
    vfs_stats st;
    CHECK(vfs_stat(v, "/h", &st) == 0 && (st.mode & 07777) == 0600);
    CHECK(vfs_copy_file(v, "/g", "/h", true, 0) == VFS_EEXIST);
    CHECK(vfs_copy_file(v, "/d", "/i", false, 0) == VFS_EISDIR);
    CHECK(vfs_copy_file(v, "/g", "/d", false, 0) == VFS_EISDIR);
    CHECK(vfs_bytes_used(v) == 6);

    CHECK(vfs_truncate(v, "/h", 1, 0) == 0);
    CHECK_READ(v, "/h", "a");
    CHECK(vfs_truncate(v, "/h", 4, 0) == 0);
    unsigned char *data;
    size_t n;
    uint64_t size;
    CHECK(vfs_read(v, "/h", 0, 100, &data, &n, &size) == 0 && n == 4 && !memcmp(data, "a\0\0\0", 4));
    free(data);
    CHECK(vfs_truncate(v, "/d", 0, 0) == VFS_EISDIR);
    CHECK(vfs_bytes_used(v) == 7);

    char *real;
    CHECK(vfs_realpath(v, "d/../h", &real) == 0);
    CHECK_STR(real, "/h");
    free(real);
    CHECK(vfs_chmod(v, "/h", 0400, 5) == 0 && vfs_stat(v, "/h", &st) == 0 && st.mode == (VFS_S_IFREG | 0400));
    CHECK(vfs_utimes(v, "/h", 11, 22, 5) == 0 && vfs_stat(v, "/h", &st) == 0 && st.atime_ms == 11 && st.mtime_ms == 22);
    char *tmp;
    CHECK(vfs_mkdtemp(v, "/t-", 0700, 0, &tmp) == 0);
    CHECK_STR(tmp, "/t-000001");
    free(tmp);
    CHECK(vfs_mkdir(v, "/t-000003", false, 0700, 0, NULL) == 0);
    CHECK(vfs_mkdtemp(v, "/t-", 0700, 0, &tmp) == 0);
    CHECK_STR(tmp, "/t-000002");
    free(tmp);
    CHECK(vfs_mkdtemp(v, "/t-", 0700, 0, &tmp) == 0); /* 000003 is taken */
    CHECK_STR(tmp, "/t-000004");
    free(tmp);
    CHECK(vfs_mkdtemp(v, "/no/t-", 0700, 0, &tmp) == VFS_ENOENT);
    CHECK(vfs_check(v) == NULL);
    vfs_free(v);
}

TEST(vfs_caps_give_enospc)
{
    vfs_limits lim = {10, 5};
    vfs *v = vfs_new(&lim, 0);
    CHECK(vfs_write(v, "/a", "12345678", 8, 0, 0644, 0) == 0);
    CHECK(vfs_write(v, "/a", "123", 3, VFS_WRITE_APPEND, 0644, 0) == VFS_ENOSPC);
    CHECK_READ(v, "/a", "12345678"); /* all or nothing */
    CHECK(vfs_write(v, "/a", "1234567890", 10, 0, 0644, 0) == 0); /* replacing frees the old bytes */
    CHECK(vfs_write(v, "/b", "1", 1, 0, 0644, 0) == VFS_ENOSPC);
    CHECK(vfs_node_count(v) == 2);                     /* the failed write made no file */
    CHECK(vfs_truncate(v, "/a", 11, 0) == VFS_ENOSPC);
    CHECK(vfs_copy_file(v, "/a", "/c", false, 0) == VFS_ENOSPC);
    CHECK(vfs_truncate(v, "/a", 2, 0) == 0);
    CHECK(vfs_mkdir(v, "/1/2/3/4", true, 0755, 0, NULL) == VFS_ENOSPC); /* 5 nodes: "/", a, 1, 2, 3 */
    CHECK(vfs_node_count(v) == 5);
    CHECK(vfs_write(v, "/z", "", 0, 0, 0644, 0) == VFS_ENOSPC);
    CHECK(vfs_check(v) == NULL);
    vfs_free(v);
}

TEST(vfs_deep_trees_are_freed_without_recursion)
{
    /* rename can nest trees deeper than any path names; removal and freeing must cope. */
    vfs_limits lim = {0, 200000};
    vfs *v = vfs_new(&lim, 0);
    CHECK(vfs_mkdir(v, "/top", false, 0755, 0, NULL) == 0);
    for (int i = 0; i < 50000; i++) {
        CHECK(vfs_mkdir(v, "/n", false, 0755, 0, NULL) == 0);
        CHECK(vfs_rename(v, "/top", "/n/top", 0) == 0);
        CHECK(vfs_rename(v, "/n", "/top", 0) == 0);
    }
    CHECK(vfs_node_count(v) == 50002);
    CHECK(vfs_check(v) == NULL);
    vfs *w = vfs_new(&lim, 0);
    CHECK(vfs_mkdir(w, "/top", false, 0755, 0, NULL) == 0);
    for (int i = 0; i < 50000; i++) {
        CHECK(vfs_mkdir(w, "/n", false, 0755, 0, NULL) == 0);
        CHECK(vfs_rename(w, "/top", "/n/top", 0) == 0);
        CHECK(vfs_rename(w, "/n", "/top", 0) == 0);
    }
    CHECK(vfs_rm(w, "/top", true, false, 0) == 0);
    CHECK(vfs_node_count(w) == 1 && vfs_check(w) == NULL);
    vfs_free(w);
    vfs_free(v);
}

TEST(vfs_seed_documents)
{
    char *err = NULL;
    json_error jerr;
    const char *good = "{\"/etc/motd\": \"hi\\n\", \"/bin.dat\": {\"base64\": \"AAEC/w==\"}, \"/empty/\": null,"
                       "\"/x/run.sh\": {\"text\": \"echo\", \"mode\": 493}, \"rel/../top.txt\": \"no\"}";
    json_t *doc = json_parse(good, strlen(good), NULL, &jerr);
    CHECK(doc);
    vfs *v = vfs_new(NULL, 77);
    int rc = vfs_seed_from_json(v, doc, 77, &err);
    json_free(doc);
    CHECK(rc == -1 && err && strstr(err, "must be absolute")); /* "rel/../top.txt" */
    free(err), err = NULL;
    vfs_free(v);

    good = "{\"/etc/motd\": \"hi\\n\", \"/bin.dat\": {\"base64\": \"AAEC/w==\"}, \"/empty/\": null,"
           "\"/x/run.sh\": {\"text\": \"echo\", \"mode\": 493}, \"/x/\": null}";
    doc = json_parse(good, strlen(good), NULL, &jerr);
    v = vfs_new(NULL, 77);
    CHECK(vfs_seed_from_json(v, doc, 77, &err) == 0);
    json_free(doc);
    CHECK_READ(v, "/etc/motd", "hi\n");
    unsigned char *data;
    size_t n;
    uint64_t size;
    CHECK(vfs_read(v, "/bin.dat", 0, 100, &data, &n, &size) == 0 && n == 4 && !memcmp(data, "\0\1\2\377", 4));
    free(data);
    vfs_stats st;
    CHECK(vfs_stat(v, "/empty", &st) == 0 && st.type == VFS_DIR && st.mtime_ms == 77);
    CHECK(vfs_stat(v, "/x/run.sh", &st) == 0 && st.mode == (VFS_S_IFREG | 0755));
    CHECK(vfs_check(v) == NULL);
    vfs_free(v);

    const char *bad[][2] = {
        {"[1]", "must be a JSON object"},
        {"{\"/a\": 5}", "the value must be"},
        {"{\"/a\": {\"base64\": \"!!\"}}", "not valid base64"},
        {"{\"/a\": {\"base64\": \"AA==\", \"text\": \"x\"}}", "an object value must be"},
        {"{\"/a\": {\"text\": \"x\", \"owner\": 1}}", "an object value must be"},
        {"{\"/a\": {\"text\": \"x\", \"mode\": 99999}}", "an object value must be"},
        {"{\"/a/\": \"x\"}", "ending in /"},
        {"{\"/a\": \"x\", \"//a\": \"y\"}", "named twice"},
        {"{\"/a\": \"x\", \"/a/b\": \"y\"}", "not a directory"},
        {"{\"/big\": \"0123456789abc\"}", "larger than the VFS may hold"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        doc = json_parse(bad[i][0], strlen(bad[i][0]), NULL, &jerr);
        CHECK(doc);
        vfs_limits lim = {12, VFS_DEFAULT_MAX_NODES};
        v = vfs_new(&lim, 0);
        rc = vfs_seed_from_json(v, doc, 0, &err);
        json_free(doc);
        vfs_free(v);
        if (rc != -1 || !err || !strstr(err, bad[i][1])) {
            char m[300];
            snprintf(m, sizeof m, "seed %s: got %s", bad[i][0], err ? err : "(no error)");
            free(err);
            unit_fail(__FILE__, __LINE__, m);
            return;
        }
        free(err), err = NULL;
    }
}

TEST(vfs_error_names_are_nodes)
{
    CHECK_STR(vfs_err_code(VFS_ENOENT), "ENOENT");
    CHECK_STR(vfs_err_text(VFS_ENOENT), "no such file or directory");
    CHECK(vfs_err_errno(VFS_ENOENT) == -2);
    CHECK(vfs_err_errno(VFS_ENOTEMPTY) == -39);
    CHECK_STR(vfs_err_code(VFS_ENOSPC), "ENOSPC");
    CHECK_STR(vfs_err_code(1000), "EINVAL");
}

TEST(base64_round_trips)
{
    const char *cases[][2] = {{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="},
                              {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len, n;
        char *enc = base64_encode(cases[i][0], strlen(cases[i][0]), &len);
        CHECK_STR(enc, cases[i][1]);
        unsigned char *dec = base64_decode(enc, len, SIZE_MAX, &n, NULL);
        CHECK(dec && n == strlen(cases[i][0]) && !memcmp(dec, cases[i][0], n));
        free(enc);
        free(dec);
    }
    size_t n;
    CHECK(base64_decode("Zg=", 3, SIZE_MAX, &n, NULL) == NULL);
    CHECK(base64_decode("Z===", 4, SIZE_MAX, &n, NULL) == NULL);
    CHECK(base64_decode("Zm9v\n", 5, SIZE_MAX, &n, NULL) == NULL);
    CHECK(base64_decode("=Zm9", 4, SIZE_MAX, &n, NULL) == NULL);
}
