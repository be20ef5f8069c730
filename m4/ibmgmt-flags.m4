# SPDX-License-Identifier: BSD-3-Clause
#
# IBMGMT_CC_TRY_FLAGS(VARIABLE, FLAGS)
# Appends to VARIABLE each of FLAGS that the C compiler accepts (with -Werror, so a flag
# that only warns is left out).
AC_DEFUN([IBMGMT_CC_TRY_FLAGS], [
	AC_LANG_PUSH([C])
	for ibmgmt_flag in $2; do
		AS_VAR_PUSHDEF([ibmgmt_cache], [ibmgmt_cv_cflag_$ibmgmt_flag])
		AC_CACHE_CHECK([whether $CC accepts $ibmgmt_flag], [ibmgmt_cache], [
			ibmgmt_save_CFLAGS="$CFLAGS"
			CFLAGS="$CFLAGS -Werror $ibmgmt_flag"
			AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
				[AS_VAR_SET([ibmgmt_cache], [yes])],
				[AS_VAR_SET([ibmgmt_cache], [no])])
			CFLAGS="$ibmgmt_save_CFLAGS"
		])
		AS_VAR_IF([ibmgmt_cache], [yes], [$1="$$1 $ibmgmt_flag"])
		AS_VAR_POPDEF([ibmgmt_cache])
	done
	AC_LANG_POP([C])
])

# IBMGMT_LD_TRY_FLAGS(VARIABLE, FLAGS)
# Appends to VARIABLE each of FLAGS that the linker accepts.
AC_DEFUN([IBMGMT_LD_TRY_FLAGS], [
	AC_LANG_PUSH([C])
	for ibmgmt_flag in $2; do
		AS_VAR_PUSHDEF([ibmgmt_cache], [ibmgmt_cv_ldflag_$ibmgmt_flag])
		AC_CACHE_CHECK([whether the linker accepts $ibmgmt_flag], [ibmgmt_cache], [
			ibmgmt_save_LDFLAGS="$LDFLAGS"
			LDFLAGS="$LDFLAGS $ibmgmt_flag"
			AC_LINK_IFELSE([AC_LANG_PROGRAM([], [])],
				[AS_VAR_SET([ibmgmt_cache], [yes])],
				[AS_VAR_SET([ibmgmt_cache], [no])])
			LDFLAGS="$ibmgmt_save_LDFLAGS"
		])
		AS_VAR_IF([ibmgmt_cache], [yes], [$1="$$1 $ibmgmt_flag"])
		AS_VAR_POPDEF([ibmgmt_cache])
	done
	AC_LANG_POP([C])
])
