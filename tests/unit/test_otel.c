/* test_otel.c — the parsers of telemetry/otel.c: W3C traceparent and the OTEL_* `k=v` lists,
 * with garbage. (The export itself is tested end to end in tests/cases_otel.py.) */
#include "unit.h"
#include "telemetry/otel.h"

#include <stdlib.h>
#include <string.h>

TEST(otel_traceparent_accepts_only_the_w3c_form)
{
    CHECK(otel_traceparent_valid("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
    CHECK(otel_traceparent_valid("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"));
    CHECK(!otel_traceparent_valid(NULL));
    CHECK(!otel_traceparent_valid(""));
    CHECK(!otel_traceparent_valid("00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01")); /* upper case */
    CHECK(!otel_traceparent_valid("00-00000000000000000000000000000000-00f067aa0ba902b7-01")); /* zero trace */
    CHECK(!otel_traceparent_valid("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01")); /* zero span */
    CHECK(!otel_traceparent_valid("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")); /* version ff */
    CHECK(!otel_traceparent_valid("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-")); /* longer */
    CHECK(!otel_traceparent_valid("00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01"));
    CHECK(!otel_traceparent_valid("00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01"));
    CHECK(!otel_traceparent_valid("\x01\x02garbage"));
}

TEST(otel_pairs_are_key_value_lists_percent_decoded)
{
    char *error = NULL;
    CHECK(otel_check_pairs("OTEL_EXPORTER_OTLP_HEADERS", "api-key=secret, x-team = ml%20ops", true, &error) == 2);
    CHECK(error == NULL);
    CHECK(otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", "", false, &error) == 0);
    CHECK(otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", "a=1,,b=", false, &error) == 2);
    CHECK(otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", "novalue", false, &error) == -1);
    CHECK(error && strstr(error, "OTEL_RESOURCE_ATTRIBUTES") && strstr(error, "key=value"));
    free(error);
    error = NULL;
    CHECK(otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", "=x", false, &error) == -1);
    free(error);
    error = NULL;
    /* a header name must be a token; a value may not hold a line break, even percent-encoded */
    CHECK(otel_check_pairs("OTEL_EXPORTER_OTLP_HEADERS", "bad name=x", true, &error) == -1);
    CHECK(error && strstr(error, "not a header name"));
    free(error);
    error = NULL;
    CHECK(otel_check_pairs("OTEL_EXPORTER_OTLP_HEADERS", "x=a%0d%0aInjected: 1", true, &error) == -1);
    CHECK(error && strstr(error, "line break"));
    free(error);
    error = NULL;
    char *big = malloc(70000);
    memset(big, 'a', 69999);
    big[69999] = 0;
    big[0] = 'k', big[1] = '=';
    CHECK(otel_check_pairs("OTEL_RESOURCE_ATTRIBUTES", big, false, &error) == -1);
    CHECK(error && strstr(error, "more than"));
    free(error);
    free(big);
}
