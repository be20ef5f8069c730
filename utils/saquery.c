/* SPDX-License-Identifier: BSD-3-Clause */
/* SCAFFOLD: saquery is written with issue 6. */
int main(void);
int main(void) { return 1; }
