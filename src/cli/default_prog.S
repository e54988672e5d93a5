/* default_prog.S — embeds the built-in default program (see Makefile's
 * DEFAULT_PROG) so `ivx` runs without any file. */
	.section .rodata
	.balign 16
	.globl ivx_default_program, ivx_default_program_end, ivx_default_program_name
ivx_default_program:
	.incbin IVX_DEFAULT_PROG_PATH
ivx_default_program_end:
ivx_default_program_name:
	.asciz IVX_DEFAULT_PROG_NAME
	.section .note.GNU-stack,"",%progbits
