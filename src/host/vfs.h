/* vfs.h — the in-memory filesystem behind node:fs (docs/vfs.md).
 *
 * A tree of directories and regular files (bytes) owned by a run's host. There are no symbolic
 * links, no hard links, no file descriptors and no permission checks (mode bits are kept for stat
 * only). Nothing here touches the real disk or reads the real clock: every function that changes
 * the tree takes the time to stamp (the run's virtual clock), so the state is a pure function of
 * the seed and the sequence of calls, which is what lets replay re-derive it.
 *
 * Paths come from guest code and are hostile. Every path is resolved lexically: relative paths
 * start at "/" (the cwd is "/"), "." parts are dropped, ".." removes the part before it and is
 * clamped at "/", repeated slashes collapse. A NUL byte is EINVAL; a path of VFS_PATH_MAX bytes or
 * more, or a part longer than VFS_NAME_MAX, is ENAMETOOLONG. A trailing slash (or a last part "."
 * or "..") means the path must name a directory. The tree is capped in file bytes (ENOSPC) and in
 * nodes (ENOSPC, as a full inode table is on Linux).
 *
 * Functions return 0 or a VFS_E* code; the codes are Node's (libuv's) names for the same errors.
 */
#ifndef CHIDORI_VFS_H
#define CHIDORI_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/json.h"

#define VFS_PATH_MAX 4096                      /* a path is shorter than this (as PATH_MAX with its NUL) */
#define VFS_NAME_MAX 255                       /* one part of a path */
#define VFS_PATH_BUF (VFS_PATH_MAX + 2)        /* holds any normalized path with its NUL */
#define VFS_DEFAULT_MAX_BYTES ((uint64_t)64 << 20)
#define VFS_MAX_MAX_BYTES ((uint64_t)1 << 30)  /* the largest cap CHIDORI_VFS_MAX_BYTES may set */
#define VFS_DEFAULT_MAX_NODES 65536

enum {
    VFS_OK = 0,
    VFS_ENOENT,
    VFS_EEXIST,
    VFS_EISDIR,
    VFS_ENOTDIR,
    VFS_ENOTEMPTY,
    VFS_EINVAL,
    VFS_ENOSPC,
    VFS_ENAMETOOLONG,
    VFS_EPERM,
    VFS_EBUSY,
    VFS_EFBIG,
    VFS_ERR_COUNT
};

/* "ENOENT", "no such file or directory", -2 (Linux errno, negated as Node reports it). */
const char *vfs_err_code(int err);
const char *vfs_err_text(int err);
int vfs_err_errno(int err);

typedef enum vfs_type { VFS_FILE = 1, VFS_DIR = 2 } vfs_type;

#define VFS_S_IFREG 0100000u
#define VFS_S_IFDIR 0040000u

typedef struct vfs_stats {
    vfs_type type;
    uint64_t size;  /* file bytes; a directory reports 4096 as ext4 does */
    uint32_t mode;  /* type bits | permission bits */
    uint64_t ino;   /* 1 for "/", then in creation order */
    uint32_t nlink; /* 1 for a file; 2 + subdirectories for a directory */
    int64_t atime_ms, mtime_ms, ctime_ms, birthtime_ms;
} vfs_stats;

typedef struct vfs_dirent {
    char *name;
    vfs_type type;
} vfs_dirent;

typedef struct vfs_limits {
    uint64_t max_bytes; /* total bytes of all files (0: only empty files) */
    size_t max_nodes;   /* files and directories, "/" included (at least 1) */
} vfs_limits;

typedef struct vfs vfs;

/* An empty tree ("/" only, mode 0755, stamped now_ms). lim NULL: VFS_DEFAULT_MAX_BYTES and
 * VFS_DEFAULT_MAX_NODES. */
vfs *vfs_new(const vfs_limits *lim, int64_t now_ms);
void vfs_free(vfs *v);

