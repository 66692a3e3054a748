"""A fixture on each side of the thresholds that decide what cleaning removes and what is a
heading (issue 45): each row names its constant, and probes the rule at the constant and one
step past it, where the answer must change. A constant moved, or a rule that stops reading it,
fails its row.

One module per stage of the reading, each with its rows (ROWS) and their probes: test_cleaning
(normalize's line judges: debris, junk, clean, forms), test_repeats (what repeats through the
chapters), test_layout (joining lines, a chapter's layout, join spaces), test_headings (heading
lines, the choice among candidates, headings the rules missed, pastes), test_sections (parts,
outdented and couplet titles, page headers, contents, meta). rows.py holds the row's record and
the helpers several of them share.

Every upper-case numeric constant of normalize/ and structure/ has a row (a tuple's bounds one row
each, or its lower bound where the upper is another constant's). A constant for which no input
lets the limit alone decide (another rule decides first) would be named in test_named.NO_FIXTURE
with why; test_every_threshold_is_named fails on a new constant in neither, and
test_no_bare_number_decides on a number other than 0, 1, 2, -1 written in a comparison there (a
threshold with no name)."""
