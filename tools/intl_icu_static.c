/* intl_icu_static.c — fills the ICU table from ICU linked in; only the static worker
 * (chidori-worker) links this file, with libicui18n.a, libicuuc.a and libicudata.a, so a confined
 * worker has Intl without opening any file. Trusts: ICU. */
#include "engine/intl_icu.h"

int intl_icu_fill_static(intl_icu_api *api)
{
#define INTL_ICU_STATIC(f) api->f = f;
    INTL_ICU_FUNCS(INTL_ICU_STATIC)
#undef INTL_ICU_STATIC
    return 0;
}
