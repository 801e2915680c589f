# chidori — build, test, demo.
#
#   make demo    set up (packages, the pinned engine) and run the example agent
#   make test    set up and run the whole suite: release build, then the ASan+UBSan build
#   make asan    the suite under ASan+UBSan only
#   make bench   startup benchmark against bare qjs built from the same source
#   make load    load and fault tests of `chidori serve` at full size (tests/load/load.py)
#   make conformance TEST262=DIR   test262 through chidori and the bare engine (docs/conformance.md)
#   make node-tests NODE_SRC=DIR   Node's own tests of the shimmed modules, under Node and chidori
#                                  (docs/captured-surface.md, "Node's own tests")
#
# The engine is quickjs-ng 0.17.0 (docs/conformance.md, Engine decision), pinned by
# deps/quickjs-ng.lock and fetched by scripts/fetch-quickjs-ng.sh; scripts/prepare-quickjs-ng.sh
# copies it to build/ng-src and applies patches/quickjs-ng/*.patch (NG_SRC=DIR builds another
# local quickjs-ng tree instead). Variants share that one patched tree and compile it with their
# own flags, so sanitizer builds instrument the engine too.
#
# ENGINE=quickjs builds the same chidori on QuickJS 2025-04-26, the engine before it (pinned by
# deps/quickjs.lock, fetched and patched with patches/quickjs/ by scripts/fetch-quickjs.sh into
# build/quickjs-src), for comparing the two; it lands in build/quickjs (build/quickjs-asan...) and
# is not part of `make test`.

SHELL := /bin/bash
.DEFAULT_GOAL := build
VARIANT ?= release

ENGINE ?= ng
ifeq ($(ENGINE),ng)
  QJS_SRC   := build/ng-src
  QJS_FILES := quickjs.c libregexp.c libunicode.c dtoa.c
  QJS_DEFS  := -D_GNU_SOURCE -DCONFIG_CHIDORI_UTC -DCHIDORI_ENGINE_NG
  QJS_PREP  := scripts/prepare-quickjs-ng.sh "$(NG_SRC)"
else ifeq ($(ENGINE),quickjs)
  QJS_SRC   := build/quickjs-src
  QJS_FILES := quickjs.c libregexp.c libunicode.c cutils.c dtoa.c
  QJS_DEFS  := -D_GNU_SOURCE -DCONFIG_VERSION=\"2025-04-26\" -DCONFIG_CHIDORI_UTC
  QJS_PREP  := scripts/fetch-quickjs.sh
else
  $(error unknown ENGINE $(ENGINE) (ng or quickjs))
endif

ifeq ($(VARIANT),asan)
  OUT      := build/asan
  CC       := gcc
  OPTFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
  LDFLAGS  += -fsanitize=address,undefined
else ifeq ($(VARIANT),fuzz)
  OUT      := build/fuzz
  CC       := clang
  OPTFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
  LDFLAGS  += -fsanitize=address,undefined
  FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
else ifeq ($(VARIANT),fuzzfast)
  # libFuzzer with UBSan only: several times the executions per second of the ASan build, for long
  # runs of the engine targets (a crash, UB or an abort is still a finding; a silent overflow is not)
  OUT      := build/fuzzfast
  CC       := clang
  OPTFLAGS := -O2 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,undefined -fno-sanitize-recover=undefined
  LDFLAGS  += -fsanitize=undefined
  FUZZ_LDFLAGS := -fsanitize=fuzzer,undefined
else ifeq ($(VARIANT),release)
  OUT      := build
  CC       := gcc
  OPTFLAGS := -O2 -g
  # The worker as a binary of its own, linked statically: no dynamic loader at each run's start
  # (src/isolate/spawn.c finds it next to chidori; without it, chidori runs itself as the worker).
  WORKER   := $(OUT)/chidori-worker
else
  $(error unknown VARIANT $(VARIANT))
