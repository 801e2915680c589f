/* test_llm_providers.c — the provider variables as llm_config_from_settings reads them: the
 * original chidori's names beside ours (which win), blank values as unset, ANTHROPIC_MODEL as the
 * default model after CHIDORI_MODEL. */
#include "host/llm.h"
#include "settings/settings.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

static bool is(const char *got, const char *want) { return got && want ? !strcmp(got, want) : got == want; }

TEST(llm_config_reads_the_originals_provider_names)
{
    char *error = NULL;
    settings *s = settings_from_environ((char *[]){"LITELLM_API_URL=http://127.0.0.1:9/v1", "LITELLM_API_KEY=lk",
                                                   "OPENROUTER_API_KEY=or", "ANTHROPIC_MODEL=claude-haiku", NULL},
                                        &error);
    CHECK(s && !error);
    llm_config cfg;
    llm_config_from_settings(&cfg, s);
    bool ok1 = is(cfg.compat_url, "http://127.0.0.1:9/v1") && is(cfg.compat_key, "lk") && is(cfg.openrouter_api_key, "or") &&
               is(cfg.openrouter_base_url, LLM_DEFAULT_OPENROUTER_BASE_URL) && is(cfg.default_model, "claude-haiku") &&
               !cfg.openai_base_url_set;
    settings_free(s);
    CHECK(ok1);
    s = settings_from_environ((char *[]){"LITELLM_API_URL=http://127.0.0.1:9/v1", "LITELLM_API_KEY=lk",
                                         "CHIDORI_OPENAI_COMPAT_URL=http://127.0.0.1:8", "CHIDORI_OPENAI_COMPAT_KEY=ck",
                                         "CHIDORI_OPENROUTER_URL=http://127.0.0.1:7/api/v1", "ANTHROPIC_MODEL=claude-haiku",
                                         "CHIDORI_MODEL=gpt-4o", "OPENAI_BASE_URL=http://127.0.0.1:6/v1",
                                         "OPENROUTER_API_KEY=  ", NULL},
                              &error);
    CHECK(s && !error);
    llm_config_from_settings(&cfg, s);
    bool ok2 = is(cfg.compat_url, "http://127.0.0.1:8") && is(cfg.compat_key, "ck") && !cfg.openrouter_api_key &&
               is(cfg.openrouter_base_url, "http://127.0.0.1:7/api/v1") && is(cfg.default_model, "gpt-4o") &&
               cfg.openai_base_url_set;
    settings_free(s);
    CHECK(ok2);
}
