from compiler.cli import run

run()
