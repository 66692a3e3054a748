"""Stage 2, structure (the reading stage): the files in reading order, each file's lines →
sections → headings → chapters and volumes, and the book's title and author.

`file_order` finds the chapter files and orders them (with `contents_file`, a folder's own
目录.txt); `sections` splits a decoded file at its headings, running the heading passes in order;
`headings` offers every line to the candidate rules, `heading_choice` chooses among them by the
file's evidence (with `own_contents`, `outdent`, `few_headings`, `couplets`, `pastes`); `fixes`
applies book.toml's corrections; `chapters` turns sections into chapters and volumes (with
`file_titles`); `meta` reads the title, author and blurb a download gives."""
