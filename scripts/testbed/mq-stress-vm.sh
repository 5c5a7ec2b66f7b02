#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The one-mkey ordering stress alone (tests/stress/, Documentation/
# service.rst "Queues and ordering") in the test VM on Debian's kernel of
# KLINE (MLX5_UMR_KLINE: 6.1 or 6.12): the test build, the VM image (which
# holds it as /selftests/mq_stress.sh: make vmtest runs it too) and a boot
# running only it, on the VM's two vCPUs:
#   MLX5_UMR_KLINE=6.12 scripts/testbed/mq-stress-vm.sh
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tb_vm_one mq-stress mq_stress.sh
