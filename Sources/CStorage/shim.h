// The Linux calls the Storage module needs that Swift's Glibc module does not import:
// fallocate(2) with its keep-size mode, sync_file_range(2), statfs(2)'s filesystem type and
// the FS_IOC_FIEMAP ioctl that counts a file's extents. They are declared only under
// _GNU_SOURCE or by <linux/...> headers outside the module.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

int fallocate(int fd, int mode, off_t offset, off_t len);

// Allocates [offset, offset + length) of fd. keep_size != 0 leaves the file's size as it is
// (blocks past the end are allocated but not part of the file until written). 0, or -1 with errno.
static inline int headroom_fallocate(int fd, int keep_size, int64_t offset, int64_t length) {
    return fallocate(fd, keep_size ? FALLOC_FL_KEEP_SIZE : 0, (off_t)offset, (off_t)length);
}

// The number of extents mapping fd's data (FS_IOC_FIEMAP with no extent array: the kernel only
// counts), after flushing it; -1 with errno when the filesystem has no FIEMAP (tmpfs).
static inline int64_t headroom_extent_count(int fd) {
    struct fiemap map;
    memset(&map, 0, sizeof map);
    map.fm_start = 0;
    map.fm_length = FIEMAP_MAX_OFFSET;
    map.fm_flags = FIEMAP_FLAG_SYNC;
    map.fm_extent_count = 0;
    if (ioctl(fd, FS_IOC_FIEMAP, &map) != 0) return -1;
    return (int64_t)map.fm_mapped_extents;
}

#include <sys/vfs.h>

// The filesystem type (statfs f_type, such as EXT4_SUPER_MAGIC) of path; -1 on failure.
static inline long headroom_filesystem_magic(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (long)info.f_type : -1;
}

// Starts writeback of [offset, offset + length) of fd without waiting for it (sync_file_range
// with SYNC_FILE_RANGE_WRITE). 0, or -1 with errno.
static inline int headroom_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE);
}

// Waits until [offset, offset + length) of fd is written to the device (data only, not the
// metadata an fdatasync also flushes). 0, or -1 with errno.
static inline int headroom_wait_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off_t)offset, (off_t)length,
                           SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                               SYNC_FILE_RANGE_WAIT_AFTER);
}

#include <stdio.h>
#include <unistd.h>

// Renames from to to unless to exists (renameat2 with RENAME_NOREPLACE; where the filesystem
// cannot, link and unlink, which also never replaces). 0, or -1 with errno (EEXIST when to
// exists).
static inline int headroom_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    if (link(from, to) != 0) return -1;
    // The file is at `to` now; a `from` left behind is only a second name for it.
    (void)unlink(from);
    return 0;
}
