/* curl_lazy.h — chidori's own additions to the lazily loaded libcurl (curl_lazy.c). */
#ifndef CHIDORI_CURL_LAZY_H
#define CHIDORI_CURL_LAZY_H

#include <curl/curl.h>

/* What every request chidori makes must hold to: http and https only (redirects included), no
 * proxy from the environment, no following of redirects by libcurl (callers follow them, if at
 * all, and check each hop). */
void curl_restrict_to_http(CURL *c);

#endif
