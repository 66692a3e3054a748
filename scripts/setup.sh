#!/usr/bin/env bash
# One command from a fresh Debian 12 (as root): system packages, a virtualenv with bookbuilder,
# then the sample book built into build/ (EPUB and PDF).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
if command -v apt-get >/dev/null; then
  apt-get update -qq
  # CJK font for the PDF, a JRE for EPUBCheck, Pango for WeasyPrint, venv for the virtualenv,
  # calibre for the AZW3 (ebook-convert) and for reading it back (ebook-meta), Chromium and its
  # WebDriver for the test of `serve` in a real browser.
  apt-get install -y -qq --no-install-recommends \
    fonts-noto-cjk default-jre-headless libpango-1.0-0 libpangoft2-1.0-0 \
    python3 python3-venv python3-pip poppler-utils make chromium chromium-driver calibre >/dev/null
  command -v npm >/dev/null || apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
# Ace by DAISY (accessibility checker) with its Puppeteer runner and Debian's Chromium: no browser
# or Electron download (they cannot be fetched here, and Chromium comes from apt).
if command -v npm >/dev/null && [ ! -x .tools/node_modules/.bin/ace-puppeteer ]; then
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 PUPPETEER_SKIP_DOWNLOAD=1 \
    npm install --silent --no-audit --no-fund --prefix .tools @daisy/ace >/dev/null
fi
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[test,cluster]'
# An editable install leaves our modules uncompiled, and where PYTHONDONTWRITEBYTECODE is set (as on
# this workplace's machines) every run would compile them again: 40–50 ms of each command's start.
.venv/bin/python -m compileall -q bookbuilder
.venv/bin/bookbuilder build .
