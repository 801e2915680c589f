/* intl_icu.c — finds ICU: linked in (the static worker) or loaded with dlopen on first use.
 *
 * The library file and the symbol names come from the ICU headers the build compiled against
 * (U_ICU_VERSION_MAJOR_NUM, the _NN suffix of the renamed entry points), so a mismatch is a
 * clear load error, never a call through a wrong signature. Nothing here reads the environment:
 * ICU's own defaults (locale, time zone) are never asked for; every call names both.
 *
 * Trusts: the ICU shared libraries of the system. */
#define _GNU_SOURCE
#include "engine/intl_icu.h"
#include "engine/engine.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

#define INTL_STR2(x) #x
#define INTL_STR(x) INTL_STR2(x)
#define INTL_ICU_I18N_SONAME "libicui18n.so." INTL_STR(U_ICU_VERSION_MAJOR_NUM)

static intl_icu_api api;
static const char *load_error;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

/* ICU's own defaults are fixed before any use, so it never asks the machine (TZ, /etc/localtime,
 * LANG): every call names its locale and zone anyway, but a few ICU internals build a default
 * calendar along the way. */
static void fix_defaults(void)
{
    static const UChar utc[] = {'U', 'T', 'C', 0};
    UErrorCode e = U_ZERO_ERROR;
    api.uloc_setDefault("en_US", &e);
    e = U_ZERO_ERROR;
    api.ucal_setDefaultTimeZone(utc, &e);
}

/* ICU looks for loose data files before its built-in data (UDATA_FILES_FIRST), in directories
 * taken from ICU_DATA and ICU_TIMEZONE_FILES_DIR or compiled in (Debian: /usr/share/zoneinfo-icu):
 * the machine's files would change Intl's results (a replay elsewhere differs) and, in a confined
 * worker, opening one is a refused syscall. So, before ICU loads any data: the built-in data only,
 * and no time-zone files directory. */
static void data_built_in_only(void)
{
    UErrorCode e = U_ZERO_ERROR;
    api.udata_setFileAccess(UDATA_NO_FILES, &e);
    e = U_ZERO_ERROR;
    api.u_setTimeZoneFilesDirectory("", &e);
}

static void load(void)
{
    if (intl_icu_fill_static) {
        if (intl_icu_fill_static(&api) == 0) {
            data_built_in_only();
            loaded = 1;
        } else load_error = "ICU linked into this binary is incomplete";
        return;
    }
    /* The handle is kept for the life of the process: ICU's caches live in it. */
    void *h = dlopen(INTL_ICU_I18N_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        load_error = "cannot load " INTL_ICU_I18N_SONAME " (install libicu" INTL_STR(U_ICU_VERSION_MAJOR_NUM) ")";
        return;
    }
#define INTL_ICU_SYM(f)                                                          \
    if (!(api.f = (__typeof__(f) *)dlsym(h, INTL_STR(f)))) {                     \
        load_error = INTL_ICU_I18N_SONAME " lacks " INTL_STR(f);                 \
        return;                                                                  \
    }
    INTL_ICU_FUNCS(INTL_ICU_SYM)
#undef INTL_ICU_SYM
    data_built_in_only();
    loaded = 1;
}

const intl_icu_api *intl_icu(const char **error)
{
    pthread_once(&once, load);
    if (!loaded) {
        if (error) *error = load_error;
        return NULL;
    }
    /* on first use, not at preload: setting them builds ICU objects a run without Intl never needs */
    pthread_once(&defaults_once, fix_defaults);
    return &api;
}

/* Only finds the library with dlopen, for a worker that could not open it once confined: nothing
 * of ICU runs. Linked in (the static worker), nothing is done now: the table and ICU's data
 * settings are made on first use, which a run without Intl never reaches (they run ICU code whose
 * pages, first touched, cost about 0.3 ms of each isolated run's start here). */
void intl_icu_preload(void)
{
    if (intl_icu_fill_static) return;
    pthread_once(&once, load);
}

void engine_intl_preload(void)
{
    intl_icu_preload();
}
