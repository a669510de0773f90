# Models of existentialArray's didScroll witness at width 1 (copied shape), variants by VARIANT
# self (multiplexer) in r13; rdi = scrollView. mux: +0x10 storage, +0x18 kind. storage: +0x10 array, +0x20 pin, +0x40 changed
# array: +0x10 count, elements from +0x28: mask(+0x28) target(+0x30) wtable(+0x38); target: +0x0 isa, +0x10 counter; wtable +8 fn
        .text
        .globl target_fn
        .p2align 4
target_fn:
        push %rbp
        mov %rsp,%rbp
        incq 0x10(%r13)
        pop %rbp
        ret

.macro WITNESS name, jt, pin, end, frame=0
        .globl \name
        .p2align 4
\name:
        push %rbp
        mov %rsp,%rbp
        push %r15
        push %r14
        push %r13
        push %r12
        push %rbx
        sub $0x28,%rsp
        mov %rdi,%r14
.if \jt == 1
        movzbl 0x18(%r13),%eax
        mov 0x10(%r13),%r12
        lea jt_\name(%rip),%rcx
        movslq (%rcx,%rax,4),%rax
        add %rcx,%rax
        jmp *%rax
.endif
.if \jt == 0
        mov 0x10(%r13),%r12
.endif
.if \jt == 2
        movzbl 0x18(%r13),%eax
        mov 0x10(%r13),%r12
        test %eax,%eax
        jne Lslowx_\name
.endif
.if \jt == 3
        movzbl 0x18(%r13),%eax
        mov 0x10(%r13),%r12
        cmp $1,%eax
        je Lslowx_\name
        cmp $2,%eax
        je Lslowx_\name
        cmp $3,%eax
        je Lslowx_\name
        cmp $4,%eax
        je Lslowx_\name
        cmp $5,%eax
        je Lslowx_\name
.endif
.if \jt == 4
        movzbl 0x18(%r13),%eax
        mov 0x10(%r13),%r12
        test $1,%al
        jne Lslowx_\name
        test $2,%al
        jne Lslowx_\name
        test $4,%al
        jne Lslowx_\name
.endif
L0_\name:
.if \pin == 1
        movzbl 0x20(%r12),%eax
        mov %al,-0x38(%rbp)
        movb $0x1,0x20(%r12)
.endif
.if \pin == 7
        cmpb $0x0,0x20(%r12)
        jne Lslowx_\name
        movb $0x1,0x20(%r12)
.endif
.if \pin == 8
        cmpq $0x0,0x20(%r12)
        jne Lslowx_\name
        movq $0x2,0x20(%r12)
.endif
.if \pin == 9
        cmpl $0x0,0x20(%r12)
        jne Lslowx_\name
        movl $0x2,0x20(%r12)
.endif
.if \pin == 2
        movb $0x1,0x20(%r12)
.endif
.if \pin == 3
        incb 0x20(%r12)
.endif
.if \pin == 5
        movzbl 0x20(%r12),%eax
        mov %al,-0x38(%rbp)
        orb $0x1,0x20(%r12)
.endif
        mov %r12,%rbx
.if \pin == 6
        movzbl 0x20(%r12),%eax
        movb $0x1,0x20(%r12)
        or %rax,%rbx
.endif
        mov 0x10(%r12),%r15
        mov 0x10(%r15),%r12
        test %r12,%r12
        je Lend_\name
        add $0x38,%r15
        jmp Ltest_\name
Lnext_\name:
        add $0x20,%r15
        dec %r12
        je Lend_\name
Ltest_\name:
        testb $0x1,-0x10(%r15)
        je Lnext_\name
        mov -0x8(%r15),%r13
        mov (%r15),%rdx
        mov 0x0(%r13),%rsi
        mov %r14,%rdi
        call *0x8(%rdx)
        jmp Lnext_\name
Lend_\name:
.if \end == 2
        movb $0x0,0x20(%rbx)
.endif
.if \end == 3
        decb 0x20(%rbx)
        jne Lret_\name
        cmpb $0x0,0x21(%rbx)
        jne Lslowx_\name
.endif
.if \end == 4
        testb $0x1,-0x38(%rbp)
        jne Lret_\name
        cmpb $0x1,0x20(%rbx)
        jne Lslowx_\name
        movb $0x0,0x20(%rbx)
.endif
.if \end == 5
        testb $0x1,-0x38(%rbp)
        jne Lret_\name
        movb $0x0,0x20(%rbx)
.endif
.if \end == 7
        cmpb $0x1,0x20(%rbx)
        jne Lslowx_\name
        movb $0x0,0x20(%rbx)
.endif
.if \end == 9
        cmpq $0x2,0x20(%rbx)
        jne Lslowx_\name
        movq $0x0,0x20(%rbx)
.endif
.if \end == 10
        cmpl $0x2,0x20(%rbx)
        jne Lslowx_\name
        movl $0x0,0x20(%rbx)
.endif
.if \end == 11
        jmp Lendfar_\name
        .skip 700, 0xcc
Lendfar_\name:
        cmpq $0x2,0x20(%rbx)
        jne Lslowx_\name
        movq $0x0,0x20(%rbx)
        jmp Lepi_\name
        .skip 100, 0xcc
