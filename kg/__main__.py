"""``python -m kg`` and the ``kg`` script: the command line, with Ctrl-C handled from the first import on."""
import signal
import sys

from kg.errors import raise_interrupt


def run() -> None:
    """Install the Ctrl-C/SIGTERM handler, then import and run the command line (:func:`kg.cli.main`).

    The handler comes before the heavy imports (click, spaCy), so Ctrl-C while they load also exits 130
    with one line, not a traceback."""
    signal.signal(signal.SIGINT, raise_interrupt)
    try:
        from kg.cli import main
    except KeyboardInterrupt:  # Ctrl-C while the command line is still being imported
        sys.stderr.write("interrupted\n")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()
