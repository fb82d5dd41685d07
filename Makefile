# The two commands (see README.md). Everything else lives in scripts/.
.PHONY: run test bench load setup
run:    ## set up, load the demo club and serve on http://127.0.0.1:8000
	@scripts/run.sh
test:   ## set up, lint, then the whole suite on SQLite and on PostgreSQL
	@scripts/test.sh
bench:  ## run the benchmarks in bench/
	@scripts/bench.sh
load:   ## the load benchmark: gunicorn + Locust, a club evening (scripts/load.sh)
	@scripts/load.sh
setup:  ## only the set-up
	@scripts/setup.sh
