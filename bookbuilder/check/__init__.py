"""Stage 5, check: the source linted (`source_lint`), the built files judged by real tools
(`judges`: EPUBCheck and the PDF read back; `ace`; `kindle`), all of them run at once by `gate`,
and every diagnostic reported for people, scripts and CI (`report`)."""
