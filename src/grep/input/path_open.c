/* SPDX-License-Identifier: MIT */
/* path_open.c - opening a name longer than the kernel takes (see path_open.h).
 *
 * A path of PATH_MAX bytes or more is cut at slashes into pieces shorter
 * than PATH_MAX; each piece but the last is opened as a directory (O_PATH:
 * searching it is all it is for) relative to the one before, so at most
 * two descriptors are open at a time, and the work is one lookup for each
 * name in the path, as for a short path.
 */
#include "path_open.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

int path_open_long(const char *path, int flags)
{
	if (strlen(path) < PATH_MAX)
		return open(path, flags);
	int dir = AT_FDCWD;
	const char *rest = path;
	if (*rest == '/') {
		dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0)
			return -1;
		rest += strspn(rest, "/");
	}
	while (strlen(rest) >= PATH_MAX) {
		const char *cut = memrchr(rest, '/', PATH_MAX - 1);
		int next = -1;
		if (!cut || cut == rest) {
			errno = ENAMETOOLONG;
		} else {
			char piece[PATH_MAX];
			memcpy(piece, rest, (size_t)(cut - rest));
			piece[cut - rest] = '\0';
			next = openat(dir, piece, O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
		int err = errno;
		if (dir != AT_FDCWD)
			close(dir);
		if (next < 0) {
			errno = err;
			return -1;
		}
		dir = next;
		rest = cut + strspn(cut, "/");
	}
	int fd = openat(dir, rest, flags);
	int err = errno;
	if (dir != AT_FDCWD)
		close(dir);
	errno = err;
	return fd;
}
