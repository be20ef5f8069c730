/* SPDX-License-Identifier: BSD-3-Clause */
/* SCAFFOLD: PathRecord resolution (issue 5). */
#include "ibsa-private.h"
