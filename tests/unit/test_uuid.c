/* test_uuid.c — uuid_v4's text: the RFC 9562 version-4 layout, lowercase, and different each time. */
#include "unit.h"
#include "util/random.h"

TEST(uuid_v4_is_version_4_lowercase_and_fresh)
{
    char seen[64][37];
    for (int n = 0; n < 64; n++) {
        char *u = seen[n];
        memset(u, 'X', 37);
        uuid_v4(u);
        CHECK(strlen(u) == 36);
        for (int i = 0; i < 36; i++) {
            if (i == 8 || i == 13 || i == 18 || i == 23) CHECK(u[i] == '-');
            else CHECK((u[i] >= '0' && u[i] <= '9') || (u[i] >= 'a' && u[i] <= 'f'));
        }
        CHECK(u[14] == '4');                 /* version */
        CHECK(strchr("89ab", u[19]) != NULL); /* variant 10xx */
        for (int k = 0; k < n; k++) CHECK(strcmp(seen[k], u) != 0);
    }
}
