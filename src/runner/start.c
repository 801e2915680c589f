/* start.c — see start.h. */
#define _GNU_SOURCE
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/random.h"

#include <string.h>
#include <time.h>

static int64_t realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void run_start_capture(const settings *s, uint64_t *seed, int64_t *clock_ms)
{
    *seed = settings_given(s, "CHIDORI_SEED") ? settings_u64(s, "CHIDORI_SEED") : random_u64();
    *clock_ms = settings_given(s, "CHIDORI_CLOCK_START_MS") ? (int64_t)settings_u64(s, "CHIDORI_CLOCK_START_MS")
                                                            : realtime_ms();
}

bool run_start_isolated(int flag, const settings *s)
{
    if (flag >= 0) return flag == 1;
    return strcmp(settings_word(s, "CHIDORI_ISOLATE"), "process") == 0;
}

char *run_start_state_dir(const settings *s, const char *agent_folder)
{
    const char *dir = settings_nonempty(s, "CHIDORI_STATE_DIR");
    return dir ? xstrdup(dir) : xasprintf("%s/.chidori", agent_folder);
}
