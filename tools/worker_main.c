/* worker_main.c — `chidori-worker`: the worker of an isolated run as a binary of its own.
 *
 * The same code as `chidori __run-worker` (src/isolate/worker.c), linked statically so that each
 * run's exec needs no dynamic loader. The supervisor starts it when it lies next to chidori, and
 * `chidori __run-worker` otherwise. Trusts what worker_main trusts: its parent's frames.
 */
int worker_main(void);

int main(void) { return worker_main(); }
