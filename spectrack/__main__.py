from spectrack.cli import main

main()
