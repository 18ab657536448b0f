# Carthage: two commands for a newcomer.
#   make run   — install web deps (lock file), build the web app and the release server,
#                migrate and seed ./data/carthage.db, serve on http://127.0.0.1:8080 (BIND overrides).
#   make test  — every test: Rust (SQLite; PostgreSQL too when TEST_DATABASE_URL is set),
#                web checks and unit tests, the OpenAPI contract against the real server
#                (schemathesis), browser tests against the real server.
SHELL := /bin/bash
CARGO ?= cargo
BIND ?= 127.0.0.1:8080
export BIND

.PHONY: run test test-rust test-web test-contract test-e2e web-deps web-build server-release openapi bench bench-reload faults

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

web-deps: web/node_modules/.package-lock.json

web-build: web-deps
	cd web && npm run build

server-release:
	$(CARGO) build --release -p server

run: web-build server-release
	@mkdir -p data
	CARTHAGE_MODE=demo DATABASE_URL=sqlite://data/carthage.db ./target/release/carthage migrate
	CARTHAGE_MODE=demo DATABASE_URL=sqlite://data/carthage.db ./target/release/carthage seed > /dev/null
	CARTHAGE_MODE=demo DATABASE_URL=sqlite://data/carthage.db exec ./target/release/carthage serve

test: test-rust test-web test-contract test-e2e

test-rust:
	$(CARGO) test --workspace

# Web: generated API types up to date, unit tests. (The first-load budget of /home, 150 KiB of
# JavaScript as Chromium transfers it, response headers included, needs a server: a browser test of test-e2e,
# web/e2e/load.mjs; by hand: cd web && npm run size -- http://127.0.0.1:8080.)
test-web: web-build
	cd web && for f in e2e/*.mjs scripts/*.mjs; do node --check "$$f" || exit 1; done
	cd web && npm run check:api && npm test

# The contract: a bounded, seeded schemathesis run over every operation of docs/openapi.json
# (pinned, installed into .venv-st/ on first use): no 5xx, every reply as documented.
test-contract:
	$(CARGO) build -p server
	bash scripts/contract.sh ./target/debug/carthage

test-e2e: web-build
	$(CARGO) build -p server
	bash scripts/e2e.sh ./target/debug/carthage

# Regenerate the committed OpenAPI document (a test fails when it is stale).
openapi:
	$(CARGO) run -q -p server -- openapi > docs/openapi.json

bench: server-release
	bash benches/run.sh

# Time to balance after a reload of a signed-in page, in Chromium, against the release server.
bench-reload: web-build server-release
	bash benches/reload.sh

# Fault tests (issue 21 §4, docs/PERFORMANCE.md "Fault tests"): kill -9 under load on SQLite and
# on a 3-instance PostgreSQL cluster, a PostgreSQL restart (a private server on port 55432), a
# full SQLite disk (a loop-mounted ext4: root). FAULTS="kill-sqlite disk-full" runs a few.
faults:
	$(CARGO) build -p server --bin carthage
	CARTHAGE_BIN=./target/debug/carthage bash tests/faults/run.sh $(FAULTS)
