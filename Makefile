# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# mlx5-umr top-level Makefile. Kernel objects are described in Kbuild;
# this file drives kbuild, the userspace tools and the test bed.
#
#   make              build the production modules against KDIR: the
#                     service (mlx5_umr.ko) and the hardware backend
#                     (mlx5_umr_hw.ko)
#   make MLX5_UMR_TESTING=1
#                     the test build: the service with its test interface
#                     (test ioctls, test-only exports), the fake HCA
#                     (mlx5_umr_fake.ko), the sample ULP (mlx5_umr_sample.ko),
#                     and the KUnit suites and the benchmark on a KUnit
#                     kernel. Give it to `make install` too to install them.
#   make install      the modules of the build (updates/mlx5-umr), the tools
#                     (INSTALL_MOD_PATH= and DESTDIR= for a staging root)
#   make install-headers  <linux/mlx5_umr.h> only (the test ioctls'
#                     drivers/umr/uapi/uapi_testing.h is never installed)
#   make check        every test: KUnit on UML, selftests in a QEMU VM (each
#                     on both supported kernel lines, 6.1 and 6.12), the DKMS
#                     round trip and the test bed's own proofs
#   make demo         the main job on the fake HCA, in a VM
#   make deb          the Debian packages (debian/) in build/deb/: mlx5-umr-dkms,
#                     libmlx5umr0, libmlx5umr-dev, mlx5umr-tools
#   make deb-check    make deb, then the packages installed on this host,
#                     loaded on each kernel line in the VM, purged (in make check)
#   KLINE=6.12        demo, kunit and vmtest on the 6.12 kernel (default 6.1)
#   make bench        cost per UMR configure on UML without sanitizers;
#                     rewrites the results in Documentation/bench.rst
#   make bench-scale  configures per second from 1 and 2 posting CPUs, in
#                     the VM with -smp 2; rewrites that table in bench.rst
#   make bench-profile  perf profile of the batched path (PROFILE_LAYOUT,
#                     PROFILE_BATCH, PROFILE_SEC)
#   make soak         the random ioctl sequence and the hot-unplug soak for
#                     long (MLX5_UMR_SOAK_SECONDS, MLX5_UMR_UNPLUG_ROUNDS,
#                     MLX5_UMR_FUZZ_SEED) on UML with sanitizers; make check
#                     runs a bounded round of it
#   make checkpatch   scripts/checkpatch.pl --strict over all C and H files
#   make api-doc      the API reference from kernel-doc (build/Documentation/api.rst)
#   make hwcheck      on a host with a ConnectX and the modules installed: RDMA
#                     through the service's keys, checked byte by byte, and a
#                     report in build/hwcheck/ (Documentation/hw-backend.rst)

TESTBED := $(CURDIR)/scripts/testbed
# The kernel line (6.1 or 6.12) of make demo, kunit and vmtest.
KLINE ?= 6.1

ifeq ($(origin KDIR),undefined)
KDIR := $(shell $(TESTBED)/kdir.sh)
endif

# The kernel release KDIR belongs to, for install paths and depmod.
KVER = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)

PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all modules clean install uninstall install-headers tools \
	checkpatch api-doc check kunit vmtest dkms-check testbed-proofs demo bench bench-scale bench-profile deps \
	hwcheck deb deb-check

all: modules

modules:
	@test -n "$(KDIR)" || { echo "no kernel build tree found; set KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	-test -z "$(KDIR)" || $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-test ! -f tools/Makefile || $(MAKE) -C tools clean
	-$(MAKE) -C tools/hwcheck clean
	-$(MAKE) -C selftests clean
	rm -rf build

# MLX5_UMR_TESTING=1 on the command line reaches kbuild through MAKEFLAGS.
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates/mlx5-umr modules_install
	test ! -f tools/Makefile || $(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)

install-headers:
	install -D -m 0644 uapi/linux/mlx5_umr.h $(DESTDIR)$(PREFIX)/include/linux/mlx5_umr.h

uninstall:
	rm -rf /lib/modules/$(KVER)/updates/mlx5-umr
	depmod -a $(KVER)
	rm -f $(DESTDIR)$(PREFIX)/include/linux/mlx5_umr.h
	test ! -f tools/Makefile || $(MAKE) -C tools uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

tools:
	$(MAKE) -C tools

checkpatch:
	@$(TESTBED)/checkpatch.sh

# Each target installs the Debian packages it needs (deps.sh -t TARGET).
DEPS = @MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/deps.sh -t

api-doc:
	$(DEPS) $@
	@$(TESTBED)/kernel-doc.sh

deps:
	$(DEPS) check

kunit:
	$(DEPS) $@
	@MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/kunit-all.sh

vmtest:
	$(DEPS) $@
	@MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/vm-all.sh

dkms-check:
	$(DEPS) $@
	@$(TESTBED)/dkms-check.sh

# The Debian packages (debian/), built in a copy of the tree: build/deb/*.deb.
deb:
	$(DEPS) $@
	@$(TESTBED)/deb-build.sh

# The packages installed, loaded on each kernel line in the VM, purged.
deb-check:
	$(DEPS) $@
	@$(TESTBED)/deb-check.sh

testbed-proofs:
	$(DEPS) $@
	@$(TESTBED)/proofs.sh

check:
	$(DEPS) $@
	@$(TESTBED)/check.sh

demo:
	$(DEPS) $@
	@MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/demo.sh

bench:
	$(DEPS) $@
	@$(TESTBED)/bench.sh
	$(DEPS) bench-scale
	@MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/bench-scale.sh

bench-scale:
	$(DEPS) $@
	@MLX5_UMR_KLINE=$(KLINE) $(TESTBED)/bench-scale.sh

bench-profile:
	$(DEPS) $@
	@$(TESTBED)/bench-profile.sh

# Not deps: a NIC host is not changed unasked; it says what is missing.
hwcheck:
	@tools/hwcheck/hwcheck.sh $(HWCHECK_ARGS)

# The random ioctl sequence and the unplug soak, for long.
.PHONY: soak
soak:
	$(DEPS) $@
	@$(TESTBED)/soak.sh soak
