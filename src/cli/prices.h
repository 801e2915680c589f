/* prices.h — CHIDORI_PRICES for `chidori runs`: a JSON file of model → {"input": N, "output": N},
 * dollars per million tokens, read and checked (docs/cli.md#cost).
 *
 * Trusts nothing of the file: read as a regular file only, capped (1 MiB), parsed with limits,
 * every price a number from 0 to 1,000,000.
 */
#ifndef CHIDORI_PRICES_H
#define CHIDORI_PRICES_H

#include <stdbool.h>
#include <stddef.h>

struct settings;

/* CHIDORI_PRICES: model → price per million input and output tokens. */
typedef struct price {
    char *model;
    double input, output;
} price;

typedef struct price_table {
    price *items;
    size_t len;
    bool given;
} price_table;

/* The table CHIDORI_PRICES names (t->given false when it is unset): 0, or -1 with *error naming
 * the setting (the table is then partly filled: clear it). */
int prices_load(const struct settings *set, price_table *t, char **error);
void prices_clear(price_table *t);
/* The price of a model (exact name), or NULL. */
const price *price_of(const price_table *t, const char *model);

#endif
