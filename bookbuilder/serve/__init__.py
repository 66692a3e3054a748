"""`bookbuilder serve`: the book as web pages on this machine (`server`: the HTTP server and the
watcher that rebuilds), the pages themselves (`pages`), the workbench's correction forms and the
one write endpoint (`workbench`, `corrections`), and the OPDS shelf (`opds`)."""
