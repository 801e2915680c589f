/* intl_icu.h — the ICU C functions Intl (and IDNA, idna_native.c) use, as one table of pointers.
 *
 * The names are ICU's own, versioned by the headers (unumf_formatDouble is unumf_formatDouble_72
 * with libicu 72), so the table matches the library the build found. The main binary fills it by
 * dlopen on the first use of Intl (a run that never touches Intl never loads ICU); the statically
 * linked worker fills it from ICU linked in (intl_icu_static.c), because a static binary cannot
 * load a shared library and a confined worker could not open one anyway.
 *
 * Trusts: ICU. Owns: nothing but the table. */
#ifndef CHIDORI_INTL_ICU_H
#define CHIDORI_INTL_ICU_H

#include <unicode/utypes.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>
#include <unicode/uenum.h>
#include <unicode/unumberformatter.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/ufieldpositer.h>
#include <unicode/ucol.h>
#include <unicode/upluralrules.h>
#include <unicode/ureldatefmt.h>
#include <unicode/ulistformatter.h>
#include <unicode/ucal.h>
#include <unicode/udateintervalformat.h>
#include <unicode/uformattedvalue.h>
#include <unicode/unum.h>
#include <unicode/putil.h>
#include <unicode/udata.h>
#include <unicode/uidna.h>

/* X(name) for every function used; the macro sees ICU's unversioned name. */
#define INTL_ICU_FUNCS(X) \
    X(u_errorName) X(udata_setFileAccess) X(u_setTimeZoneFilesDirectory) X(uloc_setDefault) X(ucal_setDefaultTimeZone) X(u_strFromUTF8WithSub) X(u_strToUTF8WithSub) \
    X(uloc_forLanguageTag) X(uloc_toLanguageTag) X(uloc_countAvailable) X(uloc_addLikelySubtags) X(u_strToLower) X(u_strToUpper) X(uloc_getAvailable) \
    X(uenum_next) X(uenum_close) \
    X(unumf_openForSkeletonAndLocale) X(unumf_openResult) X(unumf_formatDouble) X(unumf_formatDecimal) \
    X(unumf_resultAsValue) X(unumf_close) X(unumf_closeResult) \
    X(udat_open) X(udat_close) X(udat_formatForFields) X(udat_toPattern) \
    X(udatpg_open) X(udatpg_close) X(udatpg_getBestPatternWithOptions) X(udatpg_getDefaultHourCycle) \
    X(ufieldpositer_open) X(ufieldpositer_next) X(ufieldpositer_close) \
    X(ucol_open) X(ucol_close) X(ucol_countAvailable) X(ucol_getAvailable) X(ucol_setAttribute) X(ucol_getAttribute) X(ucol_strcoll) \
    X(uplrules_openForType) X(uplrules_close) X(uplrules_selectFormatted) X(uplrules_getKeywords) \
    X(unum_open) X(unum_close) \
    X(ureldatefmt_open) X(ureldatefmt_close) X(ureldatefmt_openResult) X(ureldatefmt_closeResult) \
    X(ureldatefmt_formatToResult) X(ureldatefmt_formatNumericToResult) X(ureldatefmt_resultAsValue) \
    X(ulistfmt_openForType) X(ulistfmt_close) X(ulistfmt_openResult) X(ulistfmt_closeResult) \
    X(ulistfmt_formatStringsToResult) X(ulistfmt_resultAsValue) \
    X(ucal_getCanonicalTimeZoneID) X(ucal_getKeywordValuesForLocale) X(uloc_toUnicodeLocaleType) X(ucal_openTimeZoneIDEnumeration) \
    X(udtitvfmt_open) X(udtitvfmt_close) X(udtitvfmt_openResult) X(udtitvfmt_closeResult) \
    X(udtitvfmt_formatToResult) X(udtitvfmt_resultAsValue) \
    X(ufmtval_getString) X(ufmtval_nextPosition) \
    X(ucfpos_open) X(ucfpos_close) X(ucfpos_getCategory) X(ucfpos_getField) X(ucfpos_getIndexes) \
    X(uidna_openUTS46) X(uidna_nameToASCII) X(uidna_nameToUnicode)

typedef struct intl_icu_api {
#define INTL_ICU_MEMBER(f) __typeof__(f) *f;
    INTL_ICU_FUNCS(INTL_ICU_MEMBER)
#undef INTL_ICU_MEMBER
} intl_icu_api;

/* The table, loading ICU on the first call; NULL with *error set (static text) when it cannot be
 * loaded. Thread-safe. */
const intl_icu_api *intl_icu(const char **error);

/* Loads ICU now if this binary loads it at all (before confinement, for a worker that is not the
 * static one); a no-op when it is linked in. */
void intl_icu_preload(void);

/* Set by intl_icu_static.c in a binary that links ICU in (weak elsewhere). */
extern int intl_icu_fill_static(intl_icu_api *api) __attribute__((weak));

#endif
