EXE ?= rookery

# OpenBench builds with `make EXE=<path>`, then runs `<path> bench`.
.PHONY: all clean
all:
	cargo build --release
	mkdir -p "$(dir $(EXE))"
	cp target/release/rookery "$(EXE)"

clean:
	cargo clean
