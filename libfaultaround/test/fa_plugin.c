// SPDX-License-Identifier: LGPL-2.1-or-later
/* A library for shim_victim to dlopen(). */
int fa_plugin_answer(void);

int fa_plugin_answer(void)
{
	return 42;
}
