/* A full disk, simulated for one process (LD_PRELOAD): once CCA_SHIM_WRITE_LIMIT
 * bytes have gone to regular files through write, pwrite, writev or fwrite,
 * further writes fail with ENOSPC (the one that crosses the limit is cut
 * short), and so do fsync, fdatasync, close and fclose of regular files.
 * CCA_SHIM_FAIL_FSYNC=1 makes every fsync/fdatasync of a regular file fail
 * with EIO (a write-back error reported late), whatever was written.
 * CCA_SHIM_FAIL_RENAME_TO=name makes every rename onto a path ending in
 * "/name" fail with EBUSY (a bind-mounted or busy target).
 * Standard output and error are never affected. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static long long g_Limit = -2; /* -2: not read yet, -1: no limit */
static long long g_Written = 0;
static int       g_Full = 0;

static long long
Limit(void)
{
  if (g_Limit == -2)
  {
    const char * text = getenv("CCA_SHIM_WRITE_LIMIT");
    g_Limit = text ? atoll(text) : -1;
  }
  return g_Limit;
}

static int
IsRegularFile(int fd)
{
  struct stat status;
  return fd > 2 && fstat(fd, &status) == 0 && S_ISREG(status.st_mode);
}

/* How many of `count` bytes may still be written. */
static size_t
Allowed(size_t count)
{
  const long long limit = Limit();
  if (limit < 0)
  {
    return count;
  }
  const long long left = limit - g_Written;
  if (left <= 0)
  {
    g_Full = 1;
    return 0;
  }
  if ((long long)count > left)
  {
    g_Full = 1;
    return (size_t)left;
  }
  return count;
}

/* The next definition of a function (libc's), looked up once. */
static void *
Next(const char * name)
{
  return dlsym(RTLD_NEXT, name);
}

ssize_t
write(int fd, const void * buffer, size_t count)
{
  static ssize_t (*real_write)(int, const void *, size_t);
  if (!real_write)
    real_write = (ssize_t (*)(int, const void *, size_t))Next("write");
  if (!IsRegularFile(fd))
  {
    return real_write(fd, buffer, count);
  }
  const size_t allowed = Allowed(count);
  if (allowed == 0 && count > 0)
  {
    errno = ENOSPC;
    return -1;
  }
  const ssize_t written = real_write(fd, buffer, allowed);
  if (written > 0)
  {
    g_Written += written;
  }
  return written;
}

ssize_t
pwrite(int fd, const void * buffer, size_t count, off_t offset)
{
  static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
  if (!real_pwrite)
    real_pwrite = (ssize_t (*)(int, const void *, size_t, off_t))Next("pwrite");
  if (!IsRegularFile(fd))
  {
    return real_pwrite(fd, buffer, count, offset);
  }
  const size_t allowed = Allowed(count);
  if (allowed == 0 && count > 0)
  {
    errno = ENOSPC;
    return -1;
  }
  const ssize_t written = real_pwrite(fd, buffer, allowed, offset);
  if (written > 0)
  {
    g_Written += written;
  }
  return written;
}

ssize_t
pwrite64(int fd, const void * buffer, size_t count, off_t offset)
{
  return pwrite(fd, buffer, count, offset);
}

ssize_t
writev(int fd, const struct iovec * vectors, int count)
{
  static ssize_t (*real_writev)(int, const struct iovec *, int);
  if (!real_writev)
    real_writev = (ssize_t (*)(int, const struct iovec *, int))Next("writev");
  if (!IsRegularFile(fd))
  {
    return real_writev(fd, vectors, count);
  }
  /* One buffer at a time through write(), which counts them. */
  ssize_t total = 0;
  for (int i = 0; i < count; ++i)
  {
    const ssize_t written = write(fd, vectors[i].iov_base, vectors[i].iov_len);
    if (written < 0)
    {
      return total > 0 ? total : -1;
    }
    total += written;
    if ((size_t)written < vectors[i].iov_len)
    {
      break;
    }
  }
  return total;
}

size_t
fwrite(const void * buffer, size_t size, size_t items, FILE * stream)
{
  static size_t (*real_fwrite)(const void *, size_t, size_t, FILE *);
  if (!real_fwrite)
    real_fwrite = (size_t (*)(const void *, size_t, size_t, FILE *))Next("fwrite");
  if (size == 0 || !IsRegularFile(fileno(stream)))
  {
    return real_fwrite(buffer, size, items, stream);
  }
  const size_t allowedItems = Allowed(size * items) / size;
  const size_t written = real_fwrite(buffer, size, allowedItems, stream);
  g_Written += (long long)(written * size);
  if (written < items)
  {
    errno = ENOSPC;
  }
  return written;
}

static int
FailedSync(int fd)
{
  const char * failFsync = getenv("CCA_SHIM_FAIL_FSYNC");
  if (IsRegularFile(fd) && failFsync && failFsync[0] == '1')
  {
    errno = EIO;
    return 1;
  }
  if (IsRegularFile(fd) && g_Full)
  {
    errno = ENOSPC;
    return 1;
  }
  return 0;
}

int
fsync(int fd)
{
  static int (*real_fsync)(int);
  if (!real_fsync)
    real_fsync = (int (*)(int))Next("fsync");
  if (FailedSync(fd))
  {
    return -1;
  }
  return real_fsync(fd);
}

int
fdatasync(int fd)
{
  static int (*real_fdatasync)(int);
  if (!real_fdatasync)
    real_fdatasync = (int (*)(int))Next("fdatasync");
  if (FailedSync(fd))
  {
    return -1;
  }
  return real_fdatasync(fd);
}

int
close(int fd)
{
  static int (*real_close)(int);
  if (!real_close)
    real_close = (int (*)(int))Next("close");
  const int failing = IsRegularFile(fd) && g_Full;
  const int result = real_close(fd);
  if (failing && result == 0)
  {
    errno = ENOSPC;
    return -1;
  }
  return result;
}

int
fclose(FILE * stream)
{
  static int (*real_fclose)(FILE *);
  if (!real_fclose)
    real_fclose = (int (*)(FILE *))Next("fclose");
  const int failing = IsRegularFile(fileno(stream)) && g_Full;
  const int result = real_fclose(stream);
  if (failing && result == 0)
  {
    errno = ENOSPC;
    return EOF;
  }
  return result;
}

int
rename(const char * from, const char * to)
{
  static int (*real_rename)(const char *, const char *);
  if (!real_rename)
    real_rename = (int (*)(const char *, const char *))Next("rename");
  const char * failing = getenv("CCA_SHIM_FAIL_RENAME_TO");
  if (failing && failing[0] != '\0')
  {
    const size_t length = strlen(to);
    const size_t suffix = strlen(failing);
    if (length > suffix && strcmp(to + length - suffix, failing) == 0 && to[length - suffix - 1] == '/')
    {
      errno = EBUSY;
      return -1;
    }
  }
  return real_rename(from, to);
}
