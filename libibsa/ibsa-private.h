/* SPDX-License-Identifier: BSD-3-Clause */
/* libibsa internals.  Not installed. */
#ifndef IBSA_PRIVATE_H
#define IBSA_PRIVATE_H

#include <ibmgmt/ibsa.h>

#define IBSA_EXPORT __attribute__((visibility("default")))

#endif /* IBSA_PRIVATE_H */
