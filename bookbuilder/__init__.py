"""bookbuilder: raw Chinese web-novel chapters in, a clean EPUB 3 and PDF out."""

__version__ = "0.1.0"
