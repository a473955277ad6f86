// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The version of the library running, which can be newer than the headers
 * a program was built with (FAULTAROUND_VERSION_MAJOR/MINOR).
 */
#include "faultaround.h"

int faultaround_major_version(void)
{
	return FAULTAROUND_VERSION_MAJOR;
}

int faultaround_minor_version(void)
{
	return FAULTAROUND_VERSION_MINOR;
}

int faultaround_check_version(int major, int minor)
{
	return FAULTAROUND_CHECK_VERSION(major, minor);
}