/* Normalize path (len bytes, may hold NUL) into out (VFS_PATH_BUF bytes): absolute, no "." or
 * ".." parts, no repeated or trailing slash ("/" alone for the root). *dir_only (may be NULL) is
 * set when the path ended in "/", "." or "..". 0 or VFS_ENOENT (empty), VFS_EINVAL (NUL),
 * VFS_ENAMETOOLONG. */
int vfs_normalize(const char *path, size_t len, char *out, size_t *out_len, bool *dir_only);

/* Read up to max bytes at offset of a file: *data (malloc'd, caller frees; may be NULL when *n
 * is 0), *n bytes, *file_size the whole size. An offset past the end reads nothing. */
int vfs_read(vfs *v, const char *path, uint64_t offset, size_t max, unsigned char **data, size_t *n,
             uint64_t *file_size);

enum {
    VFS_WRITE_APPEND = 1u << 0, /* add to the end instead of replacing the content */
    VFS_WRITE_EXCL = 1u << 1,   /* EEXIST when the path exists */
};
/* Create or replace (or append to) a file. mode applies when the file is created. */
int vfs_write(vfs *v, const char *path, const void *data, size_t n, unsigned flags, uint32_t mode, int64_t now_ms);

/* mkdir; with recursive, missing parents are made and an existing directory is not an error.
 * *first_created (may be NULL) gets the normalized path of the first directory made, or NULL. */
int vfs_mkdir(vfs *v, const char *path, bool recursive, uint32_t mode, int64_t now_ms, char **first_created);

/* mkdir of prefix + a six-character suffix ("000001", "000002", ... in base 36, from a counter
 * kept by the tree: deterministic, unlike Node's random one); suffixes already taken are skipped.
 * *out (malloc'd) is prefix + suffix as given, not normalized. */
int vfs_mkdtemp(vfs *v, const char *prefix, uint32_t mode, int64_t now_ms, char **out);

/* The entries of a directory, sorted bytewise by name. Free with vfs_dirents_free. */
int vfs_readdir(vfs *v, const char *path, vfs_dirent **entries, size_t *n);
void vfs_dirents_free(vfs_dirent *entries, size_t n);

int vfs_stat(vfs *v, const char *path, vfs_stats *st);
int vfs_unlink(vfs *v, const char *path, int64_t now_ms);             /* files only */
int vfs_rmdir(vfs *v, const char *path, int64_t now_ms);              /* empty directories only */
int vfs_rm(vfs *v, const char *path, bool recursive, bool force, int64_t now_ms);
int vfs_rename(vfs *v, const char *from, const char *to, int64_t now_ms);
int vfs_copy_file(vfs *v, const char *from, const char *to, bool exclusive, int64_t now_ms);
int vfs_truncate(vfs *v, const char *path, uint64_t length, int64_t now_ms);
int vfs_chmod(vfs *v, const char *path, uint32_t mode, int64_t now_ms);
int vfs_utimes(vfs *v, const char *path, int64_t atime_ms, int64_t mtime_ms, int64_t now_ms);
/* The canonical path of an existing node (malloc'd). */
int vfs_realpath(vfs *v, const char *path, char **out);

uint64_t vfs_bytes_used(const vfs *v);
size_t vfs_node_count(const vfs *v);
const vfs_limits *vfs_get_limits(const vfs *v);

/* Recount the tree and check its bookkeeping (sizes, counts, links, the name index): 0 when
 * consistent, otherwise a short description of the first fault. For tests and fuzzing. */
const char *vfs_check(const vfs *v);

/* Fill the tree from a seed document (docs/vfs.md):
 *   {"/path/file.txt": "utf-8 text", "/bin.dat": {"base64": "..."}, "/dir/": null,
 *    "/tool.sh": {"text": "...", "mode": 493}}
 * Parents are made as needed. 0, or -1 with *error (malloc'd) naming the entry at fault. */
int vfs_seed_from_json(vfs *v, const json_t *seed, int64_t now_ms, char **error);

#endif
