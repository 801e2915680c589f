/* login_listen.h — the loopback side of `chidori model-login` (model_login.c): its listening
 * sockets, the connections it reads at once, and what each request gets.
 *
 * Owns: one port, on 127.0.0.1 and on ::1 where this machine has it (the callback address says
 * `localhost`, which a browser may take to either: nobody else can then take the other one), up
 * to LOGIN_MAX_CONNECTIONS connections read side by side with a deadline each, and the two
 * addresses it serves: /start/<start>, which redirects to the sign-in page once (a second request
 * there ends the sign-in: someone else read that address), and /callback/<state>, where the code
 * comes back. Anything else is answered 404 (a path) or 400 (not a request) and closed. A
 * connection from another user's process (its owner in /proc/net/tcp, tcp6) is closed unread; a
 * connection is pushed out by a newer one only once it is MIN_AGE_MS old.
 * Trusts nothing that arrives (login_callback.c reads it); the kernel's socket table.
 */
#ifndef CHIDORI_LOGIN_LISTEN_H
#define CHIDORI_LOGIN_LISTEN_H

#include <stdint.h>

#define LOGIN_MAX_CONNECTIONS 16
#define LOGIN_CONNECTION_MS 2000 /* a connection's time to send its request line */

typedef struct login_listen login_listen;

/* A free port, listened on. NULL with *error. */
login_listen *login_listen_open(char **error);
int login_listen_port(const login_listen *l);
void login_listen_close(login_listen *l);

/* Serves the two addresses until the browser comes back to /callback/<state>: its `code`
 * (malloc'd); or NULL with *error (the sign-in refused, /start opened twice, timeout_ms past). */
char *login_listen_wait(login_listen *l, const char *start, const char *state, const char *sign_in,
                        uint64_t timeout_ms, char **error);

#endif
