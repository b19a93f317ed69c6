# Two commands on a fresh machine: `make play` and `make test`.
# make play needs only Python 3 and its standard library. Everything else host-side lives in
# .venv, installed on first use from requirements/*.txt, each target only the part it uses
# (requirements.txt is all of them: make venv).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# (with the .pth file's version below: a venv made before it gets it)
REQSUM := $(shell (cat requirements/*.txt; echo firmware-pth-1) | cksum | cut -d' ' -f1)
# $(call needs,NAME): the stamp of requirements/NAME.txt installed into .venv
needs   = $(VENV)/.installed-$(1)-$(REQSUM)

.PHONY: test bench play flash firmware firmware-deps images overlay wiring stl package-json lint clean venv system-deps \
        web web-build web-images web-deps soak flash-circuitpython worksheets mutate dist

venv: $(call needs,test)

# firmware/ is on the path of every program of the project, set here and nowhere else:
# .venv's Python gets it from a .pth file (a path relative to the venv's site-packages, so
# that it names this checkout's firmware/ even where several checkouts share one venv),
# the two commands that use a bare python3 (make play, make firmware) from PYTHONPATH, and
# pytest from pyproject.toml. Importing a tool sets nothing up (docs/tools.md).
BARE   := PYTHONPATH=firmware $(PYTHON)
FIRMWARE_PTH = import os, sysconfig; d = sysconfig.get_paths()["purelib"]; \
  open(os.path.join(d, "microrobots-firmware.pth"), "w").write(os.path.relpath("firmware", d) + "\n")

$(VENV)/.installed-%-$(REQSUM): requirements/%.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -c '$(FIRMWARE_PTH)'
	$(PY) -m pip install -q --disable-pip-version-check -r $<
	@rm -f $(VENV)/.installed-$*-*
	@touch $@

# Optional Debian tools some tests use (tmux for the terminal simulator, openscad for the
# enclosure, chromium for the web page, mtools for CircuitPython's drive image). Installed
# where we are root and apt works; the tests skip cleanly otherwise.
# Also what the translations need (docs/translating.md): Korean's font for the worksheets
# (fonts-nanum) and pdftotext to check their text (poppler-utils); a path or a command each.
SYSTEM_TOOLS := tmux openscad chromium mtools
SYSTEM_FILES := /usr/share/fonts/truetype/nanum/NanumGothic.ttf:fonts-nanum pdftotext:poppler-utils
system-deps:
	@missing=""; for t in $(SYSTEM_TOOLS); do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
	for f in $(SYSTEM_FILES); do what=$${f%%:*}; deb=$${f##*:}; \
	  { test -e "$$what" || command -v "$$what" >/dev/null; } || missing="$$missing $$deb"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing$$missing (apt)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing) >/dev/null 2>&1 \
	    || echo "note: could not install$$missing; the tests that need them will be skipped"; \
	fi

# The web page's one npm dependency (MicroPython's WebAssembly port), from its lockfile.
WEB_DIR := tools/sim/web
WEB_DEPS := $(WEB_DIR)/node_modules/.package-lock.json
web-deps: $(WEB_DEPS)
$(WEB_DEPS): $(WEB_DIR)/package-lock.json
	@if command -v npm >/dev/null; then cd $(WEB_DIR) && npm ci --no-audit --no-fund --loglevel=error; \
	else echo "note: npm is missing; the web page cannot be built and its tests will be skipped"; fi

# The Micro Robots image (MicroPython with the firmware frozen in, tools/picoimage): its
# compiler from Debian where we are root, the sources from ../shared/pico-src/ (or PICO_SRC,
# or clones of the pinned versions). Built once per change of its inputs, cached.
FIRMWARE_DEBS := gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib \
                 cmake build-essential libusb-1.0-0-dev pkg-config
firmware-deps:
	@if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v cmake >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing the ARM compiler for the Pico image (apt)"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	      --no-install-recommends $(FIRMWARE_DEBS)) >/dev/null 2>&1 \
	      || echo "note: could not install the ARM compiler; the image's tests will be skipped"; \
	  fi; \
	fi

firmware: firmware-deps
	$(BARE) -m tools.picoimage $(if $(BOARD),--board $(BOARD))

# The suite on TEST_JOBS workers (pytest-xdist; one per core: two a core, tried at stop 43,
# left the terminal's and the page's timed tours, the emulated boards in the background
# and chromium fighting for the cores, and three tests timed out in CI), a test file on
# one worker (its module fixtures: a browser, a scratch checkout, the enclosure's renders),
# the files in conftest.py's order (the longest first, the emulated boards' last), the
# emulated boards beside them (host_tests/board_runs.py, cached by their inputs);
# the slowest ten tests and the skips with their reasons at the end. Bytecode is cached
# even where PYTHONDONTWRITEBYTECODE is set: without it every worker, board run and tool
# the tests start compiles (and pytest rewrites) every module it imports again.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: $(call needs,test) system-deps web-deps firmware-deps
	$(PY) -m tools.picoimage --board RPI_PICO --if-possible
	$(BIN)/ruff check --quiet firmware tools host_tests
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q -rs -n $(TEST_JOBS) --dist loadfile \
	  --no-loadscope-reorder --durations=10 host_tests

bench: $(call needs,bench)
	$(PY) -m tools.bench

# Mutation testing of the rules and the game modes (docs/testing.md): not part of make test.
# SCOPE=rules or modes (default both); incremental, build/mutate/ keeps the verdicts;
# ARGS=--fresh starts over. The report: build/mutation-report.md.
mutate: $(call needs,mutate)
	$(PY) -m tools.mutate $(if $(SCOPE),--scope $(SCOPE)) $(ARGS)

# Hours of random button mashing with power cycles, on CPython and in MicroPython (the
# firmware as flashed, 190 KB heap); make test plays half an hour. SOAK_HOURS per run.
SOAK_HOURS ?= 4
SOAK_SEEDS ?= 1,2,3,4
soak: $(call needs,device)
	$(PY) -m tools.sim.soak --hours $(SOAK_HOURS) --seeds $(SOAK_SEEDS) --runtime both --jobs 2 $(ARGS)

# The standard library only: nothing to install (--runtime micropython needs make venv).
play:
	$(BARE) -m tools.sim $(ARGS)

# The Ricochet table page and its solver in one process (docs/ricochet.md): open the address
# it prints. PORT=... to choose the port, HOST=0.0.0.0 to let a tablet on the network in.
# First the compiled search is built ahead of time when it is not (for fresh commands too).
ricochet: $(call needs,ricochet)
	$(PY) -m tools.ricochet.aot --if-needed
	$(PY) -m tools.ricochet serve $(if $(PORT),--port $(PORT)) $(if $(HOST),--host $(HOST)) $(ARGS)

flash: $(call needs,device)
	$(PY) -m tools.flash $(if $(PORT),--port $(PORT)) $(if $(DRY_RUN),--dry-run) $(ARGS)

# A Pico running CircuitPython: its CIRCUITPY drive (found, or DRIVE=...) gets the firmware,
# lib/neopixel.py, code.py and boot.py (docs/circuitpython.md). IMAGE=x.img: a drive image.
flash-circuitpython: $(call needs,circuitpython)
	$(PY) -m tools.circuitpy $(if $(IMAGE),--image $(IMAGE),$(if $(DRIVE),--drive $(DRIVE))) $(if $(DRY_RUN),--dry-run) $(ARGS)

images: $(call needs,draw)
	$(PY) -m tools.draw.images

# The handheld in a web page (tools/sim/web/): build/web/ is a static site for any host.
web-build: $(call needs,device) web-deps
	$(PY) -m tools.sim.web.build

web: $(call needs,device) web-deps
	$(PY) -m tools.sim.web.build --serve $(if $(WEB_PORT),--port $(WEB_PORT))

# Screenshots of the page for the README, from scripted replays (needs chromium).
web-images: $(call needs,web) web-deps
	$(PY) -m tools.sim.web.shots

# Printable tile films for the LED grid (hardware/README.md), PDF and SVG.
overlay: $(call needs,draw)
	mkdir -p build && $(PY) -m tools.draw.overlay -o build/films.pdf && $(PY) -m tools.draw.overlay -o build/films.svg

# Classroom worksheets (docs/classroom.md): SEED=N is a handheld's lesson N and the web page's ?seed=N, PUZZLE=K its Kth.
worksheets: $(call needs,draw)
	mkdir -p build && $(PY) -m tools.worksheet --seed $(or $(SEED),1) --puzzle $(or $(PUZZLE),1) -o build/worksheets.pdf

# The wiring diagram and pin table, regenerated from the firmware's default config.
wiring: $(call needs,draw)
	$(PY) -m tools.draw.wiring

# The enclosure's printable parts.
stl: system-deps
	mkdir -p build && for p in base grid lid plug; do openscad -o build/$$p.stl -D "part=\"$$p\"" hardware/enclosure.scad; done

# Everything a person downloads (tools/dist.py): the images for the Pico and the Pico 2, the
# page as a static site and its .zip, worksheets, films, the enclosure's STL files and
# SHA256SUMS, into dist/. Offline: the image from ../shared/pico-src/ (cached), npm's cache.
dist: $(call needs,draw) $(call needs,device) system-deps web-deps firmware-deps
	$(PY) -m tools.dist $(ARGS)

# package.json lists every firmware file for mip; regenerate it after adding or removing one.
package-json: $(call needs,device)
	$(PY) -m tools.flash --write-package-json

lint: $(call needs,test)
	$(BIN)/ruff check firmware tools host_tests
	$(PY) -m tools.draw.wiring --check

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
