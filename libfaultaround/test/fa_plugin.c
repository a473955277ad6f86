// SPDX-License-Identifier: LGPL-2.1-or-later
/* A library for shim_victim to dlopen(): it has no RUNPATH, and it can
 * dlopen() a library itself. */
#include <dlfcn.h>

extern int fa_plugin_loads;
int fa_plugin_answer(void);
void *fa_plugin_dlopen(const char *name, int mode);

int fa_plugin_answer(void)
{
	return 42;
}

int fa_plugin_loads;

/* Not a tail call: glibc must see this library as dlopen()'s caller. */
void *fa_plugin_dlopen(const char *name, int mode)
{
	void *h = dlopen(name, mode);

	__atomic_add_fetch(&fa_plugin_loads, h != 0, __ATOMIC_RELAXED);
	return h;
}
