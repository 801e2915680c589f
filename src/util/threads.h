/* threads.h — run a function on a thread of its own, reusing threads whose function has returned
 * (threads.c). The thread keeps the signal mask and name of whoever made it first, and runs with
 * the default stack size: not for work that needs a stack of a given size (an in-process engine). */
#ifndef CHIDORI_UTIL_THREADS_H
#define CHIDORI_UTIL_THREADS_H

typedef struct thread_task thread_task;

/* fn(arg) on a kept or new thread, nobody waiting for it. 0, or -1 when no thread could be had. */
int threads_run_detached(void *(*fn)(void *), void *arg);
/* The same, to be waited for with threads_wait (exactly once). NULL when no thread could be had. */
thread_task *threads_run(void *(*fn)(void *), void *arg);
/* Until fn has returned; frees the task. */
void threads_wait(thread_task *task);

#endif
