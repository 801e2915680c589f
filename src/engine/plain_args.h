/* plain_args.h — an effect's arguments as a json_t read straight from the guest's value, when
 * JSON.stringify of it could run no guest code (plain_args.c). Engine-internal. */
#ifndef CHIDORI_PLAIN_ARGS_H
#define CHIDORI_PLAIN_ARGS_H

#include "quickjs.h"
#include "util/json.h"

/* 1: *out is what JSON.parse(JSON.stringify(v)) gives, as a json_t (caller frees); 0: v is not
 * plain (nothing observable was read; use the JSON path); -1: an exception is pending. */
int plain_args(JSContext *ctx, JSValueConst v, json_t **out);
/* The same with the atom of "toJSON" the caller holds (the engine's, made once per context: an
 * effect's call does not hash the name again). */
int plain_args_atom(JSContext *ctx, JSValueConst v, JSAtom to_json, json_t **out);

#endif
