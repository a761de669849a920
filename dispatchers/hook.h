/*
 * hook.h - named points in a design where a test may hold a thread, to
 * force the interleaving a design's argument against a lost task is
 * about (tests/test_interleave.c). Nothing unless DISP_HOOKS is defined,
 * as it is only where a test compiles a design's source into itself: the
 * dispatch path of the suite's own build is untouched.
 */
#ifndef DISPATCHERS_HOOK_H
#define DISPATCHERS_HOOK_H

#ifdef DISP_HOOKS
void disp_hook(const char *point);
#define DISP_HOOK(point)	disp_hook(point)
#else
#define DISP_HOOK(point)	((void)0)
#endif

#endif /* DISPATCHERS_HOOK_H */