Lepi_\name:
.endif
.if \end == 8
        cmpb $0x1,0x20(%rbx)
        jne Lslowx_\name
        movb $0x0,0x20(%rbx)
        jmp Lfar_\name
        .skip 64, 0x90
Lfar_\name:
.endif
.if \end == 6
        test $1,%bl
        jne Lret_\name
        cmpb $0x1,0x20(%rbx)
        jne Lslowx_\name
        movb $0x0,0x20(%rbx)
.endif
.if \end == 1
        testb $0x1,-0x38(%rbp)
        jne Lchk_\name
        cmpb $0x0,0x20(%rbx)
        je Lslow_\name
        movb $0x0,0x20(%rbx)
Lchk_\name:
        cmpb $0x1,0x40(%rbx)
        jne Lret_\name
Lslow_\name:
        ud2
.endif
Lret_\name:
        add $0x28,%rsp
        pop %rbx
        pop %r12
        pop %r13
        pop %r14
        pop %r15
        pop %rbp
        ret
Lslowx_\name:
        ud2
.if \jt == 1
        .section .rodata
        .p2align 2
jt_\name:
        .long L0_\name-jt_\name
        .long Lslowx_\name-jt_\name
        .long Lslowx_\name-jt_\name
        .long Lslowx_\name-jt_\name
        .long Lslowx_\name-jt_\name
        .long Lslowx_\name-jt_\name
        .text
.endif
.endm

        WITNESS w_full, 1, 1, 1
        WITNESS w_nojt, 0, 1, 1
        WITNESS w_nopin, 1, 0, 0
        WITNESS w_bare, 0, 0, 0
        WITNESS w_st, 0, 2, 2
        WITNESS w_depth, 0, 3, 3
        WITNESS w_one, 0, 1, 4
        WITNESS w_ldst, 0, 1, 5
        WITNESS w_pinonly, 0, 1, 0
        WITNESS w_depthjt, 1, 3, 3
        WITNESS w_onejt, 1, 1, 4
        WITNESS w_tag, 0, 6, 6
        WITNESS w_chain1, 2, 1, 1
        WITNESS w_chain6, 3, 1, 1
        WITNESS w_tree, 4, 1, 1
        WITNESS w_tagtree, 4, 6, 6
        WITNESS w_tagchain6, 3, 6, 6
        WITNESS w_outer, 0, 7, 7
        WITNESS w_outerjt, 1, 7, 7
        WITNESS w_outertree, 4, 7, 7
        WITNESS w_outerchain6, 3, 7, 7
        WITNESS w_outerjtjmp, 1, 7, 8
        WITNESS w_outerq, 1, 8, 9
        WITNESS w_outerl, 1, 9, 10
        WITNESS w_outerfar, 1, 8, 11

# The message loop: run(n, mux, wfn, scrollView): calls wfn with r13 = mux n times
        .globl run
        .p2align 4
run:
        push %rbp
        mov %rsp,%rbp
        push %r15
        push %r14
        push %r13
        push %r12
        push %rbx
        sub $0x8,%rsp
        mov %rdi,%r14
        mov %rsi,%r13
        mov %rdx,%rbx
        mov %rcx,%r12
        xor %r15,%r15
        .p2align 4
1:
        mov %r12,%rdi
        mov %r15,%rsi
        mov %r15,%rdx
        call *%rbx
        dec %r14
        jne 1b
        add $0x8,%rsp
        pop %rbx
        pop %r12
        pop %r13
        pop %r14
        pop %r15
        pop %rbp
        ret
        .section .note.GNU-stack,"",@progbits
        .text
# C floor model: floor(array, count, sv): loop calling fn(ctx, sv)
        .globl floor_fn
        .p2align 4
floor_fn:
        test %esi,%esi
        jle 9f
        push %rbp
        mov %rsp,%rbp
        push %r15
        push %r14
        push %r12
        push %rbx
        mov %rdx,%rbx
        mov %rdi,%r14
        mov %esi,%eax
        shl $0x3,%rax
        lea (%rax,%rax,4),%r15
        xor %r12d,%r12d
        .p2align 4
1:      mov (%r14,%r12,1),%rdi
        mov %rbx,%rsi
        call *0x8(%r14,%r12,1)
        add $0x28,%r12
        cmp %r12,%r15
        jne 1b
        pop %rbx
        pop %r12
        pop %r14
        pop %r15
        pop %rbp
9:      ret
        .globl c_target
        .p2align 4
c_target:
        push %rbp
        mov %rsp,%rbp
        incq (%rdi)
        pop %rbp
        ret
        .globl run_c
        .p2align 4
run_c:  # run_c(n, arr, sv)
        push %rbp
        mov %rsp,%rbp
        push %r15
        push %r14
        push %r12
        push %rbx
        mov %rdi,%r14
        mov %rsi,%r15
        mov %rdx,%rbx
        mov $1,%r12d
        .p2align 4
1:      mov %r15,%rdi
        mov %r12d,%esi
        mov %rbx,%rdx
        call floor_fn
        dec %r14
        jne 1b
        pop %rbx
        pop %r12
        pop %r14
        pop %r15
        pop %rbp
        ret
        .section .note.GNU-stack,"",@progbits
