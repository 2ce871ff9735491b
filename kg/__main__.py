"""``python -m kg``: the same command line as the ``kg`` script."""
import sys

try:
    from kg.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line is still being imported
    sys.stderr.write("interrupted\n")
    sys.exit(130)

if __name__ == "__main__":
    main()
