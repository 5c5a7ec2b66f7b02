/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Running a selftest case as another user: the users of the test VM's
 * image (scripts/testbed/vm-initramfs.sh) and umr_become(), which turns a
 * child of the test into one of them with no capabilities at all.
 *
 * Copyright (c) 2026 The mlx5-umr authors.
 */
#ifndef UNPRIV_USERS_H
#define UNPRIV_USERS_H

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/capability.h>

/* The group Documentation/uapi.rst's udev rule gives the node to. */
#define UMR_GID_MLX5UMR	990

struct umr_user {
	const char *name;
	uid_t uid;
	gid_t gid;
	int ngroups;
	gid_t groups[1];
};

/* In mlx5umr: may open the node once the rule (mode 0660) applies. */
static const struct umr_user umr_user1 = {
	"umr", 1000, 1000, 1, { UMR_GID_MLX5UMR },
};

/* In no group: only a node open to all (0666) lets it in. */
static const struct umr_user umr_user2 = { "umr2", 1001, 1001, 0, { 0 } };

/* RLIMIT_MEMLOCK (soft and hard) of a user's process in the tests. */
#define UMR_USER_MEMLOCK	(8UL << 20)

/*
 * Become @u: RLIMIT_MEMLOCK to @memlock, no supplementary groups but
 * @u's, gid and uid (real, effective, saved) @u's, an empty bounding set,
 * no ambient, permitted, effective or inheritable capability, and no new
 * privileges (no setuid program gives any back). Returns 0 or -errno and
 * leaves a message in @err.
 */
static inline int umr_become(const struct umr_user *u, rlim_t memlock,
			     char *err, size_t len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2] = { { 0 } };
	struct rlimit rl = { memlock, memlock };
	uid_t r, e, s;
	int cap;

	if (setrlimit(RLIMIT_MEMLOCK, &rl)) {
		snprintf(err, len, "setrlimit: %s", strerror(errno));
		return -errno;
	}
	for (cap = 0; prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)) {
			snprintf(err, len, "drop cap %d: %s", cap,
				 strerror(errno));
			return -errno;
		}
	if (setgroups(u->ngroups, u->groups) ||
	    setresgid(u->gid, u->gid, u->gid) ||
	    setresuid(u->uid, u->uid, u->uid)) {
		snprintf(err, len, "becoming %s: %s", u->name, strerror(errno));
		return -errno;
	}
	/* setresuid() away from 0 cleared them; make sure of it. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) ||
	    syscall(SYS_capset, &hdr, data) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		snprintf(err, len, "clearing capabilities: %s",
			 strerror(errno));
		return -errno;
	}
	if (syscall(SYS_capget, &hdr, data) || data[0].effective ||
	    data[0].permitted || data[1].effective || data[1].permitted ||
	    prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) ||
	    getresuid(&r, &e, &s) || r != u->uid || e != u->uid ||
	    s != u->uid || getegid() != u->gid) {
		snprintf(err, len, "%s still has privileges", u->name);
		return -EPERM;
	}
	return 0;
}

#endif /* UNPRIV_USERS_H */
