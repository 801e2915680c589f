/* session_log.h — a FILE that writes a session's log lines to stderr, prefixed with its id. */
#ifndef CHIDORI_SERVE_SESSION_LOG_H
#define CHIDORI_SERVE_SESSION_LOG_H

#include <stdio.h>

/* NULL when it cannot be made (then log to stderr as it is). fclose it after the run. */
FILE *session_log_open(const char *session_id);

#endif
