from rulebook.cli import run

run()
