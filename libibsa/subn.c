/* SPDX-License-Identifier: BSD-3-Clause */
/* SCAFFOLD: the SubnGet transactor (issue 5). */
#include "ibsa-private.h"
