"""Stage 3, normalize: typography and layout made right, and site debris removed with the
evidence that decided it, never touching prose.

`rules` holds the rule table (`RULES`, declared once, in order) and the `Normalizer` that runs it
on each chapter and on the whole book; the rules themselves are small functions in `chars` (text),
`lines` (a chapter's blocks, with `layout`: what its line breaks mean), `junk` (listed adverts),
`clean`, `debris` and `forms` (debris told by evidence), and `repeats` (debris the whole book
repeats). This file imports nothing, so that a module of another stage can use one of these
(the heading rules use `clean`'s URL finder) without running the rest."""
