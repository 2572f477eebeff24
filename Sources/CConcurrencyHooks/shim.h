#ifndef HEADROOM_CONCURRENCY_HOOKS_H
#define HEADROOM_CONCURRENCY_HOOKS_H

// The Swift runtime's global-executor hooks (swift/Runtime/ConcurrencyHooks.def in the Swift
// repository), declared so that the linker finds them in libswift_Concurrency, whether it is
// linked as a shared library or, in the packaged headroomd, statically (where they are not in
// the dynamic symbol table, and dlsym cannot find them). Opaque pointers: Lifecycle's
// TaskThreads hands functions of the runtime's convention to the setter below, once, before
// any task starts.
extern void *swift_task_enqueueGlobal_hook;
extern void *swift_task_enqueueGlobalWithDelay_hook;
extern void *swift_task_enqueueGlobalWithDeadline_hook;

static inline void headroom_set_global_executor_hooks(void *enqueue, void *delay, void *deadline) {
    swift_task_enqueueGlobal_hook = enqueue;
    swift_task_enqueueGlobalWithDelay_hook = delay;
    swift_task_enqueueGlobalWithDeadline_hook = deadline;
}

#endif