endif
ifeq ($(ENGINE),quickjs)
  OUT := $(if $(filter release,$(VARIANT)),build/quickjs,build/quickjs-$(VARIANT))
  WORKER := $(if $(WORKER),$(OUT)/chidori-worker)
endif

CFLAGS   := -std=gnu11 $(OPTFLAGS) -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare -Wno-cast-function-type -Isrc -I$(QJS_SRC) -I/usr/include/postgresql -MMD -MP $(if $(filter ng,$(ENGINE)),-DCHIDORI_ENGINE_NG -include src/engine/qjs_compat_ng.h)
QJSFLAGS := $(OPTFLAGS) -w -fwrapv $(QJS_DEFS)
# libmicrohttpd is dlopened by serve (src/serve/mhd_lazy.c); SQLite is linked statically: neither may
# add shared libraries to the start of every run (the worker is an exec of this binary too).
LDLIBS   := -l:libsqlite3.a -ldl -lm -lpthread

OBJ := $(OUT)/obj
SRCS      := $(sort $(wildcard src/*/*.c src/*/*/*.c))
MAIN_SRC  := src/cli/main.c
LIB_SRCS  := $(filter-out $(MAIN_SRC),$(SRCS))
LIB_OBJS  := $(LIB_SRCS:%.c=$(OBJ)/%.o) $(OBJ)/gen/js_bytecode.o $(OBJ)/gen/ui_files.o
QJS_OBJS  := $(QJS_FILES:%.c=$(OBJ)/quickjs/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(OBJ)/%.o)
JS_FILES  := $(sort $(wildcard src/engine/js/*.js src/engine/js/node/*.js src/engine/js/esnext/*.js))
UI_FILES  := $(sort $(wildcard ui/*.html ui/*.js ui/*.css))

.PHONY: build setup deps demo test asan unit bench load conformance node-tests fuzz fuzz-bins test-bins clean FORCE
build: setup $(OUT)/chidori $(WORKER) $(OUT)/licenses/temporal-polyfill.LICENSE

setup:
	@scripts/setup.sh

# The fetch script is a quick no-op when the tree matches the lock and patches; make then sees an
# unchanged stamp and rebuilds nothing.
$(QJS_SRC)/.stamp: FORCE
	@$(QJS_PREP)
FORCE:

$(OBJ)/quickjs/%.o: $(QJS_SRC)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(QJSFLAGS) -c $(QJS_SRC)/$*.c -o $@

$(OBJ)/%.o: %.c $(QJS_SRC)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The engine's JavaScript is compiled to bytecode at build time by this variant's engine.
$(OUT)/tools/compile-js: $(OBJ)/tools/compile_js.o $(QJS_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/gen/js_bytecode.c: $(OUT)/tools/compile-js $(JS_FILES) $(OUT)/gen/temporal.js
	@mkdir -p $(dir $@)
	ASAN_OPTIONS=detect_leaks=0 $(OUT)/tools/compile-js $(JS_FILES) $(OUT)/gen/temporal.js > $@.tmp && mv $@.tmp $@

# Temporal: the pinned npm polyfill (deps/temporal.lock, scripts/fetch-temporal.sh) inside our own
# opening and closing (src/engine/temporal/), compiled with the rest and loaded on first touch
# (src/engine/temporal.c). Its licence ships next to the binary.
TEMPORAL_SRC := build/temporal-src
$(TEMPORAL_SRC)/.stamp: FORCE
	@scripts/fetch-temporal.sh

$(OUT)/gen/temporal.js: src/engine/temporal/head.js src/engine/temporal/tail.js $(TEMPORAL_SRC)/.stamp
	@mkdir -p $(dir $@)
	cat src/engine/temporal/head.js $(TEMPORAL_SRC)/polyfill.js src/engine/temporal/tail.js > $@.tmp && mv $@.tmp $@

$(OUT)/licenses/temporal-polyfill.LICENSE: $(TEMPORAL_SRC)/.stamp
	@mkdir -p $(dir $@)
	cp $(TEMPORAL_SRC)/LICENSE $@

$(OBJ)/gen/js_bytecode.o: $(OUT)/gen/js_bytecode.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The dashboard (ui/) is embedded as a C table, served by `chidori serve` at /ui.
$(OUT)/tools/embed-files: $(OBJ)/tools/embed_files.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^

$(OUT)/gen/ui_files.c: $(OUT)/tools/embed-files $(UI_FILES)
	@mkdir -p $(dir $@)
	ASAN_OPTIONS=detect_leaks=0 $(OUT)/tools/embed-files ui $(UI_FILES) > $@.tmp && mv $@.tmp $@

$(OBJ)/gen/ui_files.o: $(OUT)/gen/ui_files.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# What identifies a build: a hash of the code chidori and its worker binary share. The worker
# refuses a parent of another build (src/isolate/worker.c), so a stale chidori-worker fails loudly.
$(OUT)/gen/build_id.c: $(LIB_OBJS) $(QJS_OBJS)
	@mkdir -p $(dir $@)
	@echo "const char chidori_build_id[] = \"$$(cat $^ | sha256sum | cut -c1-32)\";" > $@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(OBJ)/gen/build_id.o: $(OUT)/gen/build_id.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/chidori: $(OBJ)/src/cli/main.o $(LIB_OBJS) $(QJS_OBJS) $(OBJ)/gen/build_id.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(OUT)/libchidori.a: $(LIB_OBJS) $(QJS_OBJS)
	@rm -f $@
	ar rcs $@ $^

# It links ICU in (Intl): a static binary cannot dlopen, and a confined worker could not open it.
ICU_STATIC := -licui18n -licuuc -licudata
# Its entry point is tools/worker_entry.c's: the pages the start-up relocates are copied in one call.
# That code runs before the C library has a thread pointer: never with a stack protector.
# worker-entry-check (below) is linked with the same flags, so that it tests what the worker is.
WORKER_LINK := -static-pie -Wl,-z,pack-relative-relocs -Wl,-e,worker_entry
$(OBJ)/tools/worker_entry.o: CFLAGS += -fno-stack-protector
$(OUT)/chidori-worker: $(OBJ)/tools/worker_main.o $(OBJ)/tools/worker_entry.o $(OBJ)/tools/intl_icu_static.o $(OUT)/libchidori.a $(OBJ)/gen/build_id.o
	$(CC) $(LDFLAGS) $(WORKER_LINK) -o $@ $(OBJ)/tools/worker_main.o $(OBJ)/tools/worker_entry.o $(OBJ)/tools/intl_icu_static.o $(OBJ)/gen/build_id.o $(OUT)/libchidori.a $(ICU_STATIC) -lstdc++ -lm -lpthread -ldl

$(OUT)/unit_tests: $(UNIT_OBJS) $(LIB_OBJS) $(QJS_OBJS) $(OBJ)/gen/build_id.o
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

unit: setup $(OUT)/unit_tests

# A test binary linked as chidori-worker is, for the check that its entry point copies the
# relocated pages before start-up (tests/cases_isolation.py).
$(OUT)/worker-entry-check: $(OBJ)/tools/worker_entry_check.o $(OBJ)/tools/worker_entry.o
	$(CC) $(LDFLAGS) $(WORKER_LINK) -o $@ $^

# The TypeScript eraser as a command, for the oracle test (tests/ts) and for looking at output.
$(OUT)/ts-strip: $(OBJ)/tools/ts_strip_main.o $(OBJ)/src/engine/ts_strip.o $(OBJ)/src/engine/ts_lex.o
	$(CC) $(LDFLAGS) -o $@ $^

# Everything a test run needs for one variant.
test-bins: setup $(OUT)/chidori $(WORKER) $(if $(WORKER),$(OUT)/worker-entry-check) $(OUT)/unit_tests $(OUT)/ts-strip $(OUT)/licenses/temporal-polyfill.LICENSE

demo: build
	build/chidori run examples/hello.js -i '{"name": "Ada"}'

test:
	@$(MAKE) --no-print-directory VARIANT=release test-bins
	@$(MAKE) --no-print-directory VARIANT=asan test-bins
	@scripts/test-deps.sh
	@python3 tests/run.py --variant release=build --variant asan=build/asan

asan:
	@$(MAKE) --no-print-directory VARIANT=asan test-bins
	@scripts/test-deps.sh
	@python3 tests/run.py --variant asan=build/asan

bench: build
	@bench/startup

# 10,000 sessions at concurrency 64 against one server (zero errors, RSS flat after warm-up),
# then the same with a kill -9 of the server halfway (nothing lost, nothing performed twice).
# About 2 + 5 minutes on two cores; the test command runs small versions (tests/cases_load.py).
LOAD_SESSIONS ?= 10000
LOAD_CONCURRENCY ?= 64
load: build
	python3 tests/load/load.py load --sessions $(LOAD_SESSIONS) --concurrency $(LOAD_CONCURRENCY)
	python3 tests/load/load.py fault --sessions $(LOAD_SESSIONS) --concurrency $(LOAD_CONCURRENCY)

# test262 (a checkout at TEST262) through `chidori eval --file` and through bare qjs built from the same
# patched source, side by side: both tables and the chidori-only failures (tests/conformance/run262.py;
# not part of `make test`). CONFORMANCE_JOBS (default 2); CONFORMANCE_ARGS, e.g. --intl402 or
# --json FILE.
CONFORMANCE_JOBS ?= 2
conformance: build
	@if [ -z "$(TEST262)" ]; then echo "make conformance needs TEST262=DIR (a test262 checkout)" >&2; exit 2; fi
	@source bench/lib.sh && bench_qjs
	nice -n 10 python3 tests/conformance/run262.py --test262 "$(TEST262)" -j $(CONFORMANCE_JOBS) $(CONFORMANCE_ARGS)

# Node's own test files for path, events, buffer, util, url, querystring, string_decoder and stream,
# read from a checkout of Node's repository at NODE_SRC (nothing of it is kept here), run under Node
# and under `chidori run` and counted per top-level check (tools/node-tests/run.py; not part of
# `make test`, whose tests/cases_node_tests.py runs the tool on a fixture of our own).
# NODE_TESTS_JOBS (default 2); NODE_TESTS_ARGS, e.g. --differences, --json FILE or --filter NAME.
NODE_TESTS_JOBS ?= 2
node-tests: build
	@if [ -z "$(NODE_SRC)" ]; then echo "make node-tests needs NODE_SRC=DIR (a checkout of Node's repository)" >&2; exit 2; fi
	nice -n 10 python3 tools/node-tests/run.py --node-src "$(NODE_SRC)" -j $(NODE_TESTS_JOBS) $(NODE_TESTS_ARGS)

# libFuzzer targets (tests/fuzz/fuzz_*.c), each linked with the whole trusted side.
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,$(OUT)/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
$(OUT)/fuzz_%: $(OBJ)/tests/fuzz/fuzz_%.o $(LIB_OBJS) $(QJS_OBJS) $(OBJ)/gen/build_id.o
	$(CC) $(FUZZ_LDFLAGS) -o $@ $^ $(LDLIBS)

fuzz-bins: setup $(FUZZ_TARGETS)

# Runs every fuzz target for FUZZ_SECONDS (default 60) and reports executions and findings.
# FUZZ_ONLY, FUZZ_TIMEOUT, FUZZ_TEST262_DIR, FUZZ_TEST262_MAX: see scripts/fuzz.sh.
fuzz:
	@$(MAKE) --no-print-directory VARIANT=fuzz fuzz-bins
	@scripts/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
