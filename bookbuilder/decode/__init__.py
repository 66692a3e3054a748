"""Stage 1, decode: a raw file's bytes → clean Unicode text, or an error naming the file.

`text` tries the BOM, strict UTF-8 and UTF-16, then the legacy codec whose result reads as Chinese
(`plausibility`), and survives a few damaged bytes."""
