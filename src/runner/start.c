/* start.c — see start.h. */
#define _GNU_SOURCE
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/random.h"

#include <string.h>
#include <time.h>

void run_start_capture(const settings *s, uint64_t *seed, int64_t *clock_ms)
{
    *seed = settings_given(s, "CHIDORI_SEED") ? settings_u64(s, "CHIDORI_SEED") : random_u64();
    *clock_ms = settings_given(s, "CHIDORI_CLOCK_START_MS") ? (int64_t)settings_u64(s, "CHIDORI_CLOCK_START_MS")
                                                            : clock_realtime_ms();
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

int run_setup_from_settings(run_setup *rs, const settings *s, policy_surface surface, bool untrusted, bool trusted,
                            int isolate_flag, char **error)
{
    memset(rs, 0, sizeof *rs);
    rs->isolated = run_start_isolated(isolate_flag, s);
    if (policy_select(surface, untrusted, trusted, s, &rs->policy, error) < 0) return -1;
    engine_limits_from_settings(&rs->limits, s);
    calllog_caps_from_settings(&rs->log_caps, s);
    if (rs->isolated) isolate_options_from_settings(&rs->iso, s);
    return surface_from_settings(&rs->surface, s, error);
}

void run_setup_clear(run_setup *rs)
{
    policy_selection_clear(&rs->policy);
    surface_settings_clear(&rs->surface);
}
