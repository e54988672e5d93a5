/*
 * start.c — from the initial stack to main and back out.
 *
 * crt0.S passes the initial stack pointer; we split it into argc, argv and
 * envp as Linux lays them out, run main, flush buffered stdout and end the
 * process with main's return value.
 */
#include "rt.h"

int main(int argc, char **argv, char **envp);

char **environ;  /* envp as the kernel passed it; nothing in here reads it */

RT_NORETURN void __rt_start(uint64_t *sp);

RT_NORETURN void __rt_start(uint64_t *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;

	environ = envp;
	exit(main(argc, argv, envp));
}
