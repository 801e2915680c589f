/* prices.h — what a model's tokens cost, for `chidori runs` and the dashboard (docs/cli.md#cost).
 *
 * Two settings give prices, both in dollars per million tokens:
 *   CHIDORI_PRICING  inline JSON, the original chidori's form: model PREFIX →
 *                    {input_per_mtok, output_per_mtok, cache_read_multiplier?, cache_write_multiplier?};
 *                    the longest matching prefix wins.
 *   CHIDORI_PRICES   a JSON file: exact model name → {"input", "output"} (or the keys above).
 * An exact CHIDORI_PRICES entry beats a CHIDORI_PRICING prefix. There is no built-in table: prices
 * change, and a stale figure shown as fact is worse than none.
 *
 * Trusts nothing of either: the file is read as a regular file only, both are capped (1 MiB),
 * parsed with limits, and every price is a number from 0 to 1,000,000 (a multiplier 0 to 100).
 */
#ifndef CHIDORI_PRICES_H
#define CHIDORI_PRICES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct settings;
struct json_t;

typedef struct price {
    char *model;                   /* a name, or a prefix when `prefix` */
    bool prefix;                   /* from CHIDORI_PRICING */
    double input, output;          /* dollars per million tokens */
    double cache_read, cache_write; /* multipliers of the input price for cached input tokens */
} price;

typedef struct price_table {
    price *items; /* exact entries first, then prefixes longest first */
    size_t len;
    bool given;   /* either setting was set */
} price_table;

/* The table the two settings give (t->given false when neither is set): 0, or -1 with *error naming
 * the setting (the table is then partly filled: clear it). */
int prices_load(const struct settings *set, price_table *t, char **error);
void prices_clear(price_table *t);
/* The price of a model: its exact entry, else the longest matching prefix, else NULL. */
const price *price_of(const price_table *t, const char *model);
/* Dollars for one prompt's tokens (cache tokens at the input price times their multiplier). */
double price_cost(const price *p, uint64_t input, uint64_t output, uint64_t cache_creation, uint64_t cache_read);
/* The table as JSON for the dashboard: [{model, match: "exact"|"prefix", input_per_mtok,
 * output_per_mtok, cache_read_multiplier, cache_write_multiplier}], in lookup order. */
struct json_t *prices_json(const price_table *t);

#endif
