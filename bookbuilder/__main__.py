from bookbuilder.cli import main

main()
