from bookbuilder.cli import main

main(prog_name="bookbuilder")
