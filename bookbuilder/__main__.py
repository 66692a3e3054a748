from bookbuilder.cli import run

run()
