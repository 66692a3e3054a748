# `make release`: what .github/workflows/release.yml runs on a tag, runnable here.
#   make release                    # the book in this folder
#   make release BOOK=path/to/book  # another book project
#   make release STRICT=            # gate on errors only (the sample book has a warning: 001 is missing)
BOOK ?= .
STRICT ?= --strict
CHECK_FORMAT ?= text
BOOKBUILDER ?= bookbuilder

.PHONY: release test
release:
	$(BOOKBUILDER) build $(BOOK)
	$(BOOKBUILDER) check $(BOOK) $(STRICT) --outputs --format $(CHECK_FORMAT)

test:
	python -m pytest
